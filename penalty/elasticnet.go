package penalty

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// ElasticNet is glmnet's elastic net,
//
//	h(Θ) = Σᵢⱼ fᵢ·[(1 − α)/2·Θᵢⱼ² + α|Θᵢⱼ|],   0 ≤ α ≤ 1,
//
// on cardreg's scale (the objective is deviance + λh, so glmnet's λ is
// λ/(2n), datafit.GlmnetLambda), with glmnet's penalty.factor fᵢ scaling
// both terms of row i. α = 1 is the lasso, α = 0 ridge (glmnet's, half of
// penalty.Ridge). It is not a norm: its duality gap comes from its convex
// conjugate (Conjugator), λ_max from the ℓ₁ part (LambdaMaxer), and
// coordinate descent runs on it through its per-coordinate prox
// (CoordinateProxer).
type ElasticNet struct {
	// Alpha is α ∈ [0, 1], the share of the ℓ₁ part (glmnet's alpha).
	Alpha float64
	// Factors holds fᵢ > 0, one per row of Θ, already rescaled as glmnet
	// rescales penalty.factor (to sum to the number of predictors, those
	// with factor 0 included and left out of the penalty: see
	// glm.PenaltyFactors). If nil, every factor is 1.
	Factors []float64
}

var (
	_ Penalty          = ElasticNet{}
	_ Validator        = ElasticNet{}
	_ Conjugator       = ElasticNet{}
	_ CoordinateProxer = ElasticNet{}
	_ LambdaMaxer      = ElasticNet{}
	_ ZeroLambdaer     = ElasticNet{}
)

// RidgeGridAlpha is the α that sets the top of a generated λ grid for
// ridge (α = 0, where no λ makes every coefficient zero): glmnet computes
// λ_max with max(α, 0.001).
const RidgeGridAlpha = 1e-3

// Validate refuses α outside [0, 1] and factors that are not finite and
// positive.
func (e ElasticNet) Validate() error {
	if !(e.Alpha >= 0 && e.Alpha <= 1) {
		return fmt.Errorf("penalty: elastic net α = %v must be in [0, 1]", e.Alpha)
	}
	return WeightedL1{Factors: e.Factors}.Validate()
}

// factor returns fᵢ.
func (e ElasticNet) factor(i int) float64 {
	if e.Factors == nil {
		return 1
	}
	return e.Factors[i]
}

func (e ElasticNet) check(p int) {
	if e.Factors != nil && len(e.Factors) != p {
		panic(fmt.Sprintf("penalty: %d factors for %d rows", len(e.Factors), p))
	}
}

// Value returns Σᵢⱼ fᵢ[(1 − α)/2·Θᵢⱼ² + α|Θᵢⱼ|].
func (e ElasticNet) Value(theta mat.Matrix) float64 {
	p, q := theta.Dims()
	e.check(p)
	var s float64
	for i := range p {
		var l1, l2 float64
		for j := range q {
			v := theta.At(i, j)
			l1 += math.Abs(v)
			l2 += v * v
		}
		s += e.factor(i) * ((1-e.Alpha)/2*l2 + e.Alpha*l1)
	}
	return s
}

// Prox writes the elementwise prox soft(Θᵢⱼ, τfᵢα)/(1 + τfᵢ(1 − α)) into
// dst.
func (e ElasticNet) Prox(dst *mat.Dense, theta mat.Matrix, tau float64) {
	if tau < 0 || math.IsNaN(tau) {
		panic("penalty: negative or NaN prox step")
	}
	p, q := theta.Dims()
	e.check(p)
	sizeLike(dst, p, q)
	for i := range p {
		for j := range q {
			dst.Set(i, j, e.CoordinateProx(i, theta.At(i, j), tau))
		}
	}
}

// Separable reports that h is a sum over the p rows' coordinates (false
// when the factors are not p).
func (e ElasticNet) Separable(p int) bool { return e.Factors == nil || len(e.Factors) == p }

