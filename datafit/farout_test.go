package datafit

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestBinomialDerivsFarOut: the binomial curvature 2μ(1 − μ) was taken
// with 1 − μ = 1 − 1/(1 + e^−η), which is 0 for every η above 37, and the
// score 2(μ − 1) of y = 1 with it: with offsets of ±700 every row looked
// flat, the profile's intercept stopped at 765 and Newton's model had no
// rows ("the unpenalised predictors are collinear"). Now both keep their
// relative precision, and the family is symmetric: (y, η) and (1 − y, −η)
// have opposite scores and the same curvature.
func TestBinomialDerivsFarOut(t *testing.T) {
	for _, eta := range []float64{0.5, 20, 40, 100, 700, 745} {
		tt := math.Exp(-eta)
		want2 := 2 * tt / ((1 + tt) * (1 + tt))
		for _, y := range []float64{0, 1} {
			d1, d2 := Binomial{}.Derivs(y, eta)
			m1, m2 := Binomial{}.Derivs(1-y, -eta)
			if !(d2 > 0) || math.Abs(d2-want2) > 1e-14*want2 || d2 != m2 || d1 != -m1 {
				t.Fatalf("η %v y %v: (%v, %v), mirrored (%v, %v); curvature want %v", eta, y, d1, d2, m1, m2, want2)
			}
			_, u1, u2 := Binomial{}.Unit(y, 0, eta)
			if u1 != d1 || u2 != d2 {
				t.Fatalf("η %v y %v: Unit (%v, %v), Derivs (%v, %v)", eta, y, u1, u2, d1, d2)
			}
		}
		if d1, _ := (Binomial{}).Derivs(1, eta); !(d1 < 0) || math.Abs(d1+2*tt/(1+tt)) > 1e-14*2*tt {
			t.Fatalf("η %v: score of y = 1 is %v, want %v", eta, d1, -2*tt/(1+tt))
		}
	}
}

// TestNewtonModelFarOut: binomial offsets of ±700 with responses that
// disagree with them leave, at the profiled intercept, rows whose
// curvature underflows while their score is ±2. Newton's model dropped
// them (d2 = 0) or put their working response at ~1e300, whose square
// overflowed its value (the fits ended "the loss is NaN at iteration 1").
// Now every row with a score is in the model, its working response within
// MaxNewtonMove of η, and the model's value at β is finite.
func TestNewtonModelFarOut(t *testing.T) {
	d := extremeData(Binomial{})
	n := len(d.Y)
	d.Offset, d.Weights = make([]float64, n), make([]float64, n)
	for i := range n {
		d.Offset[i] = 700 * float64(1-2*(i%3%2))
		d.Weights[i] = float64(1 + i%4)
	}
	l, err := NewLoss(Binomial{}, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []float64{0, 30, -60} {
		theta := mat.NewDense(3, 1, []float64{b, -b / 2, b / 3})
		q, err := l.Quadratic(theta)
		if err != nil {
			t.Fatalf("β %v: %v", b, err)
		}
		if v := q.Eval(nil, theta); math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("β %v: the model's value is %v", b, v)
		}
		for i, e := range l.Eta() {
			d1, d2 := Binomial{}.Derivs(d.Y[i], e)
			c := NewtonCurvature(d1, d2)
			if d1 != 0 && !(c > 0 && math.Abs(d1/c) <= MaxNewtonMove) {
				t.Fatalf("β %v row %d: score %v, model curvature %v", b, i, d1, c)
			}
		}
	}
}
