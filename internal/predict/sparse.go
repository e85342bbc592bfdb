package predict

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/internal/modelfile"
	"gonum.org/v1/gonum/mat"
)

// SparseModel refuses a model that cannot predict from a sparse file:
// one with factors or an offset column (a sparse file has no such
// column), or whose predictors are not x1…xp by position.
func SparseModel(m *modelfile.Linear) error {
	switch {
	case len(m.Factors) > 0:
		return errors.New("the model has factor predictors, which a sparse file does not hold: predict from a CSV or Parquet file")
	case m.OffsetColumn != "":
		return fmt.Errorf("the model adds the offset column %s, which a sparse file does not hold: predict from a CSV or Parquet file", data.ShortText(m.OffsetColumn))
	case !slices.Equal(m.Names, data.SparseNames(len(m.Names))):
		return fmt.Errorf("the model's %d predictors are not a sparse file's columns x1…x%d by position (first: %s): predict from a file whose columns they name", len(m.Names), len(m.Names), data.ShortText(m.Names[0]))
	}
	return nil
}

// Sparse writes the CSV "prediction" of the model m for the rows of a
// sparse file read into s (data.ReadDesign, read with the model's p as
// its number of features): the linear predictor X·β + b₀, the design's
// product (design.Matrix.Mul), mapped by out. The model must pass
// SparseModel. A prediction that is not finite is an error naming the
// row's place.
func Sparse(w io.Writer, m *modelfile.Linear, s *data.Sparse, out func(eta float64) float64) error {
	if err := SparseModel(m); err != nil {
		return err
	}
	if !slices.Equal(m.Names, s.Names) {
		return fmt.Errorf("the file has %d columns, the model %d predictors: read it with the model's", len(s.Names), len(m.Names))
	}
	n, _ := s.X.Dims()
	var eta mat.Dense
	s.X.Mul(&eta, mat.NewVecDense(len(m.Coefficients), m.Coefficients))
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("prediction\n")
	var buf []byte
	for i := range n {
		pred := out(eta.At(i, 0) + m.Intercept)
		if math.IsInf(pred, 0) || math.IsNaN(pred) {
			return fmt.Errorf("%s: the prediction overflows float64", s.Places.Of(i))
		}
		buf = strconv.AppendFloat(buf[:0], pred, 'g', 17, 64)
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}
