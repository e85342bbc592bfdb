#!/usr/bin/env bash
# Anchor timings for binary / small-cardinality matrix products:
# M4RI (GF(2), bench/matmul/m4ri_mul.c) and NumPy/BLAS (bench/matmul/numpy_matmul.py),
# plus, when it exists, cardreg's own bench/matmulbench and a ratio table.
#
#   bash bench/matmul/run.sh
#
# Environment: BENCH_MATMUL_SIZES ("2048 4096"), BENCH_MATMUL_REPS (5),
# BENCH_MATMUL_SEED (1), BENCH_ROUNDS (3) interleaved rounds (M4RI, NumPy,
# cardreg, then again), CC (gcc). Every program times only the
# multiplication call in-process: median of REPS runs after one warm-up, by
# wall time (NAME) and by the process's CPU time (NAME_cpu, all threads).
# The ratio table of each round gives both ratios; on a busy machine judge by
# the CPU ratio (the load average is printed before and after each round).
set -euo pipefail

SIZES="${BENCH_MATMUL_SIZES:-2048 4096}"
REPS="${BENCH_MATMUL_REPS:-5}"
SEED="${BENCH_MATMUL_SEED:-1}"
ROUNDS="${BENCH_ROUNDS:-3}"
CC="${CC:-gcc}"

# Repository root = two levels above the directory holding this script.
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. bench/lib.sh
PY="$BENCH_PY"

for v in $SIZES; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: bad size '$v' in BENCH_MATMUL_SIZES" >&2; exit 1; }
done
[[ "$REPS" =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: bad BENCH_MATMUL_REPS '$REPS'" >&2; exit 1; }
[[ "$SEED" =~ ^[0-9]+$ ]] || { echo "run.sh: bad BENCH_MATMUL_SEED '$SEED'" >&2; exit 1; }
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: bad BENCH_ROUNDS '$ROUNDS'" >&2; exit 1; }

# ---- 1. dependencies from Debian, when missing; the BLAS NumPy runs ---------
# Without libopenblas0-pthread NumPy runs the reference BLAS.
bench_need libopenblas0-pthread libm4ri-dev pkg-config python3-numpy python3-threadpoolctl
command -v "$CC" >/dev/null 2>&1 || { echo "run.sh: C compiler '$CC' not found" >&2; exit 1; }
bench_load start
bench_blas_numpy

# ---- 2. build the M4RI program -------------------------------------------
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
OUT="$TMP/lines.txt"
: >"$OUT"

# shellcheck disable=SC2046  # pkg-config output must be word-split
"$CC" -O2 -o "$TMP/m4ri_mul" bench/matmul/m4ri_mul.c $(pkg-config --cflags --libs m4ri)

# Run a program, echo its lines and keep them for the table.
run() { "$@" | tee -a "$OUT"; }

echo "# m4ri $(pkg-config --modversion m4ri), $("$CC" --version | head -n1), flags: -O2 $(pkg-config --cflags m4ri)"
echo "# sizes: $SIZES, reps: $REPS (median after one warm-up), seed: $SEED"

# ---- 3. correctness cross-check at a small, non-multiple-of-64 size --------
"$TMP/m4ri_mul" 70 1 "$SEED" --dump "$TMP/dump70.txt" >/dev/null
run "$PY" bench/matmul/check_dump.py "$TMP/dump70.txt"

# ---- 4. interleaved rounds: M4RI, NumPy, cardreg (bench/matmulbench) ----------
# matmulbench prints cardreg_binary_mod2_N, cardreg_binary_counts_N and
# cardreg_letter lines; the table below pairs them with the anchors.
bench_go
"$GO" build -o "$TMP/matmulbench" ./bench/matmulbench
echo "# commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $("$GO" version)"
for ((r = 1; r <= ROUNDS; r++)); do
  echo "# round $r/$ROUNDS"
  OUT="$TMP/lines$r.txt"
  : >"$OUT"
  for n in $SIZES; do
    run "$TMP/m4ri_mul" "$n" "$REPS" "$SEED"
  done
  first=1
  for n in $SIZES; do
    if ((first)); then
      run "$PY" bench/matmul/numpy_matmul.py --n "$n" --reps "$REPS" --seed "$SEED"
      first=0
    else
      run "$PY" bench/matmul/numpy_matmul.py --n "$n" --reps "$REPS" --seed "$SEED" --no-letter | grep -v '^#'
    fi
  done
  run "$TMP/matmulbench" -reps "$REPS" -sizes "${SIZES// /,}"
  bench_load "after round $r"
done

# ---- 5. ratio tables: cardreg / anchor, for pairs where both names appear ---
for ((r = 1; r <= ROUNDS; r++)); do
  echo
  echo "== round $r/$ROUNDS: seconds, wall then CPU (NAME_cpu), ratio = cardreg / anchor =="
  awk '
    NF == 2 && $1 !~ /^#/ && $2 ~ /^[-+0-9.eE]+$/ { v[$1] = $2 + 0; order[++k] = $1 }
    function ratio(x, y) { return ((x in v) && (y in v) && v[y] > 0) ? sprintf("%.2f", v[x] / v[y]) : "n/a" }
    function row(a, b) {
      if ((a in v) && (b in v) && !(a in done)) {
        done[a] = 1
        if (!hdr) {
          printf "%-32s %-22s %11s %11s %6s %11s %11s %6s\n", "cardreg", "anchor", "cardreg_s", "anchor_s", "ratio", "cardreg_cpu", "anchor_cpu", "ratio"
          hdr = 1
        }
        printf "%-32s %-22s %11.6g %11.6g %6s %11.6g %11.6g %6s\n", a, b, v[a], v[b], ratio(a, b), v[a "_cpu"], v[b "_cpu"], ratio(a "_cpu", b "_cpu")
      }
    }
    END {
      for (i = 1; i <= k; i++) {
        name = order[i]
        if (name ~ /^cardreg_binary_mod2_[0-9]+$/)         { n = name; sub(/^cardreg_binary_mod2_/, "", n);   row(name, "m4ri_mul_" n) }
        if (name ~ /^cardreg_binary_mod2_1thread_[0-9]+$/) { n = name; sub(/^cardreg_binary_mod2_1thread_/, "", n); row(name, "m4ri_mul_" n) }
        if (name ~ /^cardreg_binary_counts_[0-9]+$/)       { n = name; sub(/^cardreg_binary_counts_/, "", n); row(name, "numpy_binary_f64_" n) }
        if (name == "cardreg_letter") row(name, "numpy_letter_f64")
      }
      if (!hdr) print "# ratio table: no cardreg/anchor pairs found"
    }
  ' "$TMP/lines$r.txt"
done
