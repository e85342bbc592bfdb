package fit

import (
	"fmt"
	"math"

	"github.com/cardsparse/cardreg/datafit"
)

// Criterion returns model m's information criterion which ("aic" or
// "bic") for df degrees of freedom: the deviance plus 2 (AIC) or log(n)
// (BIC) per degree of freedom; for the gaussian family n·log(RSS/n) in
// place of the deviance (the log-likelihood with σ² profiled out, up to a
// constant). Comparing fits of one path by it is choosing λ as smurf's
// and glmnet users' in-sample criteria do.
func (m *Model) Criterion(which string, df int) (float64, error) {
	var k float64
	switch which {
	case "aic":
		k = 2
	case "bic":
		k = math.Log(float64(m.N))
	default:
		return 0, fmt.Errorf("estimator: criterion %q: aic or bic", which)
	}
	dev := m.Deviance
	if _, ok := m.Family.(datafit.Gaussian); ok {
		dev = float64(m.N) * math.Log(m.Deviance/float64(m.N))
	}
	return dev + k*float64(df), nil
}

// Smallest returns the index of path p's fit of smallest information
// criterion which ("aic" or "bic"), df giving each fit's degrees of
// freedom, and its value; an error when no fit has a finite one.
func (p *Path) Smallest(which string, df func(*Model) int) (int, float64, error) {
	best, bestIC := -1, math.Inf(1)
	for k, m := range p.Models {
		ic, err := m.Criterion(which, df(m))
		if err != nil {
			return -1, 0, err
		}
		if ic < bestIC {
			best, bestIC = k, ic
		}
	}
	if best < 0 {
		return -1, 0, fmt.Errorf("no fit of the path has a finite %s", which)
	}
	return best, bestIC, nil
}
