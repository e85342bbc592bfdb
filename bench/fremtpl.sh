#!/usr/bin/env bash
# freMTPL2freq, all nine variables, Poisson with offset log(min(Exposure, 1)):
# cardreg beside R glmnet on the same sparse model matrix, the same 50-λ grid
# and the same five folds, lasso penalty, in interleaved rounds (issue 37).
#
#   bash bench/fremtpl.sh            # from anywhere; ../shared/data beside the repository
#   BENCH_BINS=10 bash bench/fremtpl.sh   # the numeric columns binned into 10 quantile bands
#
# The design (bench/fremtpl_glmnet.R builds it and writes it for cardreg):
# Area and VehPower ordinal (split coding: the lasso on those columns is an
# ordinal factor's chain penalty), VehBrand, Region, VehGas nominal
# (treatment dummies against R's reference: B1, R11, Diesel), VehAge,
# DrivAge, BonusMalus, Density numeric, standardised (divisor n), or with
# BENCH_BINS=K binned into K quantile bands, split-coded. 52 columns (or
# more when binned); 7.4 million non-zeros.
#
# Each round, in this order:
#   glmnet  Rscript bench/fremtpl_glmnet.R: glmnet(poisson, offset, nlambda = 50,
#           standardize = FALSE, thresh BENCH_THRESH (1e-7)) and cv.glmnet(the
#           same grid, foldid), early stop off, timed in-process (median of
#           BENCH_REPS after a warm-up; CPU = user + sys), the R process's
#           peak memory (VmHWM) beside its peak after building the design.
#   cardreg the same design (the model matrix as a CSV), the same λ
#           (--lambda-glmnet, glmnet's grid), the same folds (--foldid):
#             cardreg path --family poisson --penalty lasso --offset logexp
#               --target ClaimNb --drop foldid --lambda-glmnet GRID fre-mm.csv
#             cardreg cv   … --foldid foldid …
#           each a whole process under /usr/bin/time (reading the 678k-row CSV
#           included: gross), and once at one λ (λ_max) for the reading and
#           set-up (net = gross − that); every fit must be certified at the
#           relative duality gap BENCH_TOL (1e-7).
#   cardreg with factors, as an actuary would write it (not the glmnet problem:
#           a nominal factor's penalty fuses all pairs of levels, the lasso
#           above only each level with the reference), timed for the record:
#             cardreg path --family poisson --penalty lasso --standardize
#               --ordinal Area --ordinal VehPower --ref VehBrand=B1 --ref Region=R11
#               --ref VehGas=Diesel --offset logexp --target ClaimNb --drop foldid
#               --lambda-glmnet GRID fre-raw.csv
#           (with BENCH_BINS=K: --bin VehAge=K … instead of --standardize, when
#           cardreg has --bin). A refusal is printed, not fatal.
# The agreement: cardreg's path against glmnet's (objective on glmnet's scale,
# coefficients at every λ), λ_min and λ_1se of the two CVs and their mean
# deviances. The figures the issue asks for: CPU ≤ 15 s, memory ≤ 1 GB,
# CPU ≤ 1.0× glmnet's (judged on the CV, the full-data path plus five folds).
#
# Environment: BENCH_ROUNDS (3), BENCH_REPS (1), BENCH_THRESH (1e-7),
# BENCH_CARDREG_CV=0 skips cardreg's CV (long on a cardreg without sparse designs),
# BENCH_TOL (1e-7), BENCH_BINS (0), BENCH_CACHE (the design files;
# default ${XDG_CACHE_HOME:-$HOME/.cache}/cardreg-bench/fremtpl), SHARED
# (../shared/data), BENCH_KEEP=1 keeps the work directory.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. bench/lib.sh
bench_go
ROUNDS="${BENCH_ROUNDS:-3}"
REPS="${BENCH_REPS:-1}"
THRESH="${BENCH_THRESH:-1e-7}"
TOL="${BENCH_TOL:-1e-7}"
BINS="${BENCH_BINS:-0}"
SHARED="${SHARED:-../shared/data}"
CACHE="${BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cardreg-bench/fremtpl}"
PY="$BENCH_PY"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "fremtpl.sh: bad BENCH_ROUNDS '$ROUNDS'" >&2; exit 2; }
[[ -f "$SHARED/freMTPL2freq.csv.gz" ]] || { echo "fremtpl.sh: $SHARED/freMTPL2freq.csv.gz not found (SHARED=…)" >&2; exit 2; }
bench_need time libopenblas0-pthread r-cran-glmnet r-cran-matrix python3-numpy
bench_load start
bench_blas_r
echo "# glmnet $(Rscript -e 'cat(as.character(packageVersion("glmnet")))'), Matrix $(Rscript -e 'cat(as.character(packageVersion("Matrix")))')"
echo "# commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (modified)'), $("$GO" version), $(nproc) cores, $(free -g | awk '/Mem:/ { print $2 }') GB"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/cardreg-fremtpl.XXXXXX")"
if [[ "${BENCH_KEEP:-0}" == 1 ]]; then echo "# keeping $WORK" >&2; else trap 'rm -rf -- "$WORK"' EXIT; fi
"$GO" build -o "$WORK/cardreg" ./cmd/cardreg
mkdir -p "$CACHE"
tag=fre
((BINS > 0)) && tag="fre-bin$BINS"

