#!/usr/bin/env bash
# Issue 38's table in one run: every row, cardreg beside its anchor (R glmnet,
# cv.glmnet, scikit-learn, NumPy), in BENCH_ROUNDS interleaved rounds, with
# the CPU and wall ratios cardreg/anchor, each row's target and whether the
# round met it, the BLAS, the commit and the load average after each round;
# then a summary of medians over the rounds.
#
#   bash bench/glmspeed.sh                       # every row, 3 rounds (~25 min on an idle machine)
#   BENCH_ROUNDS=2 bash bench/glmspeed.sh        # the full run of the report
#   QUICK=1 bash bench/glmspeed.sh               # 1 round, REPS=1, CV at 20000x50 (a few minutes)
#   ROWS="path cv" bash bench/glmspeed.sh        # a subset of the rows
#   PROFILE=1 ROWS=one bash bench/glmspeed.sh    # also a CPU profile per cardreg row, top five
#
# Rows (ROWS, space-separated; default all, in this order):
#   one       logistic lasso, one λ (glmnet scale LAMBDA=0.01), 5000x500 and 1000x5000:
#             glmnet(thresh = THRESH) beside glmbench at the gap glmnet's fit reaches
#             (glmbench -certify of glmnet's coefficients; never looser than TOL_CAP)
#   path      logistic lasso, default 100-λ path, 5000x500 and 1000x5000: glmnet's own
#             path (thresh THRESH) beside glmbench -path 100 at matched accuracy (below)
#   poisson   the same for the Poisson lasso path
#   cv        10-fold CV of the binomial and the Poisson lasso, CV_N x CV_P (100000x50),
#             the same folds (row i in fold i mod 10): cv.glmnet (bench/glmcv.R) beside
#             glmbench -cv 10 at tolerance CV_TOL; "agree" = λ_min and λ_1se equal to 1e-6
#   card      cardinality (gaussian, penalty.Cardinality{Nu: 1}, relative gap 1e-6) at
#             0.05·λ_fuse, n 5000, p 500 / 1000 / 2000 (bench/gendata, seed 1; fitbench
#             -card-only) beside glmnet's gaussian lasso at 0.05·λ_max, thresh 1e-10
#             (bench/glmnet.R; its coefficients certified by fitbench -certify: the lasso's
#             relative duality gap that thresh reaches, printed)
#   lassopath gaussian lasso, 100-λ path 5000x500 (fitbench -path-only, gap 1e-7, the full
#             grid) beside scikit-learn lasso_path (bench/sklearn_lasso.py, tol 1e-10, the
#             same 100 values)
#   gram      XᵀX 5000x500 and 100000x100 on one thread: bench/kernel/gramgo (GOMAXPROCS=1)
#             beside NumPy (bench/kernel/gram.py, OPENBLAS_NUM_THREADS=1), GRAM_REPS calls
#
# Each path row has a second line, LABEL-λ: glmnet's λ, each fitted to the gap glmnet
# reaches at it (glmbench -match: the solver through one working set, warm starts;
# never tighter than 1e-8): accuracy matched λ by λ.
#
# Matching the accuracy of the paths (path, poisson; CV when CV_TOL=auto): glmnet's
# path is certified by cardreg's duality gap at every λ it reports (glmnet_family.R
# writes its coefficients, glmbench -certify-path refits the intercept and takes the
# relative gap), and cardreg's path runs with the PATH_GAP (median) of those gaps as its
# tolerance, capped by TOL_CAP: cardreg's every λ is certified at that gap, glmnet's
# reaches it at half of its λ. PATH_GAP=q25 or q75 takes that quartile instead (glmnet
# at least as close at a quarter or three quarters of its λ), max the loosest match (the
# smallest gap is none: at the first λ, β = 0, glmnet is exact); PATH_TOL=T fixes the
# paths' tolerance instead. CV_TOL=auto takes the same
# quantile of glmnet's full-data path on the CV data (computed once per run). Both
# paths stop by glmnet's deviance rules: the lengths are printed and must be equal.
#
# Targets (judged per round and on the medians): CPU ratio cardreg/anchor ≤ 1.0; the
# card rows ≤ 1.2 in CPU and ≤ 1.0 in wall time (cardreg on two cores, glmnet on one);
# the cv rows also ≤ 0.6 in wall time.
#
# Environment: BENCH_ROUNDS (3), REPS (5; timed calls per program, median after one
# warm-up), THRESH (glmnet's, 1e-7), LAMBDA (0.01), TOL_CAP (1: no cap), PATH_GAP
# (median | q25 | q75 | max), PATH_TOL (unset: matched), CV_N (100000), CV_P (50), CV_REPS (1), CV_TOL (auto, or a
# number), GRAM_REPS (7), BENCH_R_TIMEOUT (900 s per R call), QUICK=1 (BENCH_ROUNDS=1
# REPS=1 CV_N=20000 unless set), PROFILE=1 (after the rounds, each cardreg row once more
# with -cpuprofile, enough calls for PROFILE_SECONDS (3) of CPU, the profile written to
# PROFILE_DIR and its top five by flat time printed), BENCH_KEEP=1 (keep the data).
#
# Each program times its calls in-process (wall and process CPU, data reading
# excluded; bench/README.md "How the figures are measured"). The machine is shared:
# judge by the CPU ratios and read the load average.
set -euo pipefail
# The whole script is one compound command, read before it runs: editing the
# file during a run does not change that run.
{
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. bench/lib.sh
bench_go
if [[ "${QUICK:-0}" == 1 ]]; then
  : "${BENCH_ROUNDS:=1}" "${REPS:=1}" "${CV_N:=20000}"
fi
ROUNDS="${BENCH_ROUNDS:-3}"
REPS="${REPS:-5}"
THRESH="${THRESH:-1e-7}"
LAMBDA="${LAMBDA:-0.01}"
TOL_CAP="${TOL_CAP:-1}"
PATH_GAP="${PATH_GAP:-median}"
CV_N="${CV_N:-100000}"
CV_P="${CV_P:-50}"
CV_REPS="${CV_REPS:-1}"
CV_TOL="${CV_TOL:-auto}"
GRAM_REPS="${GRAM_REPS:-7}"
R_TIMEOUT="${BENCH_R_TIMEOUT:-900}"
PROFILE="${PROFILE:-0}"
PROFILE_SECONDS="${PROFILE_SECONDS:-3}"
ROWS="${ROWS:-one path poisson cv card lassopath gram}"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "glmspeed.sh: bad BENCH_ROUNDS '$ROUNDS'" >&2; exit 2; }
[[ "$PATH_GAP" =~ ^(median|q25|q75|max)$ ]] || { echo "glmspeed.sh: PATH_GAP: median, q25, q75 or max" >&2; exit 2; }
PATH_TOL="${PATH_TOL:-}"
for row in $ROWS; do
  [[ " one path poisson cv card lassopath gram " == *" $row "* ]] ||
    { echo "glmspeed.sh: unknown row '$row' (one path poisson cv card lassopath gram)" >&2; exit 2; }
