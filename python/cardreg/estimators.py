"""scikit-learn estimators on libcardreg.

λ is the constructor parameter ``lam``, on cardreg's scale: the objective
is Σᵢ wᵢ dᵢ + lam·h(β) with no 1/(2n) (gaussian: ‖y − Xβ − b₀‖² +
lam·h(β)), the weights rescaled to sum to n; scikit-learn's ``alpha`` is
lam/(2n) (``lambda_glmnet_`` after fitting). It is not called ``lambda_``
because scikit-learn reserves a trailing underscore for fitted attributes.

Every parameter left at None is not passed to the library, which then uses
its own default (tolerance 1e-7, ν = 1/(1 − 2/p) for the cardinality
penalty, ...).
"""

import numbers
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from . import _core, _data, _lib

__all__ = [
    "CardinalityRegressor", "CardinalityClassifier",
    "CardinalityPoissonRegressor", "CardinalityRegressorCV",
    "CardinalityClassifierCV", "CardinalityPoissonRegressorCV",
    "ElasticNet",
]

# The sparse formats check_array passes through (any other is converted to
# the first, CSC, the library's); the library's reading makes the one
# conversion to its CSC arrays.
_SPARSE = ("csc", "csr", "coo")

# (the reason given to check_estimator for the one check it skips)
_ZERO_WEIGHTS = (
    "cardreg rescales the weights to sum to n, the rows of weight 0 "
    "included, and λ has no 1/(2n): a zero-weight row changes the fit at a "
    "given lam (glmnet's convention on cardreg's scale), and it changes the "
    "cross-validation folds")

_SHARED_DOC = """
    penalty : str, default="cardinality"
        A penalty of the library: ``"cardinality"`` (Σ_{i<j}|βᵢ−βⱼ| +
        ν|Σβᵢ|) or another of ``cardreg.describe()["penalties"]``, with
        the options it needs (``groups`` for ``"grouped"``).
    nu : float, optional
        ν; the library's default is 1/(1 − 2/p) for the cardinality
        penalty, 1 for the lasso.
    groups : list of str, optional
        A group label per numeric column (grouped penalty).
    fit_intercept : bool, default=True
    standardize : bool, default=False
        Fit on standardised columns (coefficients are reported on the
        data's scale either way).
    relax : bool, default=False
        Refit the clusters' values without penalty (glmnet's ``relax``).
    tol : float, optional
        Relative duality-gap tolerance (library default 1e-7).
    max_iter : int, optional
        Iteration cap (library default).
    penalty_factor : array, optional
        Per-column penalty factors (0: unpenalised).
    unpenalized : list of str, optional
        Columns fitted without penalty, outside the fusion (the command
        line's ``--exclude``; named as in the R package, where glmnet's
        ``exclude`` means dropping a column).
    pair_weights : str, optional
        Factors' pair weights: ``"equal"``, ``"count"``, ``"adaptive"``.
"""