value() { local k="$1"; shift; awk -v k="$k" '$1 == k { print $2; exit }' "$@" 2>/dev/null || true; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b + 0 > 0) printf "%.2f", a / b; else printf "-" }'; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b != "") printf "%.3f", a - b; else printf "-" }'; }
median() { tr ' ' '\n' | awk 'NF' | sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

# timed OUT CMD...: runs CMD under /usr/bin/time; OUT.time is "wall cpu rss_kib".
timed() {
  local out="$1"; shift
  if ! /usr/bin/time -f "%e %U %S %M" -o "$out.rawtime" "$@" >"$out.csv" 2>"$out.err"; then
    echo "# failed: $(basename "$out"): $(grep -v '^Command exited' "$out.err" | head -c 400)"
    return 1
  fi
  awk '{ printf "%s %.3f %d\n", $1, $2 + $3, $4 }' "$out.rawtime" >"$out.time"
  if grep -qi "not converge" "$out.err"; then echo "# $(basename "$out"): a fit did not converge: $(grep -i "not converge" "$out.err" | head -2)"; fi
}

mm="$CACHE/$tag-mm.csv"
common=(--family poisson --offset logexp --target ClaimNb --tol "$TOL")
facflags=(--penalty lasso --ordinal Area --ordinal VehPower --ref VehBrand=B1 --ref Region=R11 --ref VehGas=Diesel)
if ((BINS > 0)); then
  for v in VehAge DrivAge BonusMalus Density; do facflags+=(--bin "$v=$BINS"); done
  "$WORK/cardreg" path --help 2>&1 | grep -q -- '-bin' || facflags=()
else
  facflags+=(--standardize)
fi
gc=() gp=() cc=() cp=() cn=() cpn=() fc=()
for ((r = 1; r <= ROUNDS; r++)); do
  load0="$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# round $r/$ROUNDS: glmnet (path, cv), cardreg (path, cv, one λ, factors) — $(cat /proc/loadavg)" >&2
  G="$WORK/glmnet$r.txt"
  Rscript bench/fremtpl_glmnet.R "$SHARED/freMTPL2freq.csv.gz" "$CACHE" "$REPS" "$THRESH" "$BINS" >"$G"
  grid="$(paste -sd, "$CACHE/$tag.lambda")"
  timed "$WORK/path$r" "$WORK/cardreg" path "${common[@]}" --penalty lasso --drop foldid --lambda-glmnet "$grid" "$mm" || true
  [[ "${BENCH_CARDREG_CV:-1}" == 1 ]] && timed "$WORK/cv$r" "$WORK/cardreg" cv "${common[@]}" --penalty lasso --foldid foldid --lambda-glmnet "$grid" "$mm" || true
  timed "$WORK/one$r" "$WORK/cardreg" path "${common[@]}" --penalty lasso --drop foldid --lambda-glmnet "$(head -1 "$CACHE/$tag.lambda")" "$mm" || true
  if ((${#facflags[@]})); then
    timed "$WORK/fac$r" "$WORK/cardreg" path "${common[@]}" "${facflags[@]}" --drop foldid --lambda-glmnet "$grid" "$CACHE/fre-raw.csv" || true
  fi
  echo "# loadavg after round $r: $(cat /proc/loadavg)"
  read_t() { [[ -f "$1.time" ]] && cat "$1.time" || echo "- - -"; }
  read -r pw pc prss <<<"$(read_t "$WORK/path$r")"
  read -r vw vc vrss <<<"$(read_t "$WORK/cv$r")"
  read -r _ oc _ <<<"$(read_t "$WORK/one$r")"
  [[ "$oc" == - ]] && oc=""
  [[ "$pc" == - ]] && pc=""
  [[ "$vc" == - ]] && vc=""
  gp+=("$(value glmnet_path_cpu_seconds "$G")"); gc+=("$(value glmnet_cv_cpu_seconds "$G")")
  [[ -n "$pc" ]] && { cp+=("$pc"); cpn+=("$(minus "$pc" "$oc")"); }
  [[ -n "$vc" ]] && { cc+=("$vc"); cn+=("$(minus "$vc" "$oc")"); }
  echo "== round $r/$ROUNDS (load average $load0 -> $(cut -d' ' -f1-3 /proc/loadavg)): n $(value glmnet_n "$G"), p $(value glmnet_p "$G"), nnz $(value glmnet_nnz "$G"), 50 λ, thresh $THRESH, tol $TOL =="
  printf '%-22s %10s %10s %10s %10s %10s %8s %8s\n' run glmnet_s glmnet_cpu cardreg_s cardreg_cpu net_cpu ratio net_ratio
  printf '%-22s %10s %10s %10s %10s %10s %8s %8s\n' "path" "$(value glmnet_path_seconds "$G")" "$(value glmnet_path_cpu_seconds "$G")" "$pw" "${pc:--}" "$(minus "$pc" "$oc")" \
    "$(ratio "$pc" "$(value glmnet_path_cpu_seconds "$G")")" "$(ratio "$(minus "$pc" "$oc")" "$(value glmnet_path_cpu_seconds "$G")")"
  printf '%-22s %10s %10s %10s %10s %10s %8s %8s\n' "cv, 5 folds" "$(value glmnet_cv_seconds "$G")" "$(value glmnet_cv_cpu_seconds "$G")" "$vw" "${vc:--}" "$(minus "$vc" "$oc")" \
    "$(ratio "$vc" "$(value glmnet_cv_cpu_seconds "$G")")" "$(ratio "$(minus "$vc" "$oc")" "$(value glmnet_cv_cpu_seconds "$G")")"
  echo "cardreg one λ (reading + set-up): ${oc:--} s CPU"
  echo "memory: cardreg path peak $([[ "$prss" != - ]] && echo "$((prss / 1024)) MiB" || echo -), cv peak $([[ "$vrss" != - ]] && echo "$((vrss / 1024)) MiB" || echo -); glmnet R process peak $(value glmnet_peak_rss_mb "$G") MiB (after reading the CSV and building the design: $(value glmnet_rss_after_design_mb "$G") MiB; the dgCMatrix alone $(value glmnet_dgcmatrix_mb "$G") MiB)"
  echo "glmnet: λ_max $(value glmnet_lambda_max "$G"), λ_min index $(value glmnet_index_min "$G") (cvm $(value glmnet_cvm_min "$G")), λ_1se index $(value glmnet_index_1se "$G") (cvm $(value glmnet_cvm_1se "$G")); glmnet's default stop would keep $(value glmnet_default_stop_nlambda "$G") λ"
  if [[ -f "$WORK/cv$r.csv" ]]; then
    awk -F, 'NR > 1 && $NF == "lambda_min" { m = sprintf("λ_min index %d (mean deviance %s)", NR - 1, $3) }
      NR > 1 && $NF == "lambda_1se" { s = sprintf("λ_1se index %d (%s)", NR - 1, $3) }
      END { print "cardreg cv: " m ", " s }' "$WORK/cv$r.csv"
  fi
  if [[ -f "$WORK/path$r.csv" ]]; then
    "$PY" bench/sparse_compare.py "$WORK/path$r.csv" "$CACHE/$tag" "$(value glmnet_n "$G")" | sed 's/^/cardreg path vs glmnet: /'
  fi
  if [[ -f "$WORK/fac$r.time" ]]; then
    read -r fw fcpu frss <"$WORK/fac$r.time"; fc+=("$fcpu")
    echo "cardreg with factors (${facflags[*]}): wall $fw s, CPU $fcpu s, peak $((frss / 1024)) MiB"
  fi
  echo
done
echo "== medians over $ROUNDS rounds (CPU seconds) =="
echo "glmnet path $(echo "${gp[*]}" | median), cv $(echo "${gc[*]}" | median)"
if ((${#cc[@]})); then
  m="$(echo "${cc[*]}" | median)"; mn="$(echo "${cn[*]}" | median)"
  echo "cardreg path $(echo "${cp[*]}" | median) (net $(echo "${cpn[*]}" | median)), cv $m (net $mn): cv ratio to glmnet $(ratio "$m" "$(echo "${gc[*]}" | median)") gross, $(ratio "$mn" "$(echo "${gc[*]}" | median)") net; targets: CPU <= 15 s, <= 1.0x glmnet, memory <= 1 GB"
fi
((${#fc[@]})) && echo "cardreg with factors, path: $(echo "${fc[*]}" | median)"
bench_load end
