"""cardreg's functions: fit, path and cv, and the results they return.

λ is on cardreg's scale: every family minimises

    Σᵢ wᵢ dᵢ + λ h(β)        (gaussian: ‖y − Xβ − b₀‖² + λ h(β))

with no 1/(2n), the weights rescaled to sum to n. glmnet's and
scikit-learn's λ (``alpha``) is λ/(2n): see ``lambda_glmnet``.
"""

import json
import math
import numbers

import numpy as np

from . import _data, _lib

__all__ = ["fit", "path", "cv", "FitResult", "PathResult", "CVResult",
           "options_json"]

# Python keyword -> the command line's flag name (the options' keys).
_ALIASES = {
    "lam": "lambda",
    "lambda_": "lambda",
    "lambdas": "lambda",
    "n_lambda": "nlambda",
    "lambda_min_ratio": "min-ratio",
    "n_folds": "folds",
}


def _jsonable(v):
    if isinstance(v, np.ndarray):
        return [_jsonable(x) for x in v.tolist()]
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, numbers.Integral):
        return int(v)
    if isinstance(v, numbers.Real):
        return float(v)
    return v


def options_json(data_options, options):
    """The options JSON: the data's description plus options, whose
    Python names (``max_iter``, ``lam``, ``fit_intercept``...) are turned
    into the command line's (``max-iter``, ``lambda``, ``no-intercept``).
    None means "not given" (the library's default)."""
    out = dict(data_options)
    for k, v in options.items():
        if v is None:
            continue
        if k == "fit_intercept":
            if not v:
                out["no-intercept"] = True
            continue
        key = _ALIASES.get(k, k.replace("_", "-"))
        if key in out:
            raise ValueError("option %r given twice (as %r)" % (key, k))
        out[key] = _jsonable(v)
    try:
        return json.dumps(out, allow_nan=False)
    except ValueError:
        bad = [k for k, v in out.items() if not _finite(v)]
        raise ValueError("options must be finite numbers: %s"
                         % ", ".join(bad)) from None
    except TypeError as e:
        raise ValueError("an option's value cannot be written as JSON: %s"
                         % e) from None


def _finite(v):
    if isinstance(v, float):
        return math.isfinite(v)
    if isinstance(v, list):
        return all(_finite(x) for x in v)
    if isinstance(v, dict):
        return all(_finite(x) for x in v.values())
    return True


def _floats(xs):
    return np.array([np.nan if v is None else v for v in xs], dtype=float)


def _num(v):
    return np.nan if v is None else v


class _Call:
    """The buffers of one call, held alive until it returns."""

    def __init__(self, X, y, sample_weight, offset, names=None):
        self.design = _data.design_of(X, names)
        n = self.design.n
        self.y = _data.vector(y, n, "y", allow_none=False)
        self.w = _data.vector(sample_weight, n, "sample_weight")
        self.off = _data.vector(offset, n, "offset")

    def run(self, kind, options):
        d = self.design
        opt = options_json(d.options(), options)
        y, w, off = (self.y.ctypes.data, _data._addr(self.w),
                     _data._addr(self.off))
        if d.sparse:
            h = _lib.call_fit_csc(kind, d.n, d.p, *d.addrs(), y, w, off,
                                  None, 0, opt)
        else:
            h = _lib.call_fit(kind, d.x_addr(), d.n, d.p, d.layout, y, w,
                              off, d.codes_addr(), d.nfactors, opt)
        # The library keeps no pointer; the result keeps the layout (for
        # predict), not the data.
        d.forget()
        return h


