package lsfit

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/internal/reference"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// simulate draws y = Xβ* + 3 + N(0, σ²) with β* entries from {−2,−1,1,2}
// (several responses when q > 1) and returns X, Y and β*.
func simulate(seed uint64, n, p, q int, sigma float64) (*mat.Dense, *mat.Dense, *mat.Dense) {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	beta := mat.NewDense(p, q, nil)
	vals := []float64{-2, -1, 1, 2}
	for i := 0; i < p; i++ {
		for j := 0; j < q; j++ {
			beta.Set(i, j, vals[rng.IntN(4)])
		}
	}
	y := mat.NewDense(n, q, nil)
	y.Mul(x, beta)
	for i := 0; i < n; i++ {
		for j := 0; j < q; j++ {
			y.Set(i, j, y.At(i, j)+3+sigma*rng.NormFloat64())
		}
	}
	return x, y, beta
}

func centred(m *mat.Dense) *mat.Dense {
	r, c := m.Dims()
	out := mat.DenseCopyOf(m)
	for j := 0; j < c; j++ {
		var s float64
		for i := 0; i < r; i++ {
			s += m.At(i, j)
		}
		for i := 0; i < r; i++ {
			out.Set(i, j, m.At(i, j)-s/float64(r))
		}
	}
	return out
}

func TestLassoWithInterceptMatchesCD(t *testing.T) {
	x, y, _ := simulate(1, 120, 30, 1, 1)
	for _, lam := range []float64{10, 100, 600} {
		m, err := Fit(solver.DenseDesign{X: x}, y, penalty.L1{}, lam, &fit.Options{Settings: solver.Settings{Tol: 1e-12}})
		require.NoError(t, err)
		require.True(t, m.Converged)
		want := reference.LassoCD(centred(x), mat.Col(nil, 0, centred(y)), lam, 1e-14)
		require.InDeltaSlice(t, want, mat.Col(nil, 0, m.Coef), 1e-6)
		// Intercept: ȳ − x̄ᵀβ, so the residuals have mean zero.
		require.InDelta(t, 0, mat.Sum(m.Residuals)/120, 1e-9)
		pred := predict(m, solver.DenseDesign{X: x})
		pred.Add(pred, m.Residuals)
		require.True(t, mat.EqualApprox(pred, y, 1e-9))
	}
}

func TestCardinalityCertifiedAndMatchesADMM(t *testing.T) {
	x, y, _ := simulate(2, 80, 10, 1, 1)
	card := penalty.Cardinality{Nu: 0.8}
	gen, err := penalty.NewGeneral(penalty.AllPairs(10), 10, 0.8)
	require.NoError(t, err)
	path, err := FitPath(solver.DenseDesign{X: x}, y, card, &fit.PathOptions{NLambda: 5,
		Options: fit.Options{Settings: solver.Settings{Tol: 1e-10}}})
	require.NoError(t, err)
	for _, fast := range path.Models {
		require.LessOrEqual(t, fast.Gap, 1e-8, "λ=%v", fast.Lambda)
		slow, err := Fit(solver.DenseDesign{X: x}, y, gen, fast.Lambda, &fit.Options{
			Method: &solver.ADMM{}, Settings: solver.Settings{Tol: 1e-11, MaxIter: 300000}})
		require.NoError(t, err)
		require.True(t, slow.Converged)
		require.True(t, mat.EqualApprox(fast.Coef, slow.Coef, 1e-6), "λ=%v", fast.Lambda)
		require.InDeltaSlice(t, fast.Intercept, slow.Intercept, 1e-6)
	}
}

func TestRidgeClosedForm(t *testing.T) {
	for _, dims := range [][2]int{{60, 8}, {15, 40}} {
		x, y, _ := simulate(3, dims[0], dims[1], 2, 1)
		lam := 7.5
		m, err := Fit(solver.DenseDesign{X: x}, y, penalty.Ridge{}, lam, nil)
		require.NoError(t, err)
		// Independent: normal equations of the centred problem by LU.
		xc, yc := centred(x), centred(y)
		var a, rhs, want mat.Dense
		a.Mul(xc.T(), xc)
		for i := 0; i < dims[1]; i++ {
			a.Set(i, i, a.At(i, i)+lam)
		}
		rhs.Mul(xc.T(), yc)
		require.NoError(t, want.Solve(&a, &rhs))
		require.True(t, mat.EqualApprox(&want, m.Coef, 1e-10), "n,p=%v", dims)
		require.Less(t, m.Gap, 1e-10)
	}
}