class _Base(BaseEstimator):
    """What every cardreg estimator shares: the data's conversion, the
    library's call and the fitted attributes."""

    _family = "gaussian"
    _cv = False

    # -- parameters -----------------------------------------------------
    def _options(self):
        # The log-link regressors take a family (the library parses it).
        o = dict(family=getattr(self, "family", self._family),
                 penalty=self.penalty, nu=self.nu,
                 groups=self.groups, standardize=self.standardize or None,
                 relax=self.relax or None, tol=self.tol,
                 max_iter=self.max_iter, penalty_factor=self.penalty_factor,
                 exclude=self.unpenalized, pair_weights=self.pair_weights)
        if not self.fit_intercept:
            o["no_intercept"] = True
        if self._cv:
            o.update(lambdas=self.lambdas, folds=self.n_folds,
                     seed=self.seed, nlambda=self.n_lambda,
                     min_ratio=self.lambda_min_ratio,
                     type_measure=self.type_measure)
            if self.rule not in ("min", "1se"):
                raise ValueError("rule must be 'min' or '1se'; got %r"
                                 % (self.rule,))
        else:
            o["lam"] = self.lam
        return o

    # -- data -----------------------------------------------------------
    def _check_X(self, X, reset):
        """X validated as scikit-learn does; a DataFrame with category
        columns is kept as a DataFrame (its factors)."""
        # Before scikit-learn's checks, whose words would be about dtypes
        # or attributes, not about what to do.
        _data.check_dense(X, allow_scipy=True)
        if _data.is_dataframe(X):
            _data.check_columns(X)
        if _data.has_factors(X):
            self._check_feature_names(X, reset=reset)
            self._check_n_features(X, reset=reset)
            if X.shape[0] < 1:
                raise ValueError("Found array with 0 sample(s) (shape=%s) "
                                 "while a minimum of 1 is required."
                                 % (X.shape,))
            # Its numeric columns are converted once, for the library,
            # which refuses a NaN or an infinity naming its row and column.
            return X
        # check_array keeps a float64 array as it is (C or F order) and
        # turns a float64 DataFrame into its column-major block, no copy.
        # A scipy.sparse X stays sparse (accept_sparse), never densified.
        return self._validate_data(X, reset=reset, dtype=np.float64,
                                   accept_sparse=_SPARSE)

    def _fit_arrays(self, X, y, sample_weight, offset):
        """X, y, weights and offset validated for fitting."""
        clf = self._is_classifier()
        if _data.has_factors(X):
            X = self._check_X(X, reset=True)
            y = _column(y, clf)
            if len(y) != X.shape[0]:
                raise ValueError(
                    "Found input variables with inconsistent numbers of "
                    "samples: [%d, %d]" % (X.shape[0], len(y)))
        else:
            if y is None:
                raise ValueError(
                    "%s requires y to be passed, but the target y is None"
                    % type(self).__name__)
            _data.check_dense(X, allow_scipy=True)
            if _data.is_dataframe(X):
                _data.check_columns(X)
            X, y = self._validate_data(X, y, dtype=np.float64,
                                       accept_sparse=_SPARSE,
                                       y_numeric=not clf,
                                       ensure_min_samples=2)
        if sample_weight is not None:
            sample_weight = _check_sample_weight(sample_weight, X,
                                                 dtype=np.float64)
        if offset is not None:
            offset = _data.vector(offset, X.shape[0], "offset")
        return X, y, sample_weight, offset

    def _is_classifier(self):
        return False

    def _run(self, X, y, sample_weight, offset):
        opts = self._options()
        # A numeric DataFrame reaches here as an array (check_array): its
        # columns keep their names (a frame with factors keeps its own).
        names = None
        if not _data.is_dataframe(X) and hasattr(self, "feature_names_in_"):
            names = [str(c) for c in self.feature_names_in_]
        if self._cv:
            res = _core.cv(X, y, sample_weight=sample_weight, offset=offset,
                           names=names, **opts)
            self._set_cv(res)
            # The chosen model as fit documents it: the plain estimators'
            # attributes, from the same code.
            fit = res.model(self.rule)
        else:
            fit = _core.fit(X, y, sample_weight=sample_weight, offset=offset,
                            names=names, **opts)
            self.result_ = fit.summary
        self._set_fit(fit)
        fit.close()
        self._design = fit._design  # the layout, for predict
        self._level_coefs = []
        index = {nm: j for j, nm in enumerate(self.coef_names_)}
        for spec in self._design.factors:
            # The reference level has no dummy column: its effect is 0.
            self._level_coefs.append(np.array(
                [self.coef_[index[spec.name + "=" + lv]]
                 if spec.name + "=" + lv in index else 0.0
                 for lv in spec.levels]))
        if not self.converged_:
            status = fit.status
            warnings.warn(
                "cardreg did not converge at lambda=%g: relative duality gap "
                "%.3g after %d iterations (%s); see max_iter and tol"
                % (self.lambda_, self.duality_gap_, self.n_iter_, status),
                ConvergenceWarning)
        cv = self.result_.get("cv") or {}
        if cv.get("unconverged_fold_fits"):
            warnings.warn(
                "cardreg: %d of the cross-validation folds' fits did not "
                "converge; the curve rests on them" % (
                    cv["unconverged_fold_fits"],), ConvergenceWarning)
        return self

    def _set_cv(self, res):
        """The cross-validation's attributes (the curve, the path)."""
        k = res.index_min if self.rule == "min" else res.index_1se
        self.lambdas_ = res.lambdas
        self.cv_mean_ = res.cvm
        self.cv_se_ = res.cvsd
        self.lambda_min_ = res.lambda_min
        self.lambda_1se_ = res.lambda_1se
        self.index_ = k
        self.cv_measure_ = res.measure
        self.foldid_ = res.foldid
        self.coef_path_ = res.coefs
        self.intercept_path_ = res.intercepts
        self.result_ = res.summary

    def _set_fit(self, fit):
        """The fitted model's attributes, from a FitResult: the plain
        estimators' fit, or the CV estimators' model at the rule's λ."""
        self.lambda_ = float(fit.lambda_)
        self.coef_ = fit.coef
        self.intercept_ = float(fit.intercept)
        self.duality_gap_ = fit.duality_gap
        self.converged_ = bool(fit.converged)
        self.lambda_glmnet_ = float(fit.lambda_glmnet)
        self.n_iter_ = int(fit.iterations or 0)
        self.clusters_ = fit.clusters
        self.distinct_values_ = fit.distinct_values
        self.dev_ratio_ = fit.dev_ratio
        self.coef_names_ = fit.names
        self.factors_ = fit.factors

    # -- prediction -----------------------------------------------------
    def _link(self, X, offset=None):
        check_is_fitted(self, "coef_")
        factors = _data.has_factors(X)
        X = self._check_X(X, reset=False)
        if _data.is_sparse(X):
            # X·β by scipy's sparse product: never densified. A fit with
            # factors refuses it (its predictions need a DataFrame).
            if self._design.factors:
                _data.design_like(X, self._design)
            self._check_offset_given(offset)
            eta = np.asarray(X @ self.coef_, dtype=np.float64).reshape(-1)
            return self._add_offset(eta + self.intercept_, offset)
        d = _data.design_like(X, self._design)
        self._check_offset_given(offset)
        if factors and not np.isfinite(d.x).all():
            # check_array checked a plain X; a frame of factors is checked
            # here, as the library checks it at fit.
            i, j = np.argwhere(~np.isfinite(d.x))[0]
            raise ValueError("Input X contains NaN or infinity: row %d, "
                             "column %r" % (i, self._design.names[j]))
        eta = d.x @ self.coef_[:d.p] if d.p else np.zeros(d.n)
        for f, beta in enumerate(self._level_coefs):
            eta = eta + beta[d.codes[:, f]]
        return self._add_offset(eta + self.intercept_, offset)

    def _add_offset(self, eta, offset):
        """eta plus the rows' offset (checked), when given."""
        if offset is not None:
            off = _data.vector(offset, len(eta), "offset")
            bad = np.flatnonzero(~np.isfinite(off))
            if bad.size:
                raise ValueError("offset: row %d (from 0) is %r, not a finite "
                                 "number" % (bad[0], off[bad[0]]))
            eta = eta + off
        return eta

    def _response(self, eta, kind="response"):
        """The library's predictions kind of the estimator's family at the
        linear predictors eta (the inverse link: one home, in the
        library)."""
        return _lib.response(getattr(self, "family", self._family), eta, kind)

    def _check_offset_given(self, offset):
        """An offset at prediction exactly when the model was fitted with
        one, as the library's predict (and glmnet's) requires: without it
        every prediction, and any score made of them, is off by the rows'
        exposure."""
        fitted = getattr(self, "fitted_with_offset_", False)
        if fitted and offset is None:
            raise ValueError(
                "%s was fitted with an offset: predict and score need the "
                "rows' offset (offset=..., or X's column named by "
                "offset_column; np.zeros(n) predicts at exposure 1). "
                "GridSearchCV and cross_val_score pass none to score or "
                "predict: give the offset as a column of X and name it with "
                "offset_column" % type(self).__name__)
        if not fitted and offset is not None:
            raise ValueError("%s was fitted without an offset: give none"
                             % type(self).__name__)

    def _more_tags(self):
        return {"_xfail_checks": {
            "check_sample_weights_invariance": _ZERO_WEIGHTS}}

