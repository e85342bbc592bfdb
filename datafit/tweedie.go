package datafit

import (
	"fmt"
	"math"
	"strconv"
)

// Tweedie is the Tweedie family with the log link and a power P strictly
// between 1 and 2 (statmod's tweedie(var.power = P, link.power = 0),
// glum's and statsmodels' Tweedie): a compound Poisson–gamma response,
// 0 with positive probability and continuous above, the actuaries' pure
// premium. Its variance is φμ^P. With μ = e^η,
//
//	d(y, η) = 2[y^(2−P)/((1−P)(2−P)) − y·μ^(1−P)/(1−P) + μ^(2−P)/(2−P)],
//
// evaluated for y > 0 as 2y^(2−P)·[expm1((2−P)s)/(2−P) + expm1((1−P)s)/(P−1)]
// with s = η − log y (the constant terms cancel exactly), and for y = 0 as
// 2μ^(2−P)/(2−P). The dispersion φ does not change the fit.
type Tweedie struct {
	// P is the variance power, 1 < P < 2 (NewTweedie checks it).
	P float64
}

var _ Family = Tweedie{}

// NewTweedie returns the Tweedie family of power p, or an error unless
// 1 < p < 2.
func NewTweedie(p float64) (Tweedie, error) {
	if !(p > 1 && p < 2) {
		return Tweedie{}, fmt.Errorf("the tweedie power %v is not between 1 and 2 (1 < p < 2: p = 1 is poisson, p = 2 is gamma)", p)
	}
	return Tweedie{P: p}, nil
}

// Name returns "tweedie:P", P in the shortest form that reads back to the
// same float64 (ByName parses it).
func (t Tweedie) Name() string { return "tweedie:" + strconv.FormatFloat(t.P, 'g', -1, 64) }

// Link returns "log".
func (Tweedie) Link() string { return "log" }

// Check accepts a finite y ≥ 0.
func (t Tweedie) Check(y float64) error {
	if !(y >= 0) || math.IsInf(y, 0) {
		return fmt.Errorf("tweedie response %v is not a finite number ≥ 0", y)
	}
	return nil
}

// Mean returns e^η.
func (Tweedie) Mean(eta float64) float64 { return math.Exp(eta) }

// Eta returns log μ.
func (Tweedie) Eta(mu float64) float64 { return math.Log(mu) }

// UnitConst returns log y (−Inf for y = 0).
func (Tweedie) UnitConst(y float64) float64 { return math.Log(y) }

// Unit returns Deviance(y, η) and Derivs(y, η) given c = log y:
// ∂d/∂η = 2μ^(1−P)(μ − y) and ∂²d/∂η² = 2[(2−P)μ^(2−P) + (P−1)y·μ^(1−P)].
func (t Tweedie) Unit(y, ly, eta float64) (dev, d1, d2 float64) {
	p := t.P
	if y == 0 {
		m2 := math.Exp((2 - p) * eta)
		return 2 * m2 / (2 - p), 2 * m2, 2 * (2 - p) * m2
	}
	s := eta - ly
	if math.Abs(s) > 600 {
		// expm1 of (2−P)s would overflow where μ^(2−P) itself need not
		// (a tiny y): the terms one by one, their cancellation harmless
		// this far from the saturated fit.
		m2, m1y := math.Exp((2-p)*eta), math.Exp(ly+(1-p)*eta)
		ya := math.Exp((2 - p) * ly)
		dev = 2 * (ya/((1-p)*(2-p)) - m1y/(1-p) + m2/(2-p))
		return math.Max(dev, 0), 2 * (m2 - m1y), 2 * ((2-p)*m2 + (p-1)*m1y)
	}
	ya := math.Exp((2 - p) * ly)
	a, b := math.Expm1((1-p)*s), math.Expm1((2-p)*s)
	dev = 2 * ya * (b/(2-p) + a/(p-1))
	// μ^(2−P) = y^(2−P)(1 + b), y·μ^(1−P) = y^(2−P)(1 + a).
	return math.Max(dev, 0), 2 * ya * (b - a), 2 * ya * ((2-p)*(1+b) + (p-1)*(1+a))
}

// Deviance returns d(y, η).
func (t Tweedie) Deviance(y, eta float64) float64 {
	dev, _, _ := t.Unit(y, math.Log(y), eta)
	return dev
}