func TestMultiResponseEqualsSingleFits(t *testing.T) {
	x, y, _ := simulate(5, 70, 9, 3, 1)
	for _, pen := range []penalty.Penalty{penalty.Cardinality{Nu: 1.2}, penalty.L1{}} {
		opts := &fit.Options{Settings: solver.Settings{Tol: 1e-12}}
		all, err := Fit(solver.DenseDesign{X: x}, y, pen, 40, opts)
		require.NoError(t, err)
		for j := 0; j < 3; j++ {
			one, err := Fit(solver.DenseDesign{X: x}, y.Slice(0, 70, j, j+1), pen, 40, opts)
			require.NoError(t, err)
			require.InDeltaSlice(t, mat.Col(nil, 0, one.Coef), mat.Col(nil, j, all.Coef), 1e-7)
			require.InDelta(t, one.Intercept[0], all.Intercept[j], 1e-7)
		}
	}
}

func TestPathGridAndFusion(t *testing.T) {
	x, y, _ := simulate(7, 200, 20, 1, 1)
	d := solver.DenseDesign{X: x}
	lasso, err := FitPath(d, y, penalty.L1{}, &fit.PathOptions{NLambda: 20})
	require.NoError(t, err)
	require.Len(t, lasso.Models, len(lasso.Lambdas))
	require.Contains(t, lasso.Note, "of 20)", "the R² settles before the grid's end (glmnet's rule)")
	require.Equal(t, lasso.LambdaMax, lasso.Lambdas[0])
	require.Zero(t, lasso.Models[0].EffectiveParams())
	require.Positive(t, lasso.Models[1].EffectiveParams())
	step := math.Pow(1e-4, 1.0/19) // λ_max down to 1e-4·λ_max in 20 values
	for i := 1; i < len(lasso.Lambdas); i++ {
		require.InEpsilon(t, step*lasso.Lambdas[i-1], lasso.Lambdas[i], 1e-12)
	}

	card := penalty.Cardinality{Nu: 1}
	cp, err := FitPath(d, y, card, &fit.PathOptions{NLambda: 10})
	require.NoError(t, err)
	require.Less(t, cp.LambdaFuse, cp.LambdaMax)
	require.Equal(t, cp.LambdaFuse, cp.Lambdas[0])
	require.Len(t, cp.Models[0].DistinctValues(0), 1, "fully fused at λ_fuse")
	below, err := Fit(d, y, card, 0.98*cp.LambdaFuse, &fit.Options{Settings: solver.Settings{Tol: 1e-10}})
	require.NoError(t, err)
	require.Greater(t, len(below.DistinctValues(0)), 1, "no longer fused just below λ_fuse")
	for _, m := range cp.Models {
		require.True(t, m.Converged, "λ=%v: %v", m.Lambda, m.Status)
	}
}

func TestCVDeterministicAndRules(t *testing.T) {
	x, y, _ := simulate(8, 150, 12, 1, 2)
	opts := &fit.CVOptions{PathOptions: fit.PathOptions{NLambda: 15}, Folds: 4, Seed: 3}
	a, err := CrossValidate(solver.DenseDesign{X: x}, y, penalty.Cardinality{}, opts)
	require.NoError(t, err)
	b, err := CrossValidate(solver.DenseDesign{X: x}, y, penalty.Cardinality{}, opts)
	require.NoError(t, err)
	require.Equal(t, a.Mean, b.Mean)
	require.GreaterOrEqual(t, a.LambdaSE, a.LambdaMin)
	require.LessOrEqual(t, a.Mean[a.IndexSE], a.Mean[a.IndexMin]+a.SE[a.IndexMin])
	for l, e := range a.Mean {
		require.GreaterOrEqual(t, e, a.Mean[a.IndexMin], "λ_min is the minimum (index %d)", l)
	}
	require.Len(t, a.Path.Models, len(a.Lambdas))
	require.Len(t, a.Mean, len(a.Lambdas), "the folds' grid is the full path's")
	_, err = CrossValidate(solver.DenseDesign{X: x}, y, penalty.L1{}, &fit.CVOptions{Folds: 1})
	require.Error(t, err)
}

