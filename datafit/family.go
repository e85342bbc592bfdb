package datafit

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/internal/kernel"
)

// Family is the distribution of a response given its linear predictor η,
// described by what a penalised fit needs: the unit deviance d(y, η), its
// first two derivatives in η, its convex conjugate in η, and the link.
// Adding a family is one type implementing it.
type Family interface {
	// Name is the family's name as glmnet spells it ("binomial").
	Name() string
	// Link names the link function g, with η = g(μ).
	Link() string
	// Check returns an error saying why y is not a valid response.
	Check(y float64) error
	// Mean returns μ = g⁻¹(η).
	Mean(eta float64) float64
	// Eta returns g(μ) for a mean μ inside the family's range (the
	// intercept of a fit without predictors).
	Eta(mu float64) float64
	// Deviance returns the unit deviance d(y, η) ≥ 0.
	Deviance(y, eta float64) float64
	// Derivs returns ∂d/∂η and ∂²d/∂η² at (y, η).
	Derivs(y, eta float64) (d1, d2 float64)
	// Conjugate returns d*(y, v) = sup_η vη − d(y, η), +Inf outside its
	// domain.
	Conjugate(y, v float64) float64
	// Curvature returns sup_η ∂²d/∂η² (+Inf when unbounded).
	Curvature() float64
}

// DualScaler is implemented by families that size the terms of the
// duality gap themselves: DualScale(y) bounds, up to a small factor, the
// magnitude of the terms that the deviance and its conjugate add up for a
// response y near a fit, so that 1e-13 of their sum is the gap's rounding
// floor (Loss.GapFloor). Without it the floor counts 1 + 2|y log y| + 2|y|
// per row, the size of the binomial and Poisson terms.
type DualScaler interface {
	DualScale(y float64) float64
}

// unitEvaluator is implemented by families that evaluate the unit
// deviance and its two derivatives in one go, sharing the exponential,
// from a term of the deviance free of η computed once per row (unit's
// fallback calls Deviance and Derivs): a fit evaluates them at many
// linear predictors, for the same responses.
type unitEvaluator interface {
	// UnitConst returns the η-free term c(y) Unit reads.
	UnitConst(y float64) float64
	// Unit returns Deviance(y, η) and Derivs(y, η), bit for bit, given
	// c = UnitConst(y).
	Unit(y, c, eta float64) (dev, d1, d2 float64)
}

// unitConst returns family f's η-free term of the unit deviance at y (0
// for families without one).
func unitConst(f Family, y float64) float64 {
	if u, ok := f.(unitEvaluator); ok {
		return u.UnitConst(y)
	}
	return 0
}

// unit returns d(y, η), ∂d/∂η and ∂²d/∂η² under family f, c being
// unitConst(f, y).
func unit(f Family, y, c, eta float64) (dev, d1, d2 float64) {
	if u, ok := f.(unitEvaluator); ok {
		return u.Unit(y, c, eta)
	}
	d1, d2 = f.Derivs(y, eta)
	return f.Deviance(y, eta), d1, d2
}

// Kind is an entry of the family table: a family's name and, for a
// family with a parameter (a Parameterized family), how ByName builds it
// from "name:value".
type Kind struct {
	// Name is the family's name without parameter ("tweedie").
	Name string
	// family is the family, or for one with a parameter its registry
	// value (Families, the description's links and measures).
	family Family
	// build returns the family of parameter value v, or why not (nil for
	// a family without parameter).
	build func(v float64) (Family, error)
}

// Parameter returns the kind's parameter (ok false for a family without
// one), as its family describes it.
func (k Kind) Parameter() (par Parameter, ok bool) {
	p, ok := k.family.(Parameterized)
	if !ok || k.build == nil {
		return Parameter{}, false
	}
	return p.Parameter(), true
}

// Spelling returns how a name is written: "tweedie:P", or the bare name.
func (k Kind) Spelling() string {
	if par, ok := k.Parameter(); ok {
		return k.Name + ":" + par.Name
	}
	return k.Name
}

// howTo says how to write the kind's name with its parameter.
func (k Kind) howTo() string {
	par, _ := k.Parameter()
	return fmt.Sprintf("write %s with %s (e.g. %s)", k.Spelling(), par.Range, k.family.Name())
}

