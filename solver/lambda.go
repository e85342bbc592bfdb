package solver

import (
	"fmt"
	"math"
)

// CheckLambda returns an error when λ is not a value the objective
// f(β) + λ·h(β) takes: λ must be finite and ≥ 0 (NaN is neither). It is
// the one test of a given λ, for every package that takes one (callers
// prefix its error with their name). The test holds on any scale; a λ
// given on glmnet's scale is checked after datafit.FromGlmnet, whose 2n·λ
// can overflow to +Inf.
func CheckLambda(lambda float64) error {
	if lambda >= 0 && lambda <= math.MaxFloat64 {
		return nil
	}
	return fmt.Errorf("λ must be finite and ≥ 0, got %v", lambda)
}