func TestStandardizeMapsBack(t *testing.T) {
	x, y, _ := simulate(9, 90, 6, 1, 1)
	for j := 0; j < 6; j++ { // very different scales
		for i := 0; i < 90; i++ {
			x.Set(i, j, x.At(i, j)*math.Pow(10, float64(j-3)))
		}
	}
	m, err := Fit(solver.DenseDesign{X: x}, y, penalty.L1{}, 50, &fit.Options{Standardize: true, Settings: solver.Settings{Tol: 1e-12}})
	require.NoError(t, err)
	xs := centred(x)
	sd := make([]float64, 6)
	for j := 0; j < 6; j++ {
		c := mat.Col(nil, j, xs)
		sd[j] = math.Sqrt(mat.Dot(mat.NewVecDense(90, c), mat.NewVecDense(90, c)) / 90)
		for i := range c {
			xs.Set(i, j, c[i]/sd[j])
		}
	}
	want := reference.LassoCD(xs, mat.Col(nil, 0, centred(y)), 50, 1e-14)
	for j := range want {
		require.InDelta(t, want[j]/sd[j], m.Coef.At(j, 0), 1e-6*(1+math.Abs(want[j]/sd[j])))
	}
}

func TestBadInput(t *testing.T) {
	x, y, _ := simulate(10, 20, 3, 1, 1)
	d := solver.DenseDesign{X: x}
	_, err := Fit(d, y.Slice(0, 10, 0, 1), penalty.L1{}, 1, nil)
	require.ErrorContains(t, err, "rows")
	bad := mat.DenseCopyOf(y)
	bad.Set(4, 0, math.NaN())
	_, err = Fit(d, bad, penalty.L1{}, 1, nil)
	require.ErrorContains(t, err, "row 5")
	_, err = Fit(d, y, penalty.L1{}, -2, nil)
	require.Error(t, err)
	_, err = Fit(d, y, nil, 1, nil)
	require.Error(t, err)
	flat := mat.NewDense(20, 1, nil)
	_, err = FitPath(d, flat, penalty.L1{}, nil)
	require.ErrorContains(t, err, "constant")
}

// TestLambdaZeroIsLeastSquares: at λ = 0 every penalty gives ordinary least
// squares in closed form (XᵀX when n ≥ p; the minimum-norm interpolant
// Xᵀ(XXᵀ)⁻¹y when p > n).
func TestLambdaZeroIsLeastSquares(t *testing.T) {
	x, y, _ := simulate(11, 60, 5, 1, 1)
	xc, yc := centred(x), centred(y)
	var a, rhs, want mat.Dense
	a.Mul(xc.T(), xc)
	rhs.Mul(xc.T(), yc)
	require.NoError(t, want.Solve(&a, &rhs))
	for _, pen := range []penalty.Penalty{penalty.Cardinality{}, penalty.L1{}, penalty.Ridge{}} {
		m, err := Fit(solver.DenseDesign{X: x}, y, pen, 0, nil)
		require.NoError(t, err)
		require.True(t, m.Converged, "%T", pen)
		require.True(t, mat.EqualApprox(&want, m.Coef, 1e-9), "%T", pen)
	}
	wide, yw, _ := simulate(12, 10, 30, 1, 1)
	m, err := Fit(solver.DenseDesign{X: wide}, yw, penalty.L1{}, 0, &fit.Options{NoIntercept: true})
	require.NoError(t, err)
	require.True(t, m.Converged, "p > n: %v after %d", m.Status, m.Iterations)
	require.Less(t, sq(m.Residuals), 1e-6*sq(yw), "p > n interpolates")
}