// registered lists the families ByName knows, in the order Names gives
// them: adding a family is one entry here.
var registered = []Kind{
	{Name: "gaussian", family: Gaussian{}},
	{Name: "binomial", family: Binomial{}},
	{Name: "poisson", family: Poisson{}},
	{Name: "gamma", family: Gamma{}},
	{Name: "tweedie", family: Tweedie{P: 1.5}, build: func(v float64) (Family, error) { return NewTweedie(v) }},
	{Name: "negbin", family: NegBin{Theta: 2}, build: func(v float64) (Family, error) { return NewNegBin(v) }},
}

// Families returns the families ByName knows, in the order of Names
// (each as registered: a family with a parameter at its registry value).
func Families() []Family {
	out := make([]Family, len(registered))
	for i, k := range registered {
		out[i] = k.family
	}
	return out
}

// Names returns the names of the families ByName knows, without their
// parameters ("tweedie"; Kind.Spelling writes "tweedie:P").
func Names() []string {
	names := make([]string, len(registered))
	for i, k := range registered {
		names[i] = k.Name
	}
	return names
}

// ByName returns the family called name (case-insensitive), one of
// Names, a family with a parameter written "name:value" ("tweedie:1.5",
// "negbin:2"). The family's Name reads back to the same family.
func ByName(name string) (Family, error) {
	base, arg, hasArg := strings.Cut(strings.ToLower(strings.TrimSpace(name)), ":")
	for _, k := range registered {
		if k.Name != base {
			continue
		}
		switch {
		case k.build == nil && hasArg:
			return nil, fmt.Errorf("datafit: the %s family takes no parameter (%q)", k.Name, name)
		case k.build == nil:
			return k.family, nil
		case !hasArg || arg == "":
			return nil, fmt.Errorf("datafit: the %s family needs its parameter: %s", k.Name, k.howTo())
		}
		v, err := strconv.ParseFloat(arg, 64)
		if err != nil {
			return nil, fmt.Errorf("datafit: family %q: %s is not a number (%s)", name, arg, k.howTo())
		}
		f, err := k.build(v)
		if err != nil {
			return nil, fmt.Errorf("datafit: family %q: %w", name, err)
		}
		return f, nil
	}
	// The names as the bindings' describe call lists them; a name given
	// without its parameter says how to write it (above).
	return nil, fmt.Errorf("datafit: unknown family %q (%s)", name, strings.Join(Names(), ", "))
}

// xlogx returns x·log x, with 0·log 0 = 0.
func xlogx(x float64) float64 {
	if x == 0 {
		return 0
	}
	return x * math.Log(x)
}

// Gaussian is least squares: identity link, d(y, η) = (y − η)².
type Gaussian struct{}

// Name returns "gaussian".
func (Gaussian) Name() string { return "gaussian" }

// Link returns "identity".
func (Gaussian) Link() string { return "identity" }

// Check accepts any finite y.
func (Gaussian) Check(y float64) error {
	if math.IsNaN(y) || math.IsInf(y, 0) {
		return fmt.Errorf("response %v is not finite", y)
	}
	return nil
}

// Mean returns η.
func (Gaussian) Mean(eta float64) float64 { return eta }

// Eta returns μ.
func (Gaussian) Eta(mu float64) float64 { return mu }

// Deviance returns (y − η)².
func (Gaussian) Deviance(y, eta float64) float64 { return (y - eta) * (y - eta) }

// Derivs returns 2(η − y) and 2.
func (Gaussian) Derivs(y, eta float64) (float64, float64) { return 2 * (eta - y), 2 }

// Conjugate returns vy + v²/4.
func (Gaussian) Conjugate(y, v float64) float64 { return v*y + v*v/4 }

// Curvature returns 2.
func (Gaussian) Curvature() float64 { return 2 }

// Binomial is logistic regression: response 0 or 1, logit link,
// d(y, η) = 2[log(1 + e^η) − yη].
type Binomial struct{}

// Name returns "binomial".
func (Binomial) Name() string { return "binomial" }

// Link returns "logit".
func (Binomial) Link() string { return "logit" }

// Check accepts 0 and 1.
func (Binomial) Check(y float64) error {
	if y != 0 && y != 1 {
		return fmt.Errorf("binomial response %v is not 0 or 1", y)
	}
	return nil
}

// Mean returns 1/(1 + e^−η), from e^−|η| (no overflow).
func (Binomial) Mean(eta float64) float64 {
	t := kernel.Exp(-math.Abs(eta))
	return binomialMean(eta, t)
}

// binomialMean returns the binomial mean at η given t = e^−|η|.
func binomialMean(eta, t float64) float64 {
	if eta < 0 {
		return t / (1 + t)
	}
	return 1 / (1 + t)
}

