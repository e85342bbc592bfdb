#!/usr/bin/env bash
# Side-by-side benchmark: cardreg (bench/fitbench) against R glmnet and
# scikit-learn on the same generated data set and the same lambda.
#
#   bash bench/anchors.sh
#
# Environment overrides: BENCH_N (5000), BENCH_P (500), BENCH_SEED (1),
# BENCH_REPS (5), BENCH_ROUNDS (3) interleaved rounds (cardreg, glmnet,
# scikit-learn, then again), BENCH_KEEP=1 keeps the temp dir with the data
# and raw outputs, BENCH_LASSO_ONLY=1 times the one-lambda lasso only
# (fitbench -lasso-only, no paths: wide data), BENCH_LASSO_TOL cardreg's
# relative duality gap for it (fitbench -lasso-tol; 1e-7 by default),
# BENCH_SKLEARN=0 skips scikit-learn, BENCH_ADMM=1 also times cardreg's ADMM
# baseline with the explicit all-pairs matrix (fitbench -admm; minutes and
# ~1.4 GB of memory at p = 500), BENCH_ADMM_MAXITER caps its iterations
# (fitbench's default otherwise), BENCH_MATMUL=0 skips the compressed-product
# anchors (M4RI, NumPy; bench/matmul/run.sh). All timings are taken
# in-process by each program (median of BENCH_REPS runs after one warm-up),
# by wall time and by the process's CPU time (user + sys, all threads), so
# interpreter / compiler start-up and CSV parsing are never counted. The
# load average is printed at the start and the end: on a busy machine judge
# by the CPU-time ratios.
set -euo pipefail

N="${BENCH_N:-5000}"
P="${BENCH_P:-500}"
SEED="${BENCH_SEED:-1}"
REPS="${BENCH_REPS:-5}"
ROUNDS="${BENCH_ROUNDS:-3}"
LASSO_ONLY="${BENCH_LASSO_ONLY:-0}"
SKLEARN="${BENCH_SKLEARN:-1}"
FIT_ARGS=()
if [[ "$LASSO_ONLY" == 1 ]]; then FIT_ARGS+=(-lasso-only); fi
if [[ -n "${BENCH_LASSO_TOL:-}" ]]; then FIT_ARGS+=(-lasso-tol "$BENCH_LASSO_TOL"); fi
if [[ "${BENCH_ADMM:-0}" == 1 ]]; then
  FIT_ARGS+=(-admm)
  if [[ -n "${BENCH_ADMM_MAXITER:-}" ]]; then FIT_ARGS+=(-admm-maxiter "$BENCH_ADMM_MAXITER"); fi
fi
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "anchors.sh: bad BENCH_ROUNDS '$ROUNDS'" >&2; exit 2; }

# Repository root = parent of the directory holding this script.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. bench/lib.sh
PY="$BENCH_PY"
bench_go

# ---- 1. anchors from Debian, when missing; the BLAS they run --------------------
# Without libopenblas0-pthread R and NumPy run the reference BLAS, several
# times slower.
bench_need libopenblas0-pthread r-cran-glmnet python3-sklearn python3-numpy python3-threadpoolctl
bench_load start
bench_blas_r
bench_blas_numpy

# ---- 2. data -----------------------------------------------------------------
TMP="$(mktemp -d "${TMPDIR:-/tmp}/cardreg-anchors.XXXXXX")"
if [[ "${BENCH_KEEP:-0}" == 1 ]]; then
  echo "# keeping $TMP" >&2
else
  trap 'rm -rf -- "$TMP"' EXIT
fi
DATA="$TMP/data.csv"
echo "# generating n=$N p=$P seed=$SEED -> $DATA" >&2
"$GO" run ./bench/gendata -n "$N" -p "$P" -seed "$SEED" -out "$DATA"
"$GO" build -o "$TMP/fitbench" ./bench/fitbench
echo "# commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (modified)'), $("$GO" version)"

# value NAME FILE...: print the value of the first "NAME value" line, or nothing.
value() {
  local name="$1"; shift
  awk -v k="$name" '$1 == k { print $2; exit }' "$@" 2>/dev/null || true
}

# The lambda: glmnet.R's 0.05*lambda_max (the same in every round).
Rscript bench/glmnet.R "$DATA" 1e-10 1 nopath >"$TMP/lambda.txt"
LAMBDA="$(value glmnet_lambda "$TMP/lambda.txt")"
if [[ -z "$LAMBDA" ]]; then
  echo "anchors.sh: glmnet.R did not report glmnet_lambda" >&2
  exit 1
fi