// TestRelaxedIsLeastSquaresOnClusters: the relaxed fit keeps the clusters
// of the penalised fit and gives each the least-squares value, computed
// here independently on the collapsed design (one column per cluster).
func TestRelaxedIsLeastSquaresOnClusters(t *testing.T) {
	x, y, _ := simulate(13, 150, 8, 1, 1)
	d := solver.DenseDesign{X: x}
	for _, pen := range []penalty.Penalty{penalty.Cardinality{}, penalty.L1{}} {
		lmax, _ := solver.LambdaMax(solver.NewLeastSquares(solver.DenseDesign{X: centred(x)}, centred(y)), pen)
		plain, err := Fit(d, y, pen, 0.03*lmax, &fit.Options{Settings: solver.Settings{Tol: 1e-10}})
		require.NoError(t, err)
		rel, err := Fit(d, y, pen, 0.03*lmax, &fit.Options{Relax: true, Settings: solver.Settings{Tol: 1e-10}})
		require.NoError(t, err)
		require.True(t, rel.Relaxed, "%T", pen)
		require.False(t, plain.Relaxed)
		require.Equal(t, plain.Gap, rel.Gap, "the certificate is the penalised fit's")
		clusters := plain.Clusters(0)
		require.ElementsMatch(t, clusters, rel.Clusters(0), "%T: same clusters", pen)
		// Independent refit: columns summed per cluster (zeros of the lasso
		// dropped), least squares with an intercept via centring.
		var keep [][]int
		for _, cl := range clusters {
			if !(plain.Coef.At(cl[0], 0) == 0 && pen == penalty.Penalty(penalty.L1{})) {
				keep = append(keep, cl)
			}
		}
		z := mat.NewDense(150, len(keep), nil)
		for c, cl := range keep {
			for i := 0; i < 150; i++ {
				var s float64
				for _, k := range cl {
					s += x.At(i, k)
				}
				z.Set(i, c, s)
			}
		}
		var b mat.Dense
		require.NoError(t, b.Solve(centred(z), centred(y)))
		for c, cl := range keep {
			for _, k := range cl {
				require.InDelta(t, b.At(c, 0), rel.Coef.At(k, 0), 1e-8, "%T cluster %d", pen, c)
			}
		}
	}
	_, err := Fit(d, y, penalty.Ridge{}, 1, &fit.Options{Relax: true})
	require.NoError(t, err, "ridge in closed form ignores Relax")
	gen, err := penalty.NewGeneral(penalty.AllPairs(8), 8, 1)
	require.NoError(t, err)
	_, err = Fit(d, y, gen, 1, &fit.Options{Relax: true})
	require.ErrorContains(t, err, "piecewise-linear")
}

func TestZeroAboveLambdaMax(t *testing.T) {
	x, y, _ := simulate(14, 50, 6, 2, 1)
	d := solver.DenseDesign{X: x}
	for _, pen := range []penalty.Penalty{penalty.Cardinality{Nu: 2}, penalty.L1{}} {
		path, err := FitPath(d, y, pen, &fit.PathOptions{NLambda: 2})
		require.NoError(t, err)
		m, err := Fit(d, y, pen, path.LambdaMax, nil)
		require.NoError(t, err)
		require.Zero(t, mat.Norm(m.Coef, 2), "%T", pen)
		require.Zero(t, m.Iterations)
		require.True(t, m.Converged)
		require.InDeltaSlice(t, []float64{mat.Sum(y.ColView(0)) / 50, mat.Sum(y.ColView(1)) / 50}, m.Intercept, 1e-12)
		require.InDelta(t, sq(centred(y)), m.Objective, 1e-9*sq(centred(y)))
		below, err := Fit(d, y, pen, 0.9*path.LambdaMax, nil)
		require.NoError(t, err)
		require.NotZero(t, mat.Norm(below.Coef, 2))
		require.Positive(t, below.Iterations)
	}
}

