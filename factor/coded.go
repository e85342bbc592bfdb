package factor

import (
	"fmt"

	"github.com/cardsparse/cardreg/data"
	"gonum.org/v1/gonum/mat"
)

// Coding describes one factor column given by level codes (the bindings'
// "factors" option): its name and levels, in order (codes index them),
// and whether they are ordered.
type Coding struct {
	Name    string   `json:"name"`
	Levels  []string `json:"levels"`
	Ordinal bool     `json:"ordinal"`
}

// Coded is a design whose factors are given by level codes: P numeric
// columns, then each factor's dummy columns. A model fitted on it
// predicts new rows coded alike.
type Coded struct {
	// P is the number of numeric columns.
	P int
	// Factors are the factors read from the codes.
	Factors []*data.Factor
	// Names are the design's columns.
	Names []string
	// Design is the factor design, nil without factors.
	Design *Design
}

// NewCoded reads the factors of codings from codes (n values each,
// factor after factor) as spec says, after the numeric columns named
// numeric.
func NewCoded(numeric []string, codings []Coding, codes []int32, n int, spec *data.FactorSpec) (*Coded, error) {
	c := &Coded{P: len(numeric), Names: append([]string(nil), numeric...)}
	var cols [][]int
	for f, info := range codings {
		fac, err := data.FactorFromCodes(info.Name, info.Levels, codes[f*n:(f+1)*n], info.Ordinal, spec)
		if err != nil {
			return nil, err
		}
		col := make([]int, fac.Width())
		for k := range col {
			col[k] = len(c.Names) + k
		}
		cols = append(cols, col)
		c.Factors = append(c.Factors, fac)
		c.Names = append(c.Names, fac.DummyNames()...)
	}
	if len(c.Factors) > 0 {
		var err error
		if c.Design, err = NewDesign(c.Names, c.Factors, cols); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Matrix returns the n×len(Names) design of rows whose numeric value
// (i, j) is at(i, j) and whose factors' level codes are codes (n values
// each, factor after factor). A code of -1 or out of range is an error
// naming the row.
func (c *Coded) Matrix(n int, at func(i, j int) float64, codes []int32) (*mat.Dense, error) {
	x := mat.NewDense(n, len(c.Names), nil)
	raw := x.RawMatrix()
	for i := range n {
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		for j := range c.P {
			row[j] = at(i, j)
		}
	}
	col := c.P
	for f, fac := range c.Factors {
		for i, code := range codes[f*n : (f+1)*n] {
			if code < 0 || int(code) >= len(fac.Levels) {
				return nil, fmt.Errorf("data: row %d: column %s: level code %d is not one of 0 to %d (a missing value, or a level the model does not have)",
					i+1, data.ShortText(fac.Name), code, len(fac.Levels)-1)
			}
			if d := fac.Dummy(code); d >= 0 {
				raw.Data[i*raw.Stride+col+d] = 1
			}
		}
		col += fac.Width()
	}
	return x, nil
}
