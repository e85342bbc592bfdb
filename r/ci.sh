#!/usr/bin/env bash
# CI for the R package r/cardreg on a fresh Debian machine: installs R and
# the packages the package and its tests use (Debian's r-base-dev,
# r-cran-testthat, r-cran-glmnet, r-cran-jsonlite) when missing, copies the Go module into the package
# (bootstrap.sh), builds the source package, runs R CMD check on it and
# fails on an ERROR or a WARNING. Go (>= 1.24) is expected at
# /usr/local/go/bin or on the PATH. CARDREG_GO_SRC may name the Go module
# to build from (default: this repository).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
export PATH="$PATH:/usr/local/go/bin"
start=$(date +%s)

need=()
for p in r-base-dev r-cran-testthat r-cran-glmnet r-cran-jsonlite; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
    need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  echo "ci: installing ${need[*]}"
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${need[@]}"
fi
command -v go >/dev/null || { echo "ci: Go is not installed (expected at /usr/local/go)" >&2; exit 1; }
go version
R --version | head -1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bash r/cardreg/bootstrap.sh
cd "$work"
R CMD build "$repo/r/cardreg"
tarball=$(ls cardreg_*.tar.gz)

status=0
_R_CHECK_FORCE_SUGGESTS_=false R CMD check --no-manual "$tarball" || status=$?
log=cardreg.Rcheck/00check.log

echo
echo "ci: testthat summary"
out=cardreg.Rcheck/tests/testthat.Rout
[ -f "$out" ] || out=cardreg.Rcheck/tests/testthat.Rout.fail
if [ -f "$out" ]; then
  grep -E '^\[ FAIL|^══|^── ' "$out" || tail -20 "$out"
fi

echo
echo "ci: R CMD check: $(grep '^Status:' "$log" || echo 'no status')"
grep -E '(NOTE|WARNING|ERROR)$' "$log" || true
echo "ci: $(( $(date +%s) - start )) s"
if [ "$status" -ne 0 ] || grep -qE '^Status:.*(WARNING|ERROR)' "$log"; then
  echo "ci: R CMD check found an ERROR or a WARNING (see above)" >&2
  [ -f cardreg.Rcheck/00install.out ] && tail -30 cardreg.Rcheck/00install.out >&2
  exit 1
fi
echo "ci: ok"
