package factor

import (
	"github.com/cardsparse/cardreg/estimator"
	"gonum.org/v1/gonum/mat"
)

// NumericScales returns one scale per column of d, the scales of
// standardising a design with factors: a numeric predictor's is its column
// of x's weighted population standard deviation (estimator.ColumnScales,
// the scale Options.Standardize uses; weights w, nil: all 1), a factor's
// dummy columns' 1. The dummy columns are not standardised: a level's
// effect is its difference from the reference, which the factor's block
// penalises as it is, and dividing a 0/1 column by its standard deviation
// would make a rare level's effect cheaper to move than a common one's.
//
// col writes column j of the design's n rows into dst (len n) and returns
// it: mat.Col of a dense matrix, design.Column.Values of a design.Matrix.
func (d *Design) NumericScales(n int, col func(j int, dst []float64) []float64, w []float64) []float64 {
	s := make([]float64, len(d.Names))
	for j := range s {
		s[j] = 1
	}
	num := d.Numeric()
	if len(num) == 0 {
		return s
	}
	cols := mat.NewDense(n, len(num), nil)
	buf := make([]float64, n)
	for k, j := range num {
		cols.SetCol(k, col(j, buf))
	}
	for k, v := range estimator.ColumnScales(cols, w) {
		s[num[k]] = v
	}
	return s
}
