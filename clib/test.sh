#!/usr/bin/env bash
# Builds the C library and runs the C interface's test (testdata/abi_test.c)
# against it: good calls, and bad input that must give an error message,
# never a crash. CI runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -buildmode=c-shared -o "$out/libcardreg.so" ./clib
cc -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -o "$out/abi_test" clib/testdata/abi_test.c -L"$out" -lcardreg -lpthread -lm -Wl,-rpath,"$out"
"$out/abi_test"
