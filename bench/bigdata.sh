#!/usr/bin/env bash
# A file larger than comfortable memory, side by side in one run: the one
# streamed pass of `cardreg cv --stream` on a 10^7 x 50 CSV against
# pandas.read_csv (Debian python3-pandas, C parser) on the same file, and
# on the same values as Parquet against the CSV. Medians and ratios by
# farm-bench (paired runs A B A B ..., whole processes): wall and CPU
# (user + sys) times, peak memory; the load average before and after.
#
#   bash bench/bigdata.sh            # BIG_N=10000000 BIG_P=50 RUNS=3 DIR=/tmp
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. bench/lib.sh
bench_need libopenblas0-pthread python3-pandas python3-numpy python3-threadpoolctl
bench_load start
bench_blas_numpy
"$BENCH_PY" -c 'import pandas; print("# pandas", pandas.__version__)'
echo "# commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(go version)"
N="${BIG_N:-10000000}"; P="${BIG_P:-50}"; RUNS="${RUNS:-3}"; DIR="${DIR:-/tmp}"
csv="$DIR/big${N}x${P}.csv"; pq="$DIR/big${N}x${P}.parquet"
go build -o "$DIR/cardreg-bench" ./cmd/cardreg
[[ -f "$csv" ]] || go run ./bench/gendata -n "$N" -p "$P" -digits 8 -out "$csv"
[[ -f "$pq" ]] || go run ./bench/gendata -n "$N" -p "$P" -digits 8 -parquet -out "$pq"
ls -l "$csv" "$pq"
echo "== cardreg cv --stream CSV (A) vs pandas.read_csv (B)"
farm-bench -n "$RUNS" --timeout 3600 \
  --vs "/usr/bin/python3 -c 'import pandas; pandas.read_csv(\"$csv\")'" -- "$DIR/cardreg-bench" cv --stream "$csv"
echo "== cardreg cv --stream Parquet (A) vs CSV (B)"
farm-bench -n "$RUNS" --timeout 3600 --vs "$DIR/cardreg-bench cv --stream $csv" -- "$DIR/cardreg-bench" cv --stream "$pq"
bench_load end
