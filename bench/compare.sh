#!/usr/bin/env bash
# Before/after: the Go drivers that bench/anchors.sh and bench/glm.sh time
# (bench/fitbench, bench/glmbench), built at two commits and run side by
# side on the same data, in interleaved rounds. The target is the ratio
# NEW/OLD (issue 23: "no speed lost", every ratio within 5 %), so the R
# glmnet and scikit-learn anchors are not timed here; R glmnet is only asked,
# when installed, for the two inputs those scripts take from it (anchors.sh's
# λ = 0.05·λ_max, glm.sh's tolerance = the duality gap of glmnet's one-λ fit).
#
#   bash bench/compare.sh [OLD [NEW]]      # OLD = a852ea2, NEW = HEAD (committed trees)
#   BENCH_ROUNDS=5 BENCH_ONLY='poisson/1000x5000/path' bash bench/compare.sh a852ea2 main
#
# Workloads, with the data and the driver flags of the two scripts:
#   anchors   (anchors.sh) gendata -n 5000 -p 500 -seed 1, one fitbench run
#             -data D -lambda-glmnet L -reps REPS, which times the lasso at one
#             λ, the 100-λ lasso path, cardinality at the lasso's λ and at
#             0.05·λ_fuse (and XᵀX alone, for scale); BENCH_CARD_PATH=K adds a
#             run -lasso-only -card-path K (a cardinality path of K λ, timed
#             once per run; anchors.sh does not time it);
#   FAMILY/SIZE/KIND  (glm.sh) glmbench -gen -n N -p P -family FAMILY, then
#             one: -lambda 0.01 -tol T -reps REPS; path: -path 100 -tol T
#             -reps REPS; card: -penalty cardinality -frac 0.1 -tol 1e-6 -reps
#             REPS; FAMILY binomial and poisson, SIZE 5000x500 and 1000x5000.
#
# Environment: BENCH_ROUNDS (3) rounds; in each, every workload runs with the
# old binary and the new one back to back (old first in odd rounds, new first
# in even ones, so neither side always runs first); BENCH_REPS (5) timed calls
# per run after a warm-up (each driver reports their median); BENCH_N, BENCH_P,
# BENCH_SEED (5000, 500, 1) for anchors; BENCH_FAMILIES ("binomial poisson"),
# BENCH_SIZES ("5000x500 1000x5000"), LAMBDA (0.01), THRESH (1e-7) for glm;
# BENCH_ONLY an extended regex on the workload names (anchors,
# binomial/5000x500/one, ...); BENCH_LAMBDA anchors' λ_glmnet and BENCH_GLM_TOL
# glm's tolerance when R glmnet is absent (then the λ is computed with awk, and
# the tolerance defaults to 1e-4, glm.sh's loosest; also when R runs over
# BENCH_R_TIMEOUT, 120 s); BENCH_KEEP=1 keeps the temp
# dir (sources, binaries, data, raw outputs).
#
# Output: per workload the median over the rounds of each side's median wall
# and CPU seconds, the ratios new/old of those medians by CPU and by wall
# time, the CPU ratio of every round (old and new back to back) and their
# median, and a verdict on that median (within 5 %, or not);
# then the certificates of both sides (iterations, gaps, path lengths), which
# say whether both did the same work. The load average is printed before and
# after every round: on a busy machine judge by CPU time.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. bench/lib.sh
bench_go

OLD_REF="${1:-a852ea2}"
NEW_REF="${2:-HEAD}"
ROUNDS="${BENCH_ROUNDS:-3}"
REPS="${BENCH_REPS:-5}"
N="${BENCH_N:-5000}"
P="${BENCH_P:-500}"
SEED="${BENCH_SEED:-1}"
FAMILIES="${BENCH_FAMILIES:-binomial poisson}"
SIZES="${BENCH_SIZES:-5000x500 1000x5000}"
LAMBDA="${LAMBDA:-0.01}"
THRESH="${THRESH:-1e-7}"
ONLY="${BENCH_ONLY:-}"
CARD_PATH="${BENCH_CARD_PATH:-0}"
R_TIMEOUT="${BENCH_R_TIMEOUT:-120}"
for v in ROUNDS REPS; do
  [[ "${!v}" =~ ^[1-9][0-9]*$ ]] || { echo "compare.sh: bad BENCH_$v '${!v}'" >&2; exit 2; }
