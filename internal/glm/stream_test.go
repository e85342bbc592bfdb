package glm

import (
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/suffstat"
	"github.com/stretchr/testify/require"
)

// tableSource streams a table from memory, counting passes.
type tableSource struct {
	tb     *table
	passes int
}

func (s *tableSource) Pass(row func(x []float64, y, w, o float64) error) error {
	s.passes++
	n, _ := s.tb.x.Dims()
	for i := range n {
		w, o := 1.0, 0.0
		if s.tb.w != nil {
			w = s.tb.w[i]
		}
		if s.tb.o != nil {
			o = s.tb.o[i]
		}
		if err := row(s.tb.x.RawRowView(i), s.tb.y[i], w, o); err != nil {
			return err
		}
	}
	return nil
}

// withWeightsOffsets gives tb varied weights and offsets.
func withWeightsOffsets(tb *table) *table {
	n, _ := tb.x.Dims()
	tb.w, tb.o = make([]float64, n), make([]float64, n)
	for i := range n {
		tb.w[i] = 0.5 + float64(i%4)/2
		tb.o[i] = 0.1 * float64(i%5-2)
	}
	return tb
}

// TestFitSourceMatchesFit: a streamed fit (passes over the rows, O(p²)
// memory) equals the in-memory fit, for both families, the lasso and the
// cardinality penalty, with weights and offsets, certified by its gap.
func TestFitSourceMatchesFit(t *testing.T) {
	for _, fam := range []datafit.Family{datafit.Binomial{}, datafit.Poisson{}} {
		tb := withWeightsOffsets(own(fam, 500, 8, 31))
		for _, pen := range []penalty.Penalty{penalty.L1{}, penalty.Cardinality{Nu: 1}} {
			opts := &fit.Options{Family: fam, Settings: solver.Settings{Tol: 1e-10}}
			lmax, _, err := LambdaMax(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, opts)
			require.NoError(t, err)
			want, err := Fit(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, 0.1*lmax, opts)
			require.NoError(t, err)
			src := &tableSource{tb: tb}
			got, err := FitSource(src, 8, pen, 0.1*lmax, &fit.Options{Family: fam, Settings: solver.Settings{Tol: 1e-10}})
			require.NoError(t, err)
			require.True(t, got.Converged, "%s %T: %v gap %v", fam.Name(), pen, got.Status, got.Gap)
			require.LessOrEqual(t, got.Gap, 1e-10)
			require.InEpsilon(t, want.Objective, got.Objective, 1e-9)
			require.InDelta(t, want.Intercept[0], got.Intercept[0], 1e-5)
			require.InDeltaSlice(t, coef(want), coef(got), 1e-5)
			require.InEpsilon(t, want.NullDeviance, got.NullDeviance, 1e-10)
			require.Equal(t, src.passes, got.Passes)
			t.Logf("%s %T: %d passes, %d Newton steps, gap %.1e", fam.Name(), pen, got.Passes, got.Iterations, got.Gap)
		}
	}
}

// TestFitPathSourceMatchesFitPath: a streamed path has FitPath's grid, its
// stopping point and its fits, for both families, the lasso and the
// cardinality penalty, with weights and offsets from the source.
func TestFitPathSourceMatchesFitPath(t *testing.T) {
	for _, fam := range []datafit.Family{datafit.Binomial{}, datafit.Poisson{}} {
		tb := withWeightsOffsets(own(fam, 300, 6, 32))
		for _, pen := range []penalty.Penalty{penalty.L1{}, penalty.Cardinality{Nu: 1}} {
			// The streamed Newton steps stall near 2e-9 relative on some
			// Poisson fits close to λ_max (no decrease within rounding).
			set := solver.Settings{Tol: 1e-8}
			want, err := FitPath(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, &fit.PathOptions{Options: fit.Options{Family: fam, Settings: set}, NLambda: 30})
			require.NoError(t, err)
			src := &tableSource{tb: tb}
			got, err := FitPathSource(src, 6, pen, &fit.PathOptions{Options: fit.Options{Family: fam, Settings: set}, NLambda: 30})
			require.NoError(t, err)
			require.Equal(t, len(want.Models), len(got.Models), "%s %T: %s / %s", fam.Name(), pen, want.Note, got.Note)
			require.Equal(t, want.Note, got.Note)
			for k, m := range got.Models {
				require.InEpsilon(t, want.Lambdas[k], got.Lambdas[k], 1e-9)
				require.True(t, m.Converged, "%s %T λ %d: %v gap %v iters %d", fam.Name(), pen, k, m.Status, m.Gap, m.Iterations)
				require.InEpsilon(t, want.Models[k].Objective, m.Objective, 1e-9, "λ %d", k)
				require.InDelta(t, want.Models[k].DevRatio, m.DevRatio, 1e-6, "λ %d", k)
			}
			require.Equal(t, src.passes, got.Passes)
			t.Logf("%s %T: %d λ, %d passes", fam.Name(), pen, len(got.Models), got.Passes)
		}
	}
}

