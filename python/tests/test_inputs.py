"""Inputs the package cannot fit are refused saying what is wrong and
what to do (issue 35, item 7): a non-finite response, sparse matrices,
duplicate column names, a model index or an integer option that is not an
integer. Each case runs through the functions and the estimators."""

import unittest
import warnings

import numpy as np
import pandas as pd
import scipy.sparse as sp

import cardreg


def data(n=60, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 3))
    y = X @ np.array([1.0, 1.0, -1.0]) + rng.standard_normal(n)
    return X, y


class NonFiniteResponse(unittest.TestCase):
    """A NaN or ±Inf in y was diagnosed as "the response is constant"."""

    def test_functions(self):
        X, y = data()
        for bad in (np.nan, np.inf, -np.inf):
            yy = y.copy()
            yy[4] = bad
            for name, call in (
                    ("fit", lambda: cardreg.fit(X, yy, lam=1.0)),
                    ("fit cv", lambda: cardreg.fit(X, yy)),
                    ("path", lambda: cardreg.path(X, yy)),
                    ("cv", lambda: cardreg.cv(X, yy, folds=3))):
                with self.subTest(value=bad, call=name):
                    with self.assertRaises(ValueError) as cm:
                        call()
                    msg = str(cm.exception)
                    self.assertIn("row 5", msg)
                    self.assertIn("not finite", msg)
                    self.assertNotIn("constant", msg)

    def test_weights(self):
        X, y = data()
        for bad in (np.nan, np.inf, -1.0):
            w = np.ones(len(y))
            w[2] = bad
            with self.subTest(weight=bad):
                with self.assertRaisesRegex(ValueError, "row 3: weight"):
                    cardreg.fit(X, y, lam=1.0, sample_weight=w)

    def test_estimators(self):
        X, y = data()
        df = pd.DataFrame(X, columns=["a", "b", "c"])
        df["g"] = pd.Categorical(np.arange(len(y)) % 3)
        yy = y.copy()
        yy[4] = np.nan
        for est in (cardreg.CardinalityRegressor(lam=1.0),
                    cardreg.CardinalityRegressorCV(n_folds=3)):
            for X_ in (X, df):
                with self.subTest(est=type(est).__name__,
                                  X=type(X_).__name__):
                    with self.assertRaisesRegex(ValueError, "NaN"):
                        est.fit(X_, yy)

    def test_predict_offset(self):
        rng = np.random.default_rng(2)
        X = rng.standard_normal((80, 2))
        y = rng.poisson(np.exp(0.3 * X[:, 0]))
        est = cardreg.CardinalityPoissonRegressor(lam=1.0).fit(
            X, y, offset=np.zeros(80))
        off = np.zeros(80)
        off[7] = np.nan
        with self.assertRaisesRegex(ValueError, "offset: row 7"):
            est.predict(X, offset=off)


class Sparse(unittest.TestCase):
    """A scipy sparse matrix gave "got 0 dimension(s)" (np.asarray makes a
    0-d object array of it); a pandas sparse frame was read as dense.
    A scipy.sparse X is now fitted (test_sparse.py); a sparse vector and a
    frame of pandas sparse columns are refused saying what to do."""

    def setUp(self):
        self.X, self.y = data()
        df = pd.DataFrame(self.X, columns=["a", "b", "c"])
        self.frame = df.astype(pd.SparseDtype(float))

    def check(self, call):
        with self.assertRaises(TypeError) as cm:
            call()
        msg = str(cm.exception)
        self.assertIn("pandas sparse columns", msg)
        self.assertIn("X.sparse.to_coo()", msg)

    def test_functions(self):
        for fn in (cardreg.fit, cardreg.path, cardreg.cv):
            with self.subTest(fn=fn.__name__):
                self.check(lambda: fn(self.frame, self.y))

    def test_vectors(self):
        """y, weights and offset: 'setting an array element with a
        sequence' before."""
        col = sp.csr_matrix(self.y).T
        for name, kw in (("y", dict(y=col)),
                         ("sample_weight", dict(y=self.y, sample_weight=col)),
                         ("offset", dict(y=self.y, offset=col))):
            with self.subTest(vector=name):
                with self.assertRaisesRegex(TypeError, name + " is sparse"):
                    cardreg.fit(self.X, lam=1.0, **kw)

    def test_estimators(self):
        for cls in (cardreg.CardinalityRegressor,
                    cardreg.CardinalityRegressorCV):
            with self.subTest(est=cls.__name__):
                self.check(lambda: cls().fit(self.frame, self.y))
        est = cardreg.CardinalityRegressor(lam=1.0).fit(self.X, self.y)
        self.check(lambda: est.predict(self.frame))
        fit = cardreg.fit(self.X, self.y, lam=1.0)
        self.check(lambda: fit.predict(self.frame))


