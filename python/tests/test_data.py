"""numpy and pandas in: layouts read in place, factors from category
columns, unseen levels refused by name."""

import os
import unittest

import numpy as np
import pandas as pd

import cardreg
from cardreg import _data
from _util import EXAMPLES, assert_close


def policies():
    df = pd.read_csv(os.path.join(EXAMPLES, "policies.csv"))
    order = ["0-2", "3-5", "6-9", "10-14", "15+"]
    df["region"] = df["region"].astype("category")
    df["fuel"] = df["fuel"].astype("category")
    df["vehicle_age"] = pd.Categorical(df["vehicle_age"], categories=order,
                                       ordered=True)
    X = df.drop(columns=["claims", "exposure", "log_exposure"])
    return X, df["claims"].to_numpy(), df["log_exposure"].to_numpy()


class Layouts(unittest.TestCase):

    def setUp(self):
        rng = np.random.default_rng(1)
        self.X = rng.standard_normal((200, 5))
        self.y = self.X @ np.array([2.0, 2.0, -1.0, 0.0, 0.0]) + \
            rng.standard_normal(200)

    def test_no_copy(self):
        C = np.ascontiguousarray(self.X)
        F = np.asfortranarray(self.X)
        d = _data.design_of(C)
        self.assertIs(d.x, C)
        self.assertEqual(d.layout, 0)
        d = _data.design_of(F)
        self.assertIs(d.x, F)
        self.assertEqual(d.layout, 1)
        # A float64 DataFrame: its one block, in whichever order pandas
        # holds it (column-major when built column by column).
        for df in (pd.DataFrame(self.X, columns=list("abcde")),
                   pd.DataFrame({c: self.X[:, j].copy()
                                 for j, c in enumerate("abcde")})):
            d = _data.design_of(df)
            self.assertTrue(np.shares_memory(d.x, df["a"].to_numpy()))
            self.assertEqual(d.names, list("abcde"))
        self.assertEqual(d.layout, 1)
        # Other dtypes and strided views are converted once.
        self.assertEqual(_data.design_of(C.astype(np.float32)).x.dtype,
                         np.float64)
        self.assertFalse(np.shares_memory(_data.design_of(C[:, ::2]).x, C))

    def test_layouts_give_the_same_fit(self):
        a = cardreg.fit(np.ascontiguousarray(self.X), self.y, lam=20.0)
        b = cardreg.fit(np.asfortranarray(self.X), self.y, lam=20.0)
        c = cardreg.fit(pd.DataFrame(self.X), self.y, lam=20.0)
        assert_close(self, a.coef, b.coef, 1e-13, "C vs F")
        assert_close(self, a.coef, c.coef, 1e-13, "C vs DataFrame")
        self.assertEqual(a.names, ["x1", "x2", "x3", "x4", "x5"])
        est = cardreg.CardinalityRegressor(lam=20.0).fit(
            np.asfortranarray(self.X), self.y)
        assert_close(self, a.coef, est.coef_, 1e-13, "estimator")
        np.testing.assert_allclose(a.predict(self.X), est.predict(self.X),
                                   rtol=1e-12)

    def test_object_column_refused(self):
        df = pd.DataFrame({"a": self.X[:, 0], "b": ["u"] * 200})
        with self.assertRaisesRegex(ValueError, "column 'b'.*category"):
            cardreg.fit(df, self.y, lam=1.0)


