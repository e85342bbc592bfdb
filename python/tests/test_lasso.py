"""Done-when 3: lasso fits agree with scikit-learn's Lasso(alpha=λ/(2n))
and LogisticRegression(penalty="l1", C=2/λ) to 1e-6 in the coefficients.

Both sides run to tight tolerances: cardreg's relative duality gap 1e-14
(its default 1e-7 certifies the objective, not 1e-6 in coefficients) and
scikit-learn's own tolerance near machine precision.
"""

import os
import unittest

import numpy as np
import pandas as pd
from sklearn.linear_model import Lasso, LogisticRegression

import cardreg
from _util import EXAMPLES, assert_close


class AgreesWithScikitLearn(unittest.TestCase):

    def test_gaussian_lasso(self):
        df = pd.read_csv(os.path.join(EXAMPLES, "cardinality.csv"))
        X = df.drop(columns="y").to_numpy()
        y = df["y"].to_numpy()
        n = len(y)
        for lam in (4000.0, 800.0, 100.0, 10.0):
            ours = cardreg.CardinalityRegressor(
                lam=lam, penalty="lasso", tol=1e-14).fit(X, y)
            sk = Lasso(alpha=lam / (2 * n), tol=1e-14, max_iter=1000000)
            sk.fit(X, y)
            assert_close(self, sk.coef_, ours.coef_, 1e-6, "λ=%g" % lam)
            self.assertAlmostEqual(sk.intercept_, ours.intercept_, delta=1e-6)
            self.assertAlmostEqual(ours.lambda_glmnet_, lam / (2 * n))

    def test_logistic_lasso(self):
        df = pd.read_csv(os.path.join(EXAMPLES, "credit.csv"))
        X = df.drop(columns="default").to_numpy()
        y = df["default"].to_numpy()
        n = len(y)
        for lam in (60.0, 15.0):
            ours = cardreg.CardinalityClassifier(
                lam=lam, penalty="lasso", tol=1e-14).fit(X, y)
            # saga leaves the intercept unpenalised (liblinear would not).
            sk = LogisticRegression(penalty="l1", C=1.0 / (n * lam / (2 * n)),
                                    solver="saga", tol=1e-13,
                                    max_iter=200000)
            sk.fit(X, y)
            scale = np.max(np.abs(sk.coef_))
            err = np.max(np.abs(sk.coef_.ravel() - ours.coef_)) / scale
            self.assertLess(err, 1e-6, "λ=%g: %r vs %r" % (
                lam, sk.coef_.ravel(), ours.coef_))
            self.assertAlmostEqual(sk.intercept_[0], ours.intercept_,
                                   delta=1e-6)


if __name__ == "__main__":
    unittest.main()
