package lsfit

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// summarise on hand-made fold errors: mean, standard error sd/√K with the
// sample sd, λ_min, and λ_1se = the largest λ (smallest index) within one
// standard error of the minimum.
func TestCVSummariseRules(t *testing.T) {
	// K = 4 folds, 5 λ values (decreasing).
	errs := [][]float64{
		{10, 5.8, 5.5, 5, 7},
		{10, 6.3, 5.5, 6, 7},
		{10, 5.3, 6.0, 4, 7},
		{10, 5.8, 5.0, 5, 7},
	}
	cv := &fit.CV{Lambdas: []float64{5, 4, 3, 2, 1}}
	curve(cv, errs, []float64{1, 1, 1, 1})
	require.InDeltaSlice(t, []float64{10, 5.8, 5.5, 5, 7}, cv.Mean, 1e-12)
	// Index 3: deviations 0, 1, −1, 0 → sample sd √(2/3), SE √(2/3)/2.
	se3 := math.Sqrt(2.0/3) / 2
	require.InDelta(t, se3, cv.SE[3], 1e-12)
	require.Equal(t, 3, cv.IndexMin)
	require.Equal(t, 2.0, cv.LambdaMin)
	// bound = 5 + 0.408 = 5.408: index 2 (5.5) is outside, index 1 (5.8) too,
	// so λ_1se = λ_min here …
	require.Equal(t, 3, cv.IndexSE)

	// … and with a wider spread at the minimum, indices 1 and 2 are inside:
	// the largest λ (index 1) must be chosen, index 0 (10) is outside even
	// without the 1/√K.
	errs[0][3], errs[2][3], errs[3][3] = 3, 7, 4 // mean 5, deviations −2, 1, 2, −1
	curve(cv, errs, []float64{1, 1, 1, 1})
	var ss float64
	for _, d := range []float64{-2, 1, 2, -1} {
		ss += d * d
	}
	se := math.Sqrt(ss/3) / 2
	require.InDelta(t, se, cv.SE[3], 1e-12)
	require.Less(t, cv.Mean[1], 5+se)
	require.Equal(t, 1, cv.IndexSE, "λ_1se is the largest λ within one SE")
	require.Equal(t, 4.0, cv.LambdaSE)

	// Ties at the minimum go to the larger λ (glmnet: max λ with cvm ≤ min).
	cv.Lambdas = cv.Lambdas[:3]
	curve(cv, [][]float64{{3, 2, 2}, {3, 2, 2}}, []float64{1, 1})
	require.Equal(t, 1, cv.IndexMin)
}

// Folds of unequal size weigh by their size, as in cv.glmnet: cvm is the
// weighted mean, cvsd = √(weighted mean of squared deviations / (K − 1)).
func TestCVSummariseWeighted(t *testing.T) {
	cv := &fit.CV{Lambdas: []float64{1}}
	curve(cv, [][]float64{{1}, {4}, {7}}, []float64{1, 2, 3})
	mean := (1*1 + 2*4 + 3*7) / 6.0
	require.InDelta(t, mean, cv.Mean[0], 1e-12)
	v := (1*(1-mean)*(1-mean) + 2*(4-mean)*(4-mean) + 3*(7-mean)*(7-mean)) / 6
	require.InDelta(t, math.Sqrt(v/2), cv.SE[0], 1e-12)
}

func TestFoldsDependOnSeedAndAreBalanced(t *testing.T) {
	a, b := assignFolds(100, 5, 1), assignFolds(100, 5, 2)
	require.NotEqual(t, a, b, "different seeds give different folds")
	require.Equal(t, a, assignFolds(100, 5, 1))
	seq := make([]int, 100)
	for i := range seq {
		seq[i] = i % 5
	}
	require.NotEqual(t, seq, a, "folds are random, not round-robin")
	counts := make([]int, 5)
	for _, f := range a {
		counts[f]++
	}
	require.Equal(t, []int{20, 20, 20, 20, 20}, counts)
}

// MeanError is averaged over responses: duplicating the response must not
// change it.
func TestCVErrorAveragedOverResponses(t *testing.T) {
	x, y, _ := simulate(41, 60, 5, 1, 1)
	yy := mat.NewDense(60, 2, nil)
	yy.SetCol(0, mat.Col(nil, 0, y))
	yy.SetCol(1, mat.Col(nil, 0, y))
	opts := &fit.CVOptions{PathOptions: fit.PathOptions{NLambda: 4, Options: fit.Options{Settings: solver.Settings{Tol: 1e-12}}}, Folds: 3, Seed: 1}
	one, err := CrossValidate(solver.DenseDesign{X: x}, y, penalty.L1{}, opts)
	require.NoError(t, err)
	two, err := CrossValidate(solver.DenseDesign{X: x}, yy, penalty.L1{}, opts)
	require.NoError(t, err)
	require.InDeltaSlice(t, one.Mean, two.Mean, 1e-8)
}

