package glm

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/internal/rtest"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/suffstat"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// gammaTable is the gamma data set of these tests: own's cardinality-
// sparse model, shape 2, with positive weights and offsets when asked.
func gammaTable(n, p int, seed uint64, weights, offset bool) *table {
	tb := own(datafit.Gamma{}, n, p, seed)
	r := rand.New(rand.NewPCG(seed, 77))
	if weights {
		tb.w = make([]float64, n)
		for i := range tb.w {
			tb.w[i] = 0.2 + 2*r.Float64()
		}
	}
	if offset {
		tb.o = make([]float64, n)
		for i := range tb.o {
			tb.o[i] = 0.3 * r.NormFloat64()
		}
	}
	return tb
}

// TestGammaMatchesGlmnet fits the gamma lasso (log link) at three λ, with
// and without weights and offsets, and checks it against R's
// glmnet(family = Gamma(link = "log"), standardize = FALSE, thresh = 1e-14)
// at λ_glmnet = λ/(2n), glmnet's IRLS run to a relative deviance change of
// 1e-15 (thresh 1e-16): the objective agrees to 1e-12 relative, ours no larger (beyond rounding), and the
// intercept and coefficients to 1e-6 of the largest. Skipped without R's
// glmnet.
func TestGammaMatchesGlmnet(t *testing.T) {
	rtest.SkipUnlessAvailable(t)
	fam := datafit.Gamma{}
	for _, variant := range []string{"plain", "weights", "offset", "weights+offset"} {
		t.Run(variant, func(t *testing.T) {
			tb := gammaTable(400, 12, 5, strings.Contains(variant, "weights"), strings.Contains(variant, "offset"))
			matchesGlmnet(t, fam, tb)
		})
	}
}

func nonzero(v []float64) int {
	k := 0
	for _, x := range v {
		if x != 0 {
			k++
		}
	}
	return k
}

// TestGammaCardinalityCertified fits the gamma model under the cardinality
// penalty (ν = 1) with weights and offsets by the default method and by
// FISTA: both converge to a relative duality gap ≤ 1e-7, Certify confirms
// it from the coefficients alone, the two agree, and moving a coefficient
// off the solution raises the certificate above the tolerance.
func TestGammaCardinalityCertified(t *testing.T) {
	tb := gammaTable(300, 9, 6, true, true)
	pen := penalty.Cardinality{Nu: 1}
	var fits []*fit.Model
	for _, method := range []solver.Method{nil, &solver.FISTA{}} {
		opts := &fit.Options{Family: datafit.Gamma{}, Method: method,
			Settings: solver.Settings{Tol: 1e-9, MaxIter: 200000}}
		lmax, ok, err := LambdaMax(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, opts)
		require.NoError(t, err)
		require.True(t, ok)
		m, err := Fit(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, 0.1*lmax, opts)
		require.NoError(t, err)
		require.True(t, m.Converged, "%T: %v gap %v", method, m.Status, m.Gap)
		require.LessOrEqual(t, m.Gap, 1e-7)
		gap, err := Certify(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, 0.1*lmax, coef(m), opts)
		require.NoError(t, err)
		require.LessOrEqual(t, gap, 1e-7, "%T: certificate of the coefficients", method)
		off := coef(m)
		off[0] += 0.05
		gap, err = Certify(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, 0.1*lmax, off, opts)
		require.NoError(t, err)
		require.Greater(t, gap, 1e-7, "%T: certificate of coefficients off the solution", method)
		t.Logf("%T: %d distinct values, gap %.1e, %d iterations", method, len(m.DistinctValues(0)), m.Gap, m.Iterations)
		fits = append(fits, m)
	}
	require.InEpsilon(t, fits[0].Objective, fits[1].Objective, 1e-7)
	require.InDeltaSlice(t, coef(fits[0]), coef(fits[1]), 1e-3)
}

