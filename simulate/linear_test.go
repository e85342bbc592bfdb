package simulate

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cardsparse/cardreg/cardmat"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// checkResult runs the shared checks of a Quick result (two repetitions
// from seed 7) and checks its columns and row count.
func checkResult(t *testing.T, e Experiment, columns []string, rows int, text []string) *Result {
	t.Helper()
	r := checkQuick(t, e, 7, 2, text...)
	require.Equal(t, columns, r.Columns)
	require.Len(t, r.Rows, rows)
	return r
}

func TestLinearGridQuick(t *testing.T) {
	pl := linearPlanFor(true)
	rows := len(pl.settings()) * 2 * len(linearMethods)
	r := checkResult(t, LinearGrid(), []string{"factor", "n", "p", "sigma", "k", "rho", "seed", "method",
		"est_error", "test_mse", "excess_mse", "ari", "distinct", "lambda", "unconverged_fits", "seconds"}, rows, []string{"factor", "method"})
	require.Equal(t, "linear-grid", r.Name)
	require.Equal(t, []string{"seconds"}, r.Timing)
	// Every factor level of the summary has every method, the base included.
	n := 0
	for _, f := range linearFactors {
		n += len(pl.Levels[f])
	}
	require.Len(t, r.Summary, n*len(linearMethods))
	require.Len(t, r.Figure.Panels, 3*len(linearFactors))
}

func TestTensorRegressionQuick(t *testing.T) {
	pl := tensorPlanFor(true)
	rows := 2 * (2*len(pl.Responses) + len(linearMethods))
	r := checkResult(t, TensorRegression(), []string{"seed", "part", "response", "method", "n", "p", "q",
		"seconds", "encode_seconds", "mul_seconds", "multrans_seconds", "rel_diff",
		"est_error", "test_mse", "excess_mse", "ari", "distinct", "lambda", "unconverged_fits"}, rows, []string{"part", "response", "method"})
	require.Equal(t, "tensor-regression", r.Name)
	rel, err := r.Floats("rel_diff")
	require.NoError(t, err)
	for _, d := range rel {
		require.LessOrEqual(t, d, pl.Tol)
	}
	require.Len(t, r.Figure.Panels, len(pl.Responses)+2)
}

// TestCardinalityBeta: exactly k distinct values, evenly spaced on [−2, 2],
// in clusters whose sizes differ by at most one, labels matching values.
func TestCardinalityBeta(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ p, k int }{{40, 5}, {40, 2}, {10, 9}, {40, 17}, {17, 17}, {160, 5}} {
		beta, labels := cardinalityBeta(rng, c.p, c.k)
		distinct := slices.Compact(slices.Sorted(slices.Values(beta)))
		require.Len(t, distinct, c.k, "p=%d k=%d", c.p, c.k)
		require.InDelta(t, -2, distinct[0], 1e-12)
		require.InDelta(t, 2, distinct[c.k-1], 1e-12)
		for i := 1; i < c.k; i++ {
			require.InDelta(t, 4/float64(c.k-1), distinct[i]-distinct[i-1], 1e-12)
		}
		sizes := make([]int, c.k)
		for j, l := range labels {
			sizes[l]++
			require.Equal(t, distinct[l], beta[j])
		}
		require.LessOrEqual(t, slices.Max(sizes)-slices.Min(sizes), 1)
		require.Equal(t, 1.0, AdjustedRand(labels, valueLabels(beta)), "valueLabels recovers the truth")
	}
	require.Panics(t, func() { cardinalityBeta(rng, 3, 4) })
}

// TestEquicorrelated: on a large sample the empirical correlation of every
// pair is ρ and every variance 1, within sampling tolerance.
func TestEquicorrelated(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, p = 40000, 5
	for _, rho := range []float64{0, 0.3, 0.9} {
		x := equicorrelated(rng, n, p, rho)
		for i := range p {
			xi := mat.Col(nil, i, x)
			require.InDelta(t, 1, stat.Variance(xi, nil), 0.03, "ρ=%g var %d", rho, i)
			for j := i + 1; j < p; j++ {
				require.InDelta(t, rho, stat.Correlation(xi, mat.Col(nil, j, x), nil), 0.02, "ρ=%g (%d,%d)", rho, i, j)
			}
		}
	}
}

