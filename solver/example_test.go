package solver_test

import (
	"fmt"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// Minimise ‖y − Xβ‖² + λ·h(β) for the cardinality penalty: the result comes
// with its relative duality gap, a certificate of optimality.
func ExampleMinimize() {
	x := mat.NewDense(6, 3, []float64{
		1, 0, 0,
		0, 1, 0,
		0, 0, 1,
		1, 1, 0,
		0, 1, 1,
		1, 0, 1,
	})
	y := mat.NewDense(6, 1, []float64{1.1, 0.9, 3, 2, 3.9, 4.1})
	loss := solver.NewLeastSquares(solver.DenseDesign{X: x}, y)
	prob := solver.Problem{Loss: loss, Penalty: penalty.Cardinality{Nu: 1}, Lambda: 0.5}
	res, err := solver.Minimize(prob, nil, &solver.Settings{Tol: 1e-10}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("β = %.4f\n", mat.Col(nil, 0, res.Theta))
	fmt.Println("converged:", res.Converged, "gap below 1e-10:", res.Gap <= 1e-10)
	// Output:
	// β = [1.0750 1.0750 2.7000]
	// converged: true gap below 1e-10: true
}

// λ_max is the smallest λ at which the solution is zero.
func ExampleLambdaMax() {
	x := mat.NewDense(4, 2, []float64{1, 0, 0, 1, 1, 1, 1, -1})
	y := mat.NewDense(4, 1, []float64{1, 2, 3, -1})
	loss := solver.NewLeastSquares(solver.DenseDesign{X: x}, y)
	lmax, _ := solver.LambdaMax(loss, penalty.L1{})
	fmt.Printf("λ_max = %g\n", lmax)
	// Output:
	// λ_max = 12
}
