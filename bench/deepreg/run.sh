#!/usr/bin/env bash
# PyTorch CPU anchor for one full-batch gradient-descent step of a 64-40-10
# bias-free ReLU network on the digits data (see README.md in this folder).
#
#   bash bench/deepreg/run.sh
#
# 1. installs python3-torch (+ python3-numpy) from Debian only if
#    `import torch` fails;
# 2. runs torch_digits.py with its defaults (float64/float32 x 1/2 threads,
#    1000 iterations, lr 0.1, 3 reps, seed 1) and prints its lines;
# 3. if bench/deepreg/gobench exists, builds it and runs
#    `gobench -iters 1000 -reps 3` on both cores and with GOMAXPROCS=1 (its
#    lines renamed go_<variant>_1thread_…), prints its lines and,
#    for every `go_<variant>_sec_per_iter V` line, prints
#      ratio_go_<variant>_vs_torch_float64_2thread  go/torch (2 decimals)
#      ratio_go_<variant>_vs_torch_float64_1thread  go/torch (2 decimals)
set -euo pipefail

PY=/usr/bin/python3

# Repository root = two levels above the directory holding this script.
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# ---- 1. torch from Debian, only when missing --------------------------------
if "$PY" -c 'import torch, numpy' >/dev/null 2>&1; then
  echo "# python3-torch already installed" >&2
else
  echo "# installing python3-torch python3-numpy from Debian" >&2
  SUDO=()
  if [[ "$(id -u)" -ne 0 ]]; then SUDO=(sudo); fi
  "${SUDO[@]}" apt-get update
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends python3-torch python3-numpy
  "$PY" -c 'import torch, numpy' || { echo "run.sh: torch still not importable after install" >&2; exit 1; }
fi

# ---- 2. torch anchor ----------------------------------------------------------
TORCH_OUT="$("$PY" bench/deepreg/torch_digits.py)"
printf '%s\n' "$TORCH_OUT"

# ---- 3. optional Go side --------------------------------------------------------
if [[ -d bench/deepreg/gobench ]]; then
  if command -v go >/dev/null 2>&1; then
    GO=go
  elif [[ -x /usr/local/go/bin/go ]]; then
    GO=/usr/local/go/bin/go
  else
    echo "run.sh: bench/deepreg/gobench exists but no Go toolchain found" >&2
    exit 1
  fi
  "$GO" build -o "${TMPDIR:-/tmp}/cardreg-gobench" ./bench/deepreg/gobench
  # Both cores, then one (GOMAXPROCS=1, its lines renamed go_<variant>_1thread_…),
  # against torch on one thread.
  GO_OUT="$("${TMPDIR:-/tmp}/cardreg-gobench" -iters 1000 -reps 3)
$(GOMAXPROCS=1 "${TMPDIR:-/tmp}/cardreg-gobench" -iters 1000 -reps 3 | sed 's/^go_\([a-z0-9_]*\)_sec_per_iter/go_\1_1thread_sec_per_iter/')"
  printf '%s\n' "$GO_OUT"
  printf '%s\n%s\n' "$TORCH_OUT" "$GO_OUT" | awk '
    $1 == "torch_float64_2thread_sec_per_iter" { t2 = $2 }
    $1 == "torch_float64_1thread_sec_per_iter" { t1 = $2 }
    $1 ~ /^go_.+_sec_per_iter$/ { n++; name[n] = substr($1, 4, length($1) - 3 - 13); val[n] = $2 }
    END {
      for (i = 1; i <= n; i++) {
        if (t2 > 0) printf "ratio_go_%s_vs_torch_float64_2thread %.2f\n", name[i], val[i] / t2
        if (t1 > 0) printf "ratio_go_%s_vs_torch_float64_1thread %.2f\n", name[i], val[i] / t1
      }
    }'
fi

echo "# run.sh wall time ${SECONDS}s"