done

bench_need libopenblas0-pthread r-cran-glmnet python3-sklearn python3-numpy python3-threadpoolctl
TMP="$(mktemp -d "${TMPDIR:-/tmp}/glmspeed.XXXXXX")"
if [[ "${BENCH_KEEP:-0}" == 1 ]]; then echo "# keeping $TMP"; else trap 'rm -rf -- "$TMP"' EXIT; fi
"$GO" build -o "$TMP/" ./bench/glmbench ./bench/fitbench ./bench/gendata ./bench/kernel/gramgo
echo "# bench/glmspeed.sh, commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- . 2>/dev/null || echo ' (modified)'), $("$GO" version)"
echo "# rows: $ROWS; rounds $ROUNDS, REPS $REPS, glmnet thresh $THRESH, λ_glmnet $LAMBDA (one), PATH_GAP $PATH_GAP, TOL_CAP $TOL_CAP, CV ${CV_N}x$CV_P tol $CV_TOL"
bench_blas_r
bench_blas_numpy
echo "# $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
bench_load start

RES="$TMP/results.tsv" # label round cardreg_wall anchor_wall cardreg_cpu anchor_cpu kind note
: >"$RES"
declare -A TOL GAPG CMD CPU1 # per label: cardreg's tolerance, glmnet's gap, cardreg's command (PROFILE), its CPU
LABELS=()

