package glm_test

import (
	"fmt"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/glm"
	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// A logistic regression with the cardinality penalty: the three predictors
// with the same effect are fused into one value.
func ExampleFit() {
	x := mat.NewDense(8, 3, []float64{
		1, 0, 2, 0, 1, 1, 2, 1, 0, 1, 2, 1,
		0, 0, 1, 2, 2, 2, 1, 1, 1, 0, 2, 0,
	})
	y := []float64{1, 0, 1, 1, 0, 1, 0, 0}
	m, err := glm.Fit(x, y, penalty.Cardinality{Nu: 1}, 2, &glm.Options{Family: datafit.Binomial{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("coefficients %.3f, intercept %.3f, certified gap below 1e-7: %v\n", m.Coef, m.Intercept, m.Gap <= 1e-7)
	// Output:
	// coefficients [0.259 0.259 0.259], intercept -0.773, certified gap below 1e-7: true
}
