package datafit

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestGammaDeviance checks the deviance against R's Gamma()$dev.resids,
// −2[log(y/μ) − (y − μ)/μ], and its zero at the saturated fit.
func TestGammaDeviance(t *testing.T) {
	var g Gamma
	for _, y := range []float64{1e-3, 0.4, 1, 7, 2e4} {
		for _, eta := range []float64{-4, -0.5, 0, 1.2, 6} {
			mu := math.Exp(eta)
			want := -2 * (math.Log(y/mu) - (y-mu)/mu)
			if got := g.Deviance(y, eta); math.Abs(got-want) > 1e-12*(1+want) {
				t.Errorf("y=%v η=%v: deviance %v, want %v", y, eta, got, want)
			}
		}
		if d := g.Deviance(y, math.Log(y)); d != 0 {
			t.Errorf("y=%v: deviance %v at the saturated fit", y, d)
		}
		// Near it, d ≈ t² for t = log y − η: no cancellation.
		if d := g.Deviance(y, math.Log(y)-1e-9); math.Abs(d-1e-18) > 1e-24 {
			t.Errorf("y=%v: deviance %v at t = 1e-9, want 1e-18", y, d)
		}
	}
}

// TestGammaCheck accepts positive finite responses only.
func TestGammaCheck(t *testing.T) {
	var g Gamma
	for _, y := range []float64{5e-324, 0.3, 1e300} {
		if err := g.Check(y); err != nil {
			t.Errorf("%v refused: %v", y, err)
		}
	}
	for _, y := range []float64{0, -1, math.Inf(1), math.NaN()} {
		if err := g.Check(y); err == nil {
			t.Errorf("%v accepted", y)
		}
	}
	if f, err := ByName("Gamma"); err != nil || f != (Gamma{}) {
		t.Errorf("ByName(Gamma) = %v, %v", f, err)
	}
}

// maximise returns sup_η vη − d(y, η) by golden-section search on
// [lo, hi], where the concave function has its maximum.
func maximise(f Family, y, v, lo, hi float64) float64 {
	g := func(eta float64) float64 { return v*eta - f.Deviance(y, eta) }
	r := (math.Sqrt(5) - 1) / 2
	a, b := lo, hi
	for b-a > 1e-12*(1+math.Abs(a)) {
		c, d := b-r*(b-a), a+r*(b-a)
		if g(c) > g(d) {
			b = d
		} else {
			a = c
		}
	}
	return g((a + b) / 2)
}

// TestGammaConjugateMaximum checks the closed-form conjugate against a
// numerical maximisation of vη − d(y, η) over η, and its domain: +Inf for
// v > 2, the limit 2(log y + 1) at v = 2.
func TestGammaConjugateMaximum(t *testing.T) {
	var g Gamma
	for _, y := range []float64{0.02, 1, 13} {
		for _, v := range []float64{-30, -2, -0.1, 0, 0.5, 1.7, 1.99} {
			// The maximiser is log(2y/(2 − v)); search a wide bracket
			// around it.
			at := math.Log(2 * y / (2 - v))
			want := maximise(g, y, v, at-7, at+9)
			if got := g.Conjugate(y, v); math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
				t.Errorf("y=%v v=%v: conjugate %v, maximum %v", y, v, got, want)
			}
		}
		if c := g.Conjugate(y, 2+1e-12); !math.IsInf(c, 1) {
			t.Errorf("y=%v: conjugate %v beyond v = 2", y, c)
		}
		want := 2 * (math.Log(y) + 1)
		if c := g.Conjugate(y, 2); math.Abs(c-want) > 1e-14*(1+math.Abs(want)) {
			t.Errorf("y=%v: conjugate %v at v = 2, want %v", y, c, want)
		}
		// vη − d(y, η) approaches the limit from below as η grows.
		if s := 2*40 - g.Deviance(y, 40); s > want || want-s > 1e-12*(1+math.Abs(want)) {
			t.Errorf("y=%v: 2η − d at η = 40 is %v, limit %v", y, s, want)
		}
	}
}

// TestGammaLossGap checks the loss of the gamma family as the solvers'
// certificate uses it. Fenchel–Young holds with equality at the dual point
// u = w⊙∂d/∂η of every β, and the profile leaves u orthogonal to the
// intercept and the unpenalised columns, so the gap of the unpenalised
// problem is exactly F − D = βᵀX_Pᵀu = βᵀ∇F: zero at β = 0 (the fit
// without the penalised predictors) and the gradient's inner product
// elsewhere.
func TestGammaLossGap(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 1))
	n := 200
	x := mat.NewDense(n, 3, nil)
	y, w, o := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		eta := 0.4
		for j := range 3 {
			v := r.NormFloat64()
			x.Set(i, j, v)
			eta += []float64{0.5, -0.3, 0.2}[j] * v
		}
		y[i] = gammaDraw(r, math.Exp(eta))
		w[i] = 0.5 + r.Float64()
		o[i] = 0.2 * r.NormFloat64()
	}
	l, err := NewLoss(Gamma{}, &Data{X: x, Y: y, Weights: w, Offset: o, Unpenalized: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range [][]float64{{0, 0}, {0.3, -0.1}, {-1.5, 2}} {
		beta := mat.NewDense(2, 1, b)
		var grad mat.Dense
		f := l.Eval(&grad, beta)
		want := b[0]*grad.At(0, 0) + b[1]*grad.At(1, 0)
		if d := l.Dual(beta, 0, 1); math.Abs(f-d-want) > 1e-10*f {
			t.Errorf("β = %v: primal %v − dual %v = %v, want βᵀ∇F = %v", b, f, d, f-d, want)
		}
	}
}
