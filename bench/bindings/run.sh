#!/usr/bin/env bash
# The Python package's overhead: a 5000×500 gaussian cardinality fit at one
# λ (50 on cardreg's scale: 19 clusters, 20 iterations; λ_max ≈ 836 on these
# data) from a numpy array through the package (bench.py: cardreg.fit, the
# array read in place) against the same fit through the Go library (gofit:
# estimator.Fit), on the same data file, in BENCH_ROUNDS (10) interleaved
# rounds (Python, Go, Python, Go, ...), each process timing REPS (10) fits
# and only the fits. Prints each fit's wall and CPU time, then the medians
# (and the fastest fits) and the ratio Python/Go. A third program per
# round, gofit -via binding, runs the Go function behind cardreg_fit
# natively (its input checks and JSON document, no cgo): it tells the
# library's own overhead from the Python layer's.
#
#   bash bench/bindings/run.sh
#
# libcardreg is built from this checkout into a temporary directory and
# loaded through CARDREG_LIB, the package from python/ (no install needed).
set -euo pipefail
ROUNDS="${BENCH_ROUNDS:-10}"
REPS="${REPS:-10}"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: bad BENCH_ROUNDS '$ROUNDS'" >&2; exit 2; }
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. bench/lib.sh
bench_go
bench_need libopenblas0-pthread python3-numpy
tmp="$(mktemp -d)"
trap 'rm -rf -- "$tmp"' EXIT
"$GO" build -buildmode=c-shared -o "$tmp/libcardreg.so" ./clib
"$GO" build -o "$tmp/gofit" ./bench/bindings/gofit
export CARDREG_LIB="$tmp/libcardreg.so" PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
echo "# commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $("$GO" version), $(nproc) CPUs"
bench_blas_numpy
"$BENCH_PY" -c 'import cardreg; print("# libcardreg:", cardreg.version())'
"$BENCH_PY" bench/bindings/bench.py write "$tmp/data.f64"
out="$tmp/times"
bench_load start
for ((r = 1; r <= ROUNDS; r++)); do
  echo "# round $r/$ROUNDS"
  "$BENCH_PY" bench/bindings/bench.py fit "$tmp/data.f64" --reps "$REPS" | tee -a "$out"
  "$tmp/gofit" -data "$tmp/data.f64" -reps "$REPS" | tee -a "$out"
  "$tmp/gofit" -data "$tmp/data.f64" -reps "$REPS" -via binding | tee -a "$out"
done
bench_load end
"$BENCH_PY" - "$out" <<'PY'
import re, statistics, sys
t = {w: {"wall": [], "cpu": []} for w in ("python", "go", "binding")}
rounds = []  # per round: {who: {kind: [times]}}
for line in open(sys.argv[1]):
    who = line.split()[0]
    rep = int(re.search(r"rep=(\d+)", line).group(1))
    if who == "python" and rep == 1:
        rounds.append({w: {"wall": [], "cpu": []} for w in t})
    for k in ("wall", "cpu"):
        v = float(re.search(k + r"_seconds=(\S+)", line).group(1))
        t[who][k].append(v)
        rounds[-1][who][k].append(v)
for k in ("wall", "cpu"):
    for label, f in (("median", statistics.median), ("fastest", min)):
        py, go, bd = (f(t[w][k]) for w in ("python", "go", "binding"))
        print("%-4s %-7s of %d fits: python %.4f s, go %.4f s (binding %.4f s): "
              "ratio python/go %.3f (binding/go %.3f)"
              % (k, label, len(t["go"][k]), py, go, bd, py / go, bd / go))
    # Paired by round (the load changes between rounds): each round's
    # ratio of medians, and their median.
    r = [statistics.median(x["python"][k]) / statistics.median(x["go"][k]) for x in rounds]
    print("%-4s per-round ratios python/go: %s; their median %.3f"
          % (k, " ".join("%.3f" % v for v in r), statistics.median(r)))
PY