def _column(y, classifier):
    from sklearn.utils.validation import column_or_1d
    if y is None:
        raise ValueError("requires y to be passed, but the target y is None")
    y = column_or_1d(y, warn=True)
    if not classifier:
        y = np.asarray(y, dtype=np.float64)
        if not np.all(np.isfinite(y)):
            raise ValueError("Input y contains NaN or infinity.")
    return y

class _RegressorMixin(RegressorMixin):
    def fit(self, X, y, sample_weight=None):
        """Fit to X (n × p array or DataFrame; ``category`` columns are
        factors) and y, with optional sample weights (rescaled to sum
        to n)."""
        X, y, w, _ = self._fit_arrays(X, y, sample_weight, None)
        return self._run(X, y, w, None)

    def predict(self, X):
        """The fitted mean for the rows of X."""
        return self._response(self._link(X))

class _PoissonMixin(RegressorMixin):
    def fit(self, X, y, sample_weight=None, offset=None):
        """Fit counts y ≥ 0 to X with an optional offset (log exposure:
        ``offset=``, or X's column ``offset_column``) and sample weights
        (rescaled to sum to n)."""
        X, offset = self._offset_of(X, offset)
        X, y, w, off = self._fit_arrays(X, y, sample_weight, offset)
        if np.any(y < 0):
            raise ValueError("Poisson regression needs y >= 0")
        self._run(X, y, w, off)
        self.fitted_with_offset_ = off is not None
        return self

    def predict(self, X, offset=None):
        """The expected count exp(offset + b₀ + xᵀβ) for the rows of X
        (offset: ``offset=``, or X's column ``offset_column``). A model
        fitted with an offset needs one (``np.zeros(n)``: the count at
        exposure 1), one fitted without takes none, as glmnet's predict
        and the library's."""
        X, offset = self._offset_of(X, offset)
        return self._response(self._link(X, offset))

    def score(self, X, y, sample_weight=None, offset=None):
        """D², the fraction of Poisson deviance explained (as
        scikit-learn's PoissonRegressor.score), at the rows' offset.

        A model fitted with an offset is scored only with the rows' offset
        (as predict): without it every expected count is off by its
        exposure, and D² with it. scikit-learn's GridSearchCV and
        cross_val_score pass no offset to score: give it as a column of X
        (``offset_column``)."""
        X, offset = self._offset_of(X, offset)
        from sklearn.metrics import d2_tweedie_score
        return d2_tweedie_score(y, self._response(self._link(X, offset)),
                                power=self._variance_power(),
                                sample_weight=sample_weight)

    def _variance_power(self):
        """The Tweedie variance power of the estimator's family, which D²
        is the deviance of (scikit-learn's PoissonRegressor 1,
        GammaRegressor 2, TweedieRegressor its power); the negative
        binomial is not a Tweedie family, and its D² is not scikit-learn's
        to compute."""
        family = getattr(self, "family", self._family)
        name, _, value = family.partition(":")
        powers = {"poisson": 1.0, "gamma": 2.0}
        if name == "tweedie":
            return float(value)
        if name not in powers:
            raise ValueError(
                "score is D² of a Tweedie deviance (poisson, gamma, "
                "tweedie:P); for family %r score the fits with "
                "cardreg.cv's deviance or pass another scoring" % family)
        return powers[name]

    def _offset_of(self, X, offset):
        """X without its offset column, and the offset (``offset_column``
        of X, or the offset given; never both)."""
        col = self.offset_column
        if col is None:
            return X, offset
        if offset is not None:
            raise ValueError(
                "offset given twice: as offset= and as X's column %r "
                "(offset_column); give one" % (col,))
        _data.check_dense(X, allow_scipy=True)
        if _data.is_dataframe(X):
            _data.check_columns(X)
            if col not in X.columns:
                raise ValueError(
                    "offset_column %r is not a column of X (its columns: %s)"
                    % (col, ", ".join(map(repr, list(X.columns)[:20]))))
            if X[col].dtype.kind not in "fiu":
                raise ValueError("offset_column %r has dtype %s: the offset "
                                 "is a number per row (log exposure)"
                                 % (col, X[col].dtype))
            return X.drop(columns=[col]), X[col].to_numpy(dtype=np.float64)
        if isinstance(col, (bool, np.bool_)) or not isinstance(
                col, numbers.Integral):
            raise ValueError(
                "offset_column %r names a column, and X is an array, not a "
                "DataFrame: give the column's index (an int)" % (col,))
        a = X if _data.is_sparse(X) else np.asarray(X)
        if a.ndim != 2 or not -a.shape[1] <= col < a.shape[1]:
            raise ValueError("offset_column %d is not a column of X (shape "
                             "%s)" % (col, a.shape))
        if _data.is_sparse(a):
            # The other columns as a new CSC matrix (X is not written), the
            # offset's column made dense: n values.
            a = a.tocsc()
            keep = np.delete(np.arange(a.shape[1]), col)
            return a[:, keep], a[:, [col]].toarray().reshape(-1)
        return np.delete(a, col, axis=1), a[:, col]

    def _more_tags(self):
        return {"requires_positive_y": True}

