package tensorreg_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/suffstat"
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

// Fit at one λ (paper scale: λ_glmnet = λ/(2n)) and read off the clusters of
// predictors that share a coefficient. The penalty also shrinks the common
// values towards each other (true values 2 and −1).
func ExampleFit() {
	x, y := data()
	m, err := tensorreg.Fit(solver.DenseDesign{X: x}, y, penalty.Cardinality{Nu: 1}, 12, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, cl := range m.Clusters(0) {
		fmt.Printf("predictors %v: %.2f\n", cl, m.Coef.At(cl[0], 0))
	}
	fmt.Printf("intercept %.2f, converged %v\n", m.Intercept[0], m.Converged)
	// Output:
	// predictors [0 1 2]: 1.85
	// predictors [3 4 5]: -0.94
	// intercept 3.05, converged true
}

// Cross-validation picks λ; the same seed gives the same folds.
func ExampleCrossValidate() {
	x, y := data()
	cv, err := tensorreg.CrossValidate(solver.DenseDesign{X: x}, y, penalty.Cardinality{Nu: 1},
		&tensorreg.CVOptions{Folds: 5, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	m := cv.Path.Models[cv.IndexSE]
	fmt.Println("λ_1se ≥ λ_min:", cv.LambdaSE >= cv.LambdaMin)
	fmt.Println("distinct values at λ_1se:", len(m.DistinctValues(0)))
	// Output:
	// λ_1se ≥ λ_min: true
	// distinct values at λ_1se: 2
}

// A tensor regression with X of shape N×2×3 is the vectorised regression on
// the N×6 unfolding; the coefficients come back as a 2×3×1 tensor.
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

// Fit from sufficient statistics: the rows are summarised one by one (as
// a file too large for memory would be streamed) and never kept; the fit
// equals ExampleFit's.
func ExampleFitStats() {
	x, y := data()
	stats := suffstat.New(7) // six predictors, then the response
	z := make([]float64, 7)
	for i := 0; i < 200; i++ {
		copy(z, x.RawRowView(i))
		z[6] = y.At(i, 0)
		stats.Add(z, 1) // weight 1
	}
	m, err := tensorreg.FitStats(stats, 1, penalty.Cardinality{Nu: 1}, 12, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, cl := range m.Clusters(0) {
		fmt.Printf("%v: %.2f\n", cl, m.Coef.At(cl[0], 0))
	}
	// Output:
	// [0 1 2]: 1.85
	// [3 4 5]: -0.94
}
