#!/usr/bin/env bash
# Side by side: internal/kernel BenchmarkGram (kernel, portable Go, gonum)
# and NumPy X.T@X with 1 and 2 OpenBLAS threads, on the same shapes.
# GFlop/s counts n·p² flops in both.
#
#   bash bench/kernel/run.sh
#
# Debian's python3-numpy runs the reference BLAS unless libopenblas0-pthread
# is installed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
go test ./internal/kernel/ -run '^$' -bench 'BenchmarkGram$' -cpu 1,2 -count "${COUNT:-3}"
for t in 1 2; do OPENBLAS_NUM_THREADS=$t /usr/bin/python3 bench/kernel/gram.py; done
