package tensorreg_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/tensorreg"
	"gonum.org/v1/gonum/mat"
)

// data draws y = 3 + Xβ* + noise with β* = (2, 2, 2, −1, −1, −1).
func data() (*mat.Dense, *mat.Dense) {
	rng := rand.New(rand.NewPCG(1, 2))
	beta := []float64{2, 2, 2, -1, -1, -1}
	x := mat.NewDense(200, 6, nil)
	y := mat.NewDense(200, 1, nil)
	for i := 0; i < 200; i++ {
		s := 3.0
		for j, b := range beta {
			v := rng.NormFloat64()
			x.Set(i, j, v)
			s += b * v
		}
		y.Set(i, 0, s+0.5*rng.NormFloat64())
	}
	return x, y
}

// A tensor regression with X of shape N×2×3 is the vectorised regression on
// the N×6 unfolding (package estimator's Example fits the same values); the
// coefficients come back as a 2×3×1 tensor.
func ExampleFitTensor() {
	x, y := data()
	xt := tensorreg.NewTensor([]int{200, 2, 3}, x.RawMatrix().Data)
	yt := tensorreg.NewTensor([]int{200}, y.RawMatrix().Data)
	m, err := tensorreg.FitTensor(xt, yt, penalty.Cardinality{Nu: 1}, 12, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.B.Shape)
	fmt.Printf("B[0,2,0] = %.2f, B[1,0,0] = %.2f\n", m.B.At(0, 2, 0), m.B.At(1, 0, 0))
	// Output:
	// [2 3 1]
	// B[0,2,0] = 1.85, B[1,0,0] = -0.94
}
