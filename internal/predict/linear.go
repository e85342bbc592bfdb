package predict

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/modelfile"
)

// Unseen counts the rows Linear read with a factor level the model does
// not have, which it predicts at the factor's reference level when given
// an Unseen (nil: such a level is an error).
type Unseen struct {
	// Rows counts the rows with at least one unseen level.
	Rows int
	// First says where the first was and what it held: "data row 7,
	// column "region", level "R99"".
	First string
}

// UnseenHint ends the message of an unseen level when Linear refuses it.
const UnseenHint = " (--unseen reference predicts such rows at the reference level)"

// Linear streams the rows of the data file dataPath (read with o: its
// separator and progress; Columns, Factors, NALevel and Row are set here)
// and writes the CSV "prediction" with, for each row, the model's linear
// predictor (datafit.LinearPredictor, with the offset column) mapped by
// out. A factor's column is read as text and its level (as the fit read
// it, data.Factor.Level) sets its dummy columns: a level the model does
// not have is an error naming the row, the column and the level, unless
// unseen is not nil (see Unseen); a missing value is an error unless the
// factor has the level "NA". A prediction that is not finite is an error
// naming the row.
func Linear(w io.Writer, m *modelfile.Linear, dataPath string, o data.Options, out func(eta float64) float64, unseen *Unseen) error {
	owner, err := m.Columns()
	if err != nil {
		return err // Parse checked it
	}
	factors := make([]*data.Factor, len(m.Factors))
	dummies := make([][]int, len(m.Factors)) // per factor, the coefficient of each level (-1: the reference)
	for i := range m.Factors {
		if factors[i], err = m.Factors[i].Data(); err != nil {
			return err
		}
		dummies[i] = levelCoefficients(m, factors[i])
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("prediction\n")
	var col []int // the kept column of each numeric predictor, then of each factor, then of the offset
	numeric := numericPredictors(owner)
	o.Columns = modelColumns(m, numeric, &col)
	o.Factors = func(name string) bool {
		return slices.ContainsFunc(m.Factors, func(f modelfile.Factor) bool { return f.Column == name })
	}
	// A missing value comes as the level "NA", which Level refuses when it
	// is not one.
	o.NALevel = true
	dummy := data.DummyOptions{UnseenAsRef: unseen != nil, UnseenHint: UnseenHint}
	rows := 0
	var buf []byte
	x := make([]float64, len(m.Coefficients))
	o.Row = func(v []float64, text []string) error {
		rows++
		for k, j := range numeric {
			x[j] = v[col[k]]
		}
		counted := false
		for i, f := range factors {
			for _, j := range dummies[i] {
				if j >= 0 {
					x[j] = 0
				}
			}
			cell := text[col[len(numeric)+i]]
			c, isNew, err := f.Level(cell, dummy)
			if err != nil {
				return err
			}
			if isNew && !counted {
				counted = true
				if unseen.Rows++; unseen.Rows == 1 {
					unseen.First = fmt.Sprintf("data row %d, column %s, level %s", rows, data.ShortText(f.Name), data.ShortText(cell))
				}
			}
			if j := dummies[i][c]; j >= 0 {
				x[j] = 1
			}
		}
		offset := 0.0
		if m.OffsetColumn != "" {
			offset = v[col[len(col)-1]]
		}
		pred := out(datafit.LinearPredictor(m.Coefficients, x, m.Intercept, offset))
		if math.IsInf(pred, 0) || math.IsNaN(pred) {
			return fmt.Errorf("the prediction of data row %d overflows float64", rows)
		}
		buf = strconv.AppendFloat(buf[:0], pred, 'g', 17, 64)
		buf = append(buf, '\n')
		_, err := bw.Write(buf)
		return err
	}
	if _, err := data.Read(dataPath, o); err != nil {
		return err
	}
	return bw.Flush()
}

// numericPredictors are the indices of the predictors that belong to no
// factor (owner[k] < 0, see modelfile.Linear.Columns).
func numericPredictors(owner []int) []int {
	var out []int
	for k, f := range owner {
		if f < 0 {
			out = append(out, k)
		}
	}
	return out
}

// levelCoefficients returns, for each level of the factor f, the index in
// m.Names of its dummy column, -1 for the reference level.
func levelCoefficients(m *modelfile.Linear, f *data.Factor) []int {
	names := f.DummyNames()
	out := make([]int, len(f.Levels))
	for c := range f.Levels {
		out[c] = -1
		if k := f.Dummy(int32(c)); k >= 0 {
			out[c] = slices.Index(m.Names, names[k])
		}
	}
	return out
}

// modelColumns picks the model's numeric predictor columns (Names at
// numeric), its factors' columns and its offset column of a header, every
// one of which must be present, and sets *col to the index of each among
// the columns kept, in that order.
func modelColumns(m *modelfile.Linear, numeric []int, col *[]int) func([]string) ([]bool, error) {
	var need, nums, facs []string
	for _, k := range numeric {
		nums = append(nums, m.Names[k])
	}
	for _, f := range m.Factors {
		facs = append(facs, f.Column)
	}
	need = append(append(need, nums...), facs...)
	pick := union(Need(nums, "model", "predictor"), Need(facs, "model", "factor"))
	if m.OffsetColumn != "" {
		need = append(need, m.OffsetColumn)
		pick = union(pick, Need([]string{m.OffsetColumn}, "model", "offset"))
	}
	return func(header []string) ([]bool, error) {
		keep, err := pick(header)
		var kept []string
		for j, k := range keep {
			if k {
				kept = append(kept, header[j])
			}
		}
		for _, name := range need {
			*col = append(*col, slices.Index(kept, name))
		}
		return keep, err
	}
}

// union keeps the columns either a or b keeps, with a's error first.
func union(a, b func([]string) ([]bool, error)) func([]string) ([]bool, error) {
	return func(header []string) ([]bool, error) {
		keep, err := a(header)
		if err != nil {
			return nil, err
		}
		other, err := b(header)
		for j, k := range other {
			keep[j] = keep[j] || k
		}
		return keep, err
	}
}

// Need picks the named columns of a header (a data.Options.Columns),
// every one of which must be present: the error names what needs it
// ("model", "network") and the column's role ("predictor", "input").
func Need(names []string, what, role string) func([]string) ([]bool, error) {
	return func(header []string) ([]bool, error) {
		keep := make([]bool, len(header))
		for _, name := range names {
			j := slices.Index(header, name)
			if j < 0 {
				return nil, fmt.Errorf("the %s needs %s %s, which is not a column (columns: %s)", what, role, data.ShortText(name), strings.Join(header, ", "))
			}
			keep[j] = true
		}
		return keep, nil
	}
}
