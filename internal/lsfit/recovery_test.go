package lsfit

import (
	"math"
	"testing"

	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/internal/reference"
	"github.com/cardsparse/cardreg/internal/testenv"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestRecovery is the core correctness bar for the estimator: with
// y = Xβ* + N(0,1), β* holding 4 distinct values, p = 100 and n = 500, the
// CV-chosen cardinality fit is closer to β* than the CV lasso and CV ridge
// fits, and its least-squares relaxation closer still, summed over 3 seeds
// (under 2 s). TestRecoveryExhaustive runs it at its full size.
func TestRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("recovery experiment skipped in -short mode")
	}
	checkRecovery(t, 3, 500, 100)
}

// TestRecoveryExhaustive is TestRecovery with p = 200 and n = 1000,
// averaged over 10 seeds (15 s or more on two cores), run with
// CARDREG_SLOW=1.
func TestRecoveryExhaustive(t *testing.T) {
	testenv.SkipUnlessSlow(t)
	if testing.Short() {
		t.Skip("recovery experiment skipped in -short mode")
	}
	checkRecovery(t, 10, 1000, 200)
}

// checkRecovery runs the recovery experiment on seeds data sets of n rows
// and p predictors and checks that the cardinality fit beats the lasso and
// ridge fits and that relaxing it beats it, in total over the seeds. It
// logs the adjusted Rand index of the fitted clusters against the true ones
// at λ_min and λ_1se.
func checkRecovery(t *testing.T, seeds, n, p int) {
	var errCard, errLasso, errRidge, ariMin, ari1se float64
	var distinctMin, distinct1se, errRelax, ariRelax, distinctRelax float64
	for s := uint64(1); s <= uint64(seeds); s++ {
		x, y, beta := simulate(100+s, n, p, 1, 1)
		d := solver.DenseDesign{X: x}
		opts := &fit.CVOptions{Seed: s, PathOptions: fit.PathOptions{NLambda: 50}}
		truth := labelsOf(mat.Col(nil, 0, beta))
		card, err := CrossValidate(d, y, penalty.Cardinality{}, opts)
		require.NoError(t, err)
		mMin, m1se := card.Path.Models[card.IndexMin], card.Path.Models[card.IndexSE]
		require.True(t, mMin.Converged && m1se.Converged)
		errCard += dist(mMin.Coef, beta)
		ariMin += reference.AdjustedRand(truth, clusterLabels(mMin, p))
		ari1se += reference.AdjustedRand(truth, clusterLabels(m1se, p))
		distinctMin += float64(len(mMin.DistinctValues(0)))
		distinct1se += float64(len(m1se.DistinctValues(0)))
		ropts := *opts
		ropts.Relax = true
		relax, err := CrossValidate(d, y, penalty.Cardinality{}, &ropts)
		require.NoError(t, err)
		mr := relax.Path.Models[relax.IndexMin]
		errRelax += dist(mr.Coef, beta)
		ariRelax += reference.AdjustedRand(truth, clusterLabels(mr, p))
		distinctRelax += float64(len(mr.DistinctValues(0)))
		lasso, err := CrossValidate(d, y, penalty.L1{}, opts)
		require.NoError(t, err)
		errLasso += dist(lasso.Path.Models[lasso.IndexMin].Coef, beta)
		ridge, err := CrossValidate(d, y, penalty.Ridge{}, opts)
		require.NoError(t, err)
		errRidge += dist(ridge.Path.Models[ridge.IndexMin].Coef, beta)
	}
	k := float64(seeds)
	t.Logf("n = %d, p = %d; mean ‖β̂−β*‖ over %d seeds: cardinality %.4f, lasso %.4f, ridge %.4f",
		n, p, seeds, errCard/k, errLasso/k, errRidge/k)
	t.Logf("cardinality clusters vs truth: ARI %.4f at λ_min (%.1f distinct values), %.4f at λ_1se (%.1f distinct values)",
		ariMin/k, distinctMin/k, ari1se/k, distinct1se/k)
	t.Logf("relaxed cardinality (CV on the least-squares refits): ‖β̂−β*‖ %.4f, ARI %.4f (%.1f distinct values)",
		errRelax/k, ariRelax/k, distinctRelax/k)
	require.Less(t, errCard, errLasso)
	require.Less(t, errCard, errRidge)
	require.Less(t, errRelax, errCard, "relaxing removes the shrinkage")
}

func dist(a, b *mat.Dense) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return mat.Norm(&d, 2)
}

func labelsOf(v []float64) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(math.Round(x * 1000))
	}
	return out
}

func clusterLabels(m *fit.Model, p int) []int {
	out := make([]int, p)
	for c, cl := range m.Clusters(0) {
		for _, i := range cl {
			out[i] = c
		}
	}
	return out
}