// TestGammaCV cross-validates the gamma lasso with weights under each of
// its measures (deviance, mse, mae) and recomputes every curve from
// scratch: a cold Fit per fold and λ on the other folds' rows (at
// λ·n_train/n, as cv.glmnet), the held-out rows scored by R's formulas
// (Gamma()$dev.resids, (y − μ)², |y − μ|), weighted over all held-out rows
// (cv.glmnet's grouped cvm with weights). λ_min is the curve's minimum.
// (R's cv.glmnet is no reference here: its IRLS for a family object
// oscillates on some folds and stops off the optimum; see docs/EXTENDING.md.)
func TestGammaCV(t *testing.T) {
	fam := datafit.Gamma{}
	require.Equal(t, []string{"deviance", "mse", "mae"}, Measures(fam))
	tb := gammaTable(240, 8, 8, true, false)
	n, _ := tb.x.Dims()
	folds := make([]int, n)
	for i := range folds {
		folds[i] = (i * 7) % 4
	}
	set := solver.Settings{Tol: 1e-12, MaxIter: 100000}
	po := fit.PathOptions{Options: fit.Options{Family: fam, Settings: set}, NLambda: 12, MinRatio: 0.02}
	measures := map[string]func(y, mu float64) float64{
		"deviance": func(y, mu float64) float64 { return -2 * (math.Log(y/mu) - (y-mu)/mu) },
		"mse":      func(y, mu float64) float64 { return (y - mu) * (y - mu) },
		"mae":      func(y, mu float64) float64 { return math.Abs(y - mu) },
	}
	var grid []float64
	sums := map[string][]float64{}
	var sw float64
	for _, measure := range Measures(fam) {
		cv, err := CrossValidate(&Rows{X: tb.x, Y: tb.y, Weights: tb.w}, penalty.L1{}, &fit.CVOptions{PathOptions: po, FoldID: folds, Measure: measure})
		require.NoError(t, err)
		require.Empty(t, cv.Path.Note)
		if grid == nil {
			grid = cv.Lambdas
			sums, sw = heldOutSums(t, tb, folds, 4, grid, &po.Options, measures)
		}
		require.Equal(t, grid, cv.Lambdas)
		for l := range grid {
			require.InEpsilon(t, sums[measure][l]/sw, cv.Mean[l], 1e-7, "%s at λ %d", measure, l)
			require.GreaterOrEqual(t, cv.Mean[l], cv.Mean[cv.IndexMin], "%s: λ_min is not the minimum", measure)
		}
		t.Logf("%s: λ_min index %d, λ_1se index %d of %d", measure, cv.IndexMin, cv.IndexSE, len(grid))
	}
}

// heldOutSums fits each fold's training rows (cold, at each λ of grid
// scaled by n_train/n) and returns, per measure and λ, the sum over all
// held-out rows of weight × measure, and the sum of their weights.
func heldOutSums(t *testing.T, tb *table, folds []int, k int, grid []float64, opts *fit.Options, measures map[string]func(y, mu float64) float64) (map[string][]float64, float64) {
	n, _ := tb.x.Dims()
	sums := map[string][]float64{}
	for name := range measures {
		sums[name] = make([]float64, len(grid))
	}
	var sw float64
	for f := range k {
		var train, test []int
		for i, g := range folds {
			if g == f {
				test = append(test, i)
			} else {
				train = append(train, i)
			}
		}
		o := *opts
		for l, lambda := range grid {
			m, err := Fit(&Rows{X: rows(tb.x, train), Y: pick(tb.y, train), Weights: pick(tb.w, train)}, penalty.L1{}, lambda*float64(len(train))/float64(n), &o)
			require.NoError(t, err)
			require.True(t, m.Converged)
			mu := mat.Col(nil, 0, m.Response(rows(tb.x, test), nil))
			for a, i := range test {
				for name, v := range measures {
					sums[name][l] += tb.w[i] * v(tb.y[i], mu[a])
				}
			}
		}
		for _, i := range test {
			sw += tb.w[i]
		}
	}
	return sums, sw
}