# ---- 3. interleaved rounds: cardreg, glmnet, scikit-learn, cardreg, ... -----------
GLMNET_ARGS=("$DATA" 1e-10 "$REPS")
SKLEARN_ARGS=("$DATA" --lambda-glmnet "$LAMBDA" --reps "$REPS")
if [[ "$LASSO_ONLY" == 1 ]]; then GLMNET_ARGS+=(nopath); SKLEARN_ARGS+=(--no-path); fi
for ((r = 1; r <= ROUNDS; r++)); do
  echo "# round $r/$ROUNDS: cardreg (fitbench ${FIT_ARGS[*]}), R glmnet, scikit-learn" >&2
  "$TMP/fitbench" -data "$DATA" -lambda-glmnet "$LAMBDA" -reps "$REPS" \
    ${FIT_ARGS[@]+"${FIT_ARGS[@]}"} >"$TMP/cardreg$r.txt"
  Rscript bench/glmnet.R "${GLMNET_ARGS[@]}" >"$TMP/glmnet$r.txt"
  if [[ "$SKLEARN" == 1 ]]; then
    "$PY" bench/sklearn_lasso.py "${SKLEARN_ARGS[@]}" >"$TMP/sklearn$r.txt"
  else
    : >"$TMP/sklearn$r.txt"
  fi
  bench_load "after round $r"
done

# ---- 4. report (the raw lines of the last round; a timing table per round) -------
G="$TMP/glmnet$ROUNDS.txt"; S="$TMP/sklearn$ROUNDS.txt"; C="$TMP/cardreg$ROUNDS.txt"
echo "== raw (round $ROUNDS) =="
cat "$G" "$S" "$C"
echo

n_paper="$(value glmnet_n "$G")"
echo "== setting =="
echo "n=$n_paper p=$(value glmnet_p "$G") seed=$SEED reps=$REPS rounds=$ROUNDS"
echo "lambda_max (glmnet scale)  $(value glmnet_lambda_max "$G")"
echo "lambda_glmnet = 0.05*max   $LAMBDA"
echo "lambda_paper = 2n*lambda   $(value glmnet_lambda_paper "$G")"
echo "glmnet thresh $(value glmnet_thresh "$G"), sklearn tol $(value sklearn_tol "$S")"
echo

# row MEASUREMENT ANCHOR ANCHOR_KEY ANCHOR_FILE CARDREG_KEY [TARGET]: the wall
# and CPU seconds (KEY_seconds, KEY_cpu_seconds) of both sides and their
# ratios cardreg/anchor. TARGET is the largest acceptable cardreg/anchor
# ratio (the spec's target), judged on the CPU-time ratio.
row() {
  local a c ac cc
  a="$(value "${3}_seconds" "$4")"; ac="$(value "${3}_cpu_seconds" "$4")"
  c="$(value "${5}_seconds" "$C")"; cc="$(value "${5}_cpu_seconds" "$C")"
  [[ -z "$a" && -z "$c" ]] && return 0
  awk -v m="$1" -v an="$2" -v a="$a" -v c="$c" -v ac="$ac" -v cc="$cc" -v t="${6:-}" '
  function ratio(x, y) { return (x != "" && y != "" && y + 0 > 0) ? sprintf("%.2f", x / y) : "-" }
  function s(x) { return x == "" ? "-" : x }
  BEGIN {
    r = ratio(cc, ac); v = "-"
    if (t != "") v = (r == "-" ? "? (<=" t ")" : (cc / ac <= t + 0 ? "met (<=" t ")" : "MISSED (<=" t ")"))
    printf "%-32s %-24s %9s %9s %6s %9s %9s %6s  %s\n", m, an, s(a), s(c), ratio(c, a), s(ac), s(cc), r, v
  }'
}

gnl="$(value glmnet_path_nlambda "$G")"
cnl="$(value cardreg_lasso_path_nlambda "$C")"
for ((r = 1; r <= ROUNDS; r++)); do
  G="$TMP/glmnet$r.txt"; S="$TMP/sklearn$r.txt"; C="$TMP/cardreg$r.txt"
  echo "== timings, round $r/$ROUNDS (seconds, median of $REPS after warm-up; wall, then CPU) =="
  printf "%-32s %-24s %9s %9s %6s %9s %9s %6s  %s\n" measurement anchor anchor_s cardreg_s ratio \
    anchor_cpu cardreg_cpu ratio "target (CPU ratio)"
  row "lasso, one lambda"                  "glmnet thresh=1e-10"   glmnet_one_lambda               "$G" cardreg_lasso_one_lambda 2
  row "lasso, one lambda"                  "glmnet thresh=1e-7"    glmnet_one_lambda_default_thresh "$G" cardreg_lasso_one_lambda 2
  row "lasso, one lambda"                  "sklearn Lasso"         sklearn_one_lambda              "$S" cardreg_lasso_one_lambda
  row "lasso path${cnl:+ (cardreg $cnl lam)}" "glmnet default (${gnl:-?} lam)" glmnet_path "$G" cardreg_lasso_path 3
  row "lasso path${cnl:+ (cardreg $cnl lam)}" "glmnet forced 100 lam" glmnet_path100                 "$G" cardreg_lasso_path 3
  row "lasso path${cnl:+ (cardreg $cnl lam)}" "sklearn lasso_path 100" sklearn_path                  "$S" cardreg_lasso_path
  row "cardinality, lasso's lambda (*)"    "glmnet 1e-10, 1 lam"   glmnet_one_lambda               "$G" cardreg_cardinality_one_lambda 3
  row "cardinality, lasso's lambda (*)"    "glmnet 1e-7, 1 lam"    glmnet_one_lambda_default_thresh "$G" cardreg_cardinality_one_lambda 3
  row "cardinality, 0.05*lam_fuse (*)"     "glmnet 1e-10, 1 lam"   glmnet_one_lambda               "$G" cardreg_cardinality_mid 3
  row "cardinality, 0.05*lam_fuse (*)"     "glmnet 1e-7, 1 lam"    glmnet_one_lambda_default_thresh "$G" cardreg_cardinality_mid 3
  row "cardinality, 0.05*lam_fuse (*)"     "sklearn Lasso"         sklearn_one_lambda              "$S" cardreg_cardinality_mid
  if [[ -n "$(value cardreg_gram_seconds "$C")" ]]; then
    echo "cardreg's Gram product X'X alone (formed inside every one-lambda fit with n >= p and once per path):" \
      "$(value cardreg_gram_seconds "$C") s wall, $(value cardreg_gram_cpu_seconds "$C") s CPU"
  fi
  echo
