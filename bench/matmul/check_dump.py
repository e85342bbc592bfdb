#!/usr/bin/python3
"""Cross-check an m4ri_mul --dump file: verify C == A @ B (mod 2) with NumPy.

    /usr/bin/python3 bench/matmul/check_dump.py FILE

Prints `m4ri_dump_check_N 1` when the product matches (exit 0), otherwise
`m4ri_dump_check_N 0` and the number of differing entries on stderr (exit 1).
"""
import sys

import numpy as np


def read_dump(path):
    mats = {}
    with open(path) as f:
        lines = [ln.rstrip("\n") for ln in f]
    i = 0
    while i < len(lines):
        if not lines[i]:
            i += 1
            continue
        name, rows, cols = lines[i].split()
        rows, cols = int(rows), int(cols)
        body = lines[i + 1:i + 1 + rows]
        if len(body) != rows or any(len(r) != cols or set(r) - {"0", "1"} for r in body):
            raise ValueError(f"{path}: malformed matrix {name}")
        mats[name] = np.array([[c == "1" for c in r] for r in body], dtype=np.int64).reshape(rows, cols)
        i += 1 + rows
    return mats


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    m = read_dump(sys.argv[1])
    a, b, c = m["A"], m["B"], m["C"]
    want = (a @ b) % 2
    diff = int(np.count_nonzero(want != c)) if want.shape == c.shape else -1
    ok = diff == 0
    print(f"m4ri_dump_check_{a.shape[0]} {int(ok)}")
    if not ok:
        print(f"check_dump: {diff} entries differ (-1 = shape mismatch)", file=sys.stderr)
    # Guard against a trivially passing check (e.g. all-zero matrices).
    if ok and not (a.any() and b.any() and c.any()):
        print("check_dump: warning: a matrix is all zero", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
