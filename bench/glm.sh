#!/usr/bin/env bash
# Logistic (or Poisson) fits, cardreg beside R glmnet on the same data, one
# run: one lambda and the 100-lambda path at 5000x500 and 1000x5000, the
# lasso (ratio cardreg/glmnet at the accuracy glmnet reaches, certified by
# cardreg's duality gap) and cardreg's cardinality fit beside it.
#
#   bash bench/glm.sh            # FAMILY=poisson, REPS=5, THRESH=1e-7
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
FAMILY="${FAMILY:-binomial}"
REPS="${REPS:-5}"
THRESH="${THRESH:-1e-7}"
LAMBDA="${LAMBDA:-0.01}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/glmbench" ./bench/glmbench
printf '%-10s %-6s %-12s %10s %10s %8s %10s %10s\n' size fit penalty cardreg_s glmnet_s ratio gap_ours gap_glmnet
for size in 5000x500 1000x5000; do
  n="${size%x*}"; p="${size#*x}"
  data="$dir/$size.csv"
  "$dir/glmbench" -gen -n "$n" -p "$p" -family "$FAMILY" -out "$data"
  r="$(Rscript bench/glmnet_family.R "$data" "$FAMILY" "$LAMBDA" "$THRESH" "$REPS" "$dir/coef.txt")"
  g() { echo "$r" | awk -v k="$1" '$1 == k {print $2}'; }
  gg="$("$dir/glmbench" -data "$data" -family "$FAMILY" -lambda "$LAMBDA" -certify "$dir/coef.txt" | awk '{print $2}')"
  # Our tolerance: the gap glmnet reached (never looser than 1e-4).
  tol="$(awk -v g="$gg" 'BEGIN { if (g > 1e-4) g = 1e-4; print g }')"
  o="$("$dir/glmbench" -data "$data" -family "$FAMILY" -lambda "$LAMBDA" -tol "$tol" -reps "$REPS")"
  c() { echo "$o" | awk -v k="$1" '$1 == k {print $2}'; }
  printf '%-10s %-6s %-12s %10s %10s %8.2f %10s %10s\n' "$size" one lasso "$(c cardreg_seconds)" "$(g glmnet_seconds)" \
    "$(awk -v a="$(c cardreg_seconds)" -v b="$(g glmnet_seconds)" 'BEGIN{print a/b}')" "$(c cardreg_gap)" "$gg"
  o="$("$dir/glmbench" -data "$data" -family "$FAMILY" -path 100 -tol "$tol" -reps "$REPS")"
  printf '%-10s %-6s %-12s %10s %10s %8.2f %10s %10s\n' "$size" path lasso "$(c cardreg_seconds)" "$(g glmnet_path_seconds)" \
    "$(awk -v a="$(c cardreg_seconds)" -v b="$(g glmnet_path_seconds)" 'BEGIN{print a/b}')" "$(c cardreg_path_worst_gap)" "len $(g glmnet_path_len)/$(c cardreg_path_len)"
  o="$("$dir/glmbench" -data "$data" -family "$FAMILY" -penalty cardinality -frac 0.1 -tol 1e-6 -reps "$REPS")"
  printf '%-10s %-6s %-12s %10s %10s %8s %10s %10s\n' "$size" "0.1max" cardinality "$(c cardreg_seconds)" - - "$(c cardreg_gap)" -
done