// Findings of a review, each a regression test.
func TestReviewRegressions(t *testing.T) {
	x, y, _ := simulate(15, 40, 3, 1, 1)
	d := solver.DenseDesign{X: x}

	// Columns whose scales no common scaling can hold at once are refused
	// (FISTA used to backtrack forever on the infinite loss).
	big := mat.DenseCopyOf(x)
	big.Set(3, 1, 1e200)
	_, err := Fit(solver.DenseDesign{X: big}, y, penalty.Cardinality{}, 1, nil)
	require.ErrorContains(t, err, "rescale")

	// One predictor, or identical predictors: fused at every λ, so the
	// cardinality grid starts at λ_max, not at 1e-12·λ_max.
	one := mat.NewDense(40, 1, mat.Col(nil, 0, x))
	path, err := FitPath(solver.DenseDesign{X: one}, y, penalty.Cardinality{}, &fit.PathOptions{NLambda: 5})
	require.NoError(t, err)
	require.Zero(t, path.LambdaFuse)
	require.Equal(t, path.LambdaMax, path.Lambdas[0])
	dup := mat.NewDense(40, 2, nil)
	dup.SetCol(0, mat.Col(nil, 0, x))
	dup.SetCol(1, mat.Col(nil, 0, x))
	path, err = FitPath(solver.DenseDesign{X: dup}, y, penalty.Cardinality{}, &fit.PathOptions{NLambda: 5})
	require.NoError(t, err)
	require.Equal(t, path.LambdaMax, path.Lambdas[0])

	// A penalty without a dual norm needs an explicit grid, and says so.
	gen, err := penalty.NewGeneral(penalty.AllPairs(3), 3, 1)
	require.NoError(t, err)
	_, err = FitPath(d, y, gen, nil)
	require.ErrorContains(t, err, "PathOptions.Lambdas")
	withGrid, err := FitPath(d, y, gen, &fit.PathOptions{Lambdas: []float64{5, 1}})
	require.NoError(t, err)
	require.Len(t, withGrid.Models, 2)

	// Above λ_max, Relax still refits: one common value for cardinality.
	lp, err := FitPath(d, y, penalty.Cardinality{}, &fit.PathOptions{NLambda: 2})
	require.NoError(t, err)
	rel, err := Fit(d, y, penalty.Cardinality{}, 2*lp.LambdaMax, &fit.Options{Relax: true})
	require.NoError(t, err)
	require.True(t, rel.Relaxed)
	require.Len(t, rel.DistinctValues(0), 1)
	require.NotZero(t, rel.Coef.At(0, 0))

	// Standardize on a design it cannot standardise is an error, not a panic.
	_, err = Fit(onlyMul{d}, y, penalty.L1{}, 1, &fit.Options{Standardize: true})
	require.ErrorContains(t, err, "Standardize")
}

// onlyMul is a design with products only.
type onlyMul struct{ d solver.DenseDesign }

func (o onlyMul) Dims() (int, int)                      { return o.d.Dims() }
func (o onlyMul) Mul(dst *mat.Dense, b mat.Matrix)      { o.d.Mul(dst, b) }
func (o onlyMul) MulTrans(dst *mat.Dense, r mat.Matrix) { o.d.MulTrans(dst, r) }

// Non-finite data are refused with their place, whatever the fast row scan
// does (an infinity passes "≤ +Inf", so it is checked apart).
func TestNonFiniteRefused(t *testing.T) {
	for _, bad := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
		x, y, _ := simulate(3, 30, 4, 1, 1)
		x.Set(7, 2, bad)
		_, err := Fit(solver.DenseDesign{X: x}, y, penalty.L1{}, 1, nil)
		require.ErrorContains(t, err, "non-finite value")
		require.ErrorContains(t, err, "row 8, column 3", "%v", bad)
		x, y, _ = simulate(3, 30, 4, 1, 1)
		y.Set(4, 0, bad)
		_, err = FitPath(solver.DenseDesign{X: x}, y, penalty.L1{}, nil)
		require.ErrorContains(t, err, "non-finite value")
		require.ErrorContains(t, err, "row 5, column 1", "%v", bad)
		// The row scan alone, at the bound checkInputs uses (+Inf): the
		// checks after it would otherwise hide a scan that lets ±Inf pass.
		require.ErrorContains(t, finite("response", y, math.Inf(1)), "row 5, column 1", "%v", bad)
	}
}

