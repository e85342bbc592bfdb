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

// Linear streams the rows of the data file dataPath (read with o: its
// separator and progress; Columns and Row are set here) and writes the
// CSV "prediction" with, for each row, the model's linear predictor
// (datafit.LinearPredictor, with the offset column) mapped by out. A
// prediction that is not finite is an error naming the row.
func Linear(w io.Writer, m *modelfile.Linear, dataPath string, o data.Options, out func(eta float64) float64) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("prediction\n")
	var col []int // the kept column of each coefficient, then of the offset
	o.Columns = modelColumns(m, &col)
	rows := 0
	var buf []byte
	x := make([]float64, len(m.Coefficients))
	o.Row = func(v []float64, _ []string) error {
		rows++
		for k := range x {
			x[k] = v[col[k]]
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

// modelColumns picks the model's predictor columns (and its offset
// column) of a header, every one of which must be present, and sets *col
// to the index of each among the columns kept.
func modelColumns(m *modelfile.Linear, col *[]int) func([]string) ([]bool, error) {
	need := m.Names
	pick := Need(m.Names, "model", "predictor")
	if m.OffsetColumn != "" {
		need = append(slices.Clone(need), m.OffsetColumn)
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
				return nil, fmt.Errorf("the %s needs %s %s, which is not a column (columns: %s)", what, role, data.ShortText([]byte(name)), strings.Join(header, ", "))
			}
			keep[j] = true
		}
		return keep, nil
	}
}