class _ClassifierMixin(ClassifierMixin):
    def _is_classifier(self):
        return True

    def fit(self, X, y, sample_weight=None):
        """Fit a binary y (any two labels; ``classes_[1]`` is the positive
        class) to X, with optional sample weights."""
        X, y, w, _ = self._fit_arrays(X, y, sample_weight, None)
        check_classification_targets(y)
        self.classes_, y01 = np.unique(y, return_inverse=True)
        if len(self.classes_) != 2:
            raise ValueError(
                "%s is binary: y needs exactly two classes; got %d class(es) "
                "%s" % (type(self).__name__, len(self.classes_),
                        list(self.classes_)[:10]))
        if w is not None:
            present = [np.sum(w[y01 == c]) > 0 for c in (0, 1)]
            if not all(present):
                raise ValueError("y needs two classes with positive weight; "
                                 "only one class has positive sample_weight")
        return self._run(X, y01.astype(np.float64), w, None)

    def decision_function(self, X):
        """The log-odds of ``classes_[1]`` for the rows of X."""
        return self._link(X)

    def predict_proba(self, X):
        """Probabilities of ``classes_[0]`` and ``classes_[1]`` (n × 2)."""
        p1 = self._response(self._link(X))
        return np.column_stack([1.0 - p1, p1])

    def predict_log_proba(self, X):
        """The log of predict_proba (as scikit-learn's
        LogisticRegression)."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X):
        """The class of the larger probability (``classes_[1]`` when the
        log-odds are > 0)."""
        cls = self._response(self._link(X), "class")
        return self.classes_[cls.astype(int)]

    def _more_tags(self):
        return {"binary_only": True}

class _PlainInit:
    _cv = False

    def __init__(self, lam=None, *, penalty="cardinality", nu=None,
                 groups=None, fit_intercept=True, standardize=False,
                 relax=False, tol=None, max_iter=None, penalty_factor=None,
                 unpenalized=None, pair_weights=None):
        self.lam = lam
        self.penalty = penalty
        self.nu = nu
        self.groups = groups
        self.fit_intercept = fit_intercept
        self.standardize = standardize
        self.relax = relax
        self.tol = tol
        self.max_iter = max_iter
        self.penalty_factor = penalty_factor
        self.unpenalized = unpenalized
        self.pair_weights = pair_weights

class _CVInit:
    _cv = True

    def __init__(self, *, rule="min", n_folds=10, seed=None, n_lambda=None,
                 lambda_min_ratio=None, lambdas=None, type_measure=None,
                 penalty="cardinality", nu=None, groups=None,
                 fit_intercept=True, standardize=False, relax=False, tol=None,
                 max_iter=None, penalty_factor=None, unpenalized=None,
                 pair_weights=None):
        self.rule = rule
        self.n_folds = n_folds
        self.seed = seed
        self.n_lambda = n_lambda
        self.lambda_min_ratio = lambda_min_ratio
        self.lambdas = lambdas
        self.type_measure = type_measure
        self.penalty = penalty
        self.nu = nu
        self.groups = groups
        self.fit_intercept = fit_intercept
        self.standardize = standardize
        self.relax = relax
        self.tol = tol
        self.max_iter = max_iter
        self.penalty_factor = penalty_factor
        self.unpenalized = unpenalized
        self.pair_weights = pair_weights

class _PoissonInit(_PlainInit):
    def __init__(self, lam=None, *, family="poisson", offset_column=None,
                 penalty="cardinality", nu=None, groups=None,
                 fit_intercept=True, standardize=False, relax=False, tol=None,
                 max_iter=None, penalty_factor=None, unpenalized=None,
                 pair_weights=None):
        super().__init__(lam, penalty=penalty, nu=nu, groups=groups,
                         fit_intercept=fit_intercept, standardize=standardize,
                         relax=relax, tol=tol, max_iter=max_iter,
                         penalty_factor=penalty_factor,
                         unpenalized=unpenalized, pair_weights=pair_weights)
        self.family = family
        self.offset_column = offset_column


class _PoissonCVInit(_CVInit):
    def __init__(self, *, family="poisson", offset_column=None, rule="min",
                 n_folds=10,
                 seed=None, n_lambda=None, lambda_min_ratio=None,
                 lambdas=None, type_measure=None, penalty="cardinality",
                 nu=None, groups=None, fit_intercept=True, standardize=False,
                 relax=False, tol=None, max_iter=None, penalty_factor=None,
                 unpenalized=None, pair_weights=None):
        super().__init__(rule=rule, n_folds=n_folds, seed=seed,
                         n_lambda=n_lambda, lambda_min_ratio=lambda_min_ratio,
                         lambdas=lambdas, type_measure=type_measure,
                         penalty=penalty, nu=nu, groups=groups,
                         fit_intercept=fit_intercept, standardize=standardize,
                         relax=relax, tol=tol, max_iter=max_iter,
                         penalty_factor=penalty_factor,
                         unpenalized=unpenalized, pair_weights=pair_weights)
        self.family = family
        self.offset_column = offset_column


_OFFSET_DOC = """
    family : str, default="poisson"
        A log-link family, as the library names it: ``"poisson"``,
        ``"gamma"``, ``"tweedie:P"`` (1 < P < 2, e.g. ``"tweedie:1.5"``) or
        ``"negbin:THETA"`` (θ > 0, e.g. ``"negbin:2"``); the library checks
        it. ``predict`` is exp(η) for each of them.
    offset_column : str or int, optional
        X's column holding the offset (log exposure): a DataFrame's column
        name or an array's column index. It is taken out of X by fit,
        predict and score, so that GridSearchCV and cross_val_score, which
        pass score no offset, score each split at its rows' offset. Not
        with ``offset=``.
