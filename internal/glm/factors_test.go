package glm

import (
	"strings"
	"testing"
)

// TestPenaltyFactorRatioText: the refusal of a factor ratio prints the
// ratio readably, also when it is beyond float64 (1e300 over 1e-300 was
// "+Inf times").
func TestPenaltyFactorRatioText(t *testing.T) {
	for _, c := range []struct {
		f    []float64
		want string
	}{
		{[]float64{1e300, 1e-300}, "is more than 1e308 times factor 2 (1e-300)"},
		{[]float64{1e-300, 1, 1e300}, "penalty factor 3 (1e+300) is more than 1e308 times factor 1 (1e-300)"},
		{[]float64{1e308, 1e-10, 0}, "is more than 1e308 times factor 2"},
		{[]float64{1e40, 1}, "is 1e+40 times factor 2 (1)"},
		{[]float64{1, 1e200, 1e-200}, "penalty factor 2 (1e+200) is more than 1e308 times factor 3 (1e-200)"},
		{[]float64{1, 1e200, 1}, "is 1e+200 times factor 1 (1)"},
	} {
		_, _, err := PenaltyFactors(c.f)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "Inf") {
			t.Errorf("%v: got %v, want it to contain %q", c.f, err, c.want)
		}
	}
}