class Factors(unittest.TestCase):

    def test_levels_and_names(self):
        X, y, off = policies()
        r = cardreg.fit(X, y, family="poisson", offset=off, lam=5.0)
        self.assertEqual(r.names[0], "driver_age")
        self.assertIn("vehicle_age=15+", r.names)
        self.assertNotIn("vehicle_age=0-2", r.names)  # the reference
        by = {f["factor"]: f for f in r.factors}
        self.assertTrue(by["vehicle_age"]["ordinal"])
        self.assertFalse(by["region"]["ordinal"])
        # Predictions through the library equal the estimator's own.
        est = cardreg.CardinalityPoissonRegressor(lam=5.0).fit(X, y,
                                                              offset=off)
        np.testing.assert_allclose(est.predict(X, offset=off),
                                   r.predict(X, offset=off), rtol=1e-12)
        np.testing.assert_allclose(est.coef_, r.coef, rtol=1e-13)
        self.assertEqual(list(est.feature_names_in_), list(X.columns))

    def test_unused_categories_dropped(self):
        X, y, off = policies()
        X = X.copy()
        X["region"] = X["region"].cat.add_categories(["R99"])
        r = cardreg.fit(X, y, family="poisson", offset=off, lam=5.0)
        self.assertNotIn("region=R99", r.names)

    def test_unseen_level(self):
        X, y, off = policies()
        est = cardreg.CardinalityPoissonRegressor(lam=5.0).fit(X, y,
                                                              offset=off)
        new = X.head(3).copy()
        new["region"] = pd.Categorical(["R01", "R77", "R02"])
        with self.assertRaisesRegex(ValueError, "'region'.*'R77'"):
            est.predict(new)
        r = cardreg.fit(X, y, family="poisson", offset=off, lam=5.0)
        with self.assertRaisesRegex(ValueError, "'region'.*'R77'"):
            r.predict(new)
        # A subset of the levels, as its own categorical, maps by value.
        sub = X.head(5).copy()
        sub["region"] = pd.Categorical(list(X["region"].head(5)))
        np.testing.assert_allclose(est.predict(sub, offset=off[:5]),
                                   est.predict(X.head(5), offset=off[:5]))

    def test_missing_level(self):
        X, y, off = policies()
        X = X.copy()
        X.loc[7, "fuel"] = np.nan
        with self.assertRaisesRegex(ValueError, "'fuel'.*row 7.*missing"):
            cardreg.fit(X, y, family="poisson", offset=off, lam=5.0)

    def test_missing_numeric_value_beside_factors(self):
        """A NaN in a numeric column of a DataFrame with factors is the
        library's error, naming the row (from 1) and the column."""
        X, y, off = policies()
        X = X.copy()
        X.loc[7, "driver_age"] = np.nan
        est = cardreg.CardinalityPoissonRegressor(lam=5.0)
        with self.assertRaisesRegex(ValueError, 'row 8: column "driver_age": NaN'):
            est.fit(X, y, offset=off)

    def test_predict_refuses_bad_frames(self):
        """predict refuses a NaN in a numeric column beside factors (not a
        NaN prediction), a DataFrame lacking a fitted column (not the
        columns matched by position), and factors given twice."""
        X, y, off = policies()
        est = cardreg.CardinalityPoissonRegressor(lam=5.0).fit(X, y,
                                                              offset=off)
        new = X.head(3).copy()
        new.loc[1, "driver_age"] = np.nan
        with self.assertRaisesRegex(ValueError, "NaN.*row 1.*'driver_age'"):
            est.predict(new, offset=off[:3])
        num = pd.DataFrame({"a": y[:50] * 0 + np.arange(50.0),
                            "b": np.sin(np.arange(50.0))})
        r = cardreg.fit(num, np.arange(50.0) + np.cos(np.arange(50.0)),
                        lam=1.0)
        with self.assertRaisesRegex(ValueError, "lacks the column.*'b'"):
            r.predict(num.rename(columns={"b": "c"}))
        with self.assertRaisesRegex(ValueError, "given twice"):
            cardreg.fit(X, y, family="poisson", offset=off, lam=5.0,
                        factors=["region"])

    def test_any_level_name(self):
        """Any text is a level, exactly as written: a fit whose levels are
        "NA", "", " pad ", "1" and "1.0"... gives the numbers of the same
        fit with plain names, and predicts new rows by those levels."""
        awkward = ["ref", "NA", "na", "NaN", " pad ", "", "1", "1.0",
                   "a,b", 'say "hi"', "two\nlines", "\u00e9", "long" * 3000]
        plain = ["l%d" % k for k in range(len(awkward))]
        rng = np.random.default_rng(4)
        codes = np.tile(np.arange(len(awkward)), 6)
        y = (codes % 3) + 0.3 * rng.standard_normal(codes.size)
        x1 = rng.standard_normal(codes.size)

        def frame(levels):
            return pd.DataFrame({"x1": x1, "g": pd.Categorical.from_codes(
                codes, categories=levels)})
        for fit in (lambda X: cardreg.fit(X, y, lam=0.05),
                    lambda X: cardreg.CardinalityRegressor(lam=0.05).fit(X, y)):
            a, p = fit(frame(awkward)), fit(frame(plain))
            coef = getattr(a, "coef", None)
            if coef is None:
                coef, pcoef = a.coef_, p.coef_
                names = a.coef_names_
            else:
                pcoef, names = p.coef, a.names
            self.assertEqual(names[1:], ["g=" + lv for lv in awkward[1:]])
            self.assertNotEqual(coef[2], 0.0)
            np.testing.assert_array_equal(coef, pcoef)
            new = frame(awkward).iloc[::-1]
            np.testing.assert_array_equal(a.predict(new),
                                          p.predict(frame(plain).iloc[::-1]))
            # Categories of their own order: matched by their exact text.
            vals = list(new["g"])
            own = new.assign(g=pd.Categorical(vals))
            np.testing.assert_array_equal(a.predict(own), a.predict(new))
            trimmed = ["pad" if v == " pad " else v for v in vals]
            with self.assertRaisesRegex(ValueError, "'g'.*'pad'"):
                a.predict(new.assign(g=pd.Categorical(trimmed)))
        bad = frame(awkward[:-1] + ["\udc80"])
        with self.assertRaisesRegex(ValueError, "'g'.*surrogate"):
            cardreg.fit(bad, y, lam=0.05)

    def test_reference_option(self):
        X, y, off = policies()
        r = cardreg.fit(X, y, family="poisson", offset=off, lam=5.0,
                        ref={"region": "R05"})
        self.assertIn("region=R01", r.names)
        self.assertNotIn("region=R05", r.names)


