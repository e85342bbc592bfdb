"""cardreg from Python: regularised regression under cardinality sparsity.

A thin layer over libcardreg, the C interface of the Go toolkit cardreg
(``clib/cardreg.h``). λ is on cardreg's scale: every family minimises
Σᵢ wᵢ dᵢ + λ·h(β) with no 1/(2n) (gaussian: ‖y − Xβ − b₀‖² + λ·h(β)),
the weights rescaled to sum to n; glmnet's and scikit-learn's λ (alpha)
is λ/(2n).

Functions: :func:`fit`, :func:`path`, :func:`cv`, :func:`plot_path`,
:func:`plot_cv`; :func:`describe` lists the library's families, penalties,
measures and options, which the package offers as they are. scikit-learn estimators: :class:`CardinalityRegressor`,
:class:`CardinalityClassifier`, :class:`CardinalityPoissonRegressor` and
their ``...CV`` versions, :class:`ElasticNet` and :class:`ElasticNetCV`
(scikit-learn's, on the library's elastic net) (imported on first use, so
that the functions work without scikit-learn).
"""

import sys as _sys

from ._core import CVResult, FitResult, PathResult, cv, fit, path
from ._lib import (CardregError, CardregValueError, describe, library_path,
                   version)

__version__ = "0.1.0"

_ESTIMATORS = (
    "CardinalityRegressor", "CardinalityClassifier",
    "CardinalityPoissonRegressor", "CardinalityRegressorCV",
    "CardinalityClassifierCV", "CardinalityPoissonRegressorCV",
    "ElasticNet", "ElasticNetCV",
)

__all__ = ["fit", "path", "cv", "plot_path", "plot_cv", "FitResult",
           "PathResult", "CVResult", "CardregError", "CardregValueError",
           "version", "library_path", "describe"] + list(_ESTIMATORS)


def plot_path(result, ax=None, **kw):
    """Plot a path's coefficients against λ (needs matplotlib)."""
    from .plotting import plot_path as _plot
    return _plot(result, ax=ax, **kw)


def plot_cv(result, ax=None, **kw):
    """Plot a cross-validation curve (needs matplotlib)."""
    from .plotting import plot_cv as _plot
    return _plot(result, ax=ax, **kw)


def __getattr__(name):
    if name in _ESTIMATORS:
        try:
            from . import estimators
        except ImportError as e:
            if getattr(e, "name", None) != "sklearn":
                raise
            raise ImportError(
                "cardreg.%s needs scikit-learn, which this Python (%s) does "
                "not see: apt-get install python3-sklearn, in a virtual "
                "environment made by /usr/bin/python3 -m venv "
                "--system-site-packages (the functions fit, path and cv "
                "need no scikit-learn)" % (name, _sys.executable)) from None
        return getattr(estimators, name)
    raise AttributeError("module 'cardreg' has no attribute %r" % name)
