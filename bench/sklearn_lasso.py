#!/usr/bin/python3
"""Anchor timings for scikit-learn's Lasso on the CSV written by bench/gendata.

Usage: /usr/bin/python3 bench/sklearn_lasso.py DATA.csv [--lambda-glmnet L]
                                            [--tol T] [--reps R] [--no-path | --path-only]

Prints machine-readable "name value" lines on stdout. Only the fitting calls
are timed, in-process: NAME_seconds by time.perf_counter() (wall),
NAME_cpu_seconds by time.process_time() (the process's CPU time, BLAS threads
included); interpreter start-up, imports and CSV parsing are not timed. Each
is the median of --reps (default 5) repetitions after one warm-up. Lines
starting with "#" name the BLAS NumPy runs (threadpoolctl when installed,
else np.show_config()).

Scales. sklearn's Lasso minimises
    (1/(2n)) * ||y - b0 - X w||^2 + alpha * ||w||_1,
which is exactly glmnet's gaussian objective, so alpha = lambda_glmnet. The
"paper" objective printed here is
    ||y - b0 - X w||^2 + lambda_paper * ||w||_1,  lambda_paper = 2 n lambda_glmnet.

If --lambda-glmnet is not given, lambda = 0.05 * lambda_max with
lambda_max = max_j |x_j'(y - mean(y))| / n, the same rule glmnet.R uses.

tol. sklearn's coordinate descent checks, once the largest coefficient update
of a sweep is below tol * max|w|, whether the duality gap (of the objective
scaled by n, i.e. 0.5*RSS + n*alpha*||w||_1) is below tol * ||y - mean(y)||^2.
The default is 1e-4; we use 1e-10 so the solution matches glmnet's (run with
thresh = 1e-10) to well under 1e-6 relative in the objective.
"""

import argparse
import contextlib
import io
import statistics
import sys
import time
import warnings

import numpy as np
import sklearn
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Lasso, lasso_path


def print_blas():
    """Print, as "#" lines, the BLAS NumPy has loaded."""
    print("# numpy %s, scikit-learn %s, python %s" % (np.__version__, sklearn.__version__,
                                                     sys.version.split()[0]))
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            np.show_config()
        for line in buf.getvalue().splitlines():
            print("# " + line)
        return
    for i in threadpool_info():
        print("# %s %s %s threads=%s %s" % (i.get("user_api"), i.get("internal_api"),
                                             i.get("version"), i.get("num_threads"),
                                             i.get("filepath")))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data")
    ap.add_argument("--lambda-glmnet", type=float, default=None,
                    help="lambda on glmnet's scale (default 0.05*lambda_max)")
    ap.add_argument("--tol", type=float, default=1e-10)
    ap.add_argument("--max-iter", type=int, default=1_000_000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--no-path", action="store_true",
                    help="skip the 100-alpha lasso_path timing")
    ap.add_argument("--path-only", action="store_true",
                    help="time the 100-alpha lasso_path only (bench/glmspeed.sh)")
    args = ap.parse_args()

    # ---- read data (not timed) ----------------------------------------------
    d = np.loadtxt(args.data, delimiter=",", skiprows=1, dtype=np.float64)
    if d.ndim != 2 or d.shape[1] < 2:
        print("sklearn_lasso.py: bad data shape %r" % (d.shape,), file=sys.stderr)
        return 1
    n, p = d.shape[0], d.shape[1] - 1
    # Fortran order is what sklearn's coordinate descent works on; giving it
    # that layout up front avoids a layout conversion inside the timed call.
    X = np.asfortranarray(d[:, :p])
    y = np.ascontiguousarray(d[:, p])
    del d

    # ---- lambda ---------------------------------------------------------------
    yc = y - y.mean()
    lambda_max = float(np.max(np.abs(X.T @ yc)) / n)
    lam = args.lambda_glmnet if args.lambda_glmnet is not None else 0.05 * lambda_max
    lam_paper = 2.0 * n * lam

    def median_time(f):
        """(median wall, median CPU) seconds of --reps calls after a warm-up."""
        f()  # warm-up
        ws, cs = [], []
        for _ in range(args.reps):
            c0, t0 = time.process_time(), time.perf_counter()
            f()
            ws.append(time.perf_counter() - t0)
            cs.append(time.process_time() - c0)
        return statistics.median(ws), statistics.median(cs)

    def paper_objective(b0, w):
        r = y - b0 - X @ w
        return float(r @ r + lam_paper * np.sum(np.abs(w)))

    warnings.simplefilter("error", ConvergenceWarning)  # never report an unconverged fit

    out = []
    out.append(("sklearn_version", sklearn.__version__))
    out.append(("sklearn_n", n))
    out.append(("sklearn_p", p))
    out.append(("sklearn_tol", repr(args.tol)))
    out.append(("sklearn_lambda_max", repr(lambda_max)))
    out.append(("sklearn_lambda", repr(lam)))
    out.append(("sklearn_lambda_paper", repr(lam_paper)))

    # ---- one lambda -------------------------------------------------------------
    def fit_one():
        m = Lasso(alpha=lam, fit_intercept=True, tol=args.tol,
                  max_iter=args.max_iter, selection="cyclic")
        return m.fit(X, y)

    if not args.path_only:
        t_one = median_time(fit_one)
        m = fit_one()
        w = m.coef_
        obj = paper_objective(m.intercept_, w)
        out.append(("sklearn_one_lambda_seconds", "%.6g" % t_one[0]))
        out.append(("sklearn_one_lambda_cpu_seconds", "%.6g" % t_one[1]))
        out.append(("sklearn_objective", repr(obj)))
        out.append(("sklearn_intercept", repr(float(m.intercept_))))
        out.append(("sklearn_nnz", int(np.count_nonzero(w))))
        out.append(("sklearn_n_iter", int(m.n_iter_)))

    # ---- 100-alpha path -----------------------------------------------------------
    # Same grid as glmnet's default for n > p: 100 values log-spaced from
    # lambda_max down to 1e-4 * lambda_max. lasso_path has no intercept, so
    # X and y are centred inside the timed function (Lasso.fit does the same
    # internally). sklearn never stops a path early, so compare with
    # glmnet_path100_seconds (glmnet forced to all 100 lambdas).
    if not args.no_path:
        alphas = lambda_max * np.logspace(0.0, -4.0, 100)

        def fit_path():
            xm = X.mean(axis=0)
            Xc = np.asfortranarray(X - xm)
            ycc = y - y.mean()
            return lasso_path(Xc, ycc, alphas=alphas, tol=args.tol,
                              max_iter=args.max_iter)

        t_path = median_time(fit_path)
        out.append(("sklearn_path_seconds", "%.6g" % t_path[0]))
        out.append(("sklearn_path_cpu_seconds", "%.6g" % t_path[1]))
        out.append(("sklearn_path_nlambda", len(alphas)))

    print_blas()
    for k, v in out:
        print(k, v)
    return 0


if __name__ == "__main__":
    sys.exit(main())
