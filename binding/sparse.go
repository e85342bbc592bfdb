package binding

import (
	"errors"
	"fmt"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/design"
	"github.com/cardsparse/cardreg/factor"
)

// CSC is a sparse numeric block in compressed-sparse-column form: column
// j's non-zeros are at rows Rows[Start[j]:Start[j+1]] (from 0,
// increasing within a column, each once) with values Vals at the same
// positions (nil: all one, a pattern matrix). Explicit zeros are allowed.
// Its arrays are read during the call and not kept: the fit's design
// shares them while it runs, and no result refers to them.
type CSC struct {
	Start []int
	Rows  []int32
	Vals  []float64
}

// checkSparse checks the shape of in.Sparse against N and P: P+1 column
// starts from 0 to the number of row indices, not decreasing, and as
// many values. The rows are checked by design.FromCSC.
func (in *Input) checkSparse() error {
	s := in.Sparse
	switch {
	case in.X != nil || in.ColMajor:
		return errors.New("data: x is given both dense and sparse")
	case in.N > 1<<31-1:
		return fmt.Errorf("data: a sparse x of %d rows: at most 2³¹−1 (its row indices are int32)", in.N)
	case len(s.Start) != in.P+1:
		return fmt.Errorf("data: a sparse x of %d columns needs %d column starts, got %d", in.P, in.P+1, len(s.Start))
	case s.Start[0] != 0 || s.Start[in.P] != len(s.Rows):
		return fmt.Errorf("data: the sparse x's column starts run from %d to %d; they must run from 0 to the number of row indices (%d)", s.Start[0], s.Start[in.P], len(s.Rows))
	case s.Vals != nil && len(s.Vals) != len(s.Rows):
		return fmt.Errorf("data: the sparse x holds %d values for %d row indices", len(s.Vals), len(s.Rows))
	}
	for j := range in.P {
		if s.Start[j] > s.Start[j+1] {
			return fmt.Errorf("data: the sparse x's column %d starts at %d, after its end %d (the column starts must not decrease)", j+1, s.Start[j], s.Start[j+1])
		}
	}
	return nil
}

// checkSparseFinite refuses a non-finite value of the sparse x, naming
// its row and column (from 1), as checkFinite does for a dense one.
func (in *Input) checkSparseFinite(names []string) error {
	s := in.Sparse
	if s.Vals == nil {
		return nil
	}
	for j := range in.P {
		for k := s.Start[j]; k < s.Start[j+1]; k++ {
			if v := s.Vals[k]; v-v != 0 { // NaN or ±Inf
				return fmt.Errorf("data: row %d: column %s: %v is not a finite number", int64(s.Rows[k])+1, data.ShortText(names[j]), v)
			}
		}
	}
	return nil
}

// sparseDesign returns the design of in's rows laid out as lay, in.Sparse
// being its numeric block: that block's columns share in's arrays
// (design.FromCSC) and each factor's dummies are indicator columns, so
// that nothing is densified.
func sparseDesign(lay *factor.Coded, in *Input) (*design.Matrix, error) {
	if err := in.checkSparseFinite(lay.Names); err != nil {
		return nil, err
	}
	s := in.Sparse
	m, err := design.FromCSC(in.N, in.P, s.Start, s.Rows, s.Vals)
	if err != nil {
		return nil, fmt.Errorf("data: sparse x: %v", err)
	}
	if len(lay.Factors) == 0 {
		return m, nil
	}
	cols, err := factorColumns(lay, in)
	if err != nil {
		return nil, err
	}
	return m.Append(cols...)
}

// factorColumns returns the indicator columns of lay's factors for in's
// level codes (design.Indicators: the reference level has none).
func factorColumns(lay *factor.Coded, in *Input) ([]design.Column, error) {
	var cols []design.Column
	dummy := make([]int32, in.N)
	for f, fac := range lay.Factors {
		for i, code := range in.Codes[f*in.N : (f+1)*in.N] {
			if code < 0 || int(code) >= len(fac.Levels) {
				return nil, fmt.Errorf("data: row %d: column %s: level code %d is not one of 0 to %d (a missing value, or a level the model does not have)",
					i+1, data.ShortText(fac.Name), code, len(fac.Levels)-1)
			}
			dummy[i] = int32(fac.Dummy(code)) // −1 for the reference: no indicator
		}
		// Indicators' slices are its own: dummy is reused for the next factor.
		c, err := design.Indicators(dummy, fac.Width(), false)
		if err != nil {
			return nil, err
		}
		cols = append(cols, c...)
	}
	return cols, nil
}

// columnsDesign returns the design of dense rows with factors beside
// numeric predictors held by columns, as the command line reads them
// (its readRows): the numeric columns dense, each factor's levels as
// indicator columns.
func columnsDesign(lay *factor.Coded, in *Input) (*design.Matrix, error) {
	cols := make([]design.Column, lay.P)
	for j := range cols {
		v := make([]float64, in.N)
		for i := range v {
			v[i] = in.at(i, j)
		}
		cols[j] = design.Column{Dense: v}
	}
	fc, err := factorColumns(lay, in)
	if err != nil {
		return nil, err
	}
	return design.New(in.N, append(cols, fc...))
}
