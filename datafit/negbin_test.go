package datafit

import (
	"math"
	"strings"
	"testing"
)

var negbins = []NegBin{{2}, {0.3}, {50}}

// negbinDirect is MASS::negative.binomial's deviance residual squared,
// 2[y log(y/μ) − (y + θ) log((y + θ)/(μ + θ))], written as MASS does: the
// independent reference for Deviance.
func negbinDirect(th, y, eta float64) float64 {
	mu := math.Exp(eta)
	first := 0.0
	if y > 0 {
		first = y * math.Log(y/mu)
	}
	return 2 * (first - (y+th)*math.Log((y+th)/(mu+th)))
}

func TestNegBinDeviance(t *testing.T) {
	for _, f := range negbins {
		for _, y := range []float64{0, 1, 3, 40, 1e6} {
			for _, eta := range []float64{-6, -1, 0, 0.3, 2, 8, 30} {
				got, want := f.Deviance(y, eta), negbinDirect(f.Theta, y, eta)
				if math.Abs(got-want) > 1e-11*(1+math.Abs(want)+f.DualScale(y)+math.Abs(y*eta)) {
					t.Errorf("%s y=%v η=%v: deviance %v, MASS's formula %v", f.Name(), y, eta, got, want)
				}
			}
		}
	}
}

func TestNegBinDerivs(t *testing.T) {
	for _, f := range negbins {
		for _, y := range []float64{0, 0.5, 3, 40} {
			for _, eta := range []float64{-3, -0.4, 0, 0.7, 2.5} {
				checkDerivs(t, f, y, eta)
			}
		}
	}
}

// TestNegBinConjugate checks the closed-form conjugate against the
// supremum found by golden section, on both sides of its domain
// (−2y, 2θ), and Fenchel–Young at the derivative.
func TestNegBinConjugate(t *testing.T) {
	for _, f := range negbins {
		for _, y := range []float64{0, 0.5, 3, 40} {
			for _, v := range []float64{-100, -2 * y, -y, -0.1, 0, 0.1, f.Theta, 2*f.Theta - 1e-3, 2 * f.Theta, 2*f.Theta + 0.5} {
				checkConjugate(t, f, y, v)
			}
			for _, eta := range []float64{-3, -0.4, 0, 0.7, 2.5} {
				d1, _ := f.Derivs(y, eta)
				got, want := f.Conjugate(y, d1), d1*eta-f.Deviance(y, eta)
				if math.Abs(got-want) > 1e-10*(1+math.Abs(want)) {
					t.Errorf("%s y=%v η=%v: conjugate %v, Fenchel–Young %v", f.Name(), y, eta, got, want)
				}
			}
		}
	}
}

func TestNegBinName(t *testing.T) {
	for _, f := range negbins {
		g, err := ByName(f.Name())
		if err != nil || g != f {
			t.Errorf("ByName(%q) = %v, %v", f.Name(), g, err)
		}
	}
	for name, want := range map[string]string{
		"negbin:0": "θ = 0 is not a finite number > 0", "negbin:-1": "> 0", "negbin:inf": "> 0",
		"negbin": "negbin:THETA", "poisson:2": "takes no parameter",
	} {
		_, err := ByName(name)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ByName(%q): error %v, want one saying %q", name, err, want)
		}
	}
}
