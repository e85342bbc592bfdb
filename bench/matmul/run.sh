#!/usr/bin/env bash
# Anchor timings for binary / small-cardinality matrix products:
# M4RI (GF(2), bench/matmul/m4ri_mul.c) and NumPy/BLAS (bench/matmul/numpy_matmul.py),
# plus, when it exists, cardreg's own bench/matmulbench and a ratio table.
#
#   bash bench/matmul/run.sh
#
# Environment: BENCH_MATMUL_SIZES ("2048 4096"), BENCH_MATMUL_REPS (5),
# BENCH_MATMUL_SEED (1), CC (gcc). Every program times only the
# multiplication call in-process: median of REPS runs after one warm-up.
set -euo pipefail

SIZES="${BENCH_MATMUL_SIZES:-2048 4096}"
REPS="${BENCH_MATMUL_REPS:-5}"
SEED="${BENCH_MATMUL_SEED:-1}"
CC="${CC:-gcc}"
PY=/usr/bin/python3

# Repository root = two levels above the directory holding this script.
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

for v in $SIZES; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: bad size '$v' in BENCH_MATMUL_SIZES" >&2; exit 1; }
done
[[ "$REPS" =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: bad BENCH_MATMUL_REPS '$REPS'" >&2; exit 1; }
[[ "$SEED" =~ ^[0-9]+$ ]] || { echo "run.sh: bad BENCH_MATMUL_SEED '$SEED'" >&2; exit 1; }

# ---- 1. dependencies from Debian, only when missing ------------------------
missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if ! { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists m4ri; } \
   || [[ ! -f /usr/include/m4ri/m4ri.h ]]; then
  missing+=(libm4ri-dev)
fi
"$PY" -c 'import numpy' >/dev/null 2>&1 || missing+=(python3-numpy)
if ((${#missing[@]} > 0)); then
  if [[ "$(id -u)" == 0 ]]; then
    SUDO=()
  elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
  else
    echo "run.sh: need root or sudo to install: ${missing[*]}" >&2
    exit 1
  fi
  echo "# installing from Debian: ${missing[*]}" >&2
  "${SUDO[@]}" apt-get update
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
fi
command -v "$CC" >/dev/null 2>&1 || { echo "run.sh: C compiler '$CC' not found" >&2; exit 1; }

# ---- 2. build the M4RI program -------------------------------------------
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
OUT="$TMP/lines.txt"
: >"$OUT"

# shellcheck disable=SC2046  # pkg-config output must be word-split
"$CC" -O2 -o "$TMP/m4ri_mul" bench/matmul/m4ri_mul.c $(pkg-config --cflags --libs m4ri)

# Run a program, echo its lines and keep them for the table.
run() { "$@" | tee -a "$OUT"; }

echo "# m4ri $(pkg-config --modversion m4ri), $("$CC" --version | head -n1), flags: -O2 $(pkg-config --cflags m4ri)"
echo "# sizes: $SIZES, reps: $REPS (median after one warm-up), seed: $SEED"

# ---- 3. correctness cross-check at a small, non-multiple-of-64 size --------
"$TMP/m4ri_mul" 70 1 "$SEED" --dump "$TMP/dump70.txt" >/dev/null
run "$PY" bench/matmul/check_dump.py "$TMP/dump70.txt"

# ---- 4. anchors ------------------------------------------------------------
for n in $SIZES; do
  run "$TMP/m4ri_mul" "$n" "$REPS" "$SEED"
done
first=1
for n in $SIZES; do
  if ((first)); then
    run "$PY" bench/matmul/numpy_matmul.py --n "$n" --reps "$REPS" --seed "$SEED"
    first=0
  else
    run "$PY" bench/matmul/numpy_matmul.py --n "$n" --reps "$REPS" --seed "$SEED" --no-letter | grep -v '^#'
  fi
done

# ---- 5. HOOK: cardreg's own benchmark (bench/matmulbench), when present ----
# It is expected to print cardreg_binary_mod2_N, cardreg_binary_counts_N and
# cardreg_letter lines; the table below pairs them with the anchors.
if [[ -d bench/matmulbench ]]; then
  if command -v go >/dev/null 2>&1; then
    GO=go
  elif [[ -x /usr/local/go/bin/go ]]; then
    GO=/usr/local/go/bin/go
  else
    echo "run.sh: bench/matmulbench exists but no Go toolchain found" >&2
    exit 1
  fi
  echo "# go run ./bench/matmulbench -reps $REPS"
  run "$GO" run ./bench/matmulbench -reps "$REPS"
else
  echo "# bench/matmulbench not found: cardreg timings skipped"
fi

# ---- 6. ratio table: cardreg / anchor, for pairs where both names appear ---
echo
awk '
  NF == 2 && $1 !~ /^#/ && $2 ~ /^[-+0-9.eE]+$/ { v[$1] = $2 + 0; order[++k] = $1 }
  function row(a, b) {
    if ((a in v) && (b in v) && !(a in done)) {
      done[a] = 1
      if (!hdr) { printf "%-28s %-22s %12s %12s %8s\n", "cardreg", "anchor", "cardreg_s", "anchor_s", "ratio"; hdr = 1 }
      if (v[b] > 0) r = sprintf("%.2f", v[a] / v[b]); else r = "n/a"
      printf "%-28s %-22s %12.6g %12.6g %8s\n", a, b, v[a], v[b], r
    }
  }
  END {
    for (i = 1; i <= k; i++) {
      name = order[i]
      if (name ~ /^cardreg_binary_mod2_[0-9]+$/)   { n = name; sub(/^cardreg_binary_mod2_/, "", n);   row(name, "m4ri_mul_" n) }
      if (name ~ /^cardreg_binary_counts_[0-9]+$/) { n = name; sub(/^cardreg_binary_counts_/, "", n); row(name, "numpy_binary_f64_" n) }
      if (name == "cardreg_letter") row(name, "numpy_letter_f64")
    }
    if (!hdr) print "# ratio table: no cardreg/anchor pairs found"
  }
' "$OUT"
