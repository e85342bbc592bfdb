package factor_test

import (
	"testing"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
)

// TestMunichPartitions documents the district partitions the Munich rent
// survey gives (rent per m², every factor of the smurf vignette; district 1
// the reference as in smurf) with equal and with level-count pair weights
// at two λ each, and checks that they are the solution's, not the
// solver's: the same partition of every factor's levels at the default
// tolerance and at a 10⁴ times tighter one, both certified.
func TestMunichPartitions(t *testing.T) {
	spec := munichSpec()
	spec.Factors.Ref = map[string]string{"area": "1"}
	rows, err := data.ReadRows(munichFile(t), spec, data.RowsOptions{})
	require.NoError(t, err)
	design, err := factor.NewDesign(rows.Names, rows.Factors, rows.FactorCols)
	require.NoError(t, err)
	d := &estimator.Rows{X: solver.DenseDesign{X: rows.X}, Y: rows.Y}
	cases := []struct {
		weights factor.PairWeights
		lambda  float64
		groups  int // the district groups found (documented, see the doc comment)
	}{
		{factor.Equal, 1.7, 16}, {factor.Equal, 3.2, 4},
		{factor.Count, 60, 19}, {factor.Count, 150, 11},
	}
	for _, c := range cases {
		pen, free, err := design.Penalty(factor.Options{Weights: c.weights})
		require.NoError(t, err)
		var parts [2][][]int
		for k, tol := range []float64{solver.DefaultTol, 1e-11} {
			m, err := estimator.Fit(d, pen, c.lambda, &estimator.Options{Unpenalized: free, Settings: solver.Settings{Tol: tol}})
			require.NoError(t, err)
			require.True(t, m.Converged, "%v λ=%v tol %v: %v", c.weights, c.lambda, tol, m.Status)
			require.LessOrEqual(t, m.Gap, tol)
			for f := range design.Factors {
				parts[k] = append(parts[k], design.Partition(f, m.Coefficients(0)))
			}
		}
		require.Equal(t, parts[0], parts[1], "%v λ=%v: the partition moved with the tolerance", c.weights, c.lambda)
		area := parts[0][indexOf(design, "area")]
		n := 0
		for _, g := range area {
			n = max(n, g+1)
		}
		t.Logf("%v λ=%v: %d district groups %v", c.weights, c.lambda, n, area)
		require.Equal(t, c.groups, n)
	}
}

func indexOf(d *factor.Design, name string) int {
	for f, fc := range d.Factors {
		if fc.Name == name {
			return f
		}
	}
	return -1
}