// TestGammaPath fits a generated lasso path of the gamma family: every fit
// converges, the deviance ratio grows from 0 along it, and each model is
// the cold fit at its λ (the warm starts change nothing). With R's glmnet,
// the path is glmnet's (family = Gamma(link = "log"), its grid and its
// stopping rule for families other than gaussian and Poisson): the same
// number of λ, the same λ, and deviance ratios within 1e-7. (The data's
// seed is one on which glmnet's IRLS converges along the whole path: the
// reference script refuses a fit that did not.)
func TestGammaPath(t *testing.T) {
	tb := own(datafit.Gamma{}, 300, 10, 3)
	n, _ := tb.x.Dims()
	opts := fit.Options{Family: datafit.Gamma{}, Settings: solver.Settings{Tol: 1e-10}}
	p, err := FitPath(&Rows{X: tb.x, Y: tb.y}, penalty.L1{}, &fit.PathOptions{Options: opts})
	require.NoError(t, err)
	require.InDelta(t, 0, p.Models[0].DevRatio, 1e-12)
	for k, m := range p.Models {
		require.True(t, m.Converged, "λ %d: %v", k, m.Status)
		if k > 0 {
			require.GreaterOrEqual(t, m.DevRatio, p.Models[k-1].DevRatio-1e-12, "λ %d", k)
		}
	}
	for _, k := range []int{len(p.Models) / 3, len(p.Models) - 1} {
		cold, err := Fit(&Rows{X: tb.x, Y: tb.y}, penalty.L1{}, p.Lambdas[k], &opts)
		require.NoError(t, err)
		require.InEpsilon(t, cold.Objective, p.Models[k].Objective, 1e-9, "λ %d", k)
		require.InDeltaSlice(t, coef(cold), coef(p.Models[k]), 1e-5, "λ %d", k)
	}
	t.Logf("%d λ, last deviance ratio %.4f (%s)", len(p.Models), p.Models[len(p.Models)-1].DevRatio, p.Note)
	if !rtest.Available() {
		t.Skip("R's glmnet is not available: the path was not compared with glmnet's")
	}
	path := filepath.Join(t.TempDir(), "gamma.csv")
	tb.write(t, path)
	ref := rscriptRows(t, "../../bench/glmfamily.R", "path", path, "gamma")
	require.Equal(t, len(ref), len(p.Models), "path length (ours: %s)", p.Note)
	for k, m := range p.Models {
		require.InEpsilon(t, ref[k][0], p.Lambdas[k]/(2*float64(n)), 1e-9, "λ %d", k)
		require.InDelta(t, ref[k][1], m.DevRatio, 1e-7, "dev ratio %d", k)
	}
}

