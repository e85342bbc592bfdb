package plotting_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/cardsparse/cardreg/plotting"
)

// A factor plot of region (reference A) along a four-λ path, its groups
// coloured at λ = 2, where B and C share one effect and D is fused with
// the reference.
func ExampleFactors() {
	c := plotting.FactorCurves{
		Lambdas: []float64{8, 4, 2, 1},
		Mark:    2,
		Factors: []plotting.FactorCurve{{
			Name:   "region",
			Levels: []string{"A", "B", "C", "D"},
			Ref:    0,
			Effects: [][]float64{
				{0, 0, 0, 0},
				{0, 0.2, 0.2, 0},
				{0, 0.5, 0.5, 0},
				{0, 0.7, 0.6, -0.1},
			},
			Groups: []int{0, 1, 1, 0},
		}},
	}
	wt, err := plotting.Factors(c, "png")
	if err != nil {
		log.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		log.Fatal(err)
	}
	fmt.Println(bytes.HasPrefix(b.Bytes(), []byte("\x89PNG")))
	// Output: true
}