// With Standardize and an intercept, the intercept is ȳ − x̄ᵀβ on the data
// scale, so the residuals have mean zero.
func TestStandardizeIntercept(t *testing.T) {
	x, y, _ := simulate(42, 80, 4, 1, 1)
	for j := 0; j < 4; j++ {
		for i := 0; i < 80; i++ {
			x.Set(i, j, 5+x.At(i, j)*float64(j+1)*3)
		}
	}
	m, err := Fit(solver.DenseDesign{X: x}, y, penalty.L1{}, 20, &fit.Options{Standardize: true, Settings: solver.Settings{Tol: 1e-12}})
	require.NoError(t, err)
	require.InDelta(t, 0, mat.Sum(m.Residuals)/80, 1e-9)
	pred := predict(m, solver.DenseDesign{X: x})
	pred.Add(pred, m.Residuals)
	require.True(t, mat.EqualApprox(pred, y, 1e-9))
}

func TestR2(t *testing.T) {
	x, y, _ := simulate(43, 70, 5, 2, 1)
	m, err := Fit(solver.DenseDesign{X: x}, y, penalty.L1{}, 30, nil)
	require.NoError(t, err)
	for j := 0; j < 2; j++ {
		col := mat.Col(nil, j, y)
		var mean, tss, rss float64
		for _, v := range col {
			mean += v / 70
		}
		for i, v := range col {
			tss += (v - mean) * (v - mean)
			r := m.Residuals.At(i, j)
			rss += r * r
		}
		require.InDelta(t, 1-rss/tss, m.R2[j], 1e-12)
		require.Greater(t, m.R2[j], 0.5)
	}
}

// The ridge gap is a certificate: at any point it bounds the relative
// suboptimality (weak duality), here at B = 0 with the optimum known.
func TestRidgeCertificateBoundsSuboptimality(t *testing.T) {
	for _, dims := range [][2]int{{60, 8}, {15, 40}} {
		x, y, _ := simulate(44, dims[0], dims[1], 1, 1)
		pr, err := prepare(solver.DenseDesign{X: x}, y, nil)
		require.NoError(t, err)
		for _, lam := range []float64{7.5, 1e4} { // λ ≫ λ_max(XᵀX) makes B = 0 nearly optimal
			m, ok := pr.ridge(lam)
			require.True(t, ok)
			optObj, _ := pr.ridgeCertificate(fit.EngineOf(m).Fitted, lam)
			obj0, gap0 := pr.ridgeCertificate(mat.NewDense(dims[1], 1, nil), lam)
			require.GreaterOrEqual(t, gap0*obj0, obj0-optObj-1e-9*obj0, "n,p=%v λ=%v", dims, lam)
		}
	}
}

// gramOnly is a design with a Gram form that is not a DenseDesign, so that
// centring and scaling go through scaledDesign.
type gramOnly struct{ d solver.DenseDesign }

func (g gramOnly) Dims() (int, int)                      { return g.d.Dims() }
func (g gramOnly) Mul(dst *mat.Dense, b mat.Matrix)      { g.d.Mul(dst, b) }
func (g gramOnly) MulTrans(dst *mat.Dense, r mat.Matrix) { g.d.MulTrans(dst, r) }
func (g gramOnly) Gram(dst *mat.SymDense)                { g.d.Gram(dst) }

func TestStructuredDesignStandardizeMatchesDense(t *testing.T) {
	x, y, _ := simulate(45, 90, 5, 1, 1)
	for j := 0; j < 5; j++ {
		for i := 0; i < 90; i++ {
			x.Set(i, j, 4+x.At(i, j)*float64(j+1))
		}
	}
	opts := &fit.Options{Standardize: true, Settings: solver.Settings{Tol: 1e-12}}
	dense, err := Fit(solver.DenseDesign{X: x}, y, penalty.L1{}, 40, opts)
	require.NoError(t, err)
	other, err := Fit(gramOnly{solver.DenseDesign{X: x}}, y, penalty.L1{}, 40, opts)
	require.NoError(t, err)
	require.True(t, mat.EqualApprox(dense.Coef, other.Coef, 1e-7))
	require.InDeltaSlice(t, dense.Intercept, other.Intercept, 1e-7)
}

// scaledDesign's products equal those of the explicit (X − 1mᵀ)S⁻¹ for a
// general R (not only zero-sum residuals).
func TestScaledDesignProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(46, 46))
	n, p := 12, 4
	x := mat.NewDense(n, p, nil)
	r := mat.NewDense(n, 2, nil)
	b := mat.NewDense(p, 2, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			x.Set(i, j, rng.NormFloat64()+2)
		}
		r.Set(i, 0, rng.NormFloat64()+1)
		r.Set(i, 1, rng.NormFloat64())
	}
	for i := 0; i < p; i++ {
		b.Set(i, 0, rng.NormFloat64())
		b.Set(i, 1, rng.NormFloat64())
	}
	// The Gram form S⁻¹(XᵀX − n·mmᵀ)S⁻¹ assumes m holds the column means.
	mean := make([]float64, p)
	for j := range mean {
		mean[j] = mat.Sum(x.ColView(j)) / float64(n)
	}
	scale := []float64{2, 0.5, 1, 4}
	xs := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			xs.Set(i, j, (x.At(i, j)-mean[j])/scale[j])
		}
	}
	d := &scaledDesign{x: solver.DenseDesign{X: x}, mean: mean, scale: scale}
	var got, want mat.Dense
	d.MulTrans(&got, r)
	want.Mul(xs.T(), r)
	require.True(t, mat.EqualApprox(&want, &got, 1e-12), "MulTrans")
	var got2, want2 mat.Dense
	d.Mul(&got2, b)
	want2.Mul(xs, b)
	require.True(t, mat.EqualApprox(&want2, &got2, 1e-12), "Mul")
	var g, wg mat.SymDense
	gramDesign{d, solver.DenseDesign{X: x}}.Gram(&g)
	wg.SymOuterK(1, xs.T())
	require.True(t, mat.EqualApprox(&wg, &g, 1e-10), "Gram")
}