class _Result:
    """What fits, paths and cross-validations share: the library's
    handle (freed with the object or by close()) and predictions."""

    def _predict(self, X, k, type, offset):
        d = _data.design_like(X, self._design)
        out = np.empty(d.n, dtype=np.float64)
        off = _data.vector(offset, d.n, "offset")
        if d.sparse:
            _lib.call_predict_csc(self._handle, k, d.n, d.p, *d.addrs(),
                                  None, 0, _data._addr(off), type,
                                  out.ctypes.data)
        else:
            _lib.call_predict(self._handle, k, d.x_addr(), d.n, d.p,
                              d.layout, d.codes_addr(), d.nfactors,
                              _data._addr(off), type, out.ctypes.data)
        return out

    def close(self):
        """Free the library's result now; predict raises afterwards."""
        self._handle.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class FitResult(_Result):
    """One fitted model (:func:`fit`).

    Attributes
    ----------
    coef : ndarray (p,)
        Coefficients on the data's scale, in the order of ``names``.
    intercept : float
    names : list of str
        The design's columns: X's numeric columns, then each factor's
        dummy columns ``NAME=LEVEL`` (one per level but the reference).
    lambda_, lambda_glmnet : float
        λ on cardreg's scale and glmnet's λ/(2n).
    duality_gap : float
        The relative duality gap (the certificate; NaN when the penalty has
        none). ``converged``, ``iterations``, ``status``.
    clusters : list of list of str
        Predictors sharing one value; ``cluster_values``, ``distinct_values``.
    factors : list of dict
        For factor predictors: each factor's level groups (``levels``,
        ``effect``, ``relativity``, ``rows``, ``share``).
    cv : dict or None
        The cross-validation summary when λ was cross-validated
        (``lambda_rule`` says how λ was chosen).
    objective, r2, dev_ratio, deviance, null_deviance : float
    relaxed : bool
        Whether the coefficients are the refit on the clusters (relax).
        Then ``coef``, ``intercept``, ``r2``, ``dev_ratio`` and ``deviance``
        are the refit's (``summary["relaxed_fields"]`` lists them), while
        ``objective`` and ``duality_gap`` are the penalised fit's.
    penalized : dict or None
        With ``relaxed``, the penalised fit that chose the clusters: its
        ``objective``, ``duality_gap``, ``deviance``, ``dev_ratio`` (and
        ``r2`` for gaussian).
    summary : dict
        The whole JSON document, as ``cardreg fit --format json`` prints it.
    """

    def __init__(self, handle, design, k=0, summary=None):
        # k and summary: model k of a cross-validation's handle, with its
        # fit document (CVResult.model); by default a fit's only model.
        self._handle = handle
        self._design = design
        self._k = k
        models, cols = handle.dims()
        self.coef = np.empty(cols, dtype=np.float64)
        self.intercept = handle.coef(k, self.coef)
        lam, gap, conv = handle.status(k)
        s = handle.json() if summary is None else summary
        self.summary = s
        self.lambda_ = lam
        self.duality_gap = gap
        self.converged = conv
        self.lambda_glmnet = _num(s.get("lambda_glmnet"))
        self.names = list(s.get("names") or design.names)
        self.iterations = s.get("iterations")
        self.status = s.get("status")
        self.family = s.get("family")
        self.penalty = s.get("penalty")
        self.nu = _num(s.get("nu"))
        self.n = s.get("n")
        self.clusters = s.get("clusters") or []
        self.cluster_values = _floats(s.get("cluster_values") or [])
        self.distinct_values = _floats(s.get("distinct_values") or [])
        self.dev_ratio = _num(s.get("dev_ratio"))
        self.deviance = _num(s.get("deviance"))
        self.null_deviance = _num(s.get("null_deviance"))
        self.factors = s.get("factors") or []
        self.cv = s.get("cv")
        self.objective = _num(s.get("objective"))
        self.r2 = _num(s.get("r2"))
        self.relaxed = bool(s.get("relaxed"))
        self.penalized = s.get("penalized")
        self.lambda_rule = s.get("lambda_rule")

    def predict(self, X, type="response", offset=None):
        """Predictions for new rows X (laid out as at fitting): ``type``
        ``"link"``, ``"response"`` or ``"class"`` (binomial)."""
        return self._predict(X, self._k, type, offset)

    def __repr__(self):
        return ("FitResult(family=%r, penalty=%r, lambda=%g, %d clusters, "
                "gap=%.3g, converged=%s)" % (self.family, self.penalty,
                                             self.lambda_, len(self.clusters),
                                             self.duality_gap, self.converged))


