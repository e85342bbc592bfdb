package binding

import (
	"fmt"
	"math"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/request"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// Input are a call's data as buffers: X holds N rows of P numeric columns,
// row-major unless ColMajor, or Sparse holds them (X nil); Codes holds,
// column after column (N values each), the rows' level codes of each
// factor of Options.Factors.
type Input struct {
	X        []float64
	N, P     int
	ColMajor bool
	Sparse   *CSC
	// Y holds the N responses; Weights and Offset N values each, or nil
	// (all 1, all 0).
	Y, Weights, Offset []float64
	Codes              []int32
}

// checkShape checks the lengths of in's buffers against N, P and the
// number of factors nf.
func (in *Input) checkShape(nf int, needY bool) error {
	switch {
	case in.N < 1:
		return fmt.Errorf("data: n = %d rows: at least one is needed", in.N)
	case in.P < 0:
		return fmt.Errorf("data: p = %d columns", in.P)
	case in.P > 0 && in.N > math.MaxInt/in.P || nf > 0 && in.N > math.MaxInt/nf:
		return fmt.Errorf("data: %d rows of %d columns overflow", in.N, in.P)
	case in.Sparse == nil && len(in.X) != in.N*in.P:
		return fmt.Errorf("data: x holds %d values, n×p = %d×%d = %d", len(in.X), in.N, in.P, in.N*in.P)
	case len(in.Codes) != in.N*nf:
		return fmt.Errorf("data: the factor codes hold %d values, n × %d factors = %d", len(in.Codes), nf, in.N*nf)
	case in.P+nf == 0:
		return fmt.Errorf("data: no predictor (p = 0 and no factor)")
	case needY && len(in.Y) != in.N:
		return fmt.Errorf("data: y holds %d values for n = %d rows", len(in.Y), in.N)
	case in.Weights != nil && len(in.Weights) != in.N:
		return fmt.Errorf("data: weights hold %d values for n = %d rows", len(in.Weights), in.N)
	case in.Offset != nil && len(in.Offset) != in.N:
		return fmt.Errorf("data: offset holds %d values for n = %d rows", len(in.Offset), in.N)
	case in.Sparse != nil:
		return in.checkSparse()
	}
	return nil
}

// at returns x[i, j].
func (in *Input) at(i, j int) float64 {
	if in.ColMajor {
		return in.X[j*in.N+i]
	}
	return in.X[i*in.P+j]
}

// checkFinite refuses a non-finite value of X, naming its row and column
// (from 1, as the data's rows are counted in messages).
func (in *Input) checkFinite(names []string) error {
	if in.Sparse != nil {
		return in.checkSparseFinite(names)
	}
	for k, v := range in.X {
		if v-v != 0 { // NaN or ±Inf, in one comparison
			i, j := k/in.P, k%in.P
			if in.ColMajor {
				i, j = k%in.N, k/in.N
			}
			return fmt.Errorf("data: row %d: column %s: %v is not a finite number", i+1, data.ShortText(names[j]), v)
		}
	}
	return nil
}

// newLayout reads the factors of in (their codes, o's levels) and names
// the design's columns.
func newLayout(in *Input, o *request.Request) (*factor.Coded, error) {
	numeric, err := o.NumericNames(in.P)
	if err != nil {
		return nil, optionsError(err)
	}
	spec := &data.FactorSpec{Ref: o.Ref, MinCount: o.MinCount, MaxLevels: o.MaxLevels}
	lay, err := factor.NewCoded(numeric, o.Factors, in.Codes, in.N, spec)
	if err != nil {
		return nil, err
	}
	return lay, optionsError(request.CheckUnique(lay.Names))
}

// designOf returns the design of in's rows laid out as lay: a sparse one
// sharing in.Sparse's arrays (sparseDesign), factors beside numeric
// predictors by columns (columnsDesign, as the command line holds them),
// else a dense one (matrix).
// Either is fitted by the same route: the request decides how, from the
// options, not from the design's form.
func designOf(lay *factor.Coded, in *Input) (solver.Design, error) {
	if in.Sparse != nil {
		return sparseDesign(lay, in)
	}
	if len(lay.Factors) > 0 && lay.P > 0 {
		return columnsDesign(lay, in)
	}
	x, err := matrix(lay, in)
	if err != nil {
		return nil, err
	}
	return solver.DenseDesign{X: x}, nil
}

// matrix returns the design of in's rows laid out as lay: in.X itself
// when it is row-major without factors (not copied), else a new matrix.
func matrix(lay *factor.Coded, in *Input) (*mat.Dense, error) {
	if len(lay.Factors) == 0 && !in.ColMajor {
		return mat.NewDense(in.N, in.P, in.X), nil
	}
	return lay.Matrix(in.N, in.at, in.Codes)
}
