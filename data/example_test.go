package data_test

import (
	"fmt"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
)

// Read a CSV file into memory, the last column the response, and fit it
// under the cardinality penalty (λ and ν as cardreg fit --penalty
// cardinality --relax chooses them by cross-validation): the coefficients
// fall into four values, the clusters printed.
func Example() {
	rows, err := data.ReadRows("../examples/cardinality.csv", data.Spec{}, data.RowsOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	d := &estimator.Rows{X: solver.DenseDesign{X: rows.X}, Y: rows.Y}
	m, err := estimator.Fit(d, penalty.Cardinality{Nu: 1.2}, 49.4, &estimator.Options{Relax: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	n, p := rows.X.Dims()
	fmt.Printf("%d rows, %d predictors, response %s\n", n, p, rows.Responses[0])
	fmt.Println("distinct coefficient values:", len(m.DistinctValues(0)))
	for _, c := range m.Clusters(0) {
		var names []string
		for _, j := range c {
			names = append(names, rows.Names[j])
		}
		fmt.Println(names)
	}
	// Output:
	// 400 rows, 12 predictors, response y
	// distinct coefficient values: 4
	// [x4 x6 x9 x12]
	// [x2 x3 x10]
	// [x5]
	// [x1 x7 x8 x11]
}
