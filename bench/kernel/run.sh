#!/usr/bin/env bash
# Side by side: internal/kernel's Gram product (bench/kernel/gramgo) and
# NumPy X.T@X (bench/kernel/gram.py) on the same shapes, with 1 and 2
# threads, in BENCH_ROUNDS (3) interleaved rounds (Go 1 thread, NumPy 1
# thread, Go 2 threads, NumPy 2 threads). Each line gives the median wall
# and the median process CPU time of REPS (7) calls; GFlop/s counts n·p²
# flops in both. The load average is printed before and after each round:
# on a busy machine judge by the CPU times.
#
#   bash bench/kernel/run.sh
#
#   go test ./internal/kernel/ -run '^$' -bench 'BenchmarkGram$' -cpu 1,2   # also the portable Go and gonum kernels
#
# Debian's python3-numpy runs the reference BLAS unless libopenblas0-pthread
# is installed; the script installs it and prints the BLAS NumPy loads.
set -euo pipefail
ROUNDS="${BENCH_ROUNDS:-3}"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: bad BENCH_ROUNDS '$ROUNDS'" >&2; exit 2; }
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. bench/lib.sh
bench_go
bench_need libopenblas0-pthread python3-numpy python3-threadpoolctl
bench_load start
bench_blas_numpy
bin="$(mktemp -d)"
trap 'rm -rf -- "$bin"' EXIT
"$GO" build -o "$bin/gramgo" ./bench/kernel/gramgo
echo "# commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $("$GO" version)"
for ((r = 1; r <= ROUNDS; r++)); do
  echo "# round $r/$ROUNDS"
  for t in 1 2; do
    GOMAXPROCS=$t "$bin/gramgo" -reps "${REPS:-7}"
    OPENBLAS_NUM_THREADS=$t REPS="${REPS:-7}" "$BENCH_PY" bench/kernel/gram.py
  done
  bench_load "after round $r"
done
