package estimator

import "github.com/cardsparse/cardreg/internal/fit"

// Model is a fitted model: η = Intercept + X·Coef (+ offset), the mean
// g⁻¹(η) for the family's link, one column per response (Coef p×q,
// Intercept one per response). Both engines produce it; its fields and
// methods (Clusters, DistinctValues, EffectiveParams, Link, Response,
// LambdaGlmnet) are documented in package internal/fit, their one home.
type Model = fit.Model

// Path is a sequence of fits along a decreasing λ grid, each warm-started
// at the previous one (Lambdas, Models, LambdaMax, LambdaFuse, Note,
// OutOfRange, Passes: package internal/fit).
type Path = fit.Path

// CV is a cross-validation curve along the full-data grid (Measure,
// Lambdas, Mean, SE, IndexMin, IndexSE, LambdaMin, LambdaSE, Path, Folds,
// Unconverged, OutOfRange, Passes: package internal/fit).
type CV = fit.CV