// TestCVWithStatefulMethod: ADMM caches its factor; CV with it must not
// race (run under -race) and must match FISTA's curve.
func TestCVWithStatefulMethod(t *testing.T) {
	x, y, _ := simulate(47, 60, 4, 1, 1)
	gen, err := penalty.NewGeneral(penalty.AllPairs(4), 4, 1)
	require.NoError(t, err)
	grid := []float64{40, 10, 2}
	base := fit.CVOptions{PathOptions: fit.PathOptions{Lambdas: grid}, Folds: 3, Seed: 2}
	admm := base
	admm.Method = &solver.ADMM{}
	admm.Settings = solver.Settings{Tol: 1e-10, MaxIter: 200000}
	a, err := CrossValidate(solver.DenseDesign{X: x}, y, gen, &admm)
	require.NoError(t, err)
	fista := base
	fista.Settings = solver.Settings{Tol: 1e-12}
	b, err := CrossValidate(solver.DenseDesign{X: x}, y, penalty.Cardinality{Nu: 1}, &fista)
	require.NoError(t, err)
	require.InDeltaSlice(t, b.Mean, a.Mean, 1e-6)
}

// TestCVCountsUnconvergedFolds: fold fits that hit the iteration cap are
// counted, not hidden.
func TestCVCountsUnconvergedFolds(t *testing.T) {
	x, y, _ := simulate(48, 80, 30, 1, 1)
	opts := &fit.CVOptions{PathOptions: fit.PathOptions{NLambda: 4, Options: fit.Options{
		Method: &solver.FISTA{NoPolish: true}, Settings: solver.Settings{MaxIter: 2, Tol: 1e-14}}}, Folds: 3, Seed: 1}
	cv, err := CrossValidate(solver.DenseDesign{X: x}, y, penalty.Cardinality{}, opts)
	require.NoError(t, err)
	require.Positive(t, cv.Unconverged)
	require.LessOrEqual(t, cv.Unconverged, 3*4)
	ok, err := CrossValidate(solver.DenseDesign{X: x}, y, penalty.Cardinality{}, &fit.CVOptions{PathOptions: fit.PathOptions{NLambda: 4}, Folds: 3, Seed: 1})
	require.NoError(t, err)
	require.Zero(t, ok.Unconverged)
}

// Progress is reported at 0 of the total when the first λ starts (a first
// fit can take minutes on a large design, with nothing drawn before it),
// then after each fit.
func TestProgressCounts(t *testing.T) {
	x, y, _ := simulate(49, 60, 5, 1, 1)
	var calls, first, last, total int
	report := func(done, tot int) {
		if calls == 0 {
			first = done
		}
		calls++
		last, total = done, tot
	}
	_, err := FitPath(solver.DenseDesign{X: x}, y, penalty.L1{}, &fit.PathOptions{Lambdas: []float64{7, 6, 5, 4, 3, 2, 1}, Options: fit.Options{Progress: report}})
	require.NoError(t, err)
	require.Equal(t, 1+7, calls)
	require.Equal(t, 0, first)
	require.Equal(t, 7, last)
	require.Equal(t, 7, total)
	// A generated path that glmnet's rules end early reports its end.
	calls = 0
	p, err := FitPath(solver.DenseDesign{X: x}, y, penalty.L1{}, &fit.PathOptions{NLambda: 50, Options: fit.Options{Progress: report}})
	require.NoError(t, err)
	m := len(p.Lambdas)
	require.Less(t, m, 50, p.Note)
	require.Equal(t, 1+m+1, calls)
	require.Equal(t, 0, first)
	require.Equal(t, m, last)
	require.Equal(t, m, total)
	calls = 0
	cv, err := CrossValidate(solver.DenseDesign{X: x}, y, penalty.Cardinality{}, &fit.CVOptions{PathOptions: fit.PathOptions{NLambda: 6, Options: fit.Options{Progress: report}}, Folds: 3, Seed: 1})
	require.NoError(t, err)
	m = len(cv.Lambdas)
	require.Equal(t, 1+4*m, calls)
	require.Equal(t, 0, first)
	require.Equal(t, 4*m, last)
	require.Equal(t, 4*m, total)
}