// Derivs returns 2μ^(1−P)(μ − y) and 2[(2−P)μ^(2−P) + (P−1)y·μ^(1−P)].
func (t Tweedie) Derivs(y, eta float64) (float64, float64) {
	_, d1, d2 := t.Unit(y, math.Log(y), eta)
	return d1, d2
}

// Conjugate returns sup_η vη − d(y, η). For y = 0 it is closed:
// v(log(v/2) − 1)/(2−P) for v > 0, 0 at v = 0, +Inf for v < 0. For y > 0
// the supremum is where ∂d/∂η = v, that is, with s = η − log y, where
// φ(s) = e^((1−P)s)·expm1(s) = v/(2y^(2−P)); φ increases from −∞ to +∞,
// so the root exists for every v and is found by safeguarded Newton
// (solveMonotone) on log|φ|, which is nearly linear in s on either side
// of 0.
func (t Tweedie) Conjugate(y, v float64) float64 {
	p := t.P
	if y == 0 {
		switch {
		case v < 0:
			return math.Inf(1)
		case v == 0:
			return 0
		}
		return v * (math.Log(v/2) - 1) / (2 - p)
	}
	if v == 0 {
		return 0
	}
	ly := math.Log(y)
	ya := math.Exp((2 - p) * ly)
	c := v / (2 * ya)
	s := tweedieRoot(p, c)
	a, b := math.Expm1((1-p)*s), math.Expm1((2-p)*s)
	return v*(ly+s) - 2*ya*(b/(2-p)+a/(p-1))
}

// tweedieRoot returns the s with φ(s) = e^((1−p)s)·expm1(s) = c (c ≠ 0),
// of c's sign (φ increases through φ(0) = 0). For |c| ≤ 1 it solves
// φ(s) = c itself from s = c (φ(s) = s + O(s²)), keeping a tiny root's
// relative precision; beyond, the root of log|φ(s)| = log|c|, nearly
// linear in s: slope above 2−p for s > 0, below 1−p for s < 0.
func tweedieRoot(p, c float64) float64 {
	if math.Abs(c) <= 1 {
		f := func(s float64) (float64, float64) {
			e1 := math.Exp((1 - p) * s)
			em := math.Expm1(s)
			return e1*em - c, e1 * ((1-p)*em + em + 1)
		}
		if c > 0 {
			return rootIncreasing(f, 0, 1, c)
		}
		return rootIncreasing(f, -1, 0, c)
	}
	lc := math.Log(math.Abs(c))
	if c > 0 {
		// log expm1(s) = s + log(1 − e^−s), finite beyond e^709.
		f := func(s float64) (float64, float64) {
			e := -math.Expm1(-s)
			return (2-p)*s + math.Log(e) - lc, (1 - p) + 1/e
		}
		return rootIncreasing(f, 0, 1, lc/(2-p))
	}
	// −(log(−φ(s)) − log(−c)) increases in s < 0.
	f := func(s float64) (float64, float64) {
		e := -math.Expm1(s)
		return -((1-p)*s + math.Log(e) - lc), -((1 - p) - (1-e)/e)
	}
	return rootIncreasing(f, -1, 0, lc/(1-p))
}

// DualScale returns 1 + 2y^(2−P)(1/((P−1)(2−P)) + |log y|) + 2y: the
// deviance's terms, which cancel near a fit, are about y^(2−P)/((P−1)(2−P))
// each, and the conjugate's vη about y^(2−P)·|log y|.
func (t Tweedie) DualScale(y float64) float64 {
	if y == 0 {
		return 1
	}
	p := t.P
	ya := math.Pow(y, 2-p)
	return 1 + 2*ya*(1/((p-1)*(2-p))+math.Abs(math.Log(y))) + 2*y
}

// Curvature returns +Inf: μ^(2−P) is unbounded as η → ∞, y·μ^(1−P) as
// η → −∞.
func (Tweedie) Curvature() float64 { return math.Inf(1) }

// Aggregation returns AggregatePower with a = 2 − P: the terms of d in η
// are y·μ^(1−P) and μ^(2−P), linear in y and w.
func (t Tweedie) Aggregation() Aggregation { return Aggregation{Kind: AggregatePower, Power: 2 - t.P} }

// InterceptAtInfinity refuses responses all 0.
func (t Tweedie) InterceptAtInfinity(_, hi float64) error { return allZero(t, "response", hi) }

// Parameter describes the power P.
func (Tweedie) Parameter() Parameter {
	return Parameter{Name: "P", Range: "the variance power, 1 < P < 2"}
}
