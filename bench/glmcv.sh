#!/usr/bin/env bash
# 10-fold cross-validation of the binomial and the Poisson lasso, cardreg
# beside R cv.glmnet on the same data (bench/glmbench -gen, N×P) and the
# same folds (row i, 1-based, in fold (i-1) mod K + 1), each on its own
# default 100-λ grid with the deviance measure:
#
#   bash bench/glmcv.sh          # N=100000 P=50 K=10 REPS=1 THRESH=1e-7 TOL=1e-7 BENCH_ROUNDS=1
#
# BENCH_ROUNDS rounds, each timing R (bench/glmcv.R) then cardreg
# (glmbench -cv K) for every family. The times are medians of REPS calls
# after a warm-up, in-process; the ratio columns are cardreg/glmnet by wall
# time and by process CPU time (cardreg fits two folds at a time on the two
# cores, glmnet one thread: judge by the CPU ratio). λ_min and λ_1se are on
# glmnet's scale; "agree" is whether both pairs agree to 1e-6 relative.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. bench/lib.sh
bench_go
bench_need libopenblas0-pthread r-cran-glmnet
bench_load start
bench_blas_r
ROUNDS="${BENCH_ROUNDS:-1}"
N="${N:-100000}"
P="${P:-50}"
K="${K:-10}"
REPS="${REPS:-1}"
THRESH="${THRESH:-1e-7}"
TOL="${TOL:-1e-7}"
# Each R call is cut at BENCH_R_TIMEOUT seconds.
R_TIMEOUT="${BENCH_R_TIMEOUT:-600}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
"$GO" build -o "$dir/glmbench" ./bench/glmbench
echo "# commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $("$GO" version)"
echo "# ${N}x${P}, K=$K, REPS=$REPS, glmnet thresh=$THRESH, cardreg tol=$TOL"
# ratio A B: A/B with two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 > 0) printf "%.2f", a / b; else printf "-" }'; }
# rel A B: |A−B|/|B|.
rel() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; if (b < 0) b = -b; printf "%.2g", (b > 0 ? d / b : d) }'; }
# agree A B C D: yes when A≈B and C≈D to 1e-6 relative.
agree() {
  awk -v a="$(rel "$1" "$2")" -v b="$(rel "$3" "$4")" 'BEGIN { print (a <= 1e-6 && b <= 1e-6) ? "yes" : "no" }'
}
row='%-9s %9s %9s %6s %9s %9s %6s %11s %11s %11s %11s %6s\n'
for ((round = 1; round <= ROUNDS; round++)); do
  echo "# round $round/$ROUNDS"
  printf "$row" family cardreg_s glmnet_s ratio cardreg_cpu glmnet_cpu ratio \
    min_cardreg min_glmnet 1se_cardreg 1se_glmnet agree
  notes=()
  for family in binomial poisson; do
    data="$dir/$family.csv"
    [[ -f "$data" ]] || "$dir/glmbench" -gen -n "$N" -p "$P" -family "$family" -out "$data"
    if ! r="$(timeout "$R_TIMEOUT" Rscript bench/glmcv.R "$data" "$family" "$K" "$THRESH" "$REPS")"; then
      echo "# $family: R cv.glmnet failed or took over ${R_TIMEOUT}s (BENCH_R_TIMEOUT); row skipped"
      continue
    fi
    o="$("$dir/glmbench" -data "$data" -family "$family" -cv "$K" -tol "$TOL" -reps "$REPS")"
    g() { echo "$r" | awk -v k="glmnet_$1" '$1 == k {print $2}'; }
    c() { echo "$o" | awk -v k="cardreg_$1" '$1 == k {print $2}'; }
    printf "$row" "$family" \
      "$(c cv_seconds)" "$(g cv_seconds)" "$(ratio "$(c cv_seconds)" "$(g cv_seconds)")" \
      "$(c cv_cpu_seconds)" "$(g cv_cpu_seconds)" "$(ratio "$(c cv_cpu_seconds)" "$(g cv_cpu_seconds)")" \
      "$(c lambda_min)" "$(g lambda_min)" "$(c lambda_1se)" "$(g lambda_1se)" \
      "$(agree "$(c lambda_min_exact)" "$(g lambda_min_exact)" "$(c lambda_1se_exact)" "$(g lambda_1se_exact)")"
    notes+=("# $family: grid cardreg/glmnet $(c cv_len)/$(g cv_len) λ, λ_max rel. diff $(rel "$(c lambda_max)" "$(g lambda_max)"); index (1-based) of λ_min $(c index_min)/$(g index_min), of λ_1se $(c index_1se)/$(g index_1se); rel. diff λ_min $(rel "$(c lambda_min_exact)" "$(g lambda_min_exact)"), λ_1se $(rel "$(c lambda_1se_exact)" "$(g lambda_1se_exact)"); cardreg fold fits not converged: $(c cv_unconverged)")
  done
  printf '%s\n' "${notes[@]}"
  bench_load "after round $round"
done
