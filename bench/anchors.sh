#!/usr/bin/env bash
# Side-by-side benchmark: cardreg (bench/fitbench) against R glmnet and
# scikit-learn on the same generated data set and the same lambda.
#
#   bash bench/anchors.sh
#
# Environment overrides: BENCH_N (5000), BENCH_P (500), BENCH_SEED (1),
# BENCH_REPS (5, anchors only), BENCH_KEEP=1 keeps the temp dir with the data
# and raw outputs. All timings are taken in-process by each program (median of
# BENCH_REPS runs after one warm-up), so interpreter / compiler start-up and
# CSV parsing are never counted.
set -euo pipefail

N="${BENCH_N:-5000}"
P="${BENCH_P:-500}"
SEED="${BENCH_SEED:-1}"
REPS="${BENCH_REPS:-5}"
PY=/usr/bin/python3

# Repository root = parent of the directory holding this script.
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if command -v go >/dev/null 2>&1; then
  GO=go
elif [[ -x /usr/local/go/bin/go ]]; then
  GO=/usr/local/go/bin/go
else
  echo "anchors.sh: no Go toolchain found (need go on PATH or /usr/local/go/bin/go)" >&2
  exit 1
fi

# ---- 1. anchors from Debian, only when missing -----------------------------
anchors_ok() {
  command -v Rscript >/dev/null 2>&1 &&
    Rscript -e 'suppressPackageStartupMessages(library(glmnet))' >/dev/null 2>&1 &&
    "$PY" -c 'import sklearn, numpy' >/dev/null 2>&1
}
if anchors_ok; then
  echo "# anchors already installed (R glmnet, python3 sklearn)" >&2
else
  echo "# installing anchors from Debian (r-cran-glmnet python3-sklearn python3-numpy)" >&2
  SUDO=()
  if [[ "$(id -u)" -ne 0 ]]; then SUDO=(sudo); fi
  "${SUDO[@]}" apt-get update
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends r-cran-glmnet python3-sklearn python3-numpy
  anchors_ok || { echo "anchors.sh: anchors still not usable after install" >&2; exit 1; }
fi

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

# ---- 3. anchors ----------------------------------------------------------------
echo "# running R glmnet (bench/glmnet.R)" >&2
Rscript bench/glmnet.R "$DATA" 1e-10 "$REPS" >"$TMP/glmnet.txt"

# value NAME FILE...: print the value of the first "NAME value" line, or nothing.
value() {
  local name="$1"; shift
  awk -v k="$name" '$1 == k { print $2; exit }' "$@" 2>/dev/null || true
}

LAMBDA="$(value glmnet_lambda "$TMP/glmnet.txt")"
if [[ -z "$LAMBDA" ]]; then
  echo "anchors.sh: glmnet.R did not report glmnet_lambda" >&2
  exit 1
fi

echo "# running scikit-learn (bench/sklearn_lasso.py), lambda_glmnet=$LAMBDA" >&2
"$PY" bench/sklearn_lasso.py "$DATA" --lambda-glmnet "$LAMBDA" --reps "$REPS" >"$TMP/sklearn.txt"

# ---- 4. our side ------------------------------------------------------------------
: >"$TMP/cardreg.txt"
CARDREG_NOTE=""
if compgen -G "bench/fitbench/*.go" >/dev/null; then
  echo "# running cardreg (go run ./bench/fitbench)" >&2
  if ! "$GO" run ./bench/fitbench -data "$DATA" -lambda-glmnet "$LAMBDA" >"$TMP/cardreg.txt"; then
    CARDREG_NOTE="NOTE: go run ./bench/fitbench failed; cardreg columns are empty or partial."
  fi
else
  CARDREG_NOTE="NOTE: bench/fitbench does not exist yet; only the anchors are shown."
fi

# ---- 5. report ------------------------------------------------------------------------
echo "== raw =="
cat "$TMP/glmnet.txt" "$TMP/sklearn.txt" "$TMP/cardreg.txt"
echo

G="$TMP/glmnet.txt"; S="$TMP/sklearn.txt"; C="$TMP/cardreg.txt"
n_paper="$(value glmnet_n "$G")"
echo "== setting =="
echo "n=$n_paper p=$(value glmnet_p "$G") seed=$SEED reps=$REPS"
echo "lambda_max (glmnet scale)  $(value glmnet_lambda_max "$G")"
echo "lambda_glmnet = 0.05*max   $LAMBDA"
echo "lambda_paper = 2n*lambda   $(value glmnet_lambda_paper "$G")"
echo "glmnet thresh $(value glmnet_thresh "$G"), sklearn tol $(value sklearn_tol "$S")"
echo

# row MEASUREMENT ANCHOR ANCHOR_KEY FILE CARDREG_KEY
row() {
  local a c
  a="$(value "$3" "$4")"
  c="$(value "$5" "$C")"
  awk -v m="$1" -v an="$2" -v a="$a" -v c="$c" 'BEGIN {
    r = "-"
    if (a != "" && c != "" && a + 0 > 0) r = sprintf("%.3f", c / a)
    printf "%-30s %-24s %12s %12s %14s\n", m, an, (a == "" ? "-" : a), (c == "" ? "-" : c), r
  }'
}

gnl="$(value glmnet_path_nlambda "$G")"
cnl="$(value cardreg_lasso_path_nlambda "$C")"
echo "== timings (seconds, median of $REPS after warm-up) =="
printf "%-30s %-24s %12s %12s %14s\n" measurement anchor anchor_s cardreg_s cardreg/anchor
row "lasso, one lambda"                  "glmnet"                glmnet_one_lambda_seconds               "$G" cardreg_lasso_one_lambda_seconds
row "lasso, one lambda"                  "sklearn Lasso"         sklearn_one_lambda_seconds              "$S" cardreg_lasso_one_lambda_seconds
row "lasso, one lambda"                  "glmnet thresh=1e-7"    glmnet_one_lambda_default_thresh_seconds "$G" cardreg_lasso_one_lambda_seconds
row "lasso path${cnl:+ (cardreg $cnl lam)}" "glmnet default (${gnl:-?} lam)" glmnet_path_seconds "$G" cardreg_lasso_path_seconds
row "lasso path${cnl:+ (cardreg $cnl lam)}" "glmnet forced 100 lam" glmnet_path100_seconds                 "$G" cardreg_lasso_path_seconds
row "lasso path${cnl:+ (cardreg $cnl lam)}" "sklearn lasso_path 100" sklearn_path_seconds                  "$S" cardreg_lasso_path_seconds
row "cardinality, one lambda (*)"        "glmnet lasso 1 lam"    glmnet_one_lambda_seconds               "$G" cardreg_cardinality_one_lambda_seconds
echo "(*) different problem: the lasso anchor is only a scale reference."
echo

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
relrow cardreg "$(value cardreg_lasso_objective "$C")"  "$(value cardreg_lasso_nnz "$C")"
echo "(glmnet at default thresh 1e-7: objective $(value glmnet_objective_default_thresh "$G"))"

if [[ -n "$CARDREG_NOTE" ]]; then
  echo
  echo "$CARDREG_NOTE"
fi