# val KEY TEXT: the value of the "KEY value" line of TEXT.
val() { awk -v k="$1" '$1 == k { print $2; exit }' <<<"$2"; }
# ratio A B: A/B with two decimals, "-" when B is not positive.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 > 0 && a != "") printf "%.2f", a / b; else printf "-" }'; }
# verdict KIND CPU_RATIO WALL_RATIO: the target of the kind and met / MISSED.
verdict() {
  awk -v k="$1" -v c="$2" -v w="$3" 'BEGIN {
    ct = (k == "card") ? 1.2 : 1.0; wt = (k == "card") ? 1.0 : (k == "cv" ? 0.6 : -1)
    t = sprintf("cpu<=%.1f", ct); if (wt > 0) t = t sprintf(",wall<=%.1f", wt)
    if (c == "-" || (wt > 0 && w == "-")) { printf "%-20s %s", t, "?"; exit }
    ok = (c + 0 <= ct) && (wt < 0 || w + 0 <= wt)
    printf "%-20s %s", t, ok ? "met" : "MISSED" }'
}
FMT='%-3s %-24s %9s %9s %6s %9s %9s %6s  %-20s %-6s  %s\n'
header() {
  printf "$FMT" rnd row cardreg_s anchor_s wall_r cardreg_cpu anchor_cpu cpu_r target verdict note
}
# record LABEL ROUND CWALL AWALL CCPU ACPU KIND NOTE: one row of one round,
# printed and kept for the summary.
record() {
  local cr wr
  [[ " ${LABELS[*]} " == *" $1 "* ]] || LABELS+=("$1")
  wr="$(ratio "$3" "$4")"; cr="$(ratio "$5" "$6")"
  printf "$FMT" "$2" "$1" "$3" "$4" "$wr" "$5" "$6" "$cr" $(verdict "$7" "$cr" "$wr") "$8"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" >>"$RES"
}
# rcall ...: an R call cut at BENCH_R_TIMEOUT seconds; its output on stdout.
rcall() { timeout "$R_TIMEOUT" Rscript "$@"; }
# glmdata FAMILY N P: glmbench's generated data (seed 1), made once per run.
glmdata() {
  local f="$TMP/$1-${2}x$3.csv"
  [[ -f "$f" ]] || "$TMP/glmbench" -gen -n "$2" -p "$3" -family "$1" -out "$f"
  echo "$f"
}
# gaussdata N P: bench/gendata's gaussian data (seed 1), made once per run.
gaussdata() {
  local f="$TMP/gaussian-${1}x$2.csv"
  [[ -f "$f" ]] || "$TMP/gendata" -n "$1" -p "$2" -seed 1 -out "$f"
  echo "$f"
}
# capped GAP: GAP, never looser than TOL_CAP.
capped() { awk -v g="$1" -v c="$TOL_CAP" 'BEGIN { if (g > c) g = c; print g }'; }
# pathtol LABEL DATA FAMILY PATHCOEF: sets TOL[LABEL] (once per run) from
# glmnet's certified path in PATHCOEF; prints the certificate's summary.
pathtol() {
  [[ -n "${TOL[$1]:-}" ]] && return 0
  local c
  c="$("$TMP/glmbench" -data "$2" -family "$3" -certify-path "$4" | tee "$TMP/cert-$1.txt")"
  TOL[$1]="${PATH_TOL:-$(capped "$(val "glmnet_path_gap_$PATH_GAP" "$c")")}"
  echo "# $1: glmnet's path certified at its $(val glmnet_path_len "$c") λ: relative gap min $(val glmnet_path_gap_min "$c"), q25 $(val glmnet_path_gap_q25 "$c"), median $(val glmnet_path_gap_median "$c"), q75 $(val glmnet_path_gap_q75 "$c"), max $(val glmnet_path_gap_max "$c"); cardreg's tolerance ${TOL[$1]} (${PATH_TOL:+PATH_TOL, }PATH_GAP $PATH_GAP, TOL_CAP $TOL_CAP)"
}