done
OLD="$(git rev-parse --verify --quiet "$OLD_REF^{commit}")" || { echo "compare.sh: no commit '$OLD_REF'" >&2; exit 2; }
NEW="$(git rev-parse --verify --quiet "$NEW_REF^{commit}")" || { echo "compare.sh: no commit '$NEW_REF'" >&2; exit 2; }

TMP="$(mktemp -d "${TMPDIR:-/tmp}/cardreg-compare.XXXXXX")"
if [[ "${BENCH_KEEP:-0}" == 1 ]]; then
  echo "# keeping $TMP" >&2
else
  trap 'rm -rf -- "$TMP"' EXIT
fi
mkdir -p "$TMP/out"

# wanted NAME: whether the workload NAME is selected by BENCH_ONLY.
wanted() { [[ -z "$ONLY" || "$1" =~ $ONLY ]]; }

# value NAME FILE...: the value of the first "NAME value" line, or nothing.
value() {
  local name="$1"; shift
  awk -v k="$name" '$1 == k { print $2; exit }' "$@" 2>/dev/null || true
}

# ---- 1. build both sides from their committed trees --------------------------
# build SIDE COMMIT: the drivers (and gendata) of COMMIT in $TMP/SIDE.
build() {
  local dir="$TMP/$1"
  mkdir -p "$dir/src"
  git archive "$2" | tar -x -C "$dir/src"
  (cd "$dir/src" && "$GO" build -o "$dir/" ./bench/fitbench ./bench/glmbench ./bench/gendata)
}
echo "# old $OLD_REF = $(git rev-parse --short "$OLD"): $(git log -1 --format=%s "$OLD" | cut -c1-100)"
echo "# new $NEW_REF = $(git rev-parse --short "$NEW"): $(git log -1 --format=%s "$NEW" | cut -c1-100)"
echo "# $("$GO" version); GOMAXPROCS unset; $(nproc) CPUs"
echo "# building both sides in $TMP" >&2
build old "$OLD"
build new "$NEW"

# have_glmnet: R with glmnet installed.
have_glmnet() { command -v Rscript >/dev/null 2>&1 && Rscript -e 'quit(status = !requireNamespace("glmnet", quietly = TRUE))' >/dev/null 2>&1; }
GLMNET=0
if have_glmnet; then GLMNET=1; bench_blas_r; fi

# ---- 2. data, generated once; the inputs the scripts take from glmnet --------
# anchors_lambda DATA: anchors.sh's λ_glmnet = 0.05·max_j |x_jᵀ(y − ȳ)|/n, from
# glmnet.R when R glmnet is installed (the very value anchors.sh passes).
anchors_lambda() {
  if [[ -n "${BENCH_LAMBDA:-}" ]]; then
    echo "$BENCH_LAMBDA"
  elif [[ "$GLMNET" == 1 ]]; then
    Rscript bench/glmnet.R "$1" 1e-10 1 nopath 2>/dev/null | awk '$1 == "glmnet_lambda" { print $2; exit }'
  else
    awk -F, 'NR > 1 { n++; y = $NF; sy += y; for (j = 1; j < NF; j++) { sx[j] += $j; sxy[j] += $j * y } }
      END { m = 0; for (j in sx) { c = sxy[j] - sy * sx[j] / n; if (c < 0) c = -c; if (c > m) m = c }
            printf "%.17g\n", 0.05 * m / n }' "$1"
  fi
}

# glm_tol FAMILY DATA: glm.sh's tolerance, the duality gap of glmnet's one-λ
# coefficients (certified by the new glmbench) but never looser than 1e-4;
# BENCH_GLM_TOL (1e-4) when R glmnet is absent, fails or runs over
# BENCH_R_TIMEOUT seconds (120: glmnet's Poisson fit at 1000x5000 does not
# converge in 100000 iterations and returns an empty model, whose gap glm.sh
# would clamp to 1e-4 anyway, after many minutes).
glm_tol() {
  local gg="${BENCH_GLM_TOL:-1e-4}"
  rm -f "$TMP/coef.txt"
  if [[ "$GLMNET" == 1 ]] &&
    timeout "$R_TIMEOUT" Rscript bench/glmnet_family.R "$2" "$1" "$LAMBDA" "$THRESH" 1 "$TMP/coef.txt" >/dev/null 2>&1 &&
    [[ -s "$TMP/coef.txt" ]]; then
    gg="$("$TMP/new/glmbench" -data "$2" -family "$1" -lambda "$LAMBDA" -certify "$TMP/coef.txt" | awk '{print $2}')"
    echo "# $1 $(basename "$2" .csv): glmnet's gap $gg (old glmbench certifies" \
      "$("$TMP/old/glmbench" -data "$2" -family "$1" -lambda "$LAMBDA" -certify "$TMP/coef.txt" | awk '{print $2}'))" >&2
  elif [[ "$GLMNET" == 1 ]]; then
    echo "# $1 $(basename "$2" .csv): R glmnet failed or took over ${R_TIMEOUT}s; tolerance $gg" >&2
  fi
  awk -v g="$gg" 'BEGIN { if (g > 1e-4) g = 1e-4; print g }'
}