// UnitConst returns 0: the binomial deviance has no η-free term.
func (Binomial) UnitConst(float64) float64 { return 0 }

// Unit returns Deviance(y, η) and Derivs(y, η) from one exponential.
func (Binomial) Unit(y, _, eta float64) (dev, d1, d2 float64) {
	t := kernel.Exp(-math.Abs(eta))
	return binomialUnit(y, eta, t, kernel.Log1pUnit(t))
}

// binomialUnit returns the binomial Unit given t = e^−|η| and
// lg = log(1 + t) (kernel.Exp and kernel.Log1pUnit, whose vector forms
// give the same values: a pass over the rows computes them four at a
// time).
func binomialUnit(y, eta, t, lg float64) (dev, d1, d2 float64) {
	d1, d2 = binomialDerivs(y, eta, t)
	return binomialDeviance(y, eta, lg), d1, d2
}

// binomialDerivs returns 2(μ − y) and 2μ(1 − μ) given t = e^−|η|, from
// t/(1 + t), the smaller of μ and 1 − μ, which keeps its relative
// precision: 1 − μ taken as 1 − 1/(1 + t) is 0 for every η above 37, so
// the rows there had no curvature and the score of y = 1 no gradient,
// and binomial offsets of ±700 left the profile's intercept at 765 with
// every row "flat" (Newton's model then had no rows: "the unpenalised
// predictors are collinear").
func binomialDerivs(y, eta, t float64) (d1, d2 float64) {
	small := t / (1 + t)
	d2 = 2 * small / (1 + t)
	if eta < 0 {
		return 2 * (small - y), d2 // μ = small
	}
	return 2 * ((1 - y) - small), d2 // μ − y = (1 − y) − (1 − μ)
}

// binomialDeviance returns the binomial deviance given lg = log(1 + e^−|η|).
// The conversion keeps the compiler from fusing yη into the sum, so that
// every caller rounds alike.
func binomialDeviance(y, eta, lg float64) float64 {
	return 2 * (math.Max(eta, 0) + lg - float64(y*eta))
}

// Eta returns log(μ/(1 − μ)).
func (Binomial) Eta(mu float64) float64 { return math.Log(mu / (1 - mu)) }

// Deviance returns 2[log(1 + e^η) − yη], evaluated without overflow.
func (Binomial) Deviance(y, eta float64) float64 {
	return binomialDeviance(y, eta, kernel.Log1pUnit(kernel.Exp(-math.Abs(eta))))
}

// Derivs returns 2(μ − y) and 2μ(1 − μ).
func (Binomial) Derivs(y, eta float64) (float64, float64) {
	return binomialDerivs(y, eta, kernel.Exp(-math.Abs(eta)))
}

// Conjugate returns 2[a log a + (1 − a) log(1 − a)] with a = y + v/2,
// +Inf unless 0 ≤ a ≤ 1.
func (Binomial) Conjugate(y, v float64) float64 {
	a := y + v/2
	if a < 0 || a > 1 {
		return math.Inf(1)
	}
	return 2 * (xlogx(a) + xlogx(1-a))
}

// Curvature returns 1/2.
func (Binomial) Curvature() float64 { return 0.5 }

// Poisson is a count model: response a non-negative number, log link,
// d(y, η) = 2[y log y − y − yη + e^η].
type Poisson struct{}

// Name returns "poisson".
func (Poisson) Name() string { return "poisson" }

// Link returns "log".
func (Poisson) Link() string { return "log" }

// MaxCount is the largest poisson response, 2⁵³: float64 holds every
// count up to it exactly, and the intercept-only fit and the deviance
// (y·log y summed over rows) stay far inside its range.
const MaxCount = 1 << 53

// Check accepts y in [0, MaxCount] (glmnet, too, accepts non-integer
// counts).
func (Poisson) Check(y float64) error {
	if !(y >= 0) || math.IsInf(y, 0) {
		return fmt.Errorf("poisson response %v is not a finite count ≥ 0", y)
	}
	if y > MaxCount {
		return fmt.Errorf("poisson count %v is beyond %.4g (2^53), the largest count a poisson response may be (float64 holds counts exactly only up to there)", y, float64(MaxCount))
	}
	return nil
}

// Mean returns e^η.
func (Poisson) Mean(eta float64) float64 { return kernel.Exp(eta) }

// Eta returns log μ.
func (Poisson) Eta(mu float64) float64 { return math.Log(mu) }

