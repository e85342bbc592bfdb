package fit

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/pathstop"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// model returns a model whose penalised predictors Penalized take the
// values of fitted (one column per response) on the penalty's scale.
func model(penalized []int, fitted *mat.Dense, p int) *Model {
	_, q := fitted.Dims()
	m := &Model{Family: datafit.Poisson{}, Penalized: penalized, Coef: mat.NewDense(p, q, nil), Intercept: make([]float64, q)}
	for a, j := range penalized {
		for k := range q {
			m.Coef.Set(j, k, 2*fitted.At(a, k)) // the data's scale: not what Clusters reads
		}
	}
	EngineOf(m).Fitted = fitted
	return m
}

// Clusters and DistinctValues read the penalty's scale, name the
// predictors by their index in the design (Penalized), groups by
// decreasing value and each in increasing order: worked out by hand.
func TestClustersAndDistinctValues(t *testing.T) {
	fitted := mat.NewDense(5, 2, []float64{
		0.5, 1,
		-1, 1,
		0.5, 0,
		0, 0,
		-1, 3,
	})
	m := model([]int{6, 2, 3, 5, 0}, fitted, 7)
	require.Equal(t, [][]int{{3, 6}, {5}, {0, 2}}, m.Clusters(0))
	require.Equal(t, []float64{-1, 0, 0.5}, m.DistinctValues(0))
	require.Equal(t, [][]int{{0}, {2, 6}, {3, 5}}, m.Clusters(1))
	require.Equal(t, []float64{0, 1, 3}, m.DistinctValues(1))
	require.Equal(t, 4, m.EffectiveParams(), "2 nonzero values in each response")
	require.Equal(t, 0.5, fitted.At(0, 0), "the engine's values are not reordered in place")
}

// Link and Response are Intercept + X·Coef (+ offset) and its mean, entry
// by entry.
func TestLinkResponse(t *testing.T) {
	m := model([]int{0, 1, 2}, mat.NewDense(3, 2, []float64{0.1, 0.2, -0.3, 0, 0.05, 0.4}), 3)
	m.Intercept = []float64{0.5, -1}
	x := mat.NewDense(4, 3, []float64{1, 2, 3, 0, -1, 4, 2, 2, 2, -3, 0.5, 1})
	off := []float64{0, 0.1, -0.2, 1}
	eta, mu := m.Link(x, off), m.Response(x, off)
	for i := range 4 {
		for k := range 2 {
			want := m.Intercept[k] + off[i]
			for j := range 3 {
				want += x.At(i, j) * m.Coef.At(j, k)
			}
			require.InDelta(t, want, eta.At(i, k), 1e-15)
			require.InDelta(t, datafit.Poisson{}.Mean(want), mu.At(i, k), 1e-14)
		}
	}
	require.Equal(t, []float64{0.2, -0.6, 0.1}, m.Coefficients(0))
}

// pathOf returns fits whose path ratios are dev, one per λ.
func pathOf(dev []float64) func(float64) (*Model, error) {
	i := 0
	return func(float64) (*Model, error) {
		m := &Model{Converged: true}
		EngineOf(m).PathRatio = dev[i]
		i++
		return m, nil
	}
}

// RunPath stops a generated path where glmnet's rule says (never before
// pathstop.MinPath λ, never at the last), a given grid only where halt
// says, and passes fitAt's error on.
func TestRunPath(t *testing.T) {
	grid := []float64{9, 8, 7, 6, 5, 4, 3, 2}
	flat := []float64{0.1, 0.2, 0.3, 0.4, 0.4, 0.4, 0.4, 0.4} // settled at the 5th λ
	ms, why, note, err := RunPath(grid, true, pathstop.Absolute, pathOf(flat), nil)
	require.NoError(t, err)
	require.Len(t, ms, 5)
	require.Contains(t, why, "moved by less than")
	require.Empty(t, note)

	ms, why, _, err = RunPath(grid, false, pathstop.Absolute, pathOf(flat), nil)
	require.NoError(t, err)
	require.Len(t, ms, len(grid), "a caller's grid is fitted whole")
	require.Empty(t, why)

	ms, why, _, err = RunPath(grid[:5], true, pathstop.Absolute, pathOf(flat), nil)
	require.NoError(t, err)
	require.Len(t, ms, 5)
	require.Empty(t, why, "no test after the last λ")

	halt := func(i int, m *Model) string {
		if i == 2 {
			return "halted"
		}
		return ""
	}
	ms, why, note, err = RunPath(grid, false, pathstop.Absolute, pathOf(flat), halt)
	require.NoError(t, err)
	require.Len(t, ms, 3)
	require.Equal(t, "halted", note)
	require.Empty(t, why)

	boom := errors.New("boom")
	_, _, _, err = RunPath(grid, true, pathstop.Absolute, func(float64) (*Model, error) { return nil, boom }, nil)
	require.ErrorIs(t, err, boom)
}

// RunFolds runs every fold, returns the first failure in fold order, and
// runs the folds one at a time when the caller gives a method.
func TestRunFolds(t *testing.T) {
	var ran atomic.Int32
	f, err := RunFolds(6, nil, func(f int) error {
		ran.Add(1)
		if f == 4 || f == 2 {
			return errors.New("fold failed")
		}
		return nil
	})
	require.Equal(t, int32(6), ran.Load())
	require.Equal(t, 2, f)
	require.Error(t, err)

	f, err = RunFolds(3, nil, func(int) error { return nil })
	require.Equal(t, -1, f)
	require.NoError(t, err)

	var now, most atomic.Int32
	_, err = RunFolds(5, &solver.FISTA{}, func(int) error {
		c := now.Add(1)
		if c > most.Load() {
			most.Store(c)
		}
		time.Sleep(2 * time.Millisecond)
		now.Add(-1)
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, int32(1), most.Load(), "one at a time with a caller's method")
}

// FoldGrid scales each λ by the share, leaving the grid alone.
func TestFoldGrid(t *testing.T) {
	grid := []float64{8, 4, 2}
	require.Equal(t, []float64{6, 3, 1.5}, FoldGrid(grid, 0.75))
	require.Equal(t, []float64{8, 4, 2}, grid)
}
