package lsfit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/suffstat"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// statsData draws rows with a shifted, scaled design and q responses.
func statsData(seed uint64, n, p, q int) (*mat.Dense, *mat.Dense) {
	rng := rand.New(rand.NewPCG(seed, 5))
	x := mat.NewDense(n, p, nil)
	y := mat.NewDense(n, q, nil)
	vals := []float64{-2, -1, 1, 2}
	beta := make([]float64, p*q)
	for i := range beta {
		beta[i] = vals[rng.IntN(4)]
	}
	for i := range n {
		for a := range p {
			x.Set(i, a, 10+float64(a+1)*rng.NormFloat64())
		}
		for j := range q {
			s := 3.0 + rng.NormFloat64()
			for a := range p {
				s += x.At(i, a) * beta[a*q+j]
			}
			y.Set(i, j, s)
		}
	}
	return x, y
}

// momentsOf summarises rows (x, y) in chunks, as a streamed source would.
func momentsOf(x, y *mat.Dense, rows []int) *suffstat.Moments {
	_, p := x.Dims()
	_, q := y.Dims()
	m := suffstat.New(p + q)
	z := make([]float64, p+q)
	for _, i := range rows {
		copy(z, x.RawRowView(i))
		copy(z[p:], y.RawRowView(i))
		m.Add(z, 1)
	}
	return m
}

func allRows(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	return r
}

func requireSameModel(t *testing.T, want, got *fit.Model, tol float64) {
	t.Helper()
	scale := mat.Norm(want.Coef, math.Inf(1)) + 1
	require.True(t, mat.EqualApprox(want.Coef, got.Coef, tol*scale), "coefficients\n%v\n%v", mat.Formatted(want.Coef.T()), mat.Formatted(got.Coef.T()))
	for j := range want.Intercept {
		require.InDelta(t, want.Intercept[j], got.Intercept[j], tol*(math.Abs(want.Intercept[j])+scale))
		require.InDelta(t, want.R2[j], got.R2[j], tol)
	}
	require.InEpsilon(t, want.Objective, got.Objective, tol)
	require.Equal(t, want.Relaxed, got.Relaxed)
}

// The fit from statistics equals the fit on the rows.
func TestFitStatsMatchesRows(t *testing.T) {
	x, y := statsData(1, 150, 7, 1)
	m := momentsOf(x, y, allRows(150))
	for _, tc := range []struct {
		name   string
		pen    penalty.Penalty
		lambda float64
		opts   fit.Options
	}{
		{"cardinality", penalty.Cardinality{Nu: 1.4}, 200, fit.Options{}},
		{"cardinality standardised", penalty.Cardinality{Nu: 1.4}, 200, fit.Options{Standardize: true}},
		{"cardinality relaxed", penalty.Cardinality{Nu: 1.4}, 2000, fit.Options{Relax: true}},
		{"lasso", penalty.L1{Nu: 1}, 300, fit.Options{}},
		{"lasso no intercept", penalty.L1{Nu: 1}, 300, fit.Options{NoIntercept: true}},
		{"grouped", penalty.NewGrouped([]int{0, 0, 0, 1, 1, 1, 1}, 1.2), 200, fit.Options{}},
		{"ridge", penalty.Ridge{}, 50, fit.Options{}},
		{"least squares", penalty.Cardinality{Nu: 1}, 0, fit.Options{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.opts
			opts.Settings = solver.Settings{Tol: 1e-11, MaxIter: 100000}
			opts.Method = &solver.FISTA{}
			want, err := Fit(solver.DenseDesign{X: x}, y, tc.pen, tc.lambda, &opts)
			require.NoError(t, err)
			got, err := FitStats(m, 1, tc.pen, tc.lambda, &opts)
			require.NoError(t, err)
			require.Nil(t, got.Residuals)
			requireSameModel(t, want, got, 1e-6)
		})
	}
}

func TestFitPathStatsMatchesRows(t *testing.T) {
	x, y := statsData(2, 120, 6, 2)
	po := &fit.PathOptions{NLambda: 8, Options: fit.Options{Settings: solver.Settings{Tol: 1e-11, MaxIter: 100000}}}
	want, err := FitPath(solver.DenseDesign{X: x}, y, penalty.Cardinality{Nu: 1.5}, po)
	require.NoError(t, err)
	got, err := FitPathStats(momentsOf(x, y, allRows(120)), 2, penalty.Cardinality{Nu: 1.5}, po)
	require.NoError(t, err)
	require.InDeltaSlice(t, want.Lambdas, got.Lambdas, 1e-9*want.Lambdas[0])
	for l := range want.Models {
		requireSameModel(t, want.Models[l], got.Models[l], 1e-6)
	}
}

