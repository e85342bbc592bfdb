#!/usr/bin/python3
"""Compares a `cardreg path` CSV with the glmnet anchor's output (bench/sparse.sh,
bench/fremtpl.sh).

    /usr/bin/python3 bench/sparse_compare.py CARDREG_PATH.csv GLMNET_OUT N

GLMNET_OUT.lambda (glmnet's scale), .obj (glmnet's objective per λ) and .coef
("index,j,value", j = 0 the intercept, else the 1-based column) are written
by sparse_glmnet.R / fremtpl_glmnet.R. cardreg's path CSV has columns lambda
(paper scale), objective (paper scale: deviance + λ·h(β), no 1/(2n)),
distinct_values, converged, dev_ratio, then one column per coefficient (no
intercept), in the design's column order; names x<j> or <j> are mapped to
column j, other names by position. Prints "compare_..." lines: the number of
λ on each side, cardreg's unconverged fits, the largest relative difference
of the λ values (cardreg/(2n) against glmnet's), the objectives' relative
difference cardreg/(2n) − glmnet (max and min over the grid: negative means
cardreg's is lower), and the largest |β_cardreg − β_glmnet| over the
coefficients (intercept excluded) at glmnet's saved indices, beside the
largest |β| there.
"""
import csv
import re
import sys

import numpy as np

FIXED = {"lambda", "objective", "distinct_values", "converged", "dev_ratio", "relaxed",
         "lambda_glmnet", "df", "nonzero"}


def read_cardreg(path):
    with open(path, newline="") as f:
        r = csv.reader(f)
        head = next(r)
        rows = [row for row in r if row]
    first = next(k for k, h in enumerate(head) if h not in FIXED)
    names = head[first:]
    idx = []
    for k, nm in enumerate(names):
        m = re.fullmatch(r"x?(\d+)", nm)
        idx.append(int(m.group(1)) if m else k + 1)
    if len(set(idx)) != len(idx):
        idx = list(range(1, len(names) + 1))
    col = {h: k for k, h in enumerate(head)}
    lam = np.array([float(r[col["lambda"]]) for r in rows])
    obj = np.array([float(r[col["objective"]]) for r in rows])
    conv = [r[col["converged"]].strip().lower() == "true" for r in rows]
    beta = np.array([[float(v) for v in r[first:]] for r in rows])
    return lam, obj, conv, beta, np.array(idx)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    cpath, gout, n = sys.argv[1], sys.argv[2], float(sys.argv[3])
    lam, obj, conv, beta, idx = read_cardreg(cpath)
    glam = np.loadtxt(gout + ".lambda", ndmin=1)
    gobj = np.loadtxt(gout + ".obj", delimiter=",", ndmin=2)[:, 0]
    print("compare_nlambda_cardreg %d\ncompare_nlambda_glmnet %d" % (len(lam), len(glam)))
    print("compare_cardreg_unconverged %d" % conv.count(False))
    m = min(len(lam), len(glam))
    if m == 0:
        return
    print("compare_lambda_rel_diff_max %.2e" % np.max(np.abs(lam[:m] / (2 * n) - glam[:m]) / glam[:m]))
    rel = (obj[:m] / (2 * n) - gobj[:m]) / np.abs(gobj[:m])
    print("compare_obj_rel_diff_max %.3e\ncompare_obj_rel_diff_min %.3e" % (rel.max(), rel.min()))
    coef = np.loadtxt(gout + ".coef", delimiter=",", ndmin=2)
    worst, big, where = 0.0, 0.0, 0
    p = int(max(idx.max(), coef[:, 1].max()))
    for k in np.unique(coef[:, 0]).astype(int):
        if k > m:
            continue
        sel = coef[(coef[:, 0] == k) & (coef[:, 1] > 0)]
        g = np.zeros(p + 1)
        g[sel[:, 1].astype(int)] = sel[:, 2]
        c = np.zeros(p + 1)
        c[idx] = beta[k - 1]
        d = np.abs(c - g).max()
        if d > worst:
            worst, where = d, k
        big = max(big, np.abs(g).max())
    print("compare_max_abs_coef_diff %.3e\ncompare_at_index %d\ncompare_max_abs_coef %.4g" % (worst, where, big))


if __name__ == "__main__":
    main()
