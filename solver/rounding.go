package solver

import (
	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// GradientRounder is a loss whose gradient is a sum over rows, Σ gᵢxᵢ,
// that bounds the rounding error of each row's factor gᵢ: where the
// error's dual norm reaches λ, no scaling of the computed gradient is
// known to be a dual point, and the duality gap cannot be certified
// (status Uncertifiable).
type GradientRounder interface {
	// GradientRounding calls f with each row's predictors x (valid
	// during the call only, one entry per row of Θ) and the bound r on
	// the rounding error of its factor at theta, skipping rows with r = 0.
	GradientRounding(theta mat.Matrix, f func(x []float64, r float64))
}

// RoundingLambda returns a bound on the dual norm of the rounding error of
// p's gradient at theta, Σ rᵢ‖xᵢ‖_* over the rows (the triangle
// inequality: the errors' signs are unknown): at a λ below it the
// computed gradient's dual norm may exceed λ at the exact optimum, the
// dual point is scaled down by the rounding alone, and the duality gap
// cannot be certified. It returns false when the loss does not bound its
// rounding, the penalty has no known dual norm, or Θ has more than one
// column.
func RoundingLambda(p Problem, theta *mat.Dense) (float64, bool) {
	gr, ok := p.Loss.(GradientRounder)
	if _, c := theta.Dims(); !ok || c != 1 {
		return 0, false
	}
	if _, ok := p.Penalty.(penalty.DualNormer); !ok {
		return 0, false
	}
	var sum float64
	gr.GradientRounding(theta, func(x []float64, r float64) {
		d, _ := penalty.DualNorm(p.Penalty, mat.NewDense(len(x), 1, x))
		sum += r * d
	})
	return sum, true
}
