package cvcurve

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSummarise checks the curve by hand: weighted mean, the standard
// error √(Σw(e − m)²/Σw/(K − 1)), λ_min (the largest λ at the best mean)
// and λ_1se, for errors and for AUC (larger is better).
func TestSummarise(t *testing.T) {
	errs := [][]float64{{4, 2, 3}, {6, 2, 1}, {5, 5, 5}}
	w := []float64{1, 1, 2}
	c := Summarise(errs, w, false)
	require.InDeltaSlice(t, []float64{5, 3.5, 3.5}, c.Mean, 1e-12)
	se := math.Sqrt((1*1 + 1*1 + 0) / 4.0 / 2)
	require.InDelta(t, se, c.SE[0], 1e-12)
	require.Equal(t, 1, c.IndexMin, "ties go to the largest λ")
	require.Equal(t, 1, c.IndexSE)
	a := Summarise([][]float64{{0.6, 0.8, 0.7}, {0.6, 0.9, 0.7}, {0.7, 0.85, 0.75}}, []float64{1, 1, 1}, true)
	require.Equal(t, 1, a.IndexMin, "AUC: the largest mean is best")
	require.Equal(t, 1, a.IndexSE)
}

func TestCheckIDs(t *testing.T) {
	k, err := CheckIDs([]int{0, 1, 2, 0, 1, 2}, 6)
	require.NoError(t, err)
	require.Equal(t, 3, k)
	for _, bad := range [][]int{{0, 1, 0, 1}, {0, 2, 3, 0}, {0, -1, 1, 2}, {0, 1, 2}} {
		_, err := CheckIDs(bad, 4)
		require.Error(t, err, "%v", bad)
	}
	require.Equal(t, Assign(50, 5, 3), Assign(50, 5, 3))
}

// TestSummariseExtreme: fold errors near 1e300 (a streamed gaussian
// response near 1e150) have a finite standard error; the old code squared
// the deviations and printed std_error +Inf. Errors near 1e-300 keep
// theirs instead of underflowing to 0.
func TestSummariseExtreme(t *testing.T) {
	errs := [][]float64{{4, 2, 3}, {6, 2, 1}, {5, 5, 5}}
	w := []float64{1, 1, 2}
	want := Summarise(errs, w, false)
	for _, s := range []float64{1e300, 1e-300} {
		scaled := make([][]float64, len(errs))
		for f, e := range errs {
			for _, v := range e {
				scaled[f] = append(scaled[f], v*s)
			}
		}
		c := Summarise(scaled, w, false)
		for l := range c.SE {
			require.InEpsilon(t, want.SE[l]*s, c.SE[l], 1e-12, "scale %v", s)
		}
		require.Equal(t, want.IndexMin, c.IndexMin)
		require.Equal(t, want.IndexSE, c.IndexSE)
	}
}
