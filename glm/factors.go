package glm

import (
	"errors"
	"fmt"
	"math"

	"github.com/cardsparse/cardreg/penalty"
)

// PenaltyFactors turns glmnet's penalty.factor (one value ≥ 0 per
// predictor) into what a fit takes: the factors rescaled to sum to the
// number of predictors, as glmnet rescales them, the lasso penalty of the
// positive ones, and the predictors with factor 0, which are left out of
// the penalty (Options.Unpenalized).
func PenaltyFactors(f []float64) (penalty.WeightedL1, []int, error) {
	var sum float64
	for j, v := range f {
		if !(v >= 0) || math.IsInf(v, 0) {
			return penalty.WeightedL1{}, nil, fmt.Errorf("glm: penalty factor %d is %v; factors must be finite and ≥ 0", j+1, v)
		}
		sum += v
	}
	if !(sum > 0) {
		return penalty.WeightedL1{}, nil, errors.New("glm: every penalty factor is 0: nothing is penalised")
	}
	var pen penalty.WeightedL1
	var free []int
	for j, v := range f {
		if v == 0 {
			free = append(free, j)
			continue
		}
		pen.Factors = append(pen.Factors, v*float64(len(f))/sum)
	}
	return pen, free, nil
}