// Deviance returns 2[y log y − y − yη + e^η].
func (Poisson) Deviance(y, eta float64) float64 {
	return poissonDeviance(y, xlogx(y)-y, eta, kernel.Exp(eta))
}

// poissonDeviance returns the Poisson deviance given c = y log y − y and
// μ = e^η (kernel.Exp, whose vector form gives the same values). The
// conversion keeps the compiler from fusing yη into the sum.
func poissonDeviance(y, c, eta, mu float64) float64 {
	return math.Max(2*(c-float64(y*eta)+mu), 0)
}

// UnitConst returns y log y − y, the deviance's logarithm of the count.
func (Poisson) UnitConst(y float64) float64 { return xlogx(y) - y }

// Unit returns Deviance(y, η) and Derivs(y, η) from one exponential, given
// c = y log y − y.
func (Poisson) Unit(y, c, eta float64) (dev, d1, d2 float64) {
	return poissonUnit(y, c, eta, kernel.Exp(eta))
}

// poissonUnit returns the Poisson Unit given μ = e^η.
func poissonUnit(y, c, eta, mu float64) (dev, d1, d2 float64) {
	return poissonDeviance(y, c, eta, mu), 2 * (mu - y), 2 * mu
}

// Derivs returns 2(μ − y) and 2μ.
func (Poisson) Derivs(y, eta float64) (float64, float64) {
	mu := kernel.Exp(eta)
	return 2 * (mu - y), 2 * mu
}

// Conjugate returns 2(b log b − b) − 2(y log y − y) with b = y + v/2, +Inf
// when b < 0.
func (Poisson) Conjugate(y, v float64) float64 {
	b := y + v/2
	if b < 0 {
		return math.Inf(1)
	}
	return 2*(xlogx(b)-b) - 2*(xlogx(y)-y)
}

// Curvature returns +Inf: e^η is unbounded.
func (Poisson) Curvature() float64 { return math.Inf(1) }

// Aggregation says how observations sharing a design row (so a linear
// predictor η up to their offsets oᵢ) combine into one row (ȳ, o_g) of
// weight W = Σwᵢ whose deviance W·d(ȳ, o_g + η) is Σwᵢd(yᵢ, oᵢ + η) up to a
// constant in η (estimator's compression of identical rows, and a
// database's GROUP BY). The formulas are in package estimator
// (compress.go); a family only names its kind.
type Aggregation struct {
	// Kind is how the rows combine.
	Kind AggregationKind
	// Power is a of AggregatePower.
	Power float64
}

// AggregationKind is a kind of Aggregation.
type AggregationKind int

const (
	// AggregateIdentical: only identical observations (design row,
	// response and offset) combine, their weights summed (binomial: a
	// response must stay 0 or 1). The default of a family that is not an
	// Aggregator.
	AggregateIdentical AggregationKind = iota
	// AggregatePower: the deviance's η-terms are multiples of y·μ^(a−1)
	// and μ^a with μ = e^η (log link: Poisson a = 1, Tweedie a = 2 − P,
	// gamma a = 0, as the limit): o_g = log(Σwᵢe^(a·oᵢ)/W)/a (Σwᵢoᵢ/W for
	// a = 0) and ȳ = Σwᵢyᵢe^((a−1)(oᵢ−o_g))/W.
	AggregatePower
	// AggregateSameOffset: the deviance's η-terms are linear in y and w at
	// a fixed μ (negbin): rows with equal offsets combine, ȳ = Σwᵢyᵢ/W.
	AggregateSameOffset
	// AggregateShift: d depends on y − η alone (gaussian): ȳ =
	// Σwᵢ(yᵢ − oᵢ)/W, no offset.
	AggregateShift
)

// Aggregator is implemented by the families whose identical design rows
// combine beyond identical observations (see Aggregation).
type Aggregator interface {
	Aggregation() Aggregation
}

// AggregationOf returns family f's Aggregation (AggregateIdentical for a
// family that is not an Aggregator).
func AggregationOf(f Family) Aggregation {
	if a, ok := f.(Aggregator); ok {
		return a.Aggregation()
	}
	return Aggregation{}
}

// Aggregation returns AggregateShift.
func (Gaussian) Aggregation() Aggregation { return Aggregation{Kind: AggregateShift} }

// Aggregation returns AggregatePower with a = 1.
func (Poisson) Aggregation() Aggregation { return Aggregation{Kind: AggregatePower, Power: 1} }
