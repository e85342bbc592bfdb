package datafit

import (
	"math"
	"math/rand/v2"
	"testing"
)

var families = []Family{Gaussian{}, Binomial{}, Poisson{}, Gamma{}, Tweedie{1.5}, NegBin{2}}

func responses(f Family) []float64 {
	switch f.(type) {
	case Binomial:
		return []float64{0, 1}
	case Poisson:
		return []float64{0, 0.5, 3, 40}
	case Gamma:
		return []float64{0.01, 0.5, 3, 40}
	case Tweedie, NegBin:
		return []float64{0, 0.5, 3, 40}
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

// TestUnitsAt checks that a pass over the rows (the binomial and Poisson
// families' vector kernels) gives each row's Unit bit for bit, and zeros
// where the weight is 0.
func TestUnitsAt(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, f := range families {
		ys := responses(f)
		for _, n := range []int{1, 5, 1003} {
			l := &Loss{fam: f, y: make([]float64, n), w: make([]float64, n), yConst: make([]float64, n)}
			eta := make([]float64, n)
			for i := range n {
				l.y[i] = ys[r.IntN(len(ys))]
				l.w[i] = float64(r.IntN(4)) // a quarter at 0
				l.yConst[i] = unitConst(f, l.y[i])
				eta[i] = 5 * r.NormFloat64()
				if i%50 == 7 {
					eta[i] = 800 * (r.Float64() - 0.5) // the exponential's edges
				}
			}
			c := l.unitsAt(eta)
			for i, e := range eta {
				dev, d1, d2 := unit(f, l.y[i], l.yConst[i], e)
				if l.w[i] == 0 {
					dev, d1, d2 = 0, 0, 0
				}
				if !same(c.dev[i], dev) || !same(c.d1[i], d1) || !same(c.d2[i], d2) {
					t.Fatalf("%s n=%d row %d (y=%v, w=%v, η=%v): pass %v %v %v, Unit %v %v %v",
						f.Name(), n, i, l.y[i], l.w[i], e, c.dev[i], c.d1[i], c.d2[i], dev, d1, d2)
				}
			}
		}
	}
}

// same reports whether a and b are the same float64, bit for bit, or both NaN.
func same(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}