class PathAndCV(unittest.TestCase):

    def setUp(self):
        df = pd.read_csv(os.path.join(EXAMPLES, "cardinality.csv"))
        self.X, self.y = df.drop(columns="y"), df["y"].to_numpy()

    def test_path(self):
        p = cardreg.path(self.X, self.y, nlambda=20)
        k = len(p)
        self.assertEqual(p.coefs.shape, (k, 12))
        for a in (p.lambdas, p.intercepts, p.gaps, p.dev_ratio, p.df,
                  p.lambda_glmnet, p.converged, p.iterations):
            self.assertEqual(a.shape, (k,))
        self.assertTrue(np.all(np.diff(p.lambdas) < 0))
        self.assertEqual(p.lambdas[0], p.lambda_max)
        np.testing.assert_allclose(p.lambda_glmnet, p.lambdas / 800)
        np.testing.assert_array_equal(p.coefs[0], 0.0)
        # Coefficients from cardreg_coef equal the JSON's.
        for j, m in enumerate(p.summary["models"]):
            np.testing.assert_array_equal(p.coefs[j], m["coefficients"])
        pred = p.predict(self.X)
        self.assertEqual(pred.shape, (400, k))
        np.testing.assert_allclose(
            pred[:, 5], self.X.to_numpy() @ p.coefs[5] + p.intercepts[5],
            rtol=1e-12)
        given = cardreg.path(self.X, self.y, lambdas=[100.0, 10.0, 1.0])
        np.testing.assert_array_equal(given.lambdas, [100.0, 10.0, 1.0])

    def test_cv(self):
        c = cardreg.cv(self.X, self.y, nlambda=30, folds=5, seed=2)
        self.assertEqual(c.cvm.shape, c.lambdas.shape)
        self.assertEqual(c.cvsd.shape, c.lambdas.shape)
        self.assertEqual(c.lambdas[c.index_min], c.lambda_min)
        self.assertEqual(c.lambdas[c.index_1se], c.lambda_1se)
        self.assertEqual(c.cvm[c.index_min], np.min(c.cvm))
        self.assertGreaterEqual(c.lambda_1se, c.lambda_min)
        self.assertEqual(c.measure, "mse")
        self.assertEqual(sorted(set(c.foldid)), [1, 2, 3, 4, 5])
        # The same folds given back give the same curve.
        d = cardreg.cv(self.X, self.y, nlambda=30, foldid=c.foldid)
        np.testing.assert_allclose(c.cvm, d.cvm, rtol=1e-12)
        # The CV estimator reads the same curve.
        est = cardreg.CardinalityRegressorCV(n_folds=5, seed=2,
                                             n_lambda=30).fit(self.X, self.y)
        np.testing.assert_array_equal(est.cv_mean_, c.cvm)
        self.assertEqual(est.lambda_, c.lambda_min)
        np.testing.assert_array_equal(est.coef_, c.coefs[c.index_min])

    def test_plots(self):
        try:
            import matplotlib
            matplotlib.use("Agg")
        except ImportError:
            self.skipTest("matplotlib is not installed")
        import matplotlib.pyplot as plt
        c = cardreg.cv(self.X, self.y, nlambda=15, folds=3)
        fig, (a, b) = plt.subplots(1, 2)
        self.assertIs(cardreg.plot_path(c, ax=a), a)
        self.assertIs(cardreg.plot_cv(c, ax=b), b)
        self.assertEqual(len(a.get_lines()), 12 + 1)
        plt.close(fig)


