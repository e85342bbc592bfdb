"""Done-when 1: scikit-learn's check_estimator passes for every
estimator; and they work in Pipeline, GridSearchCV and clone."""

import pickle
import unittest
import warnings

import numpy as np
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import (
    check_estimator, check_sample_weights_invariance)

import cardreg

ESTIMATORS = [
    cardreg.CardinalityRegressor, cardreg.CardinalityClassifier,
    cardreg.CardinalityPoissonRegressor, cardreg.CardinalityRegressorCV,
    cardreg.CardinalityClassifierCV, cardreg.CardinalityPoissonRegressorCV,
    cardreg.ElasticNet, cardreg.ElasticNetCV,
]


def cardinality_data(n=120, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 6))
    beta = np.array([1.0, 1.0, 1.0, -1.0, -1.0, 0.0])
    return X, X @ beta, beta, rng


class CheckEstimator(unittest.TestCase):
    """Every check of check_estimator, one subtest each: what
    check_estimator(cls()) runs, from the same generator, but reporting
    every failure instead of stopping at the first."""

    def test_check_estimator(self):
        for cls in ESTIMATORS:
            for est, check in check_estimator(cls(), generate_only=True):
                name = getattr(check, "func", check).__name__
                with self.subTest(estimator=cls.__name__, check=name):
                    try:
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            check(est)
                    except unittest.SkipTest as e:
                        # Only the check the estimators' tags skip, for
                        # the reason they give (zero weights, README).
                        self.assertIn("rows of weight 0", str(e))
            # The tag skips both kinds of check_sample_weights_invariance;
            # unit weights must still equal no weights.
            with self.subTest(estimator=cls.__name__,
                              check="check_sample_weights_invariance ones"):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    check_sample_weights_invariance(cls.__name__, cls(),
                                                    kind="ones")