// CoordinateProx returns argmin_b ½(b − x)² + step·fᵢ[(1 − α)/2·b² + α|b|]
// = soft(x, step·fᵢα)/(1 + step·fᵢ(1 − α)).
func (e ElasticNet) CoordinateProx(i int, x, step float64) float64 {
	f := e.factor(i)
	return SoftThreshold(x, step*f*e.Alpha) / (1 + step*f*(1-e.Alpha))
}

// CoordinateThreshold returns αfᵢ, the radius of the subdifferential of
// row i's term at zero.
func (e ElasticNet) CoordinateThreshold(i int) float64 { return e.Alpha * e.factor(i) }

// Conjugate returns h*(U) = Σᵢⱼ max(|Uᵢⱼ| − αfᵢ, 0)²/(2fᵢ(1 − α)), which
// is +Inf at α = 1 (the lasso) when some |Uᵢⱼ| > fᵢ.
func (e ElasticNet) Conjugate(u mat.Matrix) float64 {
	p, q := u.Dims()
	e.check(p)
	var s float64
	for i := range p {
		f := e.factor(i)
		a, c := e.Alpha*f, (1-e.Alpha)*f
		for j := range q {
			d := math.Abs(u.At(i, j)) - a
			switch {
			case d <= 0:
			case c > 0:
				s += d * d / (2 * c)
			default:
				return math.Inf(1)
			}
		}
	}
	return s
}

// ConjugateZero returns maxᵢⱼ |Uᵢⱼ|/(αfᵢ), so that h*(sU) = 0 exactly for
// s ≤ 1/ConjugateZero(U) (+Inf at α = 0 unless U = 0).
func (e ElasticNet) ConjugateZero(u mat.Matrix) float64 {
	return e.ratio(u, e.Alpha)
}

// ZeroLambda returns maxᵢⱼ |gᵢⱼ|/(αfᵢ), the smallest λ at which Θ = 0 is
// optimal for a loss whose gradient at zero is g (+Inf at α = 0 unless
// g = 0).
func (e ElasticNet) ZeroLambda(g mat.Matrix) float64 { return e.ratio(g, e.Alpha) }

// LambdaMax returns glmnet's top of a generated grid, maxᵢⱼ
// |gᵢⱼ|/(max(α, RidgeGridAlpha)·fᵢ): ZeroLambda for α ≥ 0.001, and a
// finite top for ridge.
func (e ElasticNet) LambdaMax(g mat.Matrix) float64 {
	return e.ratio(g, math.Max(e.Alpha, RidgeGridAlpha))
}

// ratio returns maxᵢⱼ |gᵢⱼ|/(a·fᵢ) (0/0 is 0).
func (e ElasticNet) ratio(g mat.Matrix, a float64) float64 {
	p, q := g.Dims()
	e.check(p)
	var m float64
	for i := range p {
		for j := range q {
			if v := math.Abs(g.At(i, j)); v > 0 {
				m = math.Max(m, v/(a*e.factor(i)))
			}
		}
	}
	return m
}

// Factored is implemented by penalties that take glmnet's penalty.factor:
// the same penalty with one weight per predictor.
type Factored interface {
	// WithFactors returns the penalty with factors f (rescaled as glmnet
	// rescales them, see ElasticNet.Factors).
	WithFactors(f []float64) Penalty
}

// WithFactors returns p with factors f when p is Factored, else the
// weighted lasso of f (the factors' meaning since --penalty-factor began).
func WithFactors(p Penalty, f []float64) Penalty {
	if fp, ok := p.(Factored); ok {
		return fp.WithFactors(f)
	}
	return WeightedL1{Factors: f}
}

// WithFactors returns the elastic net of the same α with factors f.
func (e ElasticNet) WithFactors(f []float64) Penalty { return ElasticNet{Alpha: e.Alpha, Factors: f} }
