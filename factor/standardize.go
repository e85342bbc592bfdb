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
func (d *Design) NumericScales(x mat.Matrix, w []float64) []float64 {
	s := make([]float64, len(d.Names))
	for j := range s {
		s[j] = 1
	}
	num := d.Numeric()
	if len(num) == 0 {
		return s
	}
	n, _ := x.Dims()
	cols := mat.NewDense(n, len(num), nil)
	for k, j := range num {
		for i := range n {
			cols.Set(i, k, x.At(i, j))
		}
	}
	for k, v := range estimator.ColumnScales(cols, w) {
		s[num[k]] = v
	}
	return s
}
