#!/usr/bin/python3
"""liblinear anchor for bench/sparse.sh: L1-regularised logistic regression
(liblinear -s 6, the solver of `liblinear-train -s 6`, through Debian's
python3-liblinear binding of the same liblinear.so.4) over a λ grid.

    /usr/bin/python3 bench/sparse_liblinear.py DATA.svm LAMBDA_FILE EPS REPS [GLMNET_PREFIX]

liblinear minimises ‖w‖₁ + C·Σᵢ log(1 + exp(−yᵢ wᵀxᵢ)); glmnet (binomial,
no intercept) minimises (1/n)·Σᵢ log(1 + exp(−yᵢ βᵀxᵢ)) + λ‖β‖₁. Dividing
liblinear's by C·n shows the two have the same minimiser when

    C = 1 / (n·λ_glmnet)        (= 2 / λ_cardreg, cardreg's λ being 2n·λ_glmnet).

liblinear 2.3.0's -B adds a penalised bias column, so the comparison is made
without an intercept (-B −1, glmnet intercept = FALSE, cardreg
--no-intercept). liblinear has no path and no warm start for -s 6: each λ
(LAMBDA_FILE: glmnet's scale, one per line, decreasing) is a training from
w = 0, as a user of liblinear-train runs it. The file is read once (not
timed); the timed part is the loop of trainings, REPS times (median; one
warm-up training first), by wall time and by the process's CPU time.

EPS is liblinear's -e: it stops when ‖∇f(w)‖₁ ≤ EPS·min(#pos, #neg)/n·‖∇f(0)‖₁
(a relative gradient norm, not a duality gap). With GLMNET_PREFIX (the
OUT of sparse_glmnet.R run with intercept FALSE and a tight thresh) each
fit's objective, on glmnet's scale, is compared with glmnet's: the largest
relative excess (obj_liblinear − obj_glmnet)/obj_glmnet over the grid says
how accurate the liblinear fits are, and the largest |w − β| at glmnet's
saved λ indices.
"""
import sys
import time

import numpy as np
import scipy

# Debian's python3-liblinear 2.3.0 calls scipy.ctypeslib, an alias of
# numpy.ctypeslib that SciPy 1.10 no longer exports: give it back.
if not hasattr(scipy, "ctypeslib"):
    scipy.ctypeslib = np.ctypeslib
from liblinearutil import problem, svm_read_problem, train  # noqa: E402


def fit_all(prob, cs, eps):
    models = []
    for c in cs:
        models.append(train(prob, "-s 6 -c %.17g -e %g -q" % (c, eps)))
    return models


def weights(m, p):
    """The coefficients of the +1 class, length p (liblinear's labels are in
    order of first appearance; its w is for labels[0])."""
    w = np.zeros(p)
    nf = m.nr_feature
    w[:nf] = np.ctypeslib.as_array(m.w, shape=(nf,))
    if m.get_labels()[0] != 1:
        w = -w
    return w


def main():
    a = sys.argv[1:]
    if len(a) < 4:
        sys.exit(__doc__)
    data, lamfile, eps, reps = a[0], a[1], float(a[2]), int(a[3])
    gprefix = a[4] if len(a) > 4 else None
    y, x = svm_read_problem(data, return_scipy=True)
    n = x.shape[0]
    lam = np.loadtxt(lamfile, ndmin=1)
    cs = 1.0 / (n * lam)
    prob = problem(y, x)
    train(prob, "-s 6 -c %.17g -e %g -q" % (cs[len(cs) // 2], eps))  # warm-up
    walls, cpus = [], []
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        models = fit_all(prob, cs, eps)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    print("liblinear_path_seconds %.4f" % np.median(walls))
    print("liblinear_path_cpu_seconds %.4f" % np.median(cpus))
    print("liblinear_path_cpu_seconds_all %s" % ",".join("%.4f" % c for c in cpus))
    print("liblinear_nlambda %d" % len(cs))
    print("liblinear_eps %g" % eps)
    p = x.shape[1]  # the largest index in the file (trailing empty columns are absent)
    ws = [weights(m, p) for m in models]
    yy = np.where(y > 0, 1.0, -1.0)
    obj = np.array([np.mean(np.logaddexp(0, -yy * (x @ w))) + l * np.abs(w).sum()
                    for w, l in zip(ws, lam)])
    print("liblinear_nnz_last %d" % np.count_nonzero(ws[-1]))
    if not gprefix:
        return
    g = np.loadtxt(gprefix + ".obj", delimiter=",", ndmin=2)[:, 0]
    rel = (obj - g) / np.abs(g)
    print("liblinear_obj_rel_excess_max %.3e" % rel.max())
    print("liblinear_obj_rel_excess_median %.3e" % np.median(rel))
    print("liblinear_obj_rel_excess_min %.3e" % rel.min())
    coef = np.loadtxt(gprefix + ".coef", delimiter=",", ndmin=2)
    worst = 0.0
    for k in np.unique(coef[:, 0]).astype(int):
        sel = coef[coef[:, 0] == k]
        beta = np.zeros(max(p, int(sel[:, 1].max())) + 1)
        beta[sel[:, 1].astype(int)] = sel[:, 2]
        beta = beta[:p + 1]
        if beta[0] != 0:
            sys.exit("sparse_liblinear.py: %s has an intercept; run sparse_glmnet.R with INTERCEPT FALSE" % gprefix)
        worst = max(worst, np.abs(ws[k - 1] - beta[1:]).max())
    print("liblinear_max_abs_coef_diff_vs_glmnet %.3e" % worst)


if __name__ == "__main__":
    main()