WORK=()          # workload names, in order
declare -A ARGS  # name → driver and flags (word-split on run)
declare -A TOLS
if wanted anchors; then
  data="$TMP/anchors.csv"
  echo "# generating n=$N p=$P seed=$SEED -> $data" >&2
  "$TMP/new/gendata" -n "$N" -p "$P" -seed "$SEED" -out "$data"
  lam="$(anchors_lambda "$data")"
  [[ -n "$lam" ]] || { echo "compare.sh: no λ for anchors" >&2; exit 1; }
  echo "# anchors: n=$N p=$P seed=$SEED lambda_glmnet=$lam$([[ "$GLMNET" == 1 || -n "${BENCH_LAMBDA:-}" ]] || echo ' (awk, R glmnet absent)')"
  WORK+=(anchors); ARGS[anchors]="fitbench -data $data -lambda-glmnet $lam -reps $REPS"
  if [[ "$CARD_PATH" != 0 ]]; then
    WORK+=(anchors-card-path)
    ARGS[anchors-card-path]="fitbench -data $data -lambda-glmnet $lam -reps $REPS -lasso-only -card-path $CARD_PATH"
  fi
fi
for fam in $FAMILIES; do
  for size in $SIZES; do
    wanted "$fam/$size/one" || wanted "$fam/$size/path" || wanted "$fam/$size/card" || continue
    n="${size%x*}"; p="${size#*x}"
    data="$TMP/$fam-$size.csv"
    "$TMP/new/glmbench" -gen -n "$n" -p "$p" -family "$fam" -out "$data"
    tol="$(glm_tol "$fam" "$data")"
    TOLS[$fam/$size]="$tol"
    echo "# $fam $size: tol $tol$([[ "$GLMNET" == 1 ]] || echo " (BENCH_GLM_TOL, R glmnet absent)")"
    base="glmbench -data $data -family $fam"
    for kind in one path card; do
      wanted "$fam/$size/$kind" || continue
      WORK+=("$fam/$size/$kind")
    done
    ARGS[$fam/$size/one]="$base -lambda $LAMBDA -tol $tol -reps $REPS"
    ARGS[$fam/$size/path]="$base -path 100 -tol $tol -reps $REPS"
    ARGS[$fam/$size/card]="$base -penalty cardinality -frac 0.1 -tol 1e-6 -reps $REPS"
  done