done
G="$TMP/glmnet$ROUNDS.txt"; S="$TMP/sklearn$ROUNDS.txt"; C="$TMP/cardreg$ROUNDS.txt"
echo "(*) different problem (cardinality penalty, relative duality gap 1e-6): the glmnet"
echo "    lasso time is only the scale reference the spec's target is stated against."
echo "targets (spec): lasso one lambda <= 2x glmnet one lambda; lasso path <= 3x glmnet's path;"
echo "                cardinality one lambda (gap 1e-6) <= 3x glmnet's lasso at one lambda."
echo "glmnet runs on one thread; cardreg and NumPy use both cores, so their CPU time can exceed their wall time."
echo

echo "== cardreg certificates =="
for k in lasso_gap lasso_iterations lasso_converged lasso_nonzero \
  lasso_path_max_gap lasso_path_total_iterations lasso_path_unconverged \
  cardinality_lambda_max cardinality_fuse_lambda \
  cardinality_gap cardinality_iterations cardinality_distinct cardinality_converged \
  cardinality_mid_lambda cardinality_mid_gap cardinality_mid_iterations \
  cardinality_mid_distinct cardinality_mid_converged; do
  printf "%-36s %s\n" "$k" "$(value "cardreg_$k" "$C")"
done
echo "(cardinality at the lasso's lambda_paper = $(value glmnet_lambda_paper "$G"): above" \
  "cardinality_fuse_lambda the fit is fully fused (one value), above cardinality_lambda_max it is 0)"
echo

if [[ -n "$(value cardreg_admm_iterations "$C")" ]]; then
  echo "== ADMM baseline (explicit all-pairs A, penalty.General), cardinality at 0.05*lam_fuse =="
  for k in admm_allpairs_seconds admm_newgeneral_seconds admm_setup_seconds admm_solve_seconds \
    admm_seconds_per_iteration admm_max_iter admm_iterations admm_converged admm_status \
    admm_objective_rel_to_fista admm_max_abs_coef_diff admm_distinct_within_1e-6; do
    printf "%-36s %s\n" "$k" "$(value "cardreg_$k" "$C")"
  done
  awk -v s="$(value cardreg_admm_setup_seconds "$C")" -v a="$(value cardreg_admm_solve_seconds "$C")" \
    -v f="$(value cardreg_cardinality_mid_seconds "$C")" 'BEGIN {
    if (f + 0 > 0) printf "%-36s %.1f\n", "(setup+solve)/FISTA_mid", (s + a) / f
  }'
  echo
fi

echo "== one-lambda lasso solution (paper scale: ||y-b0-Xb||^2 + lambda_paper*||b||_1) =="
go_obj="$(value glmnet_objective "$G")"
relrow() {
  local name="$1" obj="$2" nnz="$3"
  awk -v nm="$name" -v o="$obj" -v g="$go_obj" -v z="$nnz" 'BEGIN {
    d = "-"
    if (o != "" && g != "") { x = (o - g) / (g < 0 ? -g : g); d = sprintf("%+.3e", x) }
    printf "%-10s %26s %8s %18s\n", nm, (o == "" ? "-" : o), (z == "" ? "-" : z), d
  }'
}
printf "%-10s %26s %8s %18s\n" solver objective nnz rel_vs_glmnet
relrow glmnet  "$go_obj"                                "$(value glmnet_nnz "$G")"
relrow sklearn "$(value sklearn_objective "$S")"        "$(value sklearn_nnz "$S")"
relrow cardreg "$(value cardreg_lasso_objective "$C")"  "$(value cardreg_lasso_nonzero "$C")"
echo "(glmnet at default thresh 1e-7: objective $(value glmnet_objective_default_thresh "$G"))"


# ---- compressed products: M4RI and NumPy/OpenBLAS against cardmat --------------
# BENCH_MATMUL=0 skips it; bench/matmul/run.sh installs libm4ri-dev when missing,
# builds the C anchor and prints its own ratio table.
if [[ "${BENCH_MATMUL:-1}" == 1 ]]; then
  echo
  echo "== compressed products (bench/matmul/run.sh) =="
  bash bench/matmul/run.sh
fi
bench_load end