# ---- the rows: NAME ROUND ------------------------------------------------------
row_one() {
  local size n p data a c label gg
  for size in 5000x500 1000x5000; do
    n="${size%x*}"; p="${size#*x}"; label="logit-one-$size"
    data="$(glmdata binomial "$n" "$p")"
    if ! a="$(rcall bench/glmnet_family.R "$data" binomial "$LAMBDA" "$THRESH" "$REPS" "$TMP/coef-$label.txt" one)"; then
      echo "# $label: R glmnet failed or took over ${R_TIMEOUT}s; skipped"; continue
    fi
    if [[ -z "${TOL[$label]:-}" ]]; then
      gg="$("$TMP/glmbench" -data "$data" -family binomial -lambda "$LAMBDA" -certify "$TMP/coef-$label.txt" | awk '{print $2}')"
      TOL[$label]="$(capped "$gg")"; GAPG[$label]="$gg"
    fi
    CMD[$label]="$TMP/glmbench -data $data -family binomial -lambda $LAMBDA -tol ${TOL[$label]}"
    c="$(${CMD[$label]} -reps "$REPS")"
    record "$label" "$1" "$(val cardreg_seconds "$c")" "$(val glmnet_seconds "$a")" \
      "$(val cardreg_cpu_seconds "$c")" "$(val glmnet_cpu_seconds "$a")" std \
      "gap cardreg/glmnet $(val cardreg_gap "$c")/${GAPG[$label]} (tol ${TOL[$label]})"
  done
}

# row_glmpath FAMILY TAG ROUND: the 100-λ paths of FAMILY.
row_glmpath() {
  local size n p data a c label
  for size in 5000x500 1000x5000; do
    n="${size%x*}"; p="${size#*x}"; label="$2-path-$size"
    data="$(glmdata "$1" "$n" "$p")"
    if ! a="$(rcall bench/glmnet_family.R "$data" "$1" "$LAMBDA" "$THRESH" "$REPS" "$TMP/coef.txt" path "$TMP/path-$label.txt")"; then
      echo "# $label: R glmnet failed or took over ${R_TIMEOUT}s; skipped"; continue
    fi
    pathtol "$label" "$data" "$1" "$TMP/path-$label.txt"
    CMD[$label]="$TMP/glmbench -data $data -family $1 -path 100 -tol ${TOL[$label]}"
    c="$(${CMD[$label]} -reps "$REPS")"
    record "$label" "$3" "$(val cardreg_seconds "$c")" "$(val glmnet_path_seconds "$a")" \
      "$(val cardreg_cpu_seconds "$c")" "$(val glmnet_path_cpu_seconds "$a")" std \
      "len cardreg/glmnet $(val cardreg_path_len "$c")/$(val glmnet_path_len "$a"), worst gap $(val cardreg_path_worst_gap "$c") (tol ${TOL[$label]}), unconverged $(val cardreg_path_unconverged "$c")"
    # The same λ, each fitted to the gap glmnet reached there (floor 1e-8).
    CMD[$label-λ]="$TMP/glmbench -data $data -family $1 -match $TMP/cert-$label.txt"
    c="$(${CMD[$label-λ]} -reps "$REPS")"
    record "$label-λ" "$3" "$(val cardreg_seconds "$c")" "$(val glmnet_path_seconds "$a")" \
      "$(val cardreg_cpu_seconds "$c")" "$(val glmnet_path_cpu_seconds "$a")" std \
      "glmnet's λ, each to glmnet's gap there: len $(val cardreg_matched_len "$c"), worst gap/tol $(val cardreg_matched_worst_ratio "$c")"
  done
}
row_path() { row_glmpath binomial logit "$1"; }
row_poisson() { row_glmpath poisson poisson "$1"; }

