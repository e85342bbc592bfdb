package penalty

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// WeightedL1 is the lasso with one positive factor per predictor,
// h(Θ) = Σᵢⱼ fᵢ|Θᵢⱼ| (glmnet's penalty.factor; a predictor with factor 0 is
// not penalised at all and belongs outside the penalty, see package glm).
type WeightedL1 struct {
	// Factors holds fᵢ > 0, one per row of Θ.
	Factors []float64
}

var (
	_ Penalty         = WeightedL1{}
	_ DualNormer      = WeightedL1{}
	_ KernelProjector = WeightedL1{}
	_ Piecewise       = WeightedL1{}
	_ Validator       = WeightedL1{}
)

// Validate refuses factors that are not finite and positive.
func (l WeightedL1) Validate() error {
	for i, f := range l.Factors {
		if !(f > 0) || math.IsInf(f, 0) {
			return fmt.Errorf("penalty: factor %d is %v; factors must be finite and > 0 (leave a predictor with factor 0 out of the penalty)", i+1, f)
		}
	}
	return nil
}

func (l WeightedL1) check(p int) {
	if len(l.Factors) != p {
		panic(fmt.Sprintf("penalty: %d factors for %d rows", len(l.Factors), p))
	}
}

// Value returns Σᵢⱼ fᵢ|Θᵢⱼ|.
func (l WeightedL1) Value(theta mat.Matrix) float64 {
	p, q := theta.Dims()
	l.check(p)
	var s float64
	for i := range p {
		for j := range q {
			s += l.Factors[i] * math.Abs(theta.At(i, j))
		}
	}
	return s
}

// Prox soft-thresholds row i of Θ at τfᵢ.
func (l WeightedL1) Prox(dst *mat.Dense, theta mat.Matrix, tau float64) {
	if tau < 0 || math.IsNaN(tau) {
		panic("penalty: negative or NaN prox step")
	}
	p, q := theta.Dims()
	l.check(p)
	sizeLike(dst, p, q)
	for i := range p {
		for j := range q {
			dst.Set(i, j, SoftThreshold(theta.At(i, j), tau*l.Factors[i]))
		}
	}
}

// DualNorm returns maxᵢⱼ |gᵢⱼ|/fᵢ.
func (l WeightedL1) DualNorm(g mat.Matrix) float64 {
	p, q := g.Dims()
	l.check(p)
	var m float64
	for i := range p {
		for j := range q {
			m = math.Max(m, math.Abs(g.At(i, j))/l.Factors[i])
		}
	}
	return m
}

// ProjectKernel copies Θ into dst (G = 0).
func (l WeightedL1) ProjectKernel(dst *mat.Dense, theta mat.Matrix) {
	r, c := theta.Dims()
	sizeLike(dst, r, c)
	dst.Copy(theta)
}

// Piece returns the linear piece at column v: one cluster per non-zero,
// slope fᵢ·sign(vᵢ).
func (l WeightedL1) Piece(v []float64, _ int) Piece {
	l.check(len(v))
	var pc Piece
	for i, x := range v {
		if x != 0 {
			pc.Clusters = append(pc.Clusters, []int{i})
			pc.Slopes = append(pc.Slopes, l.Factors[i]*math.Copysign(1, x))
		}
	}
	return pc
}
