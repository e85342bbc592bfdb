package factor

import (
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// NumericScales are the numeric columns' standard deviations and 1 for
// the dummy columns; NumericPredictors and NumericNote describe them.
func TestNumericScalesAndNote(t *testing.T) {
	d := design3(t)
	x := mat.NewDense(5, 6, []float64{
		1, 1, 0, 100, 0, 0,
		2, 0, 0, 300, 0, 0,
		3, 0, 1, 100, 1, 0,
		4, 0, 0, 300, 0, 1,
		5, 0, 0, 100, 0, 1,
	})
	s := d.NumericScales(5, func(j int, dst []float64) []float64 { return mat.Col(dst, j, x) }, nil)
	require.InEpsilon(t, 1.4142135623730951, s[0], 1e-15) // sd of 1…5, population
	require.InEpsilon(t, 97.97958971132712, s[3], 1e-14)  // 100 and 300, 3:2
	for _, j := range []int{1, 2, 4, 5} {
		require.Equal(t, 1.0, s[j])
	}
	coef := []float64{0.5, 0, 0, 0.01, 0, 0}
	ps := d.NumericPredictors("", s, true, coef)
	require.Len(t, ps, 2)
	require.Equal(t, NumericCardinality, ps[0].Penalty)
	require.Equal(t, []string{"x3"}, ps[0].FusedWith)
	require.InEpsilon(t, 0.5*s[0], ps[0].PerSD, 1e-15)
	note := NumericNote(ps)
	require.Contains(t, note, "x0 (sd 1.414), x3 (sd 97.98); one cardinality block fuses their coefficients, per standard deviation (--standardize")
	note = NumericNote(d.NumericPredictors(NumericLasso, s, false, nil))
	require.Contains(t, note, "each its own lasso term, per unit of each column, whose scales differ: --standardize")
	require.Contains(t, NumericNote(d.NumericPredictors(NumericNone, s, false, nil)), ": unpenalised")
	require.Empty(t, NumericNote(nil))
}
