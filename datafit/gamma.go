package datafit

import (
	"fmt"
	"math"
)

// Gamma is the gamma family with the log link (R's Gamma(link = "log")):
// a positive continuous response whose standard deviation grows with its
// mean, such as claim sizes or durations. With μ = e^η and t = log y − η,
//
//	d(y, η) = 2[−log(y/μ) + (y − μ)/μ] = 2[y e^−η + η − log y − 1] = 2(e^t − 1 − t).
//
// Up to the constant −2(log y + 1) and the factor 2, d is ℓ(η) = y e^−η + η,
// the negative log-likelihood in η at a fixed shape; the shape (the
// dispersion) does not change the fit.
type Gamma struct{}

// Name returns "gamma".
func (Gamma) Name() string { return "gamma" }

// Link returns "log".
func (Gamma) Link() string { return "log" }

// Check accepts a finite y > 0.
func (Gamma) Check(y float64) error {
	if !(y > 0) || math.IsInf(y, 0) {
		return fmt.Errorf("gamma response %v is not a finite number > 0", y)
	}
	return nil
}

// Mean returns e^η.
func (Gamma) Mean(eta float64) float64 { return math.Exp(eta) }

// Eta returns log μ.
func (Gamma) Eta(mu float64) float64 { return math.Log(mu) }

// Deviance returns 2(e^t − 1 − t) with t = log y − η, exact near the
// saturated fit t = 0.
func (Gamma) Deviance(y, eta float64) float64 {
	t := math.Log(y) - eta
	return math.Max(2*(math.Expm1(t)-t), 0)
}

// Derivs returns 2(1 − y e^−η) and 2y e^−η.
func (Gamma) Derivs(y, eta float64) (float64, float64) {
	t := math.Log(y) - eta
	return -2 * math.Expm1(t), 2 * math.Exp(t)
}

// Conjugate returns sup_η vη − d(y, η): with c = 2 − v, the supremum is at
// e^−η = c/(2y) and equals c·log(c/(2y)) − c + 2(log y + 1); at c = 0 the
// limit 2(log y + 1) (η → ∞); +Inf when v > 2, where vη − d grows without
// bound. (On the likelihood's scale, ℓ = w(y e^−η + η) has, for u ≤ w,
// ℓ*(u) = (w − u)·log((w − u)/(wy)) − (w − u); d* is 2ℓ*(v/2) at w = 1
// plus 2(log y + 1).)
func (Gamma) Conjugate(y, v float64) float64 {
	c := 2 - v
	if c < 0 {
		return math.Inf(1)
	}
	ly := math.Log(y)
	return xlogx(c) - c*(math.Ln2+ly) - c + 2*(ly+1)
}

// DualScale returns 5 + 4|log y|: near a fit (y e^−η ≈ 1) the terms of the
// conjugate are about 2 + 2|log y| twice over, whatever the scale of y (the
// deviance depends on y/μ alone, and so must the gap's rounding floor; the
// default's |y log y| would grow with the unit of y).
func (Gamma) DualScale(y float64) float64 { return 5 + 4*math.Abs(math.Log(y)) }

// Curvature returns +Inf: 2y e^−η is unbounded as η → −∞.
func (Gamma) Curvature() float64 { return math.Inf(1) }

// Aggregation returns AggregatePower with a = 0: the terms of d in η are
// y·e^−η and η.
func (Gamma) Aggregation() Aggregation { return Aggregation{Kind: AggregatePower, Power: 0} }
