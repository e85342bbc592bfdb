package estimator

import (
	"github.com/cardsparse/cardreg/internal/cvcurve"
	"github.com/cardsparse/cardreg/internal/fit"
)

// DefaultFolds is K when CVOptions.Folds is 0: cv.glmnet's 10, for every
// family, form and caller (library and command line).
const DefaultFolds = cvcurve.DefaultFolds

// MinFolds is the fewest folds of a cross-validation: cv.glmnet's 3.
const MinFolds = cvcurve.MinFolds

// MaxFolds returns the most folds n observations can be cross-validated
// on: n, or 0 when they are fewer than MinFolds (too few to
// cross-validate).
func MaxFolds(n int) int { return cvcurve.MaxFolds(n) }

// Options configure a fit. The zero value fits a gaussian model with an
// intercept, every predictor penalised, not standardised, stopping at a
// relative duality gap of solver.DefaultTol or solver.DefaultMaxIter
// iterations. Its fields (Family, Unpenalized, NoIntercept, Standardize,
// Relax, Settings, Method, Progress) are documented where both engines
// read them, in package internal/fit: one set of options for every route.
type Options = fit.Options

// PathOptions configure a path of fits along a decreasing λ grid: Options
// with the grid (Lambdas, else NLambda values from the top of the grid,
// λ_max or for the cardinality penalty of a gaussian fit λ_fuse, down to
// MinRatio times it).
type PathOptions = fit.PathOptions

// CVOptions configure K-fold cross-validation: PathOptions with the folds
// (Folds, else DefaultFolds; Seed; FoldID) and the Measure.
type CVOptions = fit.CVOptions

// foldsOf returns K: co.Folds, or DefaultFolds.
func foldsOf(co *CVOptions) int {
	if co.Folds == 0 {
		return DefaultFolds
	}
	return co.Folds
}