// TestGammaStreamMatchesMemory: the streamed routes (FitSource,
// FitPathSource, CrossValidateSource: passes over the rows) give the
// in-memory fits of the gamma family, with weights and offsets, for the
// lasso and the cardinality penalty, and the same cross-validation curves
// for every measure.
func TestGammaStreamMatchesMemory(t *testing.T) {
	fam := datafit.Gamma{}
	tb := withWeightsOffsets(own(fam, 400, 8, 34))
	set := solver.Settings{Tol: 1e-10}
	for _, pen := range []penalty.Penalty{penalty.L1{}, penalty.Cardinality{Nu: 1}} {
		opts := &fit.Options{Family: fam, Settings: set}
		lmax, _, err := LambdaMax(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, opts)
		require.NoError(t, err)
		want, err := Fit(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, 0.1*lmax, opts)
		require.NoError(t, err)
		got, err := FitSource(&tableSource{tb: tb}, 8, pen, 0.1*lmax, &fit.Options{Family: fam, Settings: set})
		require.NoError(t, err)
		require.True(t, got.Converged, "%T: %v gap %v", pen, got.Status, got.Gap)
		require.InEpsilon(t, want.Objective, got.Objective, 1e-9)
		require.InDelta(t, want.Intercept[0], got.Intercept[0], 1e-5)
		require.InDeltaSlice(t, coef(want), coef(got), 1e-5)
		require.InEpsilon(t, want.NullDeviance, got.NullDeviance, 1e-10)
		t.Logf("%T: %d passes, gap %.1e", pen, got.Passes, got.Gap)
	}
	po := fit.PathOptions{Options: fit.Options{Family: fam, Settings: set}, NLambda: 15}
	want, err := FitPath(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, penalty.L1{}, &po)
	require.NoError(t, err)
	spo := po
	got, err := FitPathSource(&tableSource{tb: tb}, 8, penalty.L1{}, &spo)
	require.NoError(t, err)
	require.Equal(t, len(want.Lambdas), len(got.Lambdas))
	for k := range want.Models {
		require.InEpsilon(t, want.Lambdas[k], got.Lambdas[k], 1e-9)
		require.InDeltaSlice(t, coef(want.Models[k]), coef(got.Models[k]), 1e-5, "λ %d", k)
	}
	ids := make([]int, len(tb.y))
	rf := suffstat.NewRowFolder(9, 4)
	for i := range ids {
		ids[i] = rf.Fold(uint64(i))
	}
	for _, measure := range Measures(fam) {
		mcv, err := CrossValidate(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, penalty.L1{}, &fit.CVOptions{PathOptions: po, FoldID: ids, Measure: measure})
		require.NoError(t, err)
		scv, err := CrossValidateSource(&tableSource{tb: tb}, 8, penalty.L1{}, &fit.CVOptions{PathOptions: spo, Folds: 4, Seed: 9, Measure: measure})
		require.NoError(t, err)
		require.Equal(t, len(mcv.Lambdas), len(scv.Lambdas), measure)
		for l := range mcv.Lambdas {
			require.InEpsilon(t, mcv.Mean[l], scv.Mean[l], 1e-6, "%s λ %d", measure, l)
		}
		require.Equal(t, mcv.IndexMin, scv.IndexMin, measure)
		require.Equal(t, mcv.IndexSE, scv.IndexSE, measure)
	}
}

// TestGammaUnitInvariance: the gamma deviance depends on y/μ alone, so the
// same amounts in a unit 1e12 times smaller give the same fit, the
// intercept shifted by log 1e12, certified by the same relative gap (the
// gap's rounding floor is sized by the family's DualScale, not by
// |y log y|, which would declare the fit converged at its floor).
func TestGammaUnitInvariance(t *testing.T) {
	tb := gammaTable(300, 6, 9, true, true)
	big := *tb
	big.y = make([]float64, len(tb.y))
	for i, v := range tb.y {
		big.y[i] = v * 1e12
	}
	pen := penalty.Cardinality{Nu: 1}
	var fits []*fit.Model
	for _, d := range []*table{tb, &big} {
		opts := &fit.Options{Family: datafit.Gamma{}, Settings: solver.Settings{Tol: 1e-12}}
		lmax, _, err := LambdaMax(&Rows{X: d.x, Y: d.y, Weights: d.w, Offset: d.o}, pen, opts)
		require.NoError(t, err)
		m, err := Fit(&Rows{X: d.x, Y: d.y, Weights: d.w, Offset: d.o}, pen, 0.05*lmax, opts)
		require.NoError(t, err)
		require.Equal(t, solver.GapConverged, m.Status, "gap %v", m.Gap)
		fits = append(fits, m)
	}
	require.InDelta(t, fits[0].Intercept[0]+math.Log(1e12), fits[1].Intercept[0], 1e-8)
	require.InDeltaSlice(t, coef(fits[0]), coef(fits[1]), 1e-8)
	require.InEpsilon(t, fits[0].Deviance, fits[1].Deviance, 1e-10)
}
