#!/usr/bin/env bash
# PyTorch CPU anchor for one full-batch gradient-descent step of a 64-40-10
# bias-free ReLU network on the digits data (see README.md in this folder).
#
#   bash bench/deepreg/run.sh        # BENCH_ROUNDS=3 BENCH_REPS=3 BENCH_VARIANTS=dense,...
#
# 1. installs libopenblas0-pthread, python3-torch and python3-numpy from
#    Debian when missing, and prints the BLAS torch runs
#    (torch.__config__.show(), threadpoolctl);
# 2. BENCH_ROUNDS interleaved rounds, each: bench/deepreg/gobench with
#    GOMAXPROCS=1 (its lines renamed go_<variant>_1thread_…), torch_digits.py
#    (float64 and float32 on 1 and 2 threads), gobench on both cores;
#    BENCH_REPS runs of 1000 iterations each, BENCH_VARIANTS gobench's
#    variants (all four by default), BENCH_TORCH_ARGS extra arguments of
#    torch_digits.py (e.g. "--threads 1 --dtype float64": torch's 2-thread
#    runs crawl on a loaded machine, its OpenMP and OpenBLAS threads spinning);
# 3. per round, for every go_<variant>_sec_per_iter and _cpu_sec_per_iter,
#      ratio_go_<variant>_vs_torch_float64_{1,2}thread      wall-time ratio
#      cpu_ratio_go_<variant>_vs_torch_float64_{1,2}thread  CPU-time ratio
#    (process CPU time, all threads: judge by it on a busy machine), and the
#    load average before and after.
set -euo pipefail

ROUNDS="${BENCH_ROUNDS:-3}"
REPS="${BENCH_REPS:-3}"
VARIANTS="${BENCH_VARIANTS:-dense,compressed,dense_project8,compressed_project8}"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: bad BENCH_ROUNDS '$ROUNDS'" >&2; exit 2; }
[[ "$REPS" =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: bad BENCH_REPS '$REPS'" >&2; exit 2; }

# Repository root = two levels above the directory holding this script.
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. bench/lib.sh
PY="$BENCH_PY"
bench_go

# ---- 1. torch from Debian, when missing; the BLAS it runs ------------------------
bench_need libopenblas0-pthread python3-torch python3-numpy python3-threadpoolctl
bench_load start
bench_blas_torch
GOBENCH="${TMPDIR:-/tmp}/cardreg-gobench"
"$GO" build -o "$GOBENCH" ./bench/deepreg/gobench
echo "# commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $("$GO" version)"

# ratios ROUND: the ratio lines of one round's output (stdin).
ratios() {
  awk -v r="$1" '
    $1 == "torch_float64_2thread_sec_per_iter" { t2 = $2 }
    $1 == "torch_float64_1thread_sec_per_iter" { t1 = $2 }
    $1 == "torch_float64_2thread_cpu_sec_per_iter" { c2 = $2 }
    $1 == "torch_float64_1thread_cpu_sec_per_iter" { c1 = $2 }
    $1 ~ /^go_.+_cpu_sec_per_iter$/ { m++; cname[m] = substr($1, 4, length($1) - 3 - 17); cval[m] = $2; next }
    $1 ~ /^go_.+_sec_per_iter$/ { n++; name[n] = substr($1, 4, length($1) - 3 - 13); val[n] = $2 }
    END {
      for (i = 1; i <= n; i++) {
        if (t1 > 0) printf "round%d_ratio_go_%s_vs_torch_float64_1thread %.2f\n", r, name[i], val[i] / t1
        if (t2 > 0) printf "round%d_ratio_go_%s_vs_torch_float64_2thread %.2f\n", r, name[i], val[i] / t2
      }
      for (i = 1; i <= m; i++) {
        if (c1 > 0) printf "round%d_cpu_ratio_go_%s_vs_torch_float64_1thread %.2f\n", r, cname[i], cval[i] / c1
        if (c2 > 0) printf "round%d_cpu_ratio_go_%s_vs_torch_float64_2thread %.2f\n", r, cname[i], cval[i] / c2
      }
    }'
}

# ---- 2. interleaved rounds ------------------------------------------------------
for ((r = 1; r <= ROUNDS; r++)); do
  echo "# round $r/$ROUNDS"
  out="$(GOMAXPROCS=1 "$GOBENCH" -iters 1000 -reps "$REPS" -variants "$VARIANTS" |
    sed -e 's/^go_\([a-z0-9_]*\)_cpu_sec_per_iter/go_\1_1thread_cpu_sec_per_iter/; t' \
      -e 's/^go_\([a-z0-9_]*\)_sec_per_iter/go_\1_1thread_sec_per_iter/')
$("$PY" bench/deepreg/torch_digits.py --reps "$REPS" ${BENCH_TORCH_ARGS:-})
$("$GOBENCH" -iters 1000 -reps "$REPS" -variants "$VARIANTS")"
  printf '%s\n' "$out"
  printf '%s\n' "$out" | ratios "$r"
  bench_load "after round $r"
done

echo "# run.sh wall time ${SECONDS}s"
