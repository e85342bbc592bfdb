#!/usr/bin/env bash
# Copies cardreg's Go module (go.mod, go.sum and the packages that ./clib
# builds from, without tests or testdata) into src/go/, so that
# R CMD build r/cardreg makes a source package that installs anywhere with
# the Go toolchain. src/go/ is git-ignored; run this again after the Go
# code changes.
#
#   bash r/cardreg/bootstrap.sh && R CMD build r/cardreg
set -euo pipefail
pkg=$(cd "$(dirname "$0")" && pwd)
repo=${CARDREG_GO_SRC:-$(cd "$pkg/../.." && pwd)}
export PATH="$PATH:/usr/local/go/bin"
module=github.com/cardsparse/cardreg

[ -f "$repo/go.mod" ] && grep -q "^module $module\$" "$repo/go.mod" || {
  echo "bootstrap: $repo is not the cardreg repository (no go.mod of $module)" >&2
  exit 1
}
command -v go >/dev/null || { echo "bootstrap: go is not on the PATH" >&2; exit 1; }

dest=$pkg/src/go
rm -rf "$dest"
mkdir -p "$dest"
cp "$repo/go.mod" "$repo/go.sum" "$dest/"

# The module's packages that ./clib imports, directly or not, and their
# embedded files.
cd "$repo"
dirs=$(go list -deps \
  -f '{{with .Module}}{{if eq .Path "'$module'"}}{{$.Dir}}{{end}}{{end}}' ./clib)
[ -n "$dirs" ] || { echo "bootstrap: go list found no packages for ./clib" >&2; exit 1; }
n=0
for d in $dirs; do
  rel=${d#"$repo"/}
  mkdir -p "$dest/$rel"
  # Every source file of the package but its tests (other platforms' files too:
  # the build picks by its tags); subdirectories are other packages.
  find "$d" -maxdepth 1 -type f \( -name '*.go' -o -name '*.s' -o -name '*.h' \
    -o -name '*.c' \) ! -name '*_test.go' -exec cp {} "$dest/$rel/" \;
  n=$((n + 1))
  for e in $(go list -f '{{range .EmbedFiles}}{{.}} {{end}}' "./$rel"); do
    mkdir -p "$(dirname "$dest/$rel/$e")"
    cp "$d/$e" "$dest/$rel/$e"
  done
done
echo "bootstrap: copied $n packages of $module into $dest ($(du -sh "$dest" | cut -f1))"
