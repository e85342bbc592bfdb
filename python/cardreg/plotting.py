"""Figures of paths and cross-validation curves, drawn with matplotlib
(imported only here, when a plot is asked for)."""

import numpy as np


def _pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError("cardreg's plots need matplotlib, which is not "
                          "installed (apt-get install python3-matplotlib or "
                          "pip install matplotlib): %s" % e) from None
    return plt


def _axes(ax):
    if ax is None:
        ax = _pyplot().gca()
    return ax


def plot_path(result, ax=None, glmnet_scale=False, legend=None):
    """Each coefficient against λ on a log axis, as glmnet's plot.

    result : PathResult or CVResult.
    glmnet_scale : plot λ/(2n) instead of cardreg's λ.
    legend : show the columns' names (default: when there are ≤ 12).
    Returns the matplotlib Axes.
    """
    _pyplot()
    ax = _axes(ax)
    lam = result.lambda_glmnet if glmnet_scale else result.lambdas
    for j, name in enumerate(result.names):
        ax.plot(lam, result.coefs[:, j], label=name)
    ax.set_xscale("log")
    ax.set_xlabel("λ/(2n) (glmnet's scale)" if glmnet_scale
                  else "λ (cardreg's scale)")
    ax.set_ylabel("coefficient")
    ax.axhline(0.0, color="black", linewidth=0.5)
    if legend or (legend is None and len(result.names) <= 12):
        ax.legend(fontsize="small")
    return ax


def plot_cv(result, ax=None, glmnet_scale=False):
    """cv.glmnet's figure: the cross-validated measure with ±1 standard
    error bars against λ (log axis), dotted lines at λ_min and λ_1se.

    result : CVResult. Returns the matplotlib Axes.
    """
    _pyplot()
    ax = _axes(ax)
    # glmnet's λ as the library gives it (lambda_glmnet), not computed here.
    lam = result.lambda_glmnet if glmnet_scale else result.lambdas
    ax.errorbar(lam, result.cvm, yerr=result.cvsd, fmt="o", color="red",
                ecolor="grey", markersize=3, capsize=2)
    for k in (result.index_min, result.index_1se):
        if np.isfinite(lam[k]):
            ax.axvline(lam[k], linestyle=":", color="black")
    ax.set_xscale("log")
    ax.set_xlabel("λ/(2n) (glmnet's scale)" if glmnet_scale
                  else "λ (cardreg's scale)")
    ax.set_ylabel(result.measure or "cross-validated measure")
    return ax
