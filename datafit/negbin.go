package datafit

import (
	"fmt"
	"math"
	"strconv"
)

// NegBin is the negative binomial family with a fixed shape θ and the log
// link (R's MASS::negative.binomial(θ)): overdispersed counts, variance
// μ + μ²/θ (θ → ∞ is Poisson). With μ = e^η,
//
//	d(y, η) = 2[y log(y/μ) − (y + θ) log((y + θ)/(μ + θ))],
//
// the first term 0 at y = 0, as MASS computes it. The fit is the maximum
// likelihood at that θ; θ itself is not estimated.
type NegBin struct {
	// Theta is the shape θ > 0 (NewNegBin checks it).
	Theta float64
}

var _ Family = NegBin{}

// NewNegBin returns the negative binomial family of shape theta, or an
// error unless 0 < theta < +Inf.
func NewNegBin(theta float64) (NegBin, error) {
	if !(theta > 0) || math.IsInf(theta, 1) {
		return NegBin{}, fmt.Errorf("the negbin shape θ = %v is not a finite number > 0 (the variance is μ + μ²/θ)", theta)
	}
	return NegBin{Theta: theta}, nil
}

// Name returns "negbin:θ", θ in the shortest form that reads back to the
// same float64 (ByName parses it).
func (f NegBin) Name() string { return "negbin:" + strconv.FormatFloat(f.Theta, 'g', -1, 64) }

// Link returns "log".
func (NegBin) Link() string { return "log" }

// Check accepts y in [0, MaxCount], as Poisson does.
func (NegBin) Check(y float64) error {
	if !(y >= 0) || math.IsInf(y, 0) {
		return fmt.Errorf("negbin response %v is not a finite count ≥ 0", y)
	}
	if y > MaxCount {
		return fmt.Errorf("negbin count %v is beyond %.4g (2^53), the largest count a negbin response may be", y, float64(MaxCount))
	}
	return nil
}

// Mean returns e^η.
func (NegBin) Mean(eta float64) float64 { return math.Exp(eta) }

// Eta returns log μ.
func (NegBin) Eta(mu float64) float64 { return math.Log(mu) }

// UnitConst returns y log y − (y + θ) log(y + θ), the deviance's η-free
// term over 2.
func (f NegBin) UnitConst(y float64) float64 { return xlogx(y) - xlogx(y+f.Theta) }

// Unit returns Deviance(y, η) and Derivs(y, η) given c = UnitConst(y):
// with log(μ + θ) = η + log(1 + θe^−η) (or log θ + log1p(μ/θ)) taken
// without overflow, d = 2[c − yη + (y + θ) log(μ + θ)], ∂d/∂η =
// 2θ(μ − y)/(μ + θ) and ∂²d/∂η² = 2(y + θ)μθ/(μ + θ)².
func (f NegBin) Unit(y, c, eta float64) (dev, d1, d2 float64) {
	th := f.Theta
	var lmt, q float64 // log(μ + θ), μ/(μ + θ)
	if eta > math.Log(th) {
		r := th * math.Exp(-eta) // θ/μ < 1
		lmt, q = eta+math.Log1p(r), 1/(1+r)
	} else {
		r := math.Exp(eta) / th // μ/θ ≤ 1
		lmt, q = math.Log(th)+math.Log1p(r), r/(1+r)
	}
	dev = 2 * (c - float64(y*eta) + (y+th)*lmt)
	return math.Max(dev, 0), 2 * ((y+th)*q - y), 2 * (y + th) * q * (1 - q)
}

// Deviance returns d(y, η).
func (f NegBin) Deviance(y, eta float64) float64 {
	dev, _, _ := f.Unit(y, f.UnitConst(y), eta)
	return dev
}

// Derivs returns 2θ(μ − y)/(μ + θ) and 2(y + θ)μθ/(μ + θ)².
func (f NegBin) Derivs(y, eta float64) (float64, float64) {
	_, d1, d2 := f.Unit(y, f.UnitConst(y), eta)
	return d1, d2
}

// Conjugate returns sup_η vη − d(y, η). ∂d/∂η = 2[(y + θ)q − y] with
// q = μ/(μ + θ) ∈ (0, 1) takes every v in (−2y, 2θ), at q = a/(y + θ)
// with a = y + v/2, b = θ − v/2; there, and by continuity at the ends,
//
//	d*(y, v) = 2[a log a + b log b − y log y − b log θ],
//
// +Inf outside a, b ≥ 0.
func (f NegBin) Conjugate(y, v float64) float64 {
	a, b := y+v/2, f.Theta-v/2
	if a < 0 || b < 0 {
		return math.Inf(1)
	}
	return 2 * (xlogx(a) + xlogx(b) - xlogx(y) - b*math.Log(f.Theta))
}

// DualScale returns 1 + 2|y log y| + 2|(y+θ) log(y+θ)| + 2(y + θ): the
// deviance's terms, which cancel near a fit.
func (f NegBin) DualScale(y float64) float64 {
	return 1 + 2*math.Abs(xlogx(y)) + 2*math.Abs(xlogx(y+f.Theta)) + 2*(y+f.Theta)
}

// Curvature returns +Inf: ∂²d/∂η² reaches (y + θ)/2 at μ = θ, unbounded
// in y.
func (NegBin) Curvature() float64 { return math.Inf(1) }

// Aggregation returns AggregateSameOffset: d's terms in η, −yη and
// (y + θ)·log(μ + θ), are linear in y and w at a fixed μ, but log(μ + θ)
// does not factor over offsets.
func (NegBin) Aggregation() Aggregation { return Aggregation{Kind: AggregateSameOffset} }

// InterceptAtInfinity refuses counts all 0.
func (f NegBin) InterceptAtInfinity(_, hi float64) error { return allZero(f, "count", hi) }

// Parameter describes the shape θ.
func (NegBin) Parameter() Parameter {
	return Parameter{Name: "THETA", Range: "the shape θ > 0 (variance μ + μ²/θ)"}
}
