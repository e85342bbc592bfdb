#!/usr/bin/env bash
# Executes every notebook in this folder with the GoNB kernel and fails on any
# cell error. Installs what is missing: Debian's jupyter-nbconvert,
# python3-nbclient and jupyter-client, then goimports and GoNB, both pinned,
# through the Go module proxy. The executed copies go to a temporary folder;
# the stored notebooks are not rewritten.
#
# Usage: bash notebooks/run.sh [NOTEBOOK.ipynb ...]
set -euo pipefail
cd "$(dirname "$0")"

gonb_version=v0.11.4
goimports_version=v0.31.0

if ! command -v jupyter-nbconvert >/dev/null 2>&1 || ! python3 -c 'import nbclient, jupyter_client' 2>/dev/null; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "notebooks: need root or sudo to install jupyter-nbconvert" >&2; exit 1; }
    sudo=sudo
  fi
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jupyter-nbconvert python3-nbclient jupyter-client >/dev/null
fi

gobin="$(go env GOPATH)/bin"
export PATH="$gobin:$PATH"
go install "golang.org/x/tools/cmd/goimports@$goimports_version"

# GoNB is built inside a throwaway module that requires the pinned version:
# `go install ...@version` also asks the proxy for the module's version list,
# which the proxy may refuse.
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
(
  cd "$build"
  printf 'module gonbbuild\n\ngo 1.24\n\nrequire github.com/janpfeifer/gonb %s\n' "$gonb_version" > go.mod
  printf '//go:build tools\n\npackage tools\n\nimport _ "github.com/janpfeifer/gonb"\n' > tools.go
  go mod tidy
  go build -o "$gobin/gonb" github.com/janpfeifer/gonb
)
# gopls only serves auto-completion, which executing notebooks does not need.
gonb --install --force_deps >/dev/null 2>&1

out="$build/executed"
mkdir -p "$out"
notebooks=("$@")
[ ${#notebooks[@]} -gt 0 ] || notebooks=(*.ipynb)
for nb in "${notebooks[@]}"; do
  start=$(date +%s)
  if ! jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=300 \
      --output-dir "$out" "$nb" >"$out/$nb.log" 2>&1; then
    grep -v '^[IWE][0-9]\{4\} ' "$out/$nb.log" | tail -40 >&2
    echo "notebooks: $nb failed" >&2
    exit 1
  fi
  echo "notebooks: $nb ran in $(( $(date +%s) - start )) s"
done