// Cross-validation from per-fold statistics equals cross-validation on
// the rows with the same folds.
func TestCrossValidateStatsMatchesRows(t *testing.T) {
	const n, k = 160, 4
	x, y := statsData(3, n, 5, 1)
	foldID := make([]int, n)
	f := suffstat.NewFolds(k, 6)
	z := make([]float64, 6)
	for i := range n {
		foldID[i] = suffstat.FoldOf(uint64(i), 7, k)
		copy(z, x.RawRowView(i))
		z[5] = y.At(i, 0)
		f.Fold[foldID[i]].Add(z, 1)
	}
	co := &fit.CVOptions{FoldID: foldID, PathOptions: fit.PathOptions{NLambda: 10, Options: fit.Options{Settings: solver.Settings{Tol: 1e-11, MaxIter: 100000}}}}
	want, err := CrossValidate(solver.DenseDesign{X: x}, y, penalty.Cardinality{Nu: 1.3}, co)
	require.NoError(t, err)
	got, err := CrossValidateStats(f, 1, penalty.Cardinality{Nu: 1.3}, co)
	require.NoError(t, err)
	require.InDeltaSlice(t, want.Lambdas, got.Lambdas, 1e-9*want.Lambdas[0])
	for l := range want.Lambdas {
		require.InEpsilon(t, want.Mean[l], got.Mean[l], 1e-6, "λ %d", l)
		require.InDelta(t, want.SE[l], got.SE[l], 1e-6*want.Mean[l], "λ %d", l)
	}
	require.Equal(t, want.IndexMin, got.IndexMin)
	require.Equal(t, want.IndexSE, got.IndexSE)
}

// Weights are counts: a row of weight 2 is the row twice.
func TestFitStatsWeights(t *testing.T) {
	x, y := statsData(4, 60, 4, 1)
	weighted := suffstat.New(5)
	var rows []int
	z := make([]float64, 5)
	for i := range 60 {
		copy(z, x.RawRowView(i))
		z[4] = y.At(i, 0)
		weighted.Add(z, float64(i%3))
		for range i % 3 {
			rows = append(rows, i)
		}
	}
	opts := &fit.Options{Settings: solver.Settings{Tol: 1e-11, MaxIter: 100000}}
	want, err := FitStats(momentsOf(x, y, rows), 1, penalty.Cardinality{Nu: 1.5}, 100, opts)
	require.NoError(t, err)
	got, err := FitStats(weighted, 1, penalty.Cardinality{Nu: 1.5}, 100, opts)
	require.NoError(t, err)
	requireSameModel(t, want, got, 1e-8)
}

// Statistics of data far from unit scale fit as in memory: streamed data
// at 1e100 stopped on "the top of the λ grid is +Inf" (λ_fuse squares
// magnitudes) and were not rescaled as rows are. Now FitStats,
// FitPathStats and CrossValidateStats agree with the rows' fits at 1e100
// and 1e-100, and with Standardize a column at 1e-50 fits.
func TestStatsScaleMatchesRows(t *testing.T) {
	const n, k = 160, 4
	x0, y0 := statsData(3, n, 5, 1)
	pen := penalty.Cardinality{Nu: 1.3}
	for _, tc := range []struct {
		s, col float64
		std    bool
	}{{1e100, 1, false}, {1e-100, 1, false}, {1, 1e-50, true}, {1e120, 1e-60, true}} {
		x, y := mat.DenseCopyOf(x0), mat.DenseCopyOf(y0)
		x.Scale(tc.s, x)
		y.Scale(tc.s, y)
		for i := range n {
			x.Set(i, 2, x.At(i, 2)*tc.col)
		}
		foldID := make([]int, n)
		f := suffstat.NewFolds(k, 6)
		z := make([]float64, 6)
		for i := range n {
			foldID[i] = suffstat.FoldOf(uint64(i), 7, k)
			copy(z, x.RawRowView(i))
			z[5] = y.At(i, 0)
			f.Fold[foldID[i]].Add(z, 1)
		}
		opts := fit.Options{Standardize: tc.std, Settings: solver.Settings{Tol: 1e-11, MaxIter: 100000}}
		co := &fit.CVOptions{FoldID: foldID, PathOptions: fit.PathOptions{NLambda: 8, Options: opts}}
		want, err := CrossValidate(solver.DenseDesign{X: x}, y, pen, co)
		require.NoError(t, err, "%+v", tc)
		got, err := CrossValidateStats(f, 1, pen, co)
		require.NoError(t, err, "%+v", tc)
		require.NoError(t, got.OutOfRange)
		require.Equal(t, want.IndexMin, got.IndexMin, "%+v", tc)
		for l := range want.Lambdas {
			require.InEpsilon(t, want.Lambdas[l], got.Lambdas[l], 1e-9, "%+v λ %d", tc, l)
			require.InEpsilon(t, want.Mean[l], got.Mean[l], 1e-6, "%+v λ %d", tc, l)
		}
		lam := want.Lambdas[3]
		wm, err := Fit(solver.DenseDesign{X: x}, y, pen, lam, &opts)
		require.NoError(t, err)
		gm, err := FitStats(f.All(), 1, pen, lam, &opts)
		require.NoError(t, err, "%+v", tc)
		requireSameModel(t, wm, gm, 1e-6)
		gp, err := FitPathStats(f.All(), 1, pen, &fit.PathOptions{NLambda: 8, Options: opts})
		require.NoError(t, err, "%+v", tc)
		require.InEpsilon(t, want.Lambdas[0], gp.Lambdas[0], 1e-9, "%+v", tc)
	}
}

