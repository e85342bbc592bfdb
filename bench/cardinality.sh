#!/usr/bin/env bash
# The cardinality fit at large p beside R glmnet's lasso at one λ (issue 38,
# decision 3): n = 5000, p = 500 / 1000 / 2000 from bench/gendata (seed 1);
# cardreg fits penalty.Cardinality{Nu: 1} at 0.05·λ_fuse to a relative
# duality gap of 1e-6 (bench/fitbench -card-only), glmnet fits the gaussian
# lasso at 0.05·λ_max with standardize = FALSE and thresh = 1e-10
# (bench/glmnet.R nopath). The two are different problems: glmnet's time is
# the scale the target is stated against (CPU ≤ 1.2×, wall ≤ 1.0× with two
# cores). The tolerances are the ones the issue fixes for both sides:
# glmnet's thresh bounds the largest weighted coefficient change of a pass,
# which at 1e-10 leaves its objective within about 1e-9 of the optimum on
# these data; cardreg's gap bounds the objective's distance to the optimum
# by 1e-6 relative, a certificate glmnet does not give.
#
#   bash bench/cardinality.sh
#
# Environment: BENCH_PS ("500 1000 2000"), BENCH_REPS (3) timed calls per
# program and round (median, after one warm-up), BENCH_ROUNDS (3)
# interleaved rounds (cardreg, glmnet, cardreg, ...), BENCH_BASE a second
# fitbench binary (an older commit's, go build -o) timed in the same rounds
# before cardreg's, for before/after figures. Times are taken in-process by
# each program (wall, and the process's CPU time: user + sys of all
# threads), so start-up and CSV parsing are not counted. Ratios are
# cardreg/glmnet per round; the last line of each size is their median.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. bench/lib.sh
bench_go
bench_need libopenblas0-pthread r-cran-glmnet
PS="${BENCH_PS:-500 1000 2000}"
REPS="${BENCH_REPS:-3}"
ROUNDS="${BENCH_ROUNDS:-3}"
BASE="${BENCH_BASE:-}"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "cardinality.sh: bad BENCH_ROUNDS '$ROUNDS'" >&2; exit 2; }
bench_load start
bench_blas_r
TMP="$(mktemp -d "${TMPDIR:-/tmp}/cardreg-card.XXXXXX")"
trap 'rm -rf -- "$TMP"' EXIT
"$GO" build -o "$TMP/fitbench" ./bench/fitbench
echo "# commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (modified)'), $("$GO" version)"

value() { awk -v k="$1" '$1 == k { print $2; exit }' "$2" 2>/dev/null || true; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b + 0 > 0) printf "%.2f", a / b; else printf "-" }'; }
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

printf "%-6s %-6s %-8s %9s %9s %9s %9s %6s %6s  %s\n" p round who wall cpu glm_wall glm_cpu r_wall r_cpu "gap / iterations"
for P in $PS; do
  DATA="$TMP/d$P.csv"
  "$GO" run ./bench/gendata -n 5000 -p "$P" -seed 1 -out "$DATA" 2>/dev/null
  rw=() rc=() bw=() bc=()
  for ((r = 1; r <= ROUNDS; r++)); do
    if [[ -n "$BASE" ]]; then
      "$BASE" -data "$DATA" -lambda-glmnet 1 -reps "$REPS" -card-only >"$TMP/b.txt" 2>/dev/null
    fi
    "$TMP/fitbench" -data "$DATA" -lambda-glmnet 1 -reps "$REPS" -card-only >"$TMP/c.txt" 2>/dev/null
    Rscript bench/glmnet.R "$DATA" 1e-10 "$REPS" nopath >"$TMP/g.txt"
    gw="$(value glmnet_one_lambda_seconds "$TMP/g.txt")"; gc="$(value glmnet_one_lambda_cpu_seconds "$TMP/g.txt")"
    [[ -n "$gw" && -n "$gc" ]] || { echo "cardinality.sh: R glmnet reported no time (bench/glmnet.R $DATA)" >&2; exit 1; }
    for who in base cardreg; do
      f="$TMP/c.txt"; [[ "$who" == base ]] && f="$TMP/b.txt"
      [[ "$who" == base && -z "$BASE" ]] && continue
      w="$(value cardreg_cardinality_mid_seconds "$f")"; c="$(value cardreg_cardinality_mid_cpu_seconds "$f")"
      printf "%-6s %-6s %-8s %9s %9s %9s %9s %6s %6s  %s / %s\n" "$P" "$r" "$who" "$w" "$c" "$gw" "$gc" \
        "$(ratio "$w" "$gw")" "$(ratio "$c" "$gc")" \
        "$(value cardreg_cardinality_mid_gap "$f")" "$(value cardreg_cardinality_mid_iterations "$f")"
      if [[ "$who" == base ]]; then bw+=("$(ratio "$w" "$gw")"); bc+=("$(ratio "$c" "$gc")")
      else rw+=("$(ratio "$w" "$gw")"); rc+=("$(ratio "$c" "$gc")"); fi
    done
  done
  if [[ -n "$BASE" ]]; then
    echo "p=$P base    median ratio: wall $(echo "${bw[*]}" | median), CPU $(echo "${bc[*]}" | median)"
  fi
  echo "p=$P cardreg median ratio: wall $(echo "${rw[*]}" | median), CPU $(echo "${rc[*]}" | median)  (targets: CPU <= 1.2, wall <= 1.0)"
  rm -f "$DATA"
  bench_load "after p=$P"
done
