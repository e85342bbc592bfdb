package penalty_test

import (
	"fmt"

	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// The prox of the cardinality penalty pulls values together: close values
// fuse into one, and the mean is soft-thresholded at τν.
func ExampleCardinality_Prox() {
	theta := mat.NewDense(5, 1, []float64{3.1, 2.9, 1.05, 0.95, -1})
	h := penalty.Cardinality{Nu: 1}
	var x mat.Dense
	h.Prox(&x, theta, 0.1)
	fmt.Printf("h(θ) = %.4g\n", h.Value(theta))
	fmt.Printf("prox = %.4g\n", mat.Col(nil, 0, &x))
	// Output:
	// h(θ) = 27.3
	// prox = [2.6 2.6 1 1 -0.7]
}

// The dual norm gives λ_max: for λ ≥ h*(g) the prox of λh at g is zero.
func ExampleCardinality_DualNorm() {
	g := mat.NewDense(4, 1, []float64{4, -2, 1, 1})
	h := penalty.Cardinality{Nu: 2}
	d := h.DualNorm(g)
	var x mat.Dense
	h.Prox(&x, g, d)
	fmt.Printf("h*(g) = %.4g, prox at τ = h*(g): %v\n", d, mat.Col(nil, 0, &x))
	// Output:
	// h*(g) = 1, prox at τ = h*(g): [0 0 0 0]
}

func ExampleNewGrouped() {
	// Two groups of predictors, fused separately; √P_k weights by default.
	h := penalty.NewGrouped([]int{0, 0, 0, 1, 1}, 1)
	theta := mat.NewDense(5, 1, []float64{1, 1.1, 0.9, -3, -2.9})
	var x mat.Dense
	h.Prox(&x, theta, 0.05)
	fmt.Printf("%.4g\n", mat.Col(nil, 0, &x))
	// Output:
	// [0.95 0.95 0.95 -2.9 -2.9]
}
