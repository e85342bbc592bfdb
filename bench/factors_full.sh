#!/usr/bin/env bash
# The issue's full actuarial model at scale, timed as whole commands.
#
#   bash bench/factors_full.sh          # from the repository root, ../shared beside it
#
# freMTPL2freq (678,013 policies): Poisson ClaimNb with offset
# log(min(Exposure, 1)); Area and VehPower ordinal, VehBrand, Region and
# VehGas nominal; two designs for the four numeric columns (VehAge,
# DrivAge, BonusMalus, Density):
#   std: numeric predictors, --standardize (the factors' dummy columns are
#        not standardised), each its own lasso term (--penalty lasso);
#   bin: each binned into 10 quantile bands (--bin NAME=10), ordinal
#        factors (BonusMalus's ties leave 6 bands).
# Each a 50-λ path and a 5-fold cross-validation (the full-data path and
# five fold paths). Every fit must converge at the default relative duality
# gap 1e-7 (a run with a fit that did not is reported and the script fails).
# Prints wall and CPU seconds (user + system) and peak resident memory
# (/usr/bin/time) of each run, and the load average before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
bench_go
shared=${SHARED:-../shared/data}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$GO" build -o "$work/cardreg" ./cmd/cardreg
echo "# cardreg at $(git rev-parse --short HEAD); $(nproc) cores; $(uname -r)"

zcat "$shared/freMTPL2freq.csv.gz" | awk -F, 'BEGIN { OFS = "," }
  NR == 1 { print "Area,VehPower,VehBrand,Region,VehGas,VehAge,DrivAge,BonusMalus,Density,log_exposure,ClaimNb"; next }
  { e = $3; if (e > 1) e = 1; print $4, $5, $9, $12, $10, $6, $7, $8, $11, log(e), $2 }' >"$work/fre.csv"

common=(--family poisson --offset log_exposure --target ClaimNb --ordinal Area --ordinal VehPower --nlambda 50)
std=(--standardize --penalty lasso)
bin=(--bin VehAge=10 --bin DrivAge=10 --bin BonusMalus=10 --bin Density=10)

# timed LABEL CMD...: runs CMD once, prints its wall, CPU and peak memory,
# fails on a fit that did not converge or an error.
timed() {
  local label=$1
  shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >"$work/out.csv" 2>"$work/err"
  sed "s/^/  $label: /" "$work/err" >&2
  if grep -q "not converge" "$work/err"; then
    echo "bench/factors_full.sh: $label: a fit did not converge" >&2
    exit 1
  fi
  read -r wall user sys rss <"$work/time"
  printf '%-10s wall %7.2f s  cpu %7.2f s  peak %5d MiB  (%d lines of output)\n' \
    "$label" "$wall" "$(echo "$user + $sys" | bc)" "$((rss / 1024))" "$(wc -l <"$work/out.csv")"
}

bench_load start
timed std-path "$work/cardreg" path "${common[@]}" "${std[@]}" "$work/fre.csv"
timed std-cv5 "$work/cardreg" cv "${common[@]}" "${std[@]}" --folds 5 "$work/fre.csv"
timed bin-path "$work/cardreg" path "${common[@]}" "${bin[@]}" "$work/fre.csv"
timed bin-cv5 "$work/cardreg" cv "${common[@]}" "${bin[@]}" --folds 5 "$work/fre.csv"
bench_load end
