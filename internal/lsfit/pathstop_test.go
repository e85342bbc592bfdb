package lsfit

import (
	"testing"

	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/internal/pathstop"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
)

// pooledR2 is 1 − ΣRSS/ΣTSS over a model's responses, from its R2 and TSS.
func pooledR2(m *fit.Model) float64 {
	var rss, tss float64
	for j, r2 := range m.R2 {
		rss += (1 - r2) * fit.EngineOf(m).TSS[j]
		tss += fit.EngineOf(m).TSS[j]
	}
	return 1 - rss/tss
}

// checkStopsAtRule checks that a generated gaussian path stopped where
// glmnet's rule for gaussian first holds (the R² moved by less than 1e-5
// of itself, from the fifth λ on, or passed 0.999), and said so.
func checkStopsAtRule(t *testing.T, p *fit.Path, nlambda int) {
	t.Helper()
	m := len(p.Models)
	require.Less(t, m, nlambda, "the path stops before the grid's end")
	require.Len(t, p.Lambdas, m)
	require.Contains(t, p.Note, "stopped after λ")
	var r2 []float64
	for i, md := range p.Models {
		r2 = append(r2, pooledR2(md))
		stop, _ := pathstop.Stop(pathstop.Relative, r2)
		require.Equal(t, i == m-1, stop, "λ %d of %d: R² %v", i+1, m, r2[max(0, i-1):])
	}
}

// TestGaussianPathStopsByGlmnetRule: a generated least-squares path ends
// where glmnet's gaussian path does (its rule on the R², elnet's), from
// rows and from statistics, with several responses (cardreg's choice: the
// pooled R² 1 − ΣRSS/ΣTSS; glmnet's mgaussian is a different penalty) and
// relaxed (the penalised fits' R²); a grid given
// by the caller is fitted to its end, as glmnet fits a given lambda.
func TestGaussianPathStopsByGlmnetRule(t *testing.T) {
	x, y, _ := simulate(11, 200, 8, 1, 0.5)
	d := solver.DenseDesign{X: x}
	for _, pen := range []penalty.Penalty{penalty.L1{}, penalty.Cardinality{Nu: 1}} {
		p, err := FitPath(d, y, pen, &fit.PathOptions{})
		require.NoError(t, err)
		checkStopsAtRule(t, p, 100)
		st, err := FitPathStats(momentsOf(x, y, allRows(200)), 1, pen, &fit.PathOptions{})
		require.NoError(t, err)
		require.Len(t, st.Lambdas, len(p.Lambdas), "%T: the statistics' path stops at the same λ", pen)
		require.InDeltaSlice(t, p.Lambdas, st.Lambdas, 1e-12*p.Lambdas[0])
		full, err := FitPath(d, y, pen, &fit.PathOptions{Lambdas: append(p.Lambdas, p.Lambdas[len(p.Lambdas)-1]/2)})
		require.NoError(t, err)
		require.Len(t, full.Models, len(p.Lambdas)+1, "a given grid is fitted to its end")
		require.Empty(t, full.Note)
	}
	relaxed, err := FitPath(d, y, penalty.L1{}, &fit.PathOptions{Options: fit.Options{Relax: true}})
	require.NoError(t, err)
	plain, err := FitPath(d, y, penalty.L1{}, &fit.PathOptions{})
	require.NoError(t, err)
	require.Equal(t, plain.Lambdas, relaxed.Lambdas, "the rule reads the penalised fits")

	x3, y3, _ := simulate(12, 150, 6, 3, 0.3)
	multi, err := FitPath(solver.DenseDesign{X: x3}, y3, penalty.L1{}, &fit.PathOptions{})
	require.NoError(t, err)
	checkStopsAtRule(t, multi, 100)

	cv, err := CrossValidate(d, y, penalty.L1{}, &fit.CVOptions{Folds: 4, Seed: 1})
	require.NoError(t, err)
	require.Equal(t, plain.Lambdas, cv.Lambdas, "cross-validation runs the folds on the full path's λ, as cv.glmnet")
	require.Len(t, cv.Mean, len(plain.Lambdas))
}