class DuplicateColumns(unittest.TestCase):
    """Repeated DataFrame column names raised AttributeError (with
    factors), or fitted with the names lost (numeric only)."""

    def setUp(self):
        self.X, self.y = data()
        self.num = pd.DataFrame(self.X, columns=["a", "a", "b"])
        self.fac = self.num.copy()
        self.fac["g"] = pd.Categorical(np.arange(len(self.y)) % 2)

    def check(self, call):
        with self.assertRaisesRegex(ValueError,
                                    "duplicate column names 'a'"):
            call()

    def test_refused(self):
        for name, df in (("numeric", self.num), ("factors", self.fac)):
            with self.subTest(df=name):
                self.check(lambda: cardreg.fit(df, self.y, lam=1.0))
                self.check(lambda: cardreg.cv(df, self.y, folds=3))
                self.check(lambda: cardreg.CardinalityRegressor(
                    lam=1.0).fit(df, self.y))
                self.check(lambda: cardreg.CardinalityRegressorCV(
                    n_folds=3).fit(df, self.y))

    def test_predict(self):
        good = self.fac.set_axis(["a", "b", "c", "g"], axis=1)
        est = cardreg.CardinalityRegressor(lam=1.0).fit(good, self.y)
        bad = pd.concat([good, good[["a"]]], axis=1)
        self.check(lambda: est.predict(bad))


class IntegerArguments(unittest.TestCase):
    """predict(k=2.5) predicted with model 2; integer options of the wrong
    type got Go's words ("cannot unmarshal ... Go struct field")."""

    def test_model_index(self):
        X, y = data()
        p = cardreg.path(X, y, n_lambda=10)
        np.testing.assert_array_equal(p.predict(X, k=np.int64(2)),
                                      p.predict(X, k=2))
        for k in (2.5, 2.0, "2", True):
            with self.subTest(k=k):
                with self.assertRaisesRegex(TypeError, "k must be an integer"):
                    p.predict(X, k=k)
        for k in (-1, len(p)):
            with self.subTest(k=k):
                # A generated gaussian path may end early (glmnet's rules).
                with self.assertRaisesRegex(IndexError, "models 0 to %d" % (len(p) - 1)):
                    p.predict(X, k=k)

    def test_options(self):
        X, y = data()
        cases = [
            (lambda: cardreg.cv(X, y, folds=3.5), "folds"),
            (lambda: cardreg.fit(X, y, lam=1.0, max_iter=10.5), "max-iter"),
            (lambda: cardreg.path(X, y, nlambda=7.5), "nlambda"),
            (lambda: cardreg.CardinalityRegressorCV(n_folds=4.0).fit(X, y),
             "folds"),
            (lambda: cardreg.CardinalityRegressorCV(seed=1.5).fit(X, y),
             "seed"),
            (lambda: cardreg.CardinalityRegressorCV(n_lambda=20.5).fit(X, y),
             "nlambda"),
            (lambda: cardreg.cv(X, y, foldid=np.arange(len(y)) % 3 + 1.5),
             "foldid"),
        ]
        for call, name in cases:
            with self.subTest(option=name):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    with self.assertRaisesRegex(
                            ValueError, name + " must be a whole number"):
                        call()


if __name__ == "__main__":
    unittest.main()