// A path in Gram form (n ≥ p) keeps no residuals; its R² comes from the
// statistics and equals the R² of its predictions. A wide path keeps them.
func TestPathR2FromStatistics(t *testing.T) {
	for _, dims := range [][3]int{{200, 30, 1}, {120, 10, 2}, {40, 80, 1}} {
		x, y, _ := simulate(5, dims[0], dims[1], dims[2], 1)
		for _, pen := range []penalty.Penalty{penalty.L1{}, penalty.Cardinality{}} {
			path, err := FitPath(solver.DenseDesign{X: x}, y, pen, &fit.PathOptions{NLambda: 12})
			require.NoError(t, err)
			for _, m := range path.Models {
				require.Equal(t, dims[0] < dims[1], m.Residuals != nil, "%v %T", dims, pen)
				pred := predict(m, solver.DenseDesign{X: x})
				for j := range dims[2] {
					var rss, tss, mean float64
					for i := range dims[0] {
						mean += y.At(i, j) / float64(dims[0])
					}
					for i := range dims[0] {
						r := y.At(i, j) - pred.At(i, j)
						rss += r * r
						tss += (y.At(i, j) - mean) * (y.At(i, j) - mean)
					}
					require.InDelta(t, 1-rss/tss, m.R2[j], 1e-10, "%v %T λ=%v", dims, pen, m.Lambda)
				}
			}
		}
	}
}

// A one-λ lasso centres a dense design straight into columns; the fit is
// the one coordinate descent makes on the centred dense copy, to the bit,
// with and without standardisation, intercept and penalty factors.
func TestLassoColumnLayout(t *testing.T) {
	x, y, _ := simulate(7, 60, 90, 1, 1)
	factors := make([]float64, 90)
	for k := range factors {
		factors[k] = 1 + float64(k%4)/3
	}
	for _, pen := range []penalty.Penalty{penalty.L1{}, penalty.WeightedL1{Factors: factors}} {
		for _, o := range []fit.Options{{}, {Standardize: true}, {NoIntercept: true}} {
			auto, err := Fit(solver.DenseDesign{X: x}, y, pen, 30, &o)
			require.NoError(t, err)
			o.Method = solver.CoordinateDescent{}
			rows, err := Fit(solver.DenseDesign{X: x}, y, pen, 30, &o)
			require.NoError(t, err)
			require.True(t, mat.Equal(auto.Coef, rows.Coef), "%T %+v", pen, o)
			require.Equal(t, auto.Intercept, rows.Intercept)
			require.Equal(t, rows.Gap, auto.Gap)
		}
	}
	var want mat.Dense
	mean, sd := []float64{1, -2, 0.5}, []float64{2, 1, 4}
	small := mat.NewDense(4, 3, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	want.CloneFrom(transform(solver.DenseDesign{X: small}, mean, sd).(solver.DenseDesign).X.T())
	require.True(t, mat.Equal(&want, transformColumns(small, mean, sd).XT))
}

// On wide data the cardinality and grouped fits and paths run cluster
// coordinate descent by default, and reach FISTA's optimum.
func TestWideFusedFitsMatchFISTA(t *testing.T) {
	x, y, _ := simulate(11, 40, 150, 1, 1)
	d := solver.DenseDesign{X: x}
	labels := cyclic(150, 3)
	for _, pen := range []penalty.Penalty{penalty.Cardinality{Nu: 1}, penalty.NewGrouped(labels, 1)} {
		set := solver.Settings{Tol: 1e-9}
		pr, err := prepare(d, y, nil)
		require.NoError(t, err)
		require.IsType(t, solver.ClusterCD{}, pr.pathMethod(pen))
		require.IsType(t, solver.ClusterCD{}, pr.method(pen, 1))
		path, err := FitPath(d, y, pen, &fit.PathOptions{NLambda: 8, Options: fit.Options{Settings: set}})
		require.NoError(t, err)
		for k, lam := range path.Lambdas {
			want, err := Fit(d, y, pen, lam, &fit.Options{Settings: set, Method: &solver.FISTA{}})
			require.NoError(t, err)
			got := path.Models[k]
			require.True(t, got.Converged && want.Converged, "%T λ %d", pen, k)
			require.InDelta(t, want.Objective, got.Objective, 1e-8*want.Objective, "%T λ %d", pen, k)
		}
	}
}

// cyclic returns n group labels 0, 1, …, k−1, 0, 1, … (k groups of
// interleaved rows).
func cyclic(n, k int) []int {
	labels := make([]int, n)
	for i := range labels {
		labels[i] = i % k
	}
	return labels
}