class PathResult(_Result):
    """A path of fits along a decreasing λ grid (:func:`path`).

    Attributes (numpy arrays, one entry per λ; ``coefs`` is nλ × p)
    ----------------------------------------------------------------
    lambdas, lambda_glmnet, coefs, intercepts, gaps, converged,
    iterations, dev_ratio, deviance, df
        The grid (cardreg's scale, and glmnet's λ/(2n)) and each model.
    names : list of str
        The design's columns (coefficient order).
    clusters : list
        Per λ, the clusters (lists of names sharing one value).
    lambda_max : float
        The smallest λ at which every penalised coefficient is 0 (or fused
        with the others, for the cardinality penalty's common value).
    note : str
        Why a generated grid stopped early, if it did.
    summary : dict
        The library's whole JSON document.
    """

    def __init__(self, handle, design):
        self._handle = handle
        self._design = design
        models, cols = handle.dims()
        s = handle.json()
        self.summary = s
        self.family = s.get("family")
        self.penalty = s.get("penalty")
        self.n = s.get("n")
        self.names = list(s.get("names") or design.names)
        self.lambda_max = _num(s.get("lambda_max"))
        self.note = s.get("note") or ""
        self.coefs = np.empty((models, cols), dtype=np.float64)
        self.intercepts = np.empty(models, dtype=np.float64)
        self.lambdas = np.empty(models, dtype=np.float64)
        self.gaps = np.empty(models, dtype=np.float64)
        self.converged = np.empty(models, dtype=bool)
        for k in range(models):
            self.intercepts[k] = handle.coef(k, self.coefs[k])
            self.lambdas[k], self.gaps[k], self.converged[k] = \
                handle.status(k)
        ms = s.get("models") or []
        self.lambda_glmnet = _floats([m.get("lambda_glmnet") for m in ms])
        self.iterations = np.array([m.get("iterations") or 0 for m in ms],
                                   dtype=np.int64)
        self.dev_ratio = _floats([m.get("dev_ratio") for m in ms])
        self.deviance = _floats([m.get("deviance") for m in ms])
        self.df = np.array([m.get("df") if m.get("df") is not None else -1
                            for m in ms], dtype=np.int64)
        self.clusters = [m.get("clusters") or [] for m in ms]
        self.distinct_values = [_floats(m.get("distinct_values") or [])
                                for m in ms]

    def __len__(self):
        return len(self.lambdas)

    def predict(self, X, k=None, type="response", offset=None):
        """Predictions of model k (an index into ``lambdas``; None: every
        model, an n × nλ array) for new rows X laid out as at fitting."""
        if k is None:
            return np.column_stack([self._predict(X, j, type, offset)
                                    for j in range(len(self))])
        return self._predict(X, _model_index(k, len(self)), type, offset)

    def plot(self, ax=None, **kw):
        """Coefficients against λ (needs matplotlib): see plot_path."""
        from .plotting import plot_path
        return plot_path(self, ax=ax, **kw)

    def __repr__(self):
        return "%s(family=%r, penalty=%r, %d lambdas, %d columns)" % (
            type(self).__name__, self.family, self.penalty, len(self),
            self.coefs.shape[1])


class CVResult(PathResult):
    """A cross-validated path (:func:`cv`): the full-data path's models,
    as in :class:`PathResult`, and cv.glmnet's curve.

    Attributes
    ----------
    measure : str
        The measure (one of the family's in ``cardreg.describe()``).
    cvm, cvsd : ndarray
        The cross-validated mean and its standard error, per λ.
    index_min, index_1se : int
        0-based indices into ``lambdas`` of λ_min (the smallest cvm) and
        λ_1se (the largest λ within one standard error of it).
    lambda_min, lambda_1se : float
    folds : int
    foldid : ndarray of int
        Each row's fold, 1-based as in cv.glmnet.
    """

    def __init__(self, handle, design):
        super().__init__(handle, design)
        c = self.summary.get("cv") or {}
        self.measure = c.get("measure")
        self.folds = c.get("folds")
        self.cvm = _floats(c.get("cvm") or [])
        self.cvsd = _floats(c.get("cvsd") or [])
        self.lambda_min = _num(c.get("lambda_min"))
        self.lambda_1se = _num(c.get("lambda_1se"))
        # The library's 0-based indices into the grid.
        self.index_min = int(c["index_min"])
        self.index_1se = int(c["index_1se"])
        self.foldid = np.array(c.get("foldid") or [], dtype=np.int64)

    def model(self, rule="min"):
        """The model at λ_min (``rule="min"``) or λ_1se (``"1se"``) as a
        :class:`FitResult`, documented as :func:`fit` with ``lam="cv"``
        and that rule documents it (level groups of factors, clusters of
        the numeric predictors). It shares this result's handle."""
        if rule not in ("min", "1se"):
            raise ValueError("rule must be 'min' or '1se'; got %r" % (rule,))
        k = self.index_min if rule == "min" else self.index_1se
        return FitResult(self._handle, self._design, k,
                         self.summary["fits"][rule])

    def plot(self, ax=None, **kw):
        """The CV curve with error bars (needs matplotlib): see plot_cv."""
        from .plotting import plot_cv
        return plot_cv(self, ax=ax, **kw)