# agree A B C D: yes when A≈B and C≈D to 1e-6 relative.
agree() {
  awk -v a="$1" -v b="$2" -v c="$3" -v d="$4" 'function rel(x, y) { x -= y; if (x < 0) x = -x; if (y < 0) y = -y; return y > 0 ? x / y : x }
    BEGIN { print (a != "" && c != "" && rel(a, b) <= 1e-6 && rel(c, d) <= 1e-6) ? "yes" : "NO" }'
}
row_cv() {
  local fam data a c label g
  for fam in binomial poisson; do
    label="cv-$fam-${CV_N}x$CV_P"
    data="$(glmdata "$fam" "$CV_N" "$CV_P")"
    if [[ -z "${TOL[$label]:-}" ]]; then
      if [[ "$CV_TOL" == auto ]]; then
        if ! rcall bench/glmnet_family.R "$data" "$fam" "$LAMBDA" "$THRESH" 1 "$TMP/coef.txt" path "$TMP/path-$label.txt" >/dev/null; then
          echo "# $label: R glmnet's full-data path failed; skipped"; continue
        fi
        PATH_TOL='' pathtol "$label" "$data" "$fam" "$TMP/path-$label.txt"
      else
        TOL[$label]="$CV_TOL"
      fi
    fi
    if ! a="$(rcall bench/glmcv.R "$data" "$fam" 10 "$THRESH" "$CV_REPS")"; then
      echo "# $label: R cv.glmnet failed or took over ${R_TIMEOUT}s; skipped"; continue
    fi
    CMD[$label]="$TMP/glmbench -data $data -family $fam -cv 10 -tol ${TOL[$label]}"
    c="$(${CMD[$label]} -reps "$CV_REPS")"
    g="$(agree "$(val cardreg_lambda_min_exact "$c")" "$(val glmnet_lambda_min_exact "$a")" \
      "$(val cardreg_lambda_1se_exact "$c")" "$(val glmnet_lambda_1se_exact "$a")")"
    record "$label" "$1" "$(val cardreg_cv_seconds "$c")" "$(val glmnet_cv_seconds "$a")" \
      "$(val cardreg_cv_cpu_seconds "$c")" "$(val glmnet_cv_cpu_seconds "$a")" cv \
      "agree $g: λ_min $(val cardreg_lambda_min "$c")/$(val glmnet_lambda_min "$a") (index $(val cardreg_index_min "$c")/$(val glmnet_index_min "$a")), λ_1se $(val cardreg_lambda_1se "$c")/$(val glmnet_lambda_1se "$a") (index $(val cardreg_index_1se "$c")/$(val glmnet_index_1se "$a")), len $(val cardreg_cv_len "$c")/$(val glmnet_cv_len "$a"), tol ${TOL[$label]}, unconverged $(val cardreg_cv_unconverged "$c")"
  done
}

row_card() {
  local p data a c label
  for p in 500 1000 2000; do
    label="card-5000x$p"
    data="$(gaussdata 5000 "$p")"
    if ! a="$(rcall bench/glmnet.R "$data" 1e-10 "$REPS" nopath "$TMP/coef-$label.txt" 2>/dev/null)"; then
      echo "# $label: R glmnet failed or took over ${R_TIMEOUT}s; skipped"; continue
    fi
    if [[ -z "${GAPG[$label]:-}" ]]; then
      GAPG[$label]="$("$TMP/fitbench" -data "$data" -lambda-glmnet "$(val glmnet_lambda "$a")" -certify "$TMP/coef-$label.txt" | awk '{print $2}')"
    fi
    CMD[$label]="$TMP/fitbench -data $data -card-only"
    c="$(${CMD[$label]} -reps "$REPS")"
    record "$label" "$1" "$(val cardreg_cardinality_mid_seconds "$c")" "$(val glmnet_one_lambda_seconds "$a")" \
      "$(val cardreg_cardinality_mid_cpu_seconds "$c")" "$(val glmnet_one_lambda_cpu_seconds "$a")" card \
      "cardreg gap $(val cardreg_cardinality_mid_gap "$c") at 0.05·λ_fuse, $(val cardreg_cardinality_mid_distinct "$c") distinct; glmnet lasso thresh 1e-10 at 0.05·λ_max (its lasso gap ${GAPG[$label]}), type.gaussian $(val glmnet_type_gaussian "$a"), $(val glmnet_nnz "$a") non-zero"
  done
}

row_lassopath() {
  local data a c label=lasso-path-5000x500
  data="$(gaussdata 5000 500)"
  a="$("$BENCH_PY" bench/sklearn_lasso.py "$data" --reps "$REPS" --path-only)"
  CMD[$label]="$TMP/fitbench -data $data -path-only"
  c="$(${CMD[$label]} -reps "$REPS")"
  record "$label" "$1" "$(val cardreg_lasso_path_seconds "$c")" "$(val sklearn_path_seconds "$a")" \
    "$(val cardreg_lasso_path_cpu_seconds "$c")" "$(val sklearn_path_cpu_seconds "$a")" std \
    "len cardreg/sklearn $(val cardreg_lasso_path_nlambda "$c")/$(val sklearn_path_nlambda "$a"), cardreg worst gap $(val cardreg_lasso_path_max_gap "$c") (tol 1e-7), sklearn tol $(val sklearn_tol "$a")"
}

