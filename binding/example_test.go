package binding_test

import (
	"fmt"

	"github.com/cardsparse/cardreg/binding"
)

// A fit of buffers as the C interface passes them: a row-major matrix
// (read in place), the response, and the options as the command line's
// flags.
func ExampleFit() {
	x := []float64{ // 8 rows, 2 columns
		1, 0, 2, 1, 3, 0, 4, 1,
		5, 0, 6, 1, 7, 0, 8, 1,
	}
	y := []float64{1.1, 2.9, 3.2, 5.1, 5.0, 7.1, 7.0, 9.1}
	r, err := binding.Fit(&binding.Input{X: x, N: 8, P: 2, Y: y}, []byte(`{"penalty": "lasso", "lambda": 0.5, "names": ["dose", "treated"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	coef, intercept, _ := r.Coef(0)
	_, gap, converged, _ := r.Status(0)
	fmt.Printf("intercept %.3f, dose %.3f, treated %.3f, certified %v (gap < 1e-7: %v)\n", intercept, coef[0], coef[1], converged, gap < 1e-7)
	// Output:
	// intercept 0.127, dose 1.003, treated 0.847, certified true (gap < 1e-7: true)
}