// Cross-validation from statistics refuses fewer than three folds, as
// CrossValidate on the rows does: two folds (a --foldid column holding 1
// and 2, streamed) were cross-validated where the rows' route refused them.
func TestCrossValidateStatsFoldCount(t *testing.T) {
	const n = 60
	x, y := statsData(3, n, 5, 1)
	for _, k := range []int{1, 2} {
		foldID := make([]int, n)
		f := suffstat.NewFolds(k, 6)
		z := make([]float64, 6)
		for i := range n {
			foldID[i] = i % k
			copy(z, x.RawRowView(i))
			z[5] = y.At(i, 0)
			f.Fold[foldID[i]].Add(z, 1)
		}
		co := &fit.CVOptions{FoldID: foldID, PathOptions: fit.PathOptions{NLambda: 5}}
		_, rowsErr := CrossValidate(solver.DenseDesign{X: x}, y, penalty.Cardinality{Nu: 1.3}, co)
		require.ErrorContains(t, rowsErr, "needs at least 3", "k %d", k)
		_, err := CrossValidateStats(f, 1, penalty.Cardinality{Nu: 1.3}, co)
		require.ErrorContains(t, err, fmt.Sprintf("%d folds: cross-validation needs at least 3", k))
	}
}

// Bad statistics are errors, not panics (the scaling ran before the
// checks: nil moments, more responses than variables with Standardize);
// and predictors whose sizes differ beyond what one scale can carry are
// refused from statistics as from rows (the statistics gave the small
// column a coefficient near -4e-301 where the rows' route refused).
func TestStatsScalingChecksFirst(t *testing.T) {
	pen := penalty.Cardinality{Nu: 1}
	std := &fit.Options{Standardize: true}
	_, err := FitStats(nil, 1, pen, 1, nil)
	require.Error(t, err)
	m := suffstat.New(3)
	m.Add([]float64{1, 2, 3}, 1)
	m.Add([]float64{2, 1, 5}, 1)
	_, err = FitStats(m, 4, pen, 1, std)
	require.Error(t, err)
	_, err = FitPathStats(m, 4, pen, &fit.PathOptions{Options: *std})
	require.Error(t, err)

	const n = 60
	x0, y0 := statsData(5, n, 3, 1)
	x := mat.DenseCopyOf(x0)
	s := suffstat.New(4)
	z := make([]float64, 4)
	for i := range n {
		x.Set(i, 0, x.At(i, 0)*1e150)
		x.Set(i, 2, x.At(i, 2)*1e-100)
		copy(z, x.RawRowView(i))
		z[3] = y0.At(i, 0)
		s.Add(z, 1)
	}
	_, rowsErr := Fit(solver.DenseDesign{X: x}, y0, pen, 1, nil)
	var want *ScaleError
	require.ErrorAs(t, rowsErr, &want)
	_, err = FitStats(s, 1, pen, 1, nil)
	var got *ScaleError
	require.ErrorAs(t, err, &got)
	require.Equal(t, want.Small, got.Small)
	require.Equal(t, want.Big, got.Big)
}
