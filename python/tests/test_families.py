"""Families with a parameter (tweedie:P, negbin:THETA) pass from the
log-link estimators' ``family`` to the library, which parses them: the
estimator's fit is the functional API's, and a bad parameter is the
library's error."""

import unittest

import numpy as np

import cardreg


def tweedie_data(n=300, seed=4):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 4))
    mu = np.exp(-0.2 + 0.5 * X[:, 0] - 0.4 * X[:, 2])
    rate = mu ** 0.5 / 0.5
    y = np.array([rng.exponential(m / r, size=k).sum()
                  for k, m, r in zip(rng.poisson(rate), mu, rate)])
    return X, y, 0.2 * rng.standard_normal(n), 0.5 + rng.random(n)


class Families(unittest.TestCase):

    def test_tweedie_estimator_is_the_fit(self):
        X, y, off, w = tweedie_data()
        est = cardreg.CardinalityPoissonRegressor(
            lam=15, family="tweedie:1.5", penalty="lasso", tol=1e-12).fit(
                X, y, sample_weight=w, offset=off)
        res = cardreg.fit(X, y, family="tweedie:1.5", penalty="lasso", lam=15,
                          sample_weight=w, offset=off, tol=1e-12)
        self.assertEqual(res.family, "tweedie:1.5")
        np.testing.assert_allclose(est.coef_, res.coef, atol=1e-12)
        self.assertAlmostEqual(est.intercept_, res.intercept, delta=1e-12)
        np.testing.assert_allclose(
            est.predict(X, offset=off), np.exp(off + res.intercept + X @ res.coef),
            rtol=1e-12)

    def test_negbin_cv(self):
        X, y, off, _ = tweedie_data()
        est = cardreg.CardinalityPoissonRegressorCV(
            family="negbin:2", n_folds=4, seed=1).fit(X, np.round(y), offset=off)
        self.assertEqual(est.coef_.shape, (4,))

    def test_score_is_the_familys_d2(self):
        # D² of the family's own Tweedie deviance, as scikit-learn's
        # PoissonRegressor, GammaRegressor and TweedieRegressor score.
        from sklearn.metrics import d2_tweedie_score
        X, y, off, _ = tweedie_data()
        pos = y > 0
        for family, power, yy, XX, oo in [
                ("poisson", 1.0, np.round(y), X, off),
                ("tweedie:1.5", 1.5, y, X, off),
                ("gamma", 2.0, y[pos], X[pos], off[pos])]:
            est = cardreg.CardinalityPoissonRegressor(
                lam=5, family=family, penalty="lasso").fit(XX, yy, offset=oo)
            want = d2_tweedie_score(yy, est.predict(XX, offset=oo), power=power)
            self.assertAlmostEqual(est.score(XX, yy, offset=oo), want,
                                   delta=1e-12, msg=family)
        est = cardreg.CardinalityPoissonRegressor(
            lam=5, family="negbin:2", penalty="lasso").fit(X, np.round(y))
        with self.assertRaisesRegex(ValueError, "Tweedie deviance"):
            est.score(X, np.round(y))

    def test_bad_parameters_are_the_library_errors(self):
        X, y, _, _ = tweedie_data(n=40)
        for family, says in [("tweedie:2.5", "1 < p < 2"),
                             ("negbin:0", "θ = 0 is not a finite number > 0"),
                             ("tweedie", "tweedie:P")]:
            with self.assertRaisesRegex(ValueError, says):
                cardreg.CardinalityPoissonRegressor(lam=1, family=family).fit(X, y)


if __name__ == "__main__":
    unittest.main()
