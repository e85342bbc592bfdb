#!/usr/bin/env bash
# Creates a virtual environment on Debian's python3 (its numpy, pandas and
# scikit-learn through --system-site-packages), installs ./python into it
# -- which builds libcardreg from this repository with Go -- and runs the
# package's tests against the installed package. Nothing is downloaded by
# pip. Environment: PYTHON (default /usr/bin/python3), CARDREG_VENV (default:
# a fresh one in a temporary directory; a named one is re-created only if
# this script made it, else refused), GO (default: go on PATH, else
# /usr/local/go).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
py=${PYTHON:-/usr/bin/python3}
export PATH="$PATH:/usr/local/go/bin"
export CARDREG_SOURCE="$root"
unset CARDREG_LIB   # test the library the install built

# The command line the tests compare with, built from the same checkout
# while pip builds the library.
go=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
tmp=$(mktemp -d)
cli=
trap '[ -n "$cli" ] && kill "$cli" 2>/dev/null; rm -rf -- "$tmp"' EXIT
venv=${CARDREG_VENV:-$tmp/venv}
mark=.cardreg-run-tests
if [ -e "$venv" ] && [ ! -e "$venv/$mark" ]; then
  echo "run_tests.sh: $venv exists and was not made by this script: not re-creating it (set CARDREG_VENV to a new directory)" >&2
  exit 2
fi
"$go" build -mod=mod -o "$tmp/cardreg" ./cmd/cardreg &
cli=$!

"$py" -m venv --clear --system-site-packages "$venv"
touch "$venv/$mark"
rm -rf python/build python/cardreg.egg-info
"$venv/bin/pip" install --quiet --no-build-isolation --no-index ./python
wait "$cli"
cli=
export CARDREG_CLI="$tmp/cardreg"
# Run outside the source tree's package so that the installed one is tested.
"$venv/bin/python" - <<'PY'
import cardreg, sklearn, numpy, pandas
print("cardreg", cardreg.__version__, "from", cardreg.__file__)
print("library", cardreg.library_path(), "--", cardreg.version())
print("numpy", numpy.__version__, "pandas", pandas.__version__,
      "scikit-learn", sklearn.__version__)
PY
"$venv/bin/python" -m unittest discover -s python/tests "$@"
