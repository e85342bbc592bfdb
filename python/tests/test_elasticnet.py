"""The elastic net from Python: cardreg.ElasticNet equals scikit-learn's
ElasticNet to 1e-8 (same parameters, with and without sample weights),
and cardreg.fit(penalty="elasticnet", alpha=...) equals R's glmnet once
(skipped without R's glmnet)."""

import os
import shutil
import subprocess
import tempfile
import unittest

import numpy as np
from sklearn.linear_model import ElasticNet as SkElasticNet
from sklearn.linear_model import ElasticNetCV as SkElasticNetCV

import cardreg

from _util import REPO


def data(n=150, p=8, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, p))
    beta = np.array([1.5, -1.0, 0.5, 0, 0, 0.8, 0, -0.3])[:p]
    return X, X @ beta + rng.standard_normal(n), rng


class ElasticNetEqualsScikitLearn(unittest.TestCase):

    def test_coefficients(self):
        X, y, rng = data()
        w = 0.3 + rng.random(len(y))
        for l1_ratio in (0.2, 0.5, 0.8, 1.0):
            for alpha in (0.02, 0.1):
                for sw in (None, w):
                    with self.subTest(l1_ratio=l1_ratio, alpha=alpha,
                                      weights=sw is not None):
                        sk = SkElasticNet(alpha=alpha, l1_ratio=l1_ratio,
                                          tol=1e-15, max_iter=1000000)
                        sk.fit(X, y, sample_weight=sw)
                        ours = cardreg.ElasticNet(alpha=alpha,
                                                  l1_ratio=l1_ratio,
                                                  tol=1e-14)
                        ours.fit(X, y, sample_weight=sw)
                        self.assertTrue(ours.converged_)
                        self.assertLessEqual(ours.duality_gap_, 1e-12)
                        scale = max(np.abs(sk.coef_).max(),
                                    abs(sk.intercept_))
                        np.testing.assert_allclose(ours.coef_, sk.coef_,
                                                   rtol=0, atol=1e-8 * scale)
                        self.assertAlmostEqual(ours.intercept_,
                                               sk.intercept_,
                                               delta=1e-8 * scale)
                        np.testing.assert_allclose(
                            ours.predict(X), sk.predict(X), rtol=0,
                            atol=1e-8 * scale * 10)

    def test_refuses_bad_parameters(self):
        X, y, _ = data()
        with self.assertRaises(ValueError):
            cardreg.ElasticNet(alpha=-1).fit(X, y)
        with self.assertRaises(ValueError):
            cardreg.ElasticNet(l1_ratio=1.5).fit(X, y)
        with self.assertRaises(ValueError):
            cardreg.fit(X, y, penalty="lasso", alpha=0.5, lam=1)


class ElasticNetCVEqualsScikitLearn(unittest.TestCase):
    """cardreg.ElasticNetCV chooses scikit-learn's ElasticNetCV's alpha_
    on the same grid and folds (KFold(5), equal folds), with the same
    mean squared errors and coefficients to 1e-8; its generated grid is
    scikit-learn's."""

    def test_same_choice(self):
        X, y, _ = data()
        for l1_ratio in (0.2, 0.5, 0.8):
            with self.subTest(l1_ratio=l1_ratio):
                sk = SkElasticNetCV(l1_ratio=l1_ratio, n_alphas=30, cv=5,
                                    tol=1e-15, max_iter=1000000)
                sk.fit(X, y)
                ours = cardreg.ElasticNetCV(l1_ratio=l1_ratio,
                                            alphas=sk.alphas_, cv=5,
                                            tol=1e-14)
                ours.fit(X, y)
                np.testing.assert_allclose(ours.alphas_, sk.alphas_,
                                           rtol=1e-12)
                self.assertAlmostEqual(ours.alpha_, sk.alpha_, delta=0)
                np.testing.assert_allclose(ours.cv_mean_,
                                           sk.mse_path_.mean(axis=1),
                                           rtol=1e-8)
                scale = max(np.abs(sk.coef_).max(), abs(sk.intercept_))
                np.testing.assert_allclose(ours.coef_, sk.coef_, rtol=0,
                                           atol=1e-8 * scale)
                self.assertAlmostEqual(ours.intercept_, sk.intercept_,
                                       delta=1e-8 * scale)
                np.testing.assert_array_equal(
                    ours.foldid_, np.repeat(np.arange(1, 6), 30))
                gen = cardreg.ElasticNetCV(l1_ratio=l1_ratio, n_alphas=30,
                                           cv=5).fit(X, y)
                k = len(gen.alphas_)
                np.testing.assert_allclose(gen.alphas_, sk.alphas_[:k],
                                           rtol=1e-10)

    def test_refuses_bad_parameters(self):
        X, y, _ = data()
        for kw in (dict(cv=2), dict(cv=True), dict(cv=[1, 2, 3]),
                   dict(rule="max"), dict(l1_ratio=2.0),
                   dict(alphas=[0.1, -1.0])):
            with self.subTest(**{k: repr(v) for k, v in kw.items()}):
                with self.assertRaises(ValueError):
                    cardreg.ElasticNetCV(**kw).fit(X, y)


@unittest.skipUnless(shutil.which("Rscript"), "R is not installed")
class ElasticNetEqualsGlmnet(unittest.TestCase):

    def test_poisson_with_factors(self):
        X, _, rng = data(n=200, p=6, seed=5)
        y = rng.poisson(np.exp(0.3 + 0.4 * X[:, 0] - 0.3 * X[:, 1]))
        pf = [1, 0, 1, 2, 1, 0.5]
        n = len(y)
        lam = 0.02 * 2 * n
        res = cardreg.fit(X, y, family="poisson", penalty="elasticnet",
                          alpha=0.5, lam=lam, penalty_factor=pf, tol=1e-14)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "enet.csv")
            cols = ["x%d" % (j + 1) for j in range(X.shape[1])] + ["y"]
            np.savetxt(path, np.column_stack([X, y]), delimiter=",",
                       header=",".join(cols), comments="", fmt="%.17g")
            out = subprocess.run(
                ["Rscript", os.path.join(REPO, "bench", "glmnet_enet.R"),
                 "fit", path, "poisson", "0.5", "FALSE", "-", "-",
                 ",".join(str(f) for f in pf), repr(lam / (2 * n))],
                capture_output=True, text=True)
        if out.returncode != 0 and "glmnet" in out.stderr:
            self.skipTest("R's glmnet is not installed")
        self.assertEqual(out.returncode, 0, out.stderr)
        ref = np.array([float(v) for v in out.stdout.split()])
        scale = np.abs(ref).max()
        self.assertAlmostEqual(res.intercept, ref[0], delta=1e-6 * scale)
        np.testing.assert_allclose(res.coef, ref[1:], rtol=0,
                                   atol=1e-6 * scale)


if __name__ == "__main__":
    unittest.main()