class Integration(unittest.TestCase):

    def test_unpenalized_column(self):
        """unpenalized (the command line's --exclude) keeps a column out of
        the penalty: at a λ that zeroes every penalised coefficient, its
        coefficient is the least-squares one; glmnet's exclude (dropping a
        column) is not a parameter."""
        X, mu, beta, rng = cardinality_data()
        y = mu + 0.1 * rng.standard_normal(len(mu))
        big = 1e6
        est = cardreg.CardinalityRegressor(lam=big, penalty="lasso",
                                           unpenalized=["x1"]).fit(X, y)
        self.assertEqual(list(est.coef_[1:]), [0.0] * 5)
        ls = np.polyfit(X[:, 0], y, 1)[0]
        self.assertAlmostEqual(est.coef_[0], ls, places=6)
        self.assertNotIn("exclude", est.get_params())

    def test_regressor_finds_clusters(self):
        X, mu, beta, rng = cardinality_data()
        y = mu + 0.1 * rng.standard_normal(len(mu))
        est = cardreg.CardinalityRegressorCV(relax=True, rule="1se").fit(X, y)
        self.assertEqual(len(est.clusters_), 3, est.clusters_)
        np.testing.assert_allclose(est.coef_, beta, atol=0.1)
        self.assertEqual(est.lambda_, est.lambda_1se_)
        self.assertEqual(est.lambdas_.shape, est.cv_mean_.shape)
        self.assertEqual(est.cv_se_.shape, est.cv_mean_.shape)
        self.assertGreater(est.score(X, y), 0.95)
        self.assertTrue(est.converged_)
        self.assertLess(est.duality_gap_, 1e-6)
        np.testing.assert_allclose(est.lambda_glmnet_,
                                   est.lambda_ / (2 * len(y)))

    def test_pipeline_gridsearch_clone(self):
        X, mu, _, rng = cardinality_data()
        y = mu + 0.5 * rng.standard_normal(len(mu))
        pipe = make_pipeline(StandardScaler(),
                             cardreg.CardinalityRegressor(lam=10.0))
        pipe.fit(X, y)
        self.assertEqual(pipe.predict(X).shape, (len(y),))
        gs = GridSearchCV(pipe, {"cardinalityregressor__lam": [1.0, 30.0],
                                 "cardinalityregressor__penalty":
                                 ["cardinality", "lasso"]}, cv=3)
        gs.fit(X, y)
        self.assertIn(gs.best_params_["cardinalityregressor__lam"],
                      (1.0, 30.0))
        c = clone(cardreg.CardinalityClassifierCV(rule="1se", n_folds=5))
        self.assertEqual(c.get_params()["rule"], "1se")
        self.assertEqual(c.set_params(seed=3).seed, 3)

    def test_classifier_labels(self):
        X, mu, _, rng = cardinality_data(200, 1)
        labels = np.where(mu + rng.logistic(size=len(mu)) > 0, "yes", "no")
        est = cardreg.CardinalityClassifier(lam=5.0).fit(X, labels)
        self.assertEqual(list(est.classes_), ["no", "yes"])
        proba = est.predict_proba(X)
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)
        d = est.decision_function(X)
        np.testing.assert_array_equal(est.predict(X),
                                      np.where(d > 0, "yes", "no"))
        self.assertGreater(est.score(X, labels), 0.7)
        with self.assertRaisesRegex(ValueError, "two classes"):
            est.fit(X, np.arange(len(labels)) % 3)

    def test_poisson_offset_and_score(self):
        rng = np.random.default_rng(5)
        X = rng.standard_normal((400, 4))
        expo = rng.uniform(0.5, 2.0, 400)
        y = rng.poisson(expo * np.exp(0.3 * X[:, 0] + 0.3 * X[:, 1]))
        est = cardreg.CardinalityPoissonRegressorCV().fit(
            X, y, offset=np.log(expo))
        mu = est.predict(X, offset=np.log(expo))
        self.assertTrue(np.all(mu > 0))
        np.testing.assert_allclose(
            mu, np.exp(np.log(expo) + est.intercept_ + X @ est.coef_))
        self.assertLess(est.score(X, y, offset=np.log(expo)), 1.0)
        # Fitted with an offset, scored without: every expected count off
        # by its exposure. Refused, not a wrong D².
        with self.assertRaisesRegex(ValueError, "offset_column"):
            est.score(X, y)
        # So is predict, as the library's and glmnet's predict: it gave
        # the counts at exposure 1, which a scorer such as
        # neg_mean_poisson_deviance compared with the observed counts.
        with self.assertRaisesRegex(ValueError, "fitted with an offset"):
            est.predict(X)
        np.testing.assert_allclose(
            est.predict(X, offset=np.zeros(len(y))),
            np.exp(est.intercept_ + X @ est.coef_))
        est.fit(X, y)
        with self.assertRaisesRegex(ValueError, "fitted without an offset"):
            est.predict(X, offset=np.log(expo))

    def test_poisson_offset_in_search(self):
        """GridSearchCV and cross_val_score pass score no offset (fit
        parameters reach fit only): with the offset as a column of X
        (offset_column) each split is scored at its rows' offset, the D²
        computed by hand; given as a fit parameter it is refused (NaN
        scores and the reason), never scored as exposure 1 (which gave
        negative scores and picked the largest λ)."""
        import pandas as pd
        from sklearn.metrics import d2_tweedie_score
        from sklearn.model_selection import KFold, cross_val_score
        rng = np.random.default_rng(5)
        n = 600
        X = rng.standard_normal((n, 4))
        expo = rng.uniform(0.2, 5.0, n)
        off = np.log(expo)
        y = rng.poisson(expo * np.exp(0.3 * X[:, 0] + 0.3 * X[:, 1] - 1))
        lams = [0.1, 1.0, 10.0, 100.0, 1000.0]
        folds = KFold(5, shuffle=True, random_state=0)
        want = []
        for lam in lams:
            s = []
            for tr, te in folds.split(X):
                e = cardreg.CardinalityPoissonRegressor(lam=lam).fit(
                    X[tr], y[tr], offset=off[tr])
                s.append(d2_tweedie_score(
                    y[te], e.predict(X[te], offset=off[te]), power=1))
            want.append(s)
        want = np.array(want)
        df = pd.DataFrame(X, columns=["a", "b", "c", "d"])
        df["log_exposure"] = off
        for name, X_, col in (("DataFrame", df, "log_exposure"),
                              ("array", np.column_stack([X, off]), 4)):
            with self.subTest(X=name):
                est = cardreg.CardinalityPoissonRegressor(offset_column=col)
                gs = GridSearchCV(est, {"lam": lams}, cv=folds).fit(X_, y)
                np.testing.assert_allclose(
                    gs.cv_results_["mean_test_score"], want.mean(axis=1),
                    rtol=1e-10)
                self.assertEqual(gs.best_params_["lam"],
                                 lams[int(np.argmax(want.mean(axis=1)))])
                self.assertLess(gs.best_params_["lam"], 100.0)
                got = cross_val_score(
                    cardreg.CardinalityPoissonRegressor(
                        lam=1.0, offset_column=col), X_, y, cv=folds)
                np.testing.assert_allclose(got, want[1], rtol=1e-10)
                self.assertEqual(gs.best_estimator_.coef_names_,
                                 ["a", "b", "c", "d"] if name == "DataFrame"
                                 else ["x1", "x2", "x3", "x4"])
        cvest = cardreg.CardinalityPoissonRegressorCV(
            offset_column="log_exposure").fit(df, y)
        plain = cardreg.CardinalityPoissonRegressorCV().fit(
            X, y, offset=off)
        self.assertEqual(cvest.lambda_, plain.lambda_)
        self.assertAlmostEqual(cvest.score(df, y),
                               plain.score(X, y, offset=off), places=12)
        with self.assertRaisesRegex(ValueError, "offset given twice"):
            cvest.fit(df, y, offset=off)
        with self.assertRaisesRegex(ValueError, "not a column of X"):
            cvest.predict(df.drop(columns="log_exposure"))
        cat = df.assign(log_exposure=pd.Categorical(["0"] * n))
        with self.assertRaisesRegex(ValueError, "has dtype category"):
            cvest.fit(cat, y)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = cross_val_score(cardreg.CardinalityPoissonRegressor(lam=1.0),
                                  X, y, cv=folds, fit_params={"offset": off})
        self.assertTrue(np.all(np.isnan(got)), got)
        self.assertTrue(any("offset_column" in str(w.message)
                            for w in caught))
        # A search given the offset as a fit parameter: with the default
        # error_score (NaN) its best_params_ is an arbitrary candidate;
        # error_score="raise", as python/README's example passes, stops
        # it with the refusal.
        with self.assertRaisesRegex(ValueError, "offset_column"):
            GridSearchCV(cardreg.CardinalityPoissonRegressor(),
                         {"lam": lams}, cv=folds, error_score="raise").fit(
                             X, y, offset=off)
        # A scorer that calls predict: refused as well, not scored at
        # exposure 1.
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = cross_val_score(cardreg.CardinalityPoissonRegressor(lam=1.0),
                                  X, y, cv=folds, fit_params={"offset": off},
                                  scoring="neg_mean_poisson_deviance")
        self.assertTrue(np.all(np.isnan(got)), got)
        got = cross_val_score(cardreg.CardinalityPoissonRegressor(
            lam=1.0, offset_column="log_exposure"), df, y, cv=folds,
            scoring="neg_mean_poisson_deviance")
        self.assertTrue(np.all(got < 0) and np.all(np.isfinite(got)), got)

    def test_cv_estimators_agree_with_plain(self):
        """The CV estimators' model at λ_min or λ_1se is described as the
        plain estimators' (one code path): level groups of factors in
        factors_, only numeric predictors in clusters_, the frame's column
        names; they had an empty factors_ and factor dummies in
        clusters_, and a numeric frame's coefficients were x1, x2, ..."""
        import pandas as pd
        rng = np.random.default_rng(8)
        n = 240
        df = pd.DataFrame(rng.standard_normal((n, 3)),
                          columns=["age", "income", "noise"])
        df["region"] = pd.Categorical(rng.choice(list("pqrs"), n))
        y = (df["age"] + df["income"]
             + df["region"].map({"p": 0.0, "q": 0.0, "r": 2.0, "s": 2.0})
             .astype(float) + rng.standard_normal(n)).to_numpy()
        for rule in ("min", "1se"):
            cvest = cardreg.CardinalityRegressorCV(rule=rule, n_folds=5,
                                                   seed=2).fit(df, y)
            ref = cardreg.fit(df, y, lam="cv", rule=rule, folds=5, seed=2)
            with self.subTest(rule=rule):
                self.assertEqual(cvest.lambda_, ref.lambda_)
                self.assertEqual(cvest.factors_, ref.factors)
                self.assertNotEqual(cvest.factors_, [])
                self.assertEqual(cvest.clusters_, ref.clusters)
                flat = [c for cl in cvest.clusters_ for c in cl]
                self.assertFalse([c for c in flat if "=" in c], flat)
                np.testing.assert_array_equal(cvest.coef_, ref.coef)
                np.testing.assert_array_equal(
                    cvest.coef_, cvest.coef_path_[cvest.index_])
                plain = cardreg.CardinalityRegressor(
                    lam=cvest.lambda_).fit(df, y)
                self.assertEqual(
                    [[g["levels"] for g in f["groups"]]
                     for f in plain.factors_],
                    [[g["levels"] for g in f["groups"]]
                     for f in cvest.factors_])
        num = df[["age", "income", "noise"]]
        for est in (cardreg.CardinalityRegressor(lam=5.0),
                    cardreg.CardinalityRegressorCV(n_folds=5)):
            est.fit(num, y)
            with self.subTest(est=type(est).__name__):
                self.assertEqual(est.coef_names_, list(est.feature_names_in_))
                self.assertEqual(sorted(c for cl in est.clusters_ for c in cl),
                                 ["age", "income", "noise"])
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # "no feature names"
                    np.testing.assert_array_equal(
                        est.predict(num), est.predict(num.to_numpy()))

    def test_convergence_warning(self):
        X, mu, _, rng = cardinality_data()
        y = mu + rng.standard_normal(len(mu))
        with self.assertWarns(ConvergenceWarning):
            est = cardreg.CardinalityRegressor(
                lam=0.5, max_iter=1, tol=1e-15).fit(X, y)
        self.assertFalse(est.converged_)

    def test_defaults_passed_as_nothing(self):
        est = cardreg.CardinalityRegressor()
        opts = est._options()
        self.assertEqual({k for k, v in opts.items() if v is not None},
                         {"family", "penalty"})

    def test_pickle(self):
        X, mu, _, rng = cardinality_data()
        y = mu + rng.standard_normal(len(mu))
        est = cardreg.CardinalityRegressorCV(n_folds=5).fit(X, y)
        again = pickle.loads(pickle.dumps(est))
        np.testing.assert_array_equal(est.predict(X), again.predict(X))


if __name__ == "__main__":
    unittest.main()
