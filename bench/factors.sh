#!/usr/bin/env bash
# Factors at scale: the issue's workloads, timed as whole commands.
#
#   bash bench/factors.sh            # from the repository root, ../shared beside it
#
# freMTPL2freq (678,013 policies): Poisson claim counts with offset
# log(min(Exposure, 1)); Area and VehPower ordinal, VehBrand and Region
# nominal, VehGas a two-level factor (a lasso on its one effect); the numeric
# columns (VehAge, DrivAge, BonusMalus, Density) are left out. Equal pair
# weights. Two runs, each a whole process (reading the 678k-row CSV
# included):
#   path: a 50-λ path;
#   cv:   the same 50-λ grid with 5-fold cross-validation (the full-data path
#         and five fold paths).
# beMTPL97 (163,212 policies): Poisson nclaims with offset log(expo);
# postcode a 583-level nominal factor, coverage ordinal (TPL < TPL+ < TPL++),
# sex, fuel, use two-level factors, fleet a 0/1 column; the numeric columns
# left out; a 10-λ path from 300 to 0.01 (equal pair weights fuse every
# postcode with the reference above λ ≈ 1; the generated grid's deviance
# rule stops there).
#
# Every fit must converge at the default relative duality gap 1e-7 (the
# script fails on a fit that did not converge; a path cut short by glmnet's
# stopping rule is said on stderr and kept). Prints wall and CPU seconds (user + system,
# /usr/bin/time) and the peak resident memory of each run, and the load
# average before and after. BENCH_ROUNDS (default 3) runs each command that
# many times; the median is what a README figure quotes.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
bench_go
shared=${SHARED:-../shared/data}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rounds=${BENCH_ROUNDS:-3}

"$GO" build -o "$work/cardreg" ./cmd/cardreg
echo "# cardreg at $(git rev-parse --short HEAD); $(nproc) cores; $(uname -r)"

# freMTPL2freq: Area,VehPower,VehBrand,Region,VehGas, the offset, ClaimNb.
zcat "$shared/freMTPL2freq.csv.gz" | awk -F, 'BEGIN { OFS = "," }
  NR == 1 { print "Area,VehPower,VehBrand,Region,VehGas,log_exposure,ClaimNb"; next }
  { e = $3; if (e > 1) e = 1; print $4, $5, $9, $12, $10, log(e), $2 }' >"$work/fre.csv"
# beMTPL97: postcode,coverage,sex,fuel,use,fleet, the offset, nclaims.
zcat "$shared/beMTPL97.csv.gz" | awk -F, 'BEGIN { OFS = "," }
  NR == 1 { print "postcode,coverage,sex,fuel,use,fleet,log_exposure,nclaims"; next }
  { print $16, $7, $9, $13, $14, $15, log($2), $4 }' >"$work/be.csv"

fre=(--family poisson --offset log_exposure --target ClaimNb --ordinal Area --ordinal VehPower --nlambda 50)
be=(--family poisson --offset log_exposure --target nclaims --factor postcode --ordinal coverage=TPL,TPL+,TPL++
  --lambda 300,100,30,10,3,1,0.3,0.1,0.03,0.01)

# timed LABEL CMD...: runs CMD rounds times, prints each run's wall, CPU and
# peak memory, fails on a warning or an error.
timed() {
  local label=$1 r
  shift
  for r in $(seq "$rounds"); do
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >"$work/out.csv" 2>"$work/err"
    if grep -q "not converge" "$work/err"; then
      echo "bench/factors.sh: $label: $(cat "$work/err")" >&2
      exit 1
    fi
    sed "s/^/  $label: /" "$work/err" >&2
    read -r wall user sys rss <"$work/time"
    printf '%-14s round %d  wall %6.2f s  cpu %6.2f s  peak %5d MiB  (%d lines of output)\n' \
      "$label" "$r" "$wall" "$(echo "$user + $sys" | bc)" "$((rss / 1024))" "$(wc -l <"$work/out.csv")"
  done
}

bench_load start
timed fre-path "$work/cardreg" path "${fre[@]}" "$work/fre.csv"
timed fre-cv5 "$work/cardreg" cv "${fre[@]}" --folds 5 "$work/fre.csv"
timed be-path "$work/cardreg" path "${be[@]}" "$work/be.csv"
bench_load end
