package request

import (
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/design"
	"gonum.org/v1/gonum/mat"
)

// CheckDesignRows is CheckRows for a design held by columns (a sparse
// block, factors' indicator columns): the same checks of the responses,
// weights and offsets, and of each column's scale taken from its stored
// values, without densifying it. Its values are finite (design.New
// checks them).
func (r *Request) CheckDesignRows(fam datafit.Family, x *design.Matrix, y, weights, offset []float64, names []string) error {
	if !r.FamilyFit() {
		return r.CheckRows(fam, nil, y, weights, offset, names) // which reads no predictor then
	}
	n, p := x.Dims()
	// datafit.Data's row checks read a row's predictors only for their
	// finiteness, checked already: one zero column (n values, not n×p)
	// stands in for them, so that the responses are checked by the one
	// code that checks a dense design's.
	d := &datafit.Data{X: mat.NewDense(n, 1, nil), Y: y, Weights: weights, Offset: offset, NoIntercept: r.NoIntercept}
	if err := d.Check(fam); err != nil {
		return dataError(err, names)
	}
	if r.Standardize {
		return nil
	}
	for j := range p {
		if err := datafit.CheckColumnScale(j, x.Col(j).MaxAbs()); err != nil {
			return dataError(err, names)
		}
	}
	return nil
}