class Documents(unittest.TestCase):
    """The JSON keys the package reads are there (clib/README.md)."""

    def test_keys(self):
        df = pd.read_csv(os.path.join(EXAMPLES, "credit.csv"))
        X, y = df.drop(columns="default"), df["default"].to_numpy()
        f = cardreg.fit(X, y, family="binomial", folds=4)
        for k in ("family", "link", "penalty", "lambda", "lambda_glmnet",
                  "nu", "objective", "duality_gap", "converged", "status",
                  "iterations", "n", "p", "intercept", "names",
                  "coefficients", "distinct_values", "clusters",
                  "cluster_values", "value_scale", "r2", "deviance",
                  "null_deviance", "dev_ratio", "relaxed", "lambda_rule",
                  "cv"):
            self.assertIn(k, f.summary)
        for k in ("folds", "lambda_min", "lambda_1se",
                  "unconverged_fold_fits"):
            self.assertIn(k, f.summary["cv"])
        self.assertEqual(f.family, "binomial")
        cls = f.predict(X, type="class")
        self.assertTrue(set(np.unique(cls)) <= {0.0, 1.0})
        prob = f.predict(X)
        np.testing.assert_array_equal(cls, (prob > 0.5).astype(float))
        np.testing.assert_allclose(
            f.predict(X, type="link"),
            X.to_numpy() @ f.coef + f.intercept, rtol=1e-12, atol=1e-12)
        c = cardreg.cv(X, y, family="binomial", folds=4, nlambda=10,
                       type_measure="auc")
        for k in ("family", "penalty", "n", "names", "lambda",
                  "lambda_glmnet", "lambda_max", "models", "cv"):
            self.assertIn(k, c.summary)
        for k in ("lambda", "lambda_glmnet", "intercept", "coefficients",
                  "duality_gap", "converged", "status", "iterations",
                  "dev_ratio", "deviance", "df", "distinct_values",
                  "clusters"):
            self.assertIn(k, c.summary["models"][0])
        for k in ("measure", "folds", "cvm", "cvsd", "index_min",
                  "index_1se", "lambda_min", "lambda_1se", "foldid"):
            self.assertIn(k, c.summary["cv"])
        self.assertEqual(c.measure, "auc")
        # AUC is maximised: λ_min is where cvm is largest.
        self.assertEqual(c.cvm[c.index_min], np.max(c.cvm))


class LazyImports(unittest.TestCase):
    """import cardreg needs neither scikit-learn nor matplotlib; a plot
    without matplotlib is an ImportError saying so."""

    def run_py(self, code):
        import subprocess
        import sys
        p = subprocess.run([sys.executable, "-c", code], capture_output=True,
                           text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout

    def test_import_is_light(self):
        out = self.run_py(
            "import sys, cardreg\n"
            "print('matplotlib' in sys.modules, 'sklearn' in sys.modules)")
        self.assertEqual(out.split(), ["False", "False"])

    def test_library_override(self):
        import subprocess
        import sys
        env = dict(os.environ, CARDREG_LIB="/nonexistent/libcardreg.so")
        p = subprocess.run(
            [sys.executable, "-c",
             "import cardreg\n"
             "try:\n"
             "    cardreg.version()\n"
             "except OSError as e:\n"
             "    print('OSError', '/nonexistent/libcardreg.so' in str(e))\n"],
            capture_output=True, text=True, env=env)
        self.assertEqual(p.stdout.split(), ["OSError", "True"], p.stderr)

    def test_plot_without_matplotlib(self):
        out = self.run_py(
            "import sys\n"
            "sys.modules['matplotlib'] = None\n"
            "sys.modules['matplotlib.pyplot'] = None\n"
            "import numpy as np, cardreg\n"
            "x = np.random.default_rng(0).standard_normal((60, 3))\n"
            "p = cardreg.path(x, x.sum(axis=1) + 0.1, nlambda=5)\n"
            "try:\n"
            "    cardreg.plot_path(p)\n"
            "except ImportError as e:\n"
            "    print('ImportError', 'matplotlib' in str(e))\n")
        self.assertEqual(out.split(), ["ImportError", "True"])


if __name__ == "__main__":
    unittest.main()