"""

_PLAIN_DOC = """
    Parameters
    ----------
    lam : float or {"cv", "aic", "bic"}, optional
        λ on cardreg's scale (no 1/(2n): scikit-learn's alpha is
        lam/(2n)). None: the library's default, λ chosen by 10-fold
        cross-validation (seed 1, rule "min"); use the ...CV estimator to
        control the folds and see the curve.""" + _SHARED_DOC + """
    Attributes
    ----------
    coef_ : ndarray
        Coefficients of the design's columns (``coef_names_``): X's numeric
        columns, then each factor's non-reference levels (``NAME=LEVEL``).
    intercept_ : float
    lambda_, lambda_glmnet_ : float
        The λ fitted (cardreg's scale) and λ/(2n).
    clusters_ : list of list of str
        Columns sharing one coefficient value.
    distinct_values_ : ndarray
    duality_gap_ : float
        The relative duality gap certifying the fit.
    converged_ : bool
    n_iter_ : int
    dev_ratio_ : float
        Fraction of deviance explained (R² for gaussian).
    factors_ : list of dict
        Per factor, its level groups (from the library's JSON).
    feature_names_in_ : ndarray of str
        X's columns, when X was a DataFrame with string column names.
    result_ : dict
        The library's JSON document of the fit.
"""

_CV_DOC = """
    Parameters
    ----------
    rule : {"min", "1se"}, default="min"
        λ_min (smallest cross-validated error) or λ_1se (the largest λ
        within one standard error of it), as cv.glmnet.
    n_folds : int, default=10
    seed : int, optional
        Seed of the fold assignment (library default 1).
    n_lambda : int, optional
        Length of the generated grid (library default 100).
    lambda_min_ratio : float, optional
        Smallest λ of the generated grid over λ_max.
    lambdas : array, optional
        The grid (cardreg's scale), instead of a generated one.
    type_measure : str, optional
        cv.glmnet's type.measure: one of the family's measures in
        ``cardreg.describe()["families"]`` (default its first).
    """ + _SHARED_DOC + """
    Attributes
    ----------
    lambda_ : float
        The λ chosen (cardreg's scale); ``lambda_glmnet_`` = λ/(2n).
    lambdas_, cv_mean_, cv_se_ : ndarray
        The grid and cv.glmnet's curve (cvm, cvsd).
    lambda_min_, lambda_1se_ : float
    coef_, coef_names_, intercept_, clusters_, distinct_values_,
    duality_gap_, converged_, n_iter_, dev_ratio_, factors_ :
        The full-data path's model at ``lambda_`` (as cv.glmnet's coef),
        described as the plain estimators describe theirs: ``factors_``
        the level groups, ``clusters_`` the numeric predictors'.
    coef_path_, intercept_path_ : ndarray
        Every model of the path.
    foldid_ : ndarray
        Each row's fold (1-based).
"""

class CardinalityRegressor(_RegressorMixin, _PlainInit, _Base):
    __doc__ = """Least squares (gaussian) under cardinality sparsity at one λ.
""" + _PLAIN_DOC
    _family = "gaussian"


class CardinalityPoissonRegressor(_PoissonMixin, _PoissonInit, _Base):
    __doc__ = """Poisson regression (log link) under cardinality sparsity at
    one λ; ``fit(X, y, offset=log_exposure)``, or the offset as a column
    of X (``offset_column``).
""" + _PLAIN_DOC.replace("\n    Attributes", _OFFSET_DOC + "\n    Attributes", 1)
    _family = "poisson"


class CardinalityClassifier(_ClassifierMixin, _PlainInit, _Base):
    __doc__ = """Binary logistic regression under cardinality sparsity at one
    λ (any two labels; ``classes_[1]`` is the positive class).
""" + _PLAIN_DOC
    _family = "binomial"


class CardinalityRegressorCV(_RegressorMixin, _CVInit, _Base):
    __doc__ = """Least squares under cardinality sparsity, λ chosen by
    cross-validation as cv.glmnet does.
""" + _CV_DOC
    _family = "gaussian"


class CardinalityPoissonRegressorCV(_PoissonMixin, _PoissonCVInit, _Base):
    __doc__ = """Poisson regression under cardinality sparsity, λ chosen by
    cross-validation as cv.glmnet does; ``fit(X, y, offset=...)``, or the
    offset as a column of X (``offset_column``).
""" + _CV_DOC.replace("\n    Attributes", _OFFSET_DOC + "\n    Attributes", 1)
    _family = "poisson"


class CardinalityClassifierCV(_ClassifierMixin, _CVInit, _Base):
    __doc__ = """Binary logistic regression under cardinality sparsity, λ
    chosen by cross-validation as cv.glmnet does.
""" + _CV_DOC
    _family = "binomial"


class ElasticNet(_RegressorMixin, _Base):
    """scikit-learn's ``ElasticNet`` on libcardreg: the gaussian elastic
    net, in scikit-learn's parameters, minimising

        1/(2n)·‖y − Xw − b‖² + alpha·l1_ratio·‖w‖₁
            + ½·alpha·(1 − l1_ratio)·‖w‖²,

    the weights rescaled to sum to n. It is the library's penalty
    ``"elasticnet"`` with its ``alpha`` (glmnet's) = ``l1_ratio`` and
    ``lam`` = 2n·``alpha``, certified by the conjugate's duality gap.

    Parameters
    ----------
    alpha : float, default=1.0
        scikit-learn's alpha (glmnet's lambda), ≥ 0.
    l1_ratio : float, default=0.5
        The ℓ₁ share, in [0, 1] (glmnet's alpha; 0 is ridge).
    fit_intercept : bool, default=True
    tol : float, optional
        Relative duality-gap tolerance (library default 1e-7).
    max_iter : int, optional
        Iteration cap (library default).
    penalty_factor : array, optional
        Per-column factors, rescaled to sum to p as glmnet's (0:
        unpenalised).

    Attributes
    ----------
    coef_, intercept_, lambda_, lambda_glmnet_, duality_gap_, converged_,
    n_iter_, dev_ratio_, result_ : as :class:`CardinalityRegressor`.
    """

    def __init__(self, alpha=1.0, *, l1_ratio=0.5, fit_intercept=True,
                 tol=None, max_iter=None, penalty_factor=None):
        self.alpha = alpha
        self.l1_ratio = l1_ratio
        self.fit_intercept = fit_intercept
        self.tol = tol
        self.max_iter = max_iter
        self.penalty_factor = penalty_factor

    def _options(self):
        if not (isinstance(self.alpha, numbers.Real) and self.alpha >= 0):
            raise ValueError("alpha must be a number >= 0; got %r"
                             % (self.alpha,))
        o = dict(family="gaussian", penalty="elasticnet",
                 alpha=self.l1_ratio, lam=2 * self._n * self.alpha,
                 tol=self.tol, max_iter=self.max_iter,
                 penalty_factor=self.penalty_factor)
        if not self.fit_intercept:
            o["no_intercept"] = True
        return o

    def fit(self, X, y, sample_weight=None):
        """Fit to X (n × p) and y, with optional sample weights
        (rescaled to sum to n, as scikit-learn's)."""
        X, y, w, _ = self._fit_arrays(X, y, sample_weight, None)
        self._n = X.shape[0]
        return self._run(X, y, w, None)


def _kfold_ids(n, cv):
    """Each row's fold (1-based): an int cv is scikit-learn's KFold(cv)
    without shuffling (contiguous blocks, the first n % cv one row
    longer); else cv is the rows' fold ids 1..K."""
    if isinstance(cv, (bool, np.bool_)):
        raise ValueError("cv must be a number of folds or the rows' fold "
                         "ids; got %r" % (cv,))
    if isinstance(cv, numbers.Integral):
        if not 3 <= cv <= n:
            raise ValueError("cv must be between 3 (as cv.glmnet) and the "
                             "number of rows (%d); got %d" % (n, cv))
        sizes = np.full(cv, n // cv)
        sizes[:n % cv] += 1
        return np.repeat(np.arange(1, cv + 1), sizes)
    ids = np.asarray(cv)
    if ids.shape != (n,):
        raise ValueError("cv: %d fold ids for %d rows" % (ids.size, n))
    return ids  # the library checks them (1..K, K >= 3)


class ElasticNetCV(_RegressorMixin, _Base):
    """scikit-learn's ``ElasticNetCV`` on libcardreg: :class:`ElasticNet`
    with ``alpha`` chosen by K-fold cross-validation of the mean squared
    error, along a path of ``alpha`` values (λ = 2n·alpha; the library's
    penalty ``"elasticnet"`` with its ``alpha`` = ``l1_ratio``).

    The folds are scikit-learn's ``KFold(cv)`` without shuffling, and the
    curve is cv.glmnet's (the folds' mean squared errors averaged with
    the folds' sizes as weights, scikit-learn's plain mean when the folds
    are equal): with the same ``alphas`` it chooses scikit-learn's
    ``alpha_``. A generated grid starts at scikit-learn's (and glmnet's)
    alpha_max and ends at ``eps`` times it, but stops early by glmnet's
    rules once the fits barely change.

    Parameters
    ----------
    l1_ratio : float, default=0.5
        The ℓ₁ share, in [0, 1] (glmnet's alpha; 0 is ridge). One value.
    eps : float, default=1e-3
        The grid's smallest alpha over its largest.
    n_alphas : int, default=100
        Length of the generated grid.
    alphas : array, optional
        The grid (scikit-learn's scale), instead of a generated one.
    cv : int or array, default=5
        Number of folds (``KFold(cv)``, not shuffled), or each row's fold
        (1..K).
    rule : {"min", "1se"}, default="min"
        The alpha of the least mean error (scikit-learn's), or the largest
        within one standard error of it (cv.glmnet's lambda.1se).
    fit_intercept : bool, default=True
    tol, max_iter, penalty_factor : as :class:`ElasticNet`.

    Attributes
    ----------
    alpha_, l1_ratio_ : float
        The alpha chosen, and ``l1_ratio``.
    alphas_ : ndarray
        The grid (scikit-learn's scale), decreasing.
    coef_, intercept_, duality_gap_, converged_, n_iter_, dev_ratio_ :
        The full-data model at ``alpha_``.
    lambdas_, cv_mean_, cv_se_, lambda_min_, lambda_1se_, foldid_,
    coef_path_, intercept_path_, result_ :
        as :class:`CardinalityRegressorCV` (λ on cardreg's scale).
    """

    _cv = True

    def __init__(self, *, l1_ratio=0.5, eps=1e-3, n_alphas=100, alphas=None,
                 cv=5, rule="min", fit_intercept=True, tol=None,
                 max_iter=None, penalty_factor=None):
        self.l1_ratio = l1_ratio
        self.eps = eps
        self.n_alphas = n_alphas
        self.alphas = alphas
        self.cv = cv
        self.rule = rule
        self.fit_intercept = fit_intercept
        self.tol = tol
        self.max_iter = max_iter
        self.penalty_factor = penalty_factor

    def _options(self):
        if self.rule not in ("min", "1se"):
            raise ValueError("rule must be 'min' or '1se'; got %r"
                             % (self.rule,))
        o = dict(family="gaussian", penalty="elasticnet",
                 alpha=self.l1_ratio, foldid=self._foldid, tol=self.tol,
                 max_iter=self.max_iter, penalty_factor=self.penalty_factor)
        if self.alphas is not None:
            a = np.atleast_1d(np.asarray(self.alphas, dtype=np.float64))
            o["lambdas"] = 2 * self._n * a  # the library checks them
        else:
            o.update(nlambda=self.n_alphas, min_ratio=self.eps)
        if not self.fit_intercept:
            o["no_intercept"] = True
        return o

    def fit(self, X, y, sample_weight=None):
        """Cross-validate, then fit at the chosen alpha, X (n × p) and y,
        with optional sample weights (rescaled to sum to n)."""
        X, y, w, _ = self._fit_arrays(X, y, sample_weight, None)
        self._n = X.shape[0]
        self._foldid = _kfold_ids(self._n, self.cv)
        self._run(X, y, w, None)
        scale = 2.0 * self._n
        self.alpha_ = self.lambda_ / scale
        self.alphas_ = np.asarray(self.lambdas_) / scale
        self.l1_ratio_ = self.l1_ratio
        return self
