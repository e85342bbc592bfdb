package solver_test

import (
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestDefaultMethod: the one default-method rule, on the losses of glm
// (a deviance: Reweighter, Restricter, Newtoner) and of tensorreg (least
// squares on a dense design, tall or wide, or on statistics only).
func TestDefaultMethod(t *testing.T) {
	narrow, err := datafit.NewLoss(datafit.Binomial{}, logistic(1, 100, 8))
	require.NoError(t, err)
	wide, err := datafit.NewLoss(datafit.Binomial{}, logistic(1, 50, 80))
	require.NoError(t, err)
	tall := solver.NewLeastSquares(solver.DenseDesign{X: mat.NewDense(10, 3, nil)}, mat.NewDense(10, 1, nil))
	flat := solver.NewLeastSquares(solver.DenseDesign{X: mat.NewDense(3, 10, nil)}, mat.NewDense(3, 1, nil))
	stats := solver.NewGramLeastSquares(mat.NewSymDense(3, nil), mat.NewDense(3, 1, nil), 1)
	l1, card := penalty.L1{}, penalty.Cardinality{Nu: 1}
	shared := &solver.WorkingSet{}
	cases := []struct {
		name string
		loss solver.Loss
		pen  penalty.Penalty
		lam  float64
		h    solver.Hints
		want solver.Method
	}{
		{"glm lasso", narrow, l1, 1, solver.Hints{N: 100}, solver.IRLSCD{}},
		{"glm lasso p > 64", wide, l1, 1, solver.Hints{N: 50}, &solver.WorkingSet{}},
		{"glm lasso λ = 0", narrow, l1, 0, solver.Hints{N: 100}, &solver.ProxNewton{}},
		{"glm cardinality n ≥ p", narrow, card, 1, solver.Hints{N: 100}, &solver.ProxNewton{}},
		{"glm cardinality p > n", wide, card, 1, solver.Hints{N: 50}, &solver.FISTA{}},
		{"ls lasso dense", tall, l1, 1, solver.Hints{}, solver.CoordinateDescent{}},
		{"ls lasso path Gram", tall, l1, 0, solver.Hints{Path: true}, solver.GramCoordinateDescent{}},
		{"ls lasso path wide", flat, l1, 0, solver.Hints{Path: true}, solver.CoordinateDescent{}},
		{"ls lasso statistics", stats, l1, 1, solver.Hints{}, solver.GramCoordinateDescent{}},
		{"ls λ = 0", tall, l1, 0, solver.Hints{}, &solver.FISTA{}},
		{"ls cardinality wide", flat, card, 1, solver.Hints{}, solver.ClusterCD{}},
		{"ls cardinality Gram", tall, card, 1, solver.Hints{Path: true}, &solver.FISTA{}},
	}
	for _, c := range cases {
		got := solver.DefaultMethod(solver.Problem{Loss: c.loss, Penalty: c.pen, Lambda: c.lam}, c.h)
		require.IsType(t, c.want, got, c.name)
	}
	got := solver.DefaultMethod(solver.Problem{Loss: wide, Penalty: l1, Lambda: 1}, solver.Hints{WorkingSet: shared})
	require.Same(t, shared, got)
}