// TestCrossValidateSourceMatchesCrossValidate: a streamed cross-validation
// is CrossValidate on the same folds (suffstat.RowFold), for both families
// and every streamable measure, with weights and offsets.
func TestCrossValidateSourceMatchesCrossValidate(t *testing.T) {
	for _, fam := range []datafit.Family{datafit.Binomial{}, datafit.Poisson{}} {
		tb := withWeightsOffsets(own(fam, 240, 5, 33))
		ids := make([]int, len(tb.y))
		rf := suffstat.NewRowFolder(9, 4)
		for i := range ids {
			ids[i] = rf.Fold(uint64(i))
		}
		for _, measure := range Measures(fam) {
			if measure == "auc" {
				continue
			}
			set := solver.Settings{Tol: 1e-9}
			po := fit.PathOptions{Options: fit.Options{Family: fam, Settings: set}, NLambda: 12}
			want, err := CrossValidate(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, penalty.L1{}, &fit.CVOptions{PathOptions: po, FoldID: ids, Measure: measure})
			require.NoError(t, err)
			src := &tableSource{tb: tb}
			got, err := CrossValidateSource(src, 5, penalty.L1{}, &fit.CVOptions{PathOptions: po, Folds: 4, Seed: 9, Measure: measure})
			require.NoError(t, err)
			require.Equal(t, src.passes, got.Passes)
			require.Equal(t, len(want.Lambdas), len(got.Lambdas), "%s %s", fam.Name(), measure)
			for l := range want.Lambdas {
				require.InEpsilon(t, want.Lambdas[l], got.Lambdas[l], 1e-9)
				require.InEpsilon(t, want.Mean[l], got.Mean[l], 1e-6, "%s %s λ %d", fam.Name(), measure, l)
				require.InDelta(t, want.SE[l], got.SE[l], 1e-6*want.SE[l]+1e-12, "%s %s λ %d", fam.Name(), measure, l)
			}
			require.Equal(t, want.IndexMin, got.IndexMin, "%s %s", fam.Name(), measure)
			require.Equal(t, want.IndexSE, got.IndexSE, "%s %s", fam.Name(), measure)
			t.Logf("%s %s: %d λ, %d passes", fam.Name(), measure, len(got.Lambdas), got.Passes)
		}
	}
}

// dealer.sizes counts RowFold's folds without visiting every row, and a
// user's fold ids as given.
func TestFoldSizes(t *testing.T) {
	for _, n := range []int{7, 30, 1001} {
		for _, k := range []int{3, 5, 7} {
			want := make([]int, k)
			for i := range uint64(n) {
				want[suffstat.RowFold(i, 11, k)]++
			}
			d, err := newDealer(&fit.CVOptions{Folds: k, Seed: 11})
			require.NoError(t, err)
			require.Equal(t, want, d.sizes(n), "n %d k %d", n, k)
		}
	}
	d, err := newDealer(&fit.CVOptions{FoldID: []int{2, 0, 1, 1, 2, 2}})
	require.NoError(t, err)
	require.Equal(t, []int{1, 2, 3}, d.sizes(6))
	require.Error(t, d.check(7))
}

// A streamed cross-validation on the user's fold ids equals the one in
// memory on the same ids.
func TestStreamCVFoldID(t *testing.T) {
	tb := own(datafit.Binomial{}, 240, 5, 21)
	x, y := tb.x, tb.y
	id := make([]int, len(y))
	for i := range id {
		id[i] = (i * 7 / 3) % 4
	}
	opts := &fit.CVOptions{PathOptions: fit.PathOptions{NLambda: 8, Options: fit.Options{Family: datafit.Binomial{}}}, FoldID: id}
	mem, err := CrossValidate(&Rows{X: x, Y: y}, penalty.L1{}, opts)
	require.NoError(t, err)
	str, err := CrossValidateSource(&tableSource{tb: tb}, 5, penalty.L1{}, opts)
	require.NoError(t, err)
	require.InDeltaSlice(t, mem.Mean, str.Mean, 1e-6*mem.Mean[0])
	require.Equal(t, mem.IndexMin, str.IndexMin)
}
