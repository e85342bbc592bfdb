#!/usr/bin/env bash
# What CI runs for the Python package on a fresh Debian machine: Debian's
# Python packages and the C compiler cgo needs (installed only when
# missing), then run_tests.sh, which builds the package (and libcardreg,
# with Go at /usr/local/go or on PATH) in a fresh virtual environment and
# runs its tests.
set -euo pipefail
cd "$(dirname "$0")"
need=()
for pkg in python3-venv python3-setuptools python3-wheel python3-numpy python3-pandas python3-sklearn gcc libc6-dev; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    need+=("$pkg")
  fi
done
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}"
fi
export PATH="$PATH:/usr/local/go/bin"
if ! command -v go >/dev/null 2>&1; then
  echo "ci: Go is not installed (expected at /usr/local/go or on PATH): the package builds libcardreg with it" >&2
  exit 1
fi
bash ./run_tests.sh
