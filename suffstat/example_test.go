package suffstat_test

import (
	"fmt"

	"github.com/cardsparse/cardreg/suffstat"
)

// Two chunks summarised apart and merged give the statistics of all rows;
// the variance survives a large offset.
func ExampleMoments_Merge() {
	a, b := suffstat.New(1), suffstat.New(1)
	for _, v := range []float64{1e8 + 0.25, 1e8 + 0.75} {
		a.Add([]float64{v}, 1)
	}
	for _, v := range []float64{1e8 + 0.5, 1e8 + 0.5} {
		b.Add([]float64{v}, 1)
	}
	a.Merge(b)
	fmt.Printf("n %d, mean %.2f, variance %.5f\n", a.N, a.Mean[0], a.C[0]/a.W)
	// Output: n 4, mean 100000000.50, variance 0.03125
}
