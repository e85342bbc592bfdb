package solver

import (
	"math"
	"testing"
)

// TestCheckLambda: finite values ≥ 0 pass (−0 and the largest float64
// too); negatives, NaN and ±Inf are refused.
func TestCheckLambda(t *testing.T) {
	for _, tc := range []struct {
		lambda float64
		ok     bool
	}{
		{0, true}, {math.Copysign(0, -1), true}, {1e-300, true}, {3, true}, {math.MaxFloat64, true},
		{-1e-300, false}, {-1, false}, {math.NaN(), false}, {math.Inf(1), false}, {math.Inf(-1), false},
	} {
		if err := CheckLambda(tc.lambda); (err == nil) != tc.ok {
			t.Errorf("CheckLambda(%v) = %v, want ok %v", tc.lambda, err, tc.ok)
		}
	}
}
