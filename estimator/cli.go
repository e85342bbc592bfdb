package estimator

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/glm"
	"github.com/cardsparse/cardreg/internal/lsfit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/suffstat"
)

// This file gives callers that explain errors and check flags (the
// command line) what only the engines know, so that they import estimator
// alone.

// Measures returns the cross-validation measures of family fam
// (CVOptions.Measure), the default first.
func Measures(fam datafit.Family) []string { return glm.Measures(fam) }

// PenaltyFactors returns the weighted lasso of glmnet's penalty.factor f
// (one factor ≥ 0 per predictor, rescaled to sum to the number of
// penalised predictors) and the predictors whose factor is 0, to be left
// out of the penalty (Options.Unpenalized).
func PenaltyFactors(f []float64) (penalty.WeightedL1, []int, error) {
	return glm.PenaltyFactors(f)
}

// UnpenalizedColumns returns the sorted, distinct indices in names of the
// predictors exclude names (Options.Unpenalized): an error for a name that
// is not a predictor, or when no predictor would be left to penalise.
// The command line's --exclude and the bindings' "exclude" read it.
func UnpenalizedColumns(names, exclude []string) ([]int, error) {
	var free []int
	for _, name := range exclude {
		j := slices.Index(names, name)
		if j < 0 {
			return nil, fmt.Errorf("%q is not a predictor (predictors: %s)", name, strings.Join(names, ", "))
		}
		if !slices.Contains(free, j) {
			free = append(free, j)
		}
	}
	slices.Sort(free)
	if len(free) > 0 && len(free) == len(names) {
		return nil, errors.New("it leaves no predictor to penalise")
	}
	return free, nil
}

// FoldError reports a cross-validation fold whose training rows cannot be
// fitted (a binomial fold with one class only, say).
type FoldError = glm.FoldError

// FoldWeightError reports a fold whose training weights are dominated by
// one held-out row's weight.
type FoldWeightError = glm.FoldWeightError

// EmptyFoldError reports a fold of sufficient statistics with no weight.
type EmptyFoldError = lsfit.EmptyFoldError

// ScaleError reports predictors whose scales differ by more than float64
// can hold at once (a gaussian fit on rows without Standardize).
type ScaleError = lsfit.ScaleError

// IsConstant reports whether the values v are constant up to rounding: a
// predictor an intercept would duplicate, a response with nothing to fit.
func IsConstant(v []float64) bool { return lsfit.IsConstant(v) }

// ConstantVariable applies IsConstant's rule to variable j of statistics
// m, its root mean square standing for its magnitude.
func ConstantVariable(m *suffstat.Moments, j int) bool {
	d := m.Dim()
	v := m.C[j*d+j] / m.W
	return lsfit.NegligibleSpread(math.Sqrt(v), math.Sqrt(v+m.Mean[j]*m.Mean[j]))
}

// SumToN rescales the weights of statistics f to sum to their number of
// rows, as every route rescales weights (so that λ_glmnet = λ/(2n) holds
// for weighted fits); an error when every weight is 0.
func SumToN(f *suffstat.Folds) error { return sumToN(f) }
