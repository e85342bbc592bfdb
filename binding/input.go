package binding

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/request"
	"gonum.org/v1/gonum/mat"
)

// Input are a call's data as buffers: X holds N rows of P numeric columns,
// row-major unless ColMajor; Codes holds, column after column (N values
// each), the rows' level codes of each factor of Options.Factors.
type Input struct {
	X        []float64
	N, P     int
	ColMajor bool
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
	case len(in.X) != in.N*in.P:
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

// numericNames returns o's names of the p numeric columns, x1… when none
// are given, checked.
func numericNames(o *request.Request, p int) ([]string, error) {
	if o.Names == nil {
		names := make([]string, p)
		for j := range names {
			names[j] = "x" + strconv.Itoa(j+1)
		}
		return names, nil
	}
	if len(o.Names) != p {
		return nil, fmt.Errorf("options: names has %d names for p = %d numeric columns", len(o.Names), p)
	}
	return o.Names, nil
}

// layout is how a design is built from buffers: the numeric columns, then
// each factor's dummy columns. A Result keeps it to predict.
type layout struct {
	p       int
	factors []*data.Factor
	names   []string // the design's columns
	design  *factor.Design
}

// newLayout reads the factors of in (their codes, o's levels) and names
// the design's columns.
func newLayout(in *Input, o *request.Request) (*layout, error) {
	numeric, err := numericNames(o, in.P)
	if err != nil {
		return nil, err
	}
	l := &layout{p: in.P, names: slices.Clone(numeric)}
	spec := &data.FactorSpec{Ref: o.Ref, MinCount: o.MinCount, MaxLevels: o.MaxLevels}
	var cols [][]int
	for f, info := range o.Factors {
		fac, err := data.FactorFromCodes(info.Name, info.Levels, in.Codes[f*in.N:(f+1)*in.N], info.Ordinal, spec)
		if err != nil {
			return nil, err
		}
		cols = append(cols, seq(len(l.names), fac.Width()))
		l.factors = append(l.factors, fac)
		l.names = append(l.names, fac.DummyNames()...)
	}
	if err := checkRefs(o); err != nil {
		return nil, err
	}
	if len(l.factors) > 0 {
		if l.design, err = factor.NewDesign(l.names, l.factors, cols); err != nil {
			return nil, err
		}
	}
	return l, checkUnique(l.names)
}

// checkRefs refuses a reference named for a column that is not a factor.
func checkRefs(o *request.Request) error {
	for name := range o.Ref {
		if !slices.ContainsFunc(o.Factors, func(f request.FactorInfo) bool { return f.Name == name }) {
			return fmt.Errorf("options: ref names %s, which is not a factor", data.ShortText(name))
		}
	}
	return nil
}

// checkUnique refuses a column name given twice.
func checkUnique(names []string) error {
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[n] {
			return fmt.Errorf("options: the column name %s appears twice", data.ShortText(n))
		}
		seen[n] = true
	}
	return nil
}

func seq(from, n int) []int {
	s := make([]int, n)
	for k := range s {
		s[k] = from + k
	}
	return s
}

// matrix returns the design of in's rows: in.X itself when it is
// row-major without factors (not copied), else a new matrix. A code of
// -1 or out of range is an error naming the row.
func (l *layout) matrix(in *Input) (*mat.Dense, error) {
	if len(l.factors) == 0 && !in.ColMajor {
		return mat.NewDense(in.N, in.P, in.X), nil
	}
	x := mat.NewDense(in.N, len(l.names), nil)
	raw := x.RawMatrix()
	for i := range in.N {
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		for j := range in.P {
			row[j] = in.at(i, j)
		}
	}
	col := in.P
	for f, fac := range l.factors {
		codes := in.Codes[f*in.N : (f+1)*in.N]
		for i, c := range codes {
			if c < 0 || int(c) >= len(fac.Levels) {
				return nil, fmt.Errorf("data: row %d: column %s: level code %d is not one of 0 to %d (a missing value, or a level the model does not have)",
					i+1, data.ShortText(fac.Name), c, len(fac.Levels)-1)
			}
			if d := fac.Dummy(c); d >= 0 {
				raw.Data[i*raw.Stride+col+d] = 1
			}
		}
		col += fac.Width()
	}
	return x, nil
}

// FactorInfo describes one factor column of the options' "factors".
type FactorInfo = request.FactorInfo