done
((${#WORK[@]} > 0)) || { echo "compare.sh: BENCH_ONLY '$ONLY' selects no workload" >&2; exit 2; }

# ---- 3. interleaved rounds -----------------------------------------------------
# out NAME SIDE ROUND: the file of that run's output.
out() { echo "$TMP/out/${1//\//-}.$2.$3.txt"; }
for ((r = 1; r <= ROUNDS; r++)); do
  sides=(old new)
  ((r % 2 == 0)) && sides=(new old)
  bench_load "before round $r"
  echo "# round $r/$ROUNDS (${sides[*]})" >&2
  for w in "${WORK[@]}"; do
    for s in "${sides[@]}"; do
      # shellcheck disable=SC2086 # ARGS holds the driver and its flags
      set -- ${ARGS[$w]}
      "$TMP/$s/$1" "${@:2}" >"$(out "$w" "$s" "$r")" 2>"$TMP/out/stderr.txt" ||
        { echo "compare.sh: $w ($s): $TMP/$s/$*" >&2; cat "$TMP/out/stderr.txt" >&2; exit 1; }
    done
  done
  bench_load "after round $r"
done

# ---- 4. report -----------------------------------------------------------------
# row LABEL WORKLOAD KEY: the medians over the rounds of KEY_seconds and
# KEY_cpu_seconds of both sides, the ratios new/old, every round's CPU ratio
# and the verdict.
row() {
  local r ow="" nw="" oc="" nc=""
  for ((r = 1; r <= ROUNDS; r++)); do
    ow+=" $(value "${3}_seconds" "$(out "$2" old "$r")")"
    nw+=" $(value "${3}_seconds" "$(out "$2" new "$r")")"
    oc+=" $(value "${3}_cpu_seconds" "$(out "$2" old "$r")")"
    nc+=" $(value "${3}_cpu_seconds" "$(out "$2" new "$r")")"
  done
  awk -v l="$1" -v ow="$ow" -v nw="$nw" -v oc="$oc" -v nc="$nc" '
  function med(s,   a, k, i, j, t) {
    k = split(s, a, " "); if (k == 0) return ""
    for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
  }
  function ratio(x, y) { return (x != "" && y != "" && y + 0 > 0) ? sprintf("%.3f", x / y) : "-" }
  BEGIN {
    if (split(oc, a, " ") == 0) exit
    split(nc, b, " "); per = ""; rs = ""
    for (i = 1; i in a; i++) { x = ratio(b[i], a[i]); per = per (i > 1 ? " / " : "") x; if (x != "-") rs = rs " " x }
    mow = med(ow); mnw = med(nw); moc = med(oc); mnc = med(nc)
    pr = med(rs); v = "?"
    if (pr != "") { pr = sprintf("%.3f", pr); v = (pr + 0 > 1.05) ? "SLOWER (>5%)" : (pr + 0 < 0.95 ? "faster (>5%)" : "within 5%") }
    printf "%-34s %8.4g %8.4g %8.4g %8.4g %7s %7s %7s  %-26s %s\n", l, moc, mnc, mow, mnw, ratio(mnc, moc), ratio(mnw, mow), pr == "" ? "-" : pr, per, v
  }'
}
echo
echo "== old $(git rev-parse --short "$OLD") vs new $(git rev-parse --short "$NEW"): seconds, median over $ROUNDS rounds of each run's median of $REPS =="
printf "%-34s %8s %8s %8s %8s %7s %7s %7s  %-26s %s\n" workload old_cpu new_cpu old_wall new_wall cpu_r wall_r \
  med_r "CPU ratio per round" "verdict (med_r)"
for w in "${WORK[@]}"; do
  case "$w" in
  anchors)
    row "anchors lasso one λ" anchors cardreg_lasso_one_lambda
    row "anchors lasso path 100 λ" anchors cardreg_lasso_path
    row "anchors cardinality, lasso's λ" anchors cardreg_cardinality_one_lambda
    row "anchors cardinality 0.05·λ_fuse" anchors cardreg_cardinality_mid
    row "(anchors XᵀX alone, for scale)" anchors cardreg_gram
    ;;
  anchors-card-path) row "anchors cardinality path $CARD_PATH λ" "$w" cardreg_card_path ;;
  *) row "$w" "$w" cardreg ;;
  esac
done
echo "(cpu_r, wall_r: new/old of the medians over the rounds; med_r: the median of the rounds' CPU ratios"
echo " new/old, each from runs back to back, which the verdict judges; the wall ratio is as loaded as the machine)"

# ---- 5. the same work? ------------------------------------------------------------
echo
echo "== certificates, round 1 (old | new) =="
cert() {
  local k o n
  for k in "${@:2}"; do
    o="$(value "$k" "$(out "$1" old 1)")"; n="$(value "$k" "$(out "$1" new 1)")"
    [[ -z "$o$n" ]] && continue
    printf "%-22s %-40s %-24s %-24s %s\n" "$1" "$k" "${o:--}" "${n:--}" "$([[ "$o" == "$n" ]] && echo same || echo DIFFERENT)"
  done
}
for w in "${WORK[@]}"; do
  case "$w" in
  anchors*)
    cert "$w" cardreg_lasso_iterations cardreg_lasso_gap cardreg_lasso_nonzero cardreg_lasso_objective \
      cardreg_lasso_path_nlambda cardreg_lasso_path_total_iterations cardreg_lasso_path_max_gap \
      cardreg_cardinality_iterations cardreg_cardinality_distinct cardreg_cardinality_mid_iterations \
      cardreg_cardinality_mid_gap cardreg_cardinality_mid_distinct cardreg_card_path_total_iterations \
      cardreg_card_path_max_gap cardreg_card_path_last_distinct
    ;;
  *) cert "$w" cardreg_iterations cardreg_gap cardreg_nonzero cardreg_path_len cardreg_path_worst_gap ;;
  esac
done