// TestAdjustedRandOfTruth: a labelling against itself and against a
// relabelled copy scores 1; against a coarser partition less.
func TestAdjustedRandOfTruth(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	_, labels := cardinalityBeta(rng, 40, 5)
	require.Equal(t, 1.0, AdjustedRand(labels, labels))
	relabelled := make([]int, len(labels))
	perm := rng.Perm(5)
	for i, l := range labels {
		relabelled[i] = 10 + 3*perm[l]
	}
	require.InDelta(t, 1.0, AdjustedRand(labels, relabelled), 1e-12)
	coarse := make([]int, len(labels))
	for i, l := range labels {
		coarse[i] = l / 2
	}
	require.Less(t, AdjustedRand(labels, coarse), 1.0)
	require.Equal(t, []int{1, 0, 1, 2, 0}, valueLabels([]float64{0.5, -1, 0.5, 3, -1}))
}

// TestPaperTensor: the input has at most `levels` distinct values per
// column, which centring keeps, and all of them differ from integers by
// one common shift.
func TestPaperTensor(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	xt := paperTensor(rng, 200, 4, 10)
	require.Equal(t, []int{200, 4, 4}, xt.Shape)
	shift := xt.Data[0] - math.Round(xt.Data[0])
	for _, v := range xt.Data {
		require.InDelta(t, shift, v-math.Round(v), 1e-9)
	}
	x := mat.DenseCopyOf(xt.Matrix(1))
	centreColumns(x)
	m, err := cardmat.Encode(x)
	require.NoError(t, err)
	for _, mj := range m.Distinct() {
		require.LessOrEqual(t, mj, 10)
		require.GreaterOrEqual(t, mj, 8, "200 draws of 10 levels hit nearly all")
	}
	for j := range 16 {
		require.InDelta(t, 0, stat.Mean(mat.Col(nil, j, x), nil), 1e-10)
	}
}

// TestCompressedIstaMatchesDense: ten proximal-gradient iterations with
// the compressed products give the dense fit to rounding, for a scalar and
// a matrix response, and they move the fit towards the truth.
func TestCompressedIstaMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	xt := paperTensor(rng, 300, 6, 10)
	x := mat.DenseCopyOf(xt.Matrix(1))
	centreColumns(x)
	cm, err := cardmat.Encode(x)
	require.NoError(t, err)
	lip, err := lipschitz(x)
	require.NoError(t, err)
	for _, q := range []int{1, 36} {
		b, _ := tensorTruth(rng, 36, q, 4)
		y := tensorResponse(rng, x, b, 1)
		centreColumns(y)
		pen := penalty.Cardinality{}
		d := ista(solver.DenseDesign{X: x}, y, pen, lip, 1, 10)
		c := ista(cm, y, pen, lip, 1, 10)
		require.Less(t, relDiff(c.B, d.B), 1e-12, "q=%d", q)
		var diff mat.Dense
		diff.Sub(d.B, b)
		require.Less(t, mat.Norm(&diff, 2), 0.5*mat.Norm(b, 2), "q=%d: ten iterations make progress", q)
	}
}

// TestLambdaSelectionOnEasyData: with little noise and many observations
// the cross-validated cardinality fit (relaxed) is close to β* and beats
// ridge, a check that the methods are wired to the right penalties.
func TestLambdaSelectionOnEasyData(t *testing.T) {
	pl := linearPlanFor(true)
	pl.Folds, pl.NLambda = 5, 30
	s := linearSetting{Factor: "base", N: 400, P: 20, K: 2, Sigma: 0.5}
	res, err := linearRun(s, pl, 11, 0)
	require.NoError(t, err)
	require.Less(t, res["cardinality-relaxed"].EstError, res["ridge"].EstError)
	require.Less(t, res["cardinality-relaxed"].EstError, 0.3)
	require.Equal(t, 20.0, res["ridge"].Distinct, "ridge fits distinct values")
}
