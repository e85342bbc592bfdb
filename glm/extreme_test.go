package glm

import (
	"math"
	"strings"
	"testing"
)

// TestPenaltyFactorRatio: a factor of 1e308 among ones was rescaled to
// +Inf (1e308·p overflows) and 4e-308, and the fit then said "λ must be
// finite" though no λ was given. Now the ratio is refused naming both
// factors; huge factors of a sane ratio rescale exactly as small ones.
func TestPenaltyFactorRatio(t *testing.T) {
	_, _, err := PenaltyFactors([]float64{1e308, 1, 1, 0})
	if err == nil || !strings.Contains(err.Error(), "penalty factor 1 (1e+308)") || !strings.Contains(err.Error(), "factor 2 (1)") {
		t.Fatalf("1e308 among ones: %v", err)
	}
	big, free, err := PenaltyFactors([]float64{2e307, 1e307, 1e307, 0})
	if err != nil || len(free) != 1 || free[0] != 3 {
		t.Fatalf("huge factors: %v, free %v", err, free)
	}
	unit, _, err := PenaltyFactors([]float64{2, 1, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	for j := range unit.Factors {
		if math.Abs(big.Factors[j]-unit.Factors[j]) > 1e-15 || math.Abs(unit.Factors[j]-[]float64{2, 1, 1}[j]) > 1e-15 {
			t.Fatalf("factors %v and %v, want 2, 1, 1", big.Factors, unit.Factors)
		}
	}
}