def fit(X, y, *, family=None, penalty=None, lam=None, sample_weight=None,
        offset=None, names=None, **options):
    """Fit one model (``cardreg fit``).

    Parameters
    ----------
    X : ndarray (n, p), DataFrame or scipy.sparse matrix or array
        Predictors; a DataFrame's ``category`` columns are factors.
        A float64 array in C or Fortran order is read in place. A sparse
        X (CSR, CSC, COO, ...) is converted once to CSC (a copy of it
        when its format, dtypes or order require; X is never modified)
        and never densified; the fit is the one of the same data dense.
    y : array (n,)
    family : str
        A family of the library (default ``"gaussian"``):
        ``cardreg.describe()["families"]`` lists them with their links and
        parameters (written after a colon, ``"tweedie:1.5"``).
    penalty : str
        A penalty of the library (default ``"cardinality"``):
        ``cardreg.describe()["penalties"]`` lists them with the options
        they need (``groups`` for ``"grouped"``).
    lam : float or ``"cv"``, ``"aic"``, ``"bic"``
        λ on cardreg's scale (glmnet's λ is lam/(2n)); None: the library's
        default (10-fold cross-validation, rule ``"min"``).
    sample_weight, offset : array (n,), optional
    names : list of str, optional
        Names of a numpy X's columns (default x1, x2, ..., the
        library's).
    **options
        Any option of the library by the command line's flag name, in
        Python spelling (``_`` for ``-``: ``max_iter``, ``type_measure``;
        ``fit_intercept=False`` for ``no_intercept``):
        ``cardreg.describe()["options"]["fit"]`` lists those a fit
        accepts (``["path"]``, ``["cv"]`` for the others). The library
        refuses an unknown name, or one with no effect in the call, with a
        ValueError naming them. ``alpha`` is the elasticnet penalty's mix
        (glmnet's alpha, the ℓ₁ share; scikit-learn's l1_ratio).

    Returns
    -------
    FitResult
    """
    c = _Call(X, y, sample_weight, offset, names)
    opts = dict(family=family, penalty=penalty, lam=lam)
    opts.update(options)
    return FitResult(c.run("fit", opts), c.design)


def path(X, y, *, family=None, penalty=None, lambdas=None, sample_weight=None,
         offset=None, names=None, **options):
    """Fit a decreasing grid of λ with warm starts (``cardreg path``).

    ``lambdas``: the grid (cardreg's scale); None: ``nlambda`` values
    (default 100) from λ_max down to ``min_ratio``·λ_max, stopped early by
    glmnet's rules. Other parameters as in :func:`fit`.

    Returns
    -------
    PathResult
    """
    c = _Call(X, y, sample_weight, offset, names)
    opts = dict(family=family, penalty=penalty, lambdas=_grid(lambdas))
    opts.update(options)
    return PathResult(c.run("path", opts), c.design)


def cv(X, y, *, family=None, penalty=None, lambdas=None, sample_weight=None,
       offset=None, names=None, **options):
    """Cross-validate along the grid as cv.glmnet does (``cardreg cv``).

    Options of note: ``folds`` (default 10), ``seed`` (default 1),
    ``foldid`` (1-based fold per row), ``type_measure``. The models are
    the full-data path's; the curve is in ``cvm``/``cvsd``. Other
    parameters as in :func:`path`.

    Returns
    -------
    CVResult
    """
    c = _Call(X, y, sample_weight, offset, names)
    opts = dict(family=family, penalty=penalty, lambdas=_grid(lambdas))
    opts.update(options)
    return CVResult(c.run("cv", opts), c.design)


def _model_index(k, models):
    """k checked as an index into a result's models: an integer (not a
    bool, not 2.5 or "2", which int() would quietly turn into 2)."""
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral):
        raise TypeError("k must be an integer index into the models (0 to "
                        "%d); got %r" % (models - 1, k))
    k = int(k)
    if not 0 <= k < models:
        raise IndexError("k = %d: the result has models 0 to %d"
                         % (k, models - 1))
    return k


def _grid(lambdas):
    if lambdas is None:
        return None
    a = np.atleast_1d(np.asarray(lambdas, dtype=np.float64))
    if a.ndim != 1:
        raise ValueError("lambdas must be a 1-dimensional sequence")
    if not np.all(np.isfinite(a)):
        raise ValueError("lambdas must be finite numbers")
    return a
