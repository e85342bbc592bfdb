package glm

import (
	"errors"
	"fmt"
	"math"

	"github.com/cardsparse/cardreg/penalty"
)

// MaxFactorRatio bounds the ratio of the largest penalty factor to the
// smallest positive one. Beyond it the factors rescaled to sum p leave
// float64's useful range (a factor of 1e308 among ones becomes 4 against
// 4e-308, and λ_max = max |gⱼ|/fⱼ overflows); a predictor meant to go
// unpenalised takes factor 0.
const MaxFactorRatio = 1e30

// PenaltyFactors turns glmnet's penalty.factor (one value ≥ 0 per
// predictor) into what a fit takes: the factors rescaled to sum to the
// number of predictors, as glmnet rescales them, the lasso penalty of the
// positive ones, and the predictors with factor 0, which are left out of
// the penalty (fit.Options.Unpenalized). Factors whose ratio passes
// MaxFactorRatio are refused.
func PenaltyFactors(f []float64) (penalty.WeightedL1, []int, error) {
	top, low := -1, -1
	for j, v := range f {
		if !(v >= 0) || math.IsInf(v, 0) {
			return penalty.WeightedL1{}, nil, fmt.Errorf("glm: penalty factor %d is %v; factors must be finite and ≥ 0", j+1, v)
		}
		if v > 0 && (top < 0 || v > f[top]) {
			top = j
		}
		if v > 0 && (low < 0 || v < f[low]) {
			low = j
		}
	}
	if top < 0 {
		return penalty.WeightedL1{}, nil, errors.New("glm: every penalty factor is 0: nothing is penalised")
	}
	if f[low]*MaxFactorRatio < f[top] {
		return penalty.WeightedL1{}, nil, fmt.Errorf("glm: penalty factor %d (%v) is %s factor %d (%v), beyond the ratio of %.0e the fit's range can carry: give a predictor meant to go unpenalised factor 0", top+1, f[top], timesText(f[top]/f[low]), low+1, f[low], MaxFactorRatio)
	}
	// Summed relative to the largest, so that huge factors do not overflow.
	var sum float64
	for _, v := range f {
		sum += v / f[top]
	}
	var pen penalty.WeightedL1
	var free []int
	for j, v := range f {
		if v == 0 {
			free = append(free, j)
			continue
		}
		pen.Factors = append(pen.Factors, v/f[top]/sum*float64(len(f)))
	}
	return pen, free, nil
}

// timesText writes a ratio r ≥ 1 as "r times"; one beyond float64 (1e300
// over 1e-300) as "more than 1e308 times", not "+Inf times".
func timesText(r float64) string {
	if math.IsInf(r, 1) {
		return "more than 1e308 times"
	}
	return fmt.Sprintf("%.3g times", r)
}