row_gram() {
  local a c s label
  a="$(OPENBLAS_NUM_THREADS=1 SHAPES=5000x500,100000x100 REPS="$GRAM_REPS" "$BENCH_PY" bench/kernel/gram.py)"
  c="$(GOMAXPROCS=1 "$TMP/gramgo" -reps "$GRAM_REPS" -shapes 5000x500,100000x100)"
  for s in 5000x500 100000x100; do
    label="gram-$s-1thread"
    CMD[$label]="env GOMAXPROCS=1 $TMP/gramgo -shapes $s"
    # "NAME threads=1 WALL ms CPU ms_cpu G GFlop/s", milliseconds → seconds.
    local cw cc aw ac
    read -r cw cc < <(awk -v k="go_gram_$s" '$1 == k { print $3 / 1e3, $5 / 1e3 }' <<<"$c")
    read -r aw ac < <(awk -v k="$s" '$1 == "numpy" && $2 == k { print $4 / 1e3, $6 / 1e3 }' <<<"$a")
    record "$label" "$1" "$cw" "$aw" "$cc" "$ac" std \
      "GFlop/s cardreg/numpy $(awk -v k="go_gram_$s" '$1 == k { print $7 }' <<<"$c")/$(awk -v k="$s" '$1 == "numpy" && $2 == k { print $8 }' <<<"$a") (wall)"
  done
}

# ---- the rounds ------------------------------------------------------------------
for ((round = 1; round <= ROUNDS; round++)); do
  echo "# round $round/$ROUNDS (each row: the anchor, then cardreg; times in seconds, median of REPS calls)"
  header
  for row in $ROWS; do "row_$row" "$round"; done
  bench_load "after round $round"
done

# ---- the summary: medians over the rounds ------------------------------------------
echo
echo "== summary: medians over $ROUNDS round(s) (ratios: the median of the rounds' ratios) =="
header
for label in "${LABELS[@]}"; do
  IFS=$'\t' read -r cw aw cc ac crm wrm kind note < <(awk -F'\t' -v k="$label" '
    function med(v, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
      return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
    $1 == k { m++; a[m] = $3; b[m] = $4; c[m] = $5; d[m] = $6; kind = $7; note = $8
      if ($6 > 0 && $5 != "") { nc++; rc[nc] = $5 / $6 } if ($4 > 0 && $3 != "") { nw++; rw[nw] = $3 / $4 } }
    END { printf "%.4g\t%.4g\t%.4g\t%.4g\t%s\t%s\t%s\t%s\n", med(a, m), med(b, m), med(c, m), med(d, m),
      nc ? sprintf("%.2f", med(rc, nc)) : "-", nw ? sprintf("%.2f", med(rw, nw)) : "-", kind, note }' "$RES")
  CPU1[$label]="$cc"
  printf "$FMT" med "$label" "$cw" "$aw" "$wrm" "$cc" "$ac" "$crm" $(verdict "$kind" "$crm" "$wrm") "(last round) $note"
done
bench_load end

# ---- PROFILE=1: where cardreg's time goes, row by row ------------------------------
if [[ "$PROFILE" == 1 ]]; then
  PROFILE_DIR="${PROFILE_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/glmspeed-profiles.XXXXXX")}"
  mkdir -p "$PROFILE_DIR"
  echo
  echo "== CPU profiles of cardreg's timed calls (PROFILE_DIR=$PROFILE_DIR; go tool pprof -top -nodecount=5, flat) =="
  for label in "${LABELS[@]}"; do
    [[ -n "${CMD[$label]:-}" ]] || continue
    reps="$(awk -v c="${CPU1[$label]}" -v s="$PROFILE_SECONDS" -v r="$REPS" 'BEGIN {
      k = (c > 0) ? int(s / c + 0.999) : r; if (k < r) k = r; if (k > 200) k = 200; print k }')"
    [[ "$label" == cv-* ]] && reps="$CV_REPS"
    [[ "$label" == gram-* ]] && reps="$(awk -v k="$reps" -v g="$GRAM_REPS" 'BEGIN { print (k > g ? k : g) }')"
    prof="$PROFILE_DIR/$label.prof"
    ${CMD[$label]} -reps "$reps" -cpuprofile "$prof" >/dev/null
    bin="$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) { print $i; exit } }' <<<"${CMD[$label]}")"
    echo "# $label: $reps timed calls after a warm-up"
    "$GO" tool pprof -top -nodecount=5 "$bin" "$prof" 2>/dev/null | sed -n '/^Showing nodes/,$p' | sed 's/^/  /'
  done
fi
exit
}
