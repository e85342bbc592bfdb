package fit

import (
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/solver"
)

// Options configure a fit. The zero value fits a gaussian model with an
// intercept, every predictor penalised, not standardised, stopping at a
// relative duality gap of solver.DefaultTol or solver.DefaultMaxIter
// iterations.
type Options struct {
	// Family is the response distribution. If nil, datafit.Gaussian.
	Family datafit.Family
	// Unpenalized lists predictors left out of the penalty (glmnet's
	// penalty.factor 0), fitted exactly like the intercept.
	Unpenalized []int
	// NoIntercept drops the intercept.
	NoIntercept bool
	// Standardize scales each predictor to unit weighted population
	// standard deviation before fitting (glmnet's default; off here, since
	// on the raw scale equal coefficients mean equal per-unit effects) and
	// maps the coefficients back.
	Standardize bool
	// Relax refits each penalised solution without the penalty on its
	// clusters (glmnet's relax = TRUE, γ = 0); cross-validation then
	// scores the refits.
	Relax bool
	// Settings say when the solver stops.
	Settings solver.Settings
	// Method is the solver. If nil, the one solver.DefaultMethod rule
	// chooses (see the package documentation of the routes).
	Method solver.Method
	// Progress, when set, is called after each fit of a path or
	// cross-validation with the fits done and their total (gaussian). It
	// may be called from several goroutines, never at once.
	Progress func(done, total int)
}

// FamilyOf returns the family of o: Family, or datafit.Gaussian when it
// is nil.
func FamilyOf(o *Options) datafit.Family {
	if o.Family == nil {
		return datafit.Gaussian{}
	}
	return o.Family
}

// PathOptions configure a path of fits along a decreasing λ grid.
type PathOptions struct {
	Options
	// Lambdas is the grid, used as given (sorted decreasing). If nil,
	// NLambda values from the top of the grid down to MinRatio times it,
	// evenly spaced in log scale (solver.Grid, the one grid): the top is λ_max, or for the cardinality
	// penalty of a gaussian fit λ_fuse, the smallest λ at which the fit is
	// fully fused (DESIGN §3).
	Lambdas []float64
	// NLambda is the grid's length. If zero, solver.DefaultNLambda (100).
	NLambda int
	// MinRatio is the smallest λ over the top. If zero, solver.MinRatio:
	// 1e-4 when n ≥ p and 1e-2 otherwise (glmnet's lambda.min.ratio).
	MinRatio float64
}

// CVOptions configure K-fold cross-validation.
type CVOptions struct {
	PathOptions
	// Folds is K. If zero, cvcurve.DefaultFolds (cv.glmnet's 10).
	Folds int
	// Seed fixes the assignment of rows to folds: the same seed gives the
	// same folds on every form of the same rows.
	Seed uint64
	// FoldID, when not nil, gives each row's fold (0…K−1; cv.glmnet's
	// foldid less one); Folds and Seed are then not used. Stats carry
	// their folds and Stream rows are dealt by Folds.
	FoldID []int
	// Measure is cv.glmnet's type.measure: "deviance" (the default; "mse" for gaussian, the same values), "mse",
	// "mae", "class" or "auc" (the last two binomial only; "mae" needs the
	// rows).
	Measure string
}
