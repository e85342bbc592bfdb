package datafit

import (
	"math"
	"math/rand/v2"
	"testing"
)

var families = []Family{Gaussian{}, Binomial{}, Poisson{}, Gamma{}}

func responses(f Family) []float64 {
	switch f.(type) {
	case Binomial:
		return []float64{0, 1}
	case Poisson:
		return []float64{0, 0.5, 3, 40}
	case Gamma:
		return []float64{0.01, 0.5, 3, 40}
	}
	return []float64{-2, 0, 1.5}
}

// TestDerivs checks ∂d/∂η and ∂²d/∂η² against central differences.
func TestDerivs(t *testing.T) {
	for _, f := range families {
		for _, y := range responses(f) {
			for _, eta := range []float64{-3, -0.4, 0, 0.7, 2.5} {
				d1, d2 := f.Derivs(y, eta)
				h := 1e-5
				n1 := (f.Deviance(y, eta+h) - f.Deviance(y, eta-h)) / (2 * h)
				a1, _ := f.Derivs(y, eta+h)
				b1, _ := f.Derivs(y, eta-h)
				n2 := (a1 - b1) / (2 * h)
				if math.Abs(d1-n1) > 1e-6*(1+math.Abs(d1)) || math.Abs(d2-n2) > 1e-6*(1+math.Abs(d2)) {
					t.Errorf("%s y=%v η=%v: derivs %v %v, differences %v %v", f.Name(), y, eta, d1, d2, n1, n2)
				}
				if d2 > f.Curvature() {
					t.Errorf("%s: curvature %v above the bound %v", f.Name(), d2, f.Curvature())
				}
			}
		}
	}
}

// TestConjugate checks Fenchel–Young: d*(y, d'(η)) = d'(η)·η − d(y, η), and
// d*(y, v) ≥ vη − d(y, η) for other v (the supremum).
func TestConjugate(t *testing.T) {
	for _, f := range families {
		for _, y := range responses(f) {
			for _, eta := range []float64{-3, -0.4, 0, 0.7, 2.5} {
				d1, _ := f.Derivs(y, eta)
				lhs := f.Conjugate(y, d1)
				rhs := d1*eta - f.Deviance(y, eta)
				if math.Abs(lhs-rhs) > 1e-10*(1+math.Abs(rhs)) {
					t.Errorf("%s y=%v η=%v: conjugate %v, want %v", f.Name(), y, eta, lhs, rhs)
				}
				for _, v := range []float64{d1 - 0.3, d1 + 0.1, 0.5 * d1} {
					if c := f.Conjugate(y, v); c < v*eta-f.Deviance(y, eta)-1e-12 {
						t.Errorf("%s: conjugate %v below vη − d = %v", f.Name(), c, v*eta-f.Deviance(y, eta))
					}
				}
			}
		}
	}
}

// TestMeanLink checks that Eta inverts Mean and that the deviance is zero
// at the saturated fit.
func TestMeanLink(t *testing.T) {
	for _, f := range families {
		for _, eta := range []float64{-2, 0.3, 1.7} {
			if got := f.Eta(f.Mean(eta)); math.Abs(got-eta) > 1e-12 {
				t.Errorf("%s: Eta(Mean(%v)) = %v", f.Name(), eta, got)
			}
		}
	}
	if d := (Poisson{}).Deviance(3, math.Log(3)); math.Abs(d) > 1e-14 {
		t.Errorf("poisson saturated deviance %v", d)
	}
	if d := (Binomial{}).Deviance(1, 40); d > 1e-16 {
		t.Errorf("binomial deviance at a confident right answer %v", d)
	}
	if _, err := ByName("tweedie"); err == nil {
		t.Error("unknown family accepted")
	}
}

// TestUnit checks that the families' one-pass evaluation gives the
// deviance and derivatives bit for bit.
func TestUnit(t *testing.T) {
	for _, f := range families {
		for _, y := range responses(f) {
			for _, eta := range []float64{-40, -3, -0.4, 0, 1e-9, 0.7, 2.5, 35} {
				dev, d1, d2 := unit(f, y, unitConst(f, y), eta)
				e1, e2 := f.Derivs(y, eta)
				if e := f.Deviance(y, eta); dev != e || d1 != e1 || d2 != e2 {
					t.Errorf("%s y=%v η=%v: unit %v %v %v, apart %v %v %v", f.Name(), y, eta, dev, d1, d2, e, e1, e2)
				}
			}
		}
	}
}

// TestLog1pSum holds log1pSum within an ulp of math.Log1p over (0, 1],
// tiny values included.
func TestLog1pSum(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	xs := []float64{1, 0.5, 1e-300, 5e-324, 1e-17, 0x1p-53, 0x1p-52, 0x1.fffffffffffffp-1}
	for range 300000 {
		xs = append(xs, r.Float64(), math.Exp(-745*r.Float64()), math.Exp(-40*r.Float64()))
	}
	for _, x := range xs {
		got, want := log1pSum(x, 1+x), math.Log1p(x)
		if ulp := math.Abs(math.Nextafter(want, math.Inf(1)) - want); math.Abs(got-want) > ulp {
			t.Fatalf("log1pSum(%v) = %v, math.Log1p %v: more than an ulp apart", x, got, want)
		}
	}
}
