"""The families, penalties, measures and options the package offers are
the library's (cardreg.describe()): the package passes names through, and
the library's refusal of an unknown one lists exactly describe's. The
estimators' predictions are the library's inverse link, checked here
against the links written out."""

import re
import unittest

import numpy as np

import cardreg


def listed(msg, pattern):
    m = re.search(pattern, msg)
    return m.group(1).split(", ") if m else []


class DescribeTest(unittest.TestCase):
    def setUp(self):
        rng = np.random.default_rng(3)
        self.X = rng.normal(size=(30, 3))
        self.y = rng.poisson(2.0, size=30) + 1.0
        self.d = cardreg.describe()

    def error(self, **kw):
        with self.assertRaises(ValueError) as cm:
            cardreg.fit(self.X, self.y, **kw)
        return str(cm.exception)

    def test_families_and_penalties(self):
        fams = [f["name"] for f in self.d["families"]]
        pens = [p["name"] for p in self.d["penalties"]]
        self.assertTrue({"gaussian", "binomial", "poisson"} <= set(fams))
        self.assertTrue({"cardinality", "lasso"} <= set(pens))
        self.assertEqual(listed(self.error(family="weibull", lam=1.0),
                                r'unknown family "weibull" \((.*)\)'), fams)
        self.assertEqual(listed(self.error(penalty="nopenalty", lam=1.0),
                                r'unknown penalty "nopenalty" \((.*)\)'), pens)
        for f in self.d["families"]:
            if f["parameter"] is not None:
                continue
            y = np.arange(30) % 2 if f["name"] == "binomial" else self.y
            r = cardreg.fit(self.X, y, family=f["name"], penalty="lasso",
                            lam=1.0)
            self.assertEqual(r.family, f["name"])

    def test_measures(self):
        for f in self.d["families"]:
            if f["name"] not in ("gaussian", "binomial", "poisson"):
                continue
            y = np.arange(30) % 2 if f["name"] == "binomial" else self.y
            with self.assertRaises(ValueError) as cm:
                cardreg.cv(self.X, y, family=f["name"], folds=3,
                           type_measure="nomeasure")
            self.assertEqual(listed(str(cm.exception),
                                    r"not one of (.*) for family"),
                             [m["name"] for m in f["measures"]])

    def test_options(self):
        every = set()
        for cmd in ("fit", "path", "cv"):
            every |= set(self.d["options"][cmd])
        msg = self.error(no_such_option=1)
        self.assertEqual(set(listed(msg, r"\(options: (.*)\)")), every)
        self.assertNotIn("folds", self.d["options"]["path"])
        with self.assertRaisesRegex(ValueError, "folds"):
            cardreg.path(self.X, self.y, folds=5)
        self.assertIn("folds", self.d["options"]["cv"])

    def test_estimators_predict_the_inverse_link(self):
        X, y = self.X, self.y
        est = cardreg.CardinalityPoissonRegressor(lam=1.0).fit(X, y)
        eta = est.intercept_ + X @ est.coef_
        np.testing.assert_allclose(est.predict(X), np.exp(eta), rtol=1e-14)
        yb = (np.arange(30) % 3 == 0).astype(int)
        clf = cardreg.CardinalityClassifier(lam=1.0).fit(X, yb)
        eta = clf.intercept_ + X @ clf.coef_
        p1 = 1.0 / (1.0 + np.exp(-eta))
        np.testing.assert_allclose(clf.predict_proba(X)[:, 1], p1, rtol=1e-14)
        np.testing.assert_allclose(clf.predict_log_proba(X)[:, 1], np.log(p1),
                                   rtol=1e-13)
        np.testing.assert_array_equal(clf.predict(X), (eta > 0).astype(int))
        reg = cardreg.CardinalityRegressor(lam=1.0).fit(X, y)
        np.testing.assert_allclose(reg.predict(X),
                                   reg.intercept_ + X @ reg.coef_, rtol=1e-14)

    def test_response_refuses_bad_input(self):
        from cardreg import _lib
        with self.assertRaisesRegex(ValueError, "unknown family"):
            _lib.response("weibull", np.zeros(3))
        with self.assertRaisesRegex(ValueError, "binomial"):
            _lib.response("poisson", np.zeros(3), "class")


if __name__ == "__main__":
    unittest.main()
