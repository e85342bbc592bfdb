# Shared helpers of the bench/ scripts; from the repository root: . bench/lib.sh
#
#   bench_need PKG...        install the Debian packages not yet installed
#                            (apt-get update first; waits up to 10 min for the
#                            dpkg lock; sudo when not root)
#   bench_blas_r             "#" lines: R's version and its BLAS/LAPACK
#   bench_blas_numpy         "#" lines: the BLAS NumPy runs (threadpoolctl, else
#                            np.show_config())
#   bench_blas_torch         "#" lines: torch.__config__.show(), then the BLAS
#                            libraries loaded in the process after a torch
#                            float64 product
#   bench_load LABEL         "# loadavg LABEL: <the five fields of /proc/loadavg>"
#   bench_go                 set GO to the Go toolchain (go on PATH or
#                            /usr/local/go/bin/go)
#
# The CPU times themselves are taken in-process by each timed program
# (NAME_cpu_seconds and the like), so that start-up and data reading are not
# counted.
#
# Debian's packages (python3-numpy, -sklearn, -torch) live in Debian's
# python: the scripts run /usr/bin/python3 ($BENCH_PY), never a python3
# found first on PATH (e.g. pyenv's).

BENCH_PY=/usr/bin/python3

bench_need() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f '${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$pkg")
  done
  ((${#missing[@]} == 0)) && return 0
  local sudo=()
  if [[ "$(id -u)" -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || { echo "bench: need root or sudo to install: ${missing[*]}" >&2; return 1; }
    sudo=(sudo)
  fi
  echo "# installing from Debian: ${missing[*]}" >&2
  "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 update >&2
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
    install -y --no-install-recommends "${missing[@]}" >&2
}

bench_blas_r() {
  Rscript -e 'si <- sessionInfo(); cat("# ", si$R.version$version.string, "\n# R BLAS: ", si$BLAS, "\n# R LAPACK: ", si$LAPACK, "\n", sep = "")'
}

bench_blas_numpy() {
  "$BENCH_PY" - "$@" <<'PY'
import sys
if "torch" in sys.argv[1:]:
    import torch
    print("\n".join("# " + l for l in torch.__config__.show().splitlines()))
    torch.ones(64, 64, dtype=torch.float64) @ torch.ones(64, 64, dtype=torch.float64)
import numpy as np
print("# numpy", np.__version__)
try:
    from threadpoolctl import threadpool_info
    for i in threadpool_info():
        print("# %s %s %s threads=%s %s" % (i.get("user_api"), i.get("internal_api"),
                                             i.get("version"), i.get("num_threads"), i.get("filepath")))
except ImportError:
    import contextlib, io
    b = io.StringIO()
    with contextlib.redirect_stdout(b):
        np.show_config()
    print("\n".join("# " + l for l in b.getvalue().splitlines()))
PY
}

bench_blas_torch() {
  bench_blas_numpy torch
}

bench_load() {
  echo "# loadavg $1: $(cat /proc/loadavg)"
}

bench_go() {
  if command -v go >/dev/null 2>&1; then
    GO=go
  elif [[ -x /usr/local/go/bin/go ]]; then
    GO=/usr/local/go/bin/go
  else
    echo "bench: no Go toolchain found (need go on PATH or /usr/local/go/bin/go)" >&2
    return 1
  fi
}
