package estimator

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/suffstat"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// sliceSource is a Stream's RowSource over rows in memory.
type sliceSource struct {
	x    *mat.Dense
	y, w []float64
	o    []float64
}

func (s sliceSource) Pass(row func(x []float64, y, w, o float64) error) error {
	n, _ := s.x.Dims()
	for i := range n {
		if err := row(s.x.RawRowView(i), s.y[i], at(s.w, i, 1), at(s.o, i, 0)); err != nil {
			return err
		}
	}
	return nil
}

// simulated returns n rows of p predictors whose true coefficients take
// three values, and a response of the family.
func simulated(n, p int, fam datafit.Family, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := mat.NewDense(n, p, nil)
	y := make([]float64, n)
	for i := range n {
		eta := 0.2
		for j := range p {
			v := rng.NormFloat64()
			x.Set(i, j, v)
			eta += []float64{0.8, 0, -0.5}[j%3] * v
		}
		switch fam.(type) {
		case datafit.Binomial:
			if rng.Float64() < 1/(1+math.Exp(-eta)) {
				y[i] = 1
			}
		case datafit.Poisson:
			y[i] = float64(poisson(rng, math.Exp(eta/2)))
		default:
			y[i] = eta + rng.NormFloat64()
		}
	}
	return x, y
}

func poisson(rng *rand.Rand, mu float64) int {
	k, t := 0, rng.ExpFloat64()
	for t < mu {
		k++
		t += rng.ExpFloat64()
	}
	return k
}

// TestEveryFormSameCV fits the same gaussian rows in memory (Gram route),
// with unit weights (statistics route), as statistics and as a stream, and
// gets the same folds, the same grid, and the same λ_min and λ_1se: there
// is one fold assignment and one grid, whatever the form.
func TestEveryFormSameCV(t *testing.T) {
	x, y := simulated(240, 9, datafit.Gaussian{}, 1)
	ones := make([]float64, len(y))
	for i := range ones {
		ones[i] = 1
	}
	rows := NewRows(x, y)
	weighted := NewRows(x, y)
	weighted.Weights = ones
	n, _ := x.Dims()
	stats, err := rowStats(rows, Folds(n, DefaultFolds, 3), DefaultFolds)
	require.NoError(t, err)
	forms := map[string]Data{"rows": rows, "weighted rows": weighted, "stats": stats,
		"stream": &Stream{Source: sliceSource{x: x, y: y}, P: 9}}
	pen := penalty.Cardinality{Nu: 1}
	opts := &CVOptions{Seed: 3, PathOptions: PathOptions{NLambda: 30}}
	ref, err := CrossValidate(rows, pen, opts)
	require.NoError(t, err)
	require.Len(t, ref.Mean, len(ref.Lambdas))
	require.Less(t, len(ref.Lambdas), 30, "glmnet's rule ends the grid early here, on every form")
	for name, d := range forms {
		cv, err := CrossValidate(d, pen, opts)
		require.NoError(t, err, name)
		_, stream := d.(*Stream)
		require.Equal(t, map[bool]int{true: 1}[stream], cv.Passes, name)
		require.InDeltaSlice(t, ref.Lambdas, cv.Lambdas, 1e-9*ref.Lambdas[0], name)
		require.Equal(t, ref.IndexMin, cv.IndexMin, name)
		require.Equal(t, ref.IndexSE, cv.IndexSE, name)
		for i := range ref.Mean {
			require.InDelta(t, ref.Mean[i], cv.Mean[i], 1e-6*ref.Mean[i], "%s: λ %d", name, i)
		}
	}
}

// TestFamiliesSameOnRowsAndStream fits binomial and Poisson rows in memory
// and streamed: the same folds (Folds), grid, λ_min and λ_1se.
func TestFamiliesSameOnRowsAndStream(t *testing.T) {
	for _, fam := range []datafit.Family{datafit.Binomial{}, datafit.Poisson{}} {
		x, y := simulated(300, 6, fam, 2)
		opts := &CVOptions{Seed: 5, Folds: 5, PathOptions: PathOptions{NLambda: 15, Options: Options{Family: fam}}}
		pen := penalty.L1{}
		mem, err := CrossValidate(NewRows(x, y), pen, opts)
		require.NoError(t, err, fam.Name())
		str, err := CrossValidate(&Stream{Source: sliceSource{x: x, y: y}, P: 6}, pen, opts)
		require.NoError(t, err, fam.Name())
		require.Equal(t, Folds(300, 5, 5), mem.Folds, fam.Name())
		require.InDeltaSlice(t, mem.Lambdas, str.Lambdas, 1e-6*mem.Lambdas[0], fam.Name())
		require.Equal(t, mem.IndexMin, str.IndexMin, fam.Name())
		require.Equal(t, mem.IndexSE, str.IndexSE, fam.Name())
		require.Positive(t, str.Passes)
	}
}

// TestGaussianEnginesAgree checks the two gaussian engines the route
// chooses between (Gram form for plain fits; the deviance's solvers when a
// predictor is left out of the penalty) on a fit both can do: one
// predictor unpenalised against the same predictor with a zero-weight
// penalty is not the same problem, so compare a plain lasso fit on the
// family route (forced by the "mae" measure's route) with the Gram route.
func TestGaussianEnginesAgree(t *testing.T) {
	x, y := simulated(200, 8, datafit.Gaussian{}, 4)
	rows := NewRows(x, y)
	gram, err := Fit(rows, penalty.L1{}, 40, nil)
	require.NoError(t, err)
	o := Options{}
	r, err := chooseRoute(rows, penalty.L1{}, &o, "mae")
	require.NoError(t, err)
	require.Equal(t, famRows, r)
	fam, err := fitRoute(famRows, rows, penalty.L1{}, 40, &o)
	require.NoError(t, err)
	for j := range 8 {
		require.InDelta(t, gram.Coef.At(j, 0), fam.Coef.At(j, 0), 1e-5, "coefficient %d", j)
	}
	require.InDelta(t, gram.Intercept[0], fam.Intercept[0], 1e-5)
	require.InDelta(t, fam.NullDeviance, gram.NullDeviance, 1e-9*fam.NullDeviance)
	require.InDelta(t, fam.Deviance, gram.Deviance, 1e-5*fam.Deviance)
	require.InDelta(t, fam.DevRatio, gram.DevRatio, 1e-6)
}

// TestDefaults pins the one set of defaults.
func TestDefaults(t *testing.T) {
	require.Equal(t, 10, DefaultFolds)
	require.Equal(t, 10, foldsOf(&CVOptions{}))
	require.InDelta(t, 0.5, LambdaGlmnet(100, 100), 0)
	require.InDelta(t, 100, FromGlmnet(0.5, 100), 0)
}

// TestCertifyAndLambdaMax checks the certificate of a fit's own answer
// (its gap) and that λ_max zeroes every coefficient.
func TestCertifyAndLambdaMax(t *testing.T) {
	x, y := simulated(150, 5, datafit.Binomial{}, 8)
	rows := NewRows(x, y)
	o := &Options{Family: datafit.Binomial{}}
	m, err := Fit(rows, penalty.L1{}, 20, o)
	require.NoError(t, err)
	gap, err := Certify(rows, penalty.L1{}, 20, m.Coefficients(0), o)
	require.NoError(t, err)
	require.LessOrEqual(t, gap, 1e-7)
	lmax, ok, err := LambdaMax(rows, penalty.L1{}, o)
	require.NoError(t, err)
	require.True(t, ok)
	z, err := Fit(rows, penalty.L1{}, lmax*1.0001, o)
	require.NoError(t, err)
	for _, c := range z.Coefficients(0) {
		require.Zero(t, c)
	}
	nz, err := Fit(rows, penalty.L1{}, lmax*0.9, o)
	require.NoError(t, err)
	require.Positive(t, nz.EffectiveParams())
}

// TestStreamFoldIDs: fold ids given with a Stream deal its rows as they
// deal Rows, gaussian (statistics) and binomial (passes) alike.
func TestStreamFoldIDs(t *testing.T) {
	for _, fam := range []datafit.Family{datafit.Gaussian{}, datafit.Binomial{}} {
		x, y := simulated(200, 5, fam, 9)
		id := make([]int, len(y))
		for i := range id {
			id[i] = (i * 5 / 7) % 4
		}
		opts := &CVOptions{FoldID: id, PathOptions: PathOptions{NLambda: 10, Options: Options{Family: fam}}}
		mem, err := CrossValidate(NewRows(x, y), penalty.L1{}, opts)
		require.NoError(t, err, fam.Name())
		str, err := CrossValidate(&Stream{Source: sliceSource{x: x, y: y}, P: 5}, penalty.L1{}, opts)
		require.NoError(t, err, fam.Name())
		require.InDeltaSlice(t, mem.Mean, str.Mean, 1e-6*mem.Mean[0], fam.Name())
		_, err = CrossValidate(&Stream{Source: sliceSource{x: x, y: y}, P: 5}, penalty.L1{}, &CVOptions{FoldID: id[:150], PathOptions: opts.PathOptions})
		require.Error(t, err, fam.Name())
	}
}

// TestRouteChoice pins the one route rule.
func TestRouteChoice(t *testing.T) {
	x, y := simulated(50, 4, datafit.Gaussian{}, 1)
	rows := NewRows(x, y)
	cases := []struct {
		pen     penalty.Penalty
		o       Options
		measure string
		want    route
	}{
		{penalty.L1{}, Options{}, "", lsRows},
		{penalty.Cardinality{Nu: 1}, Options{}, "mse", lsRows},
		{penalty.WeightedL1{Factors: []float64{1, 2, 1, 1}}, Options{}, "", famRows},
		{penalty.L1{}, Options{Unpenalized: []int{0}}, "", famRows},
		{penalty.L1{}, Options{}, "mae", famRows},
		{penalty.L1{}, Options{Family: datafit.Poisson{}}, "", famRows},
	}
	for i, c := range cases {
		r, err := chooseRoute(rows, c.pen, &c.o, c.measure)
		require.NoError(t, err, i)
		require.Equal(t, c.want, r, i)
	}
	stats := &Stats{Folds: suffstat.NewFolds(1, 5), Q: 1}
	_, err := chooseRoute(stats, penalty.L1{}, &Options{Family: datafit.Binomial{}}, "")
	require.Error(t, err)
	r, err := chooseRoute(stats, penalty.WeightedL1{Factors: []float64{1, 2, 1, 1}}, &Options{}, "")
	require.NoError(t, err)
	require.Equal(t, lsStats, r)
}

// TestBadDataIsAnError: data values the routes cannot read are one error
// from Fit, FitPath and CrossValidate, never a panic further down.
func TestBadDataIsAnError(t *testing.T) {
	x, y := simulated(30, 3, datafit.Gaussian{}, 2)
	short := NewRows(x, y)
	short.Weights = make([]float64, 29)
	shortOffset := NewRows(x, y)
	shortOffset.Offset = make([]float64, 10)
	wrongY := &Rows{X: solver.DenseDesign{X: x}, Y: mat.NewDense(29, 1, nil)}
	mixed := suffstat.NewFolds(2, 4)
	mixed.Fold[1] = suffstat.New(3)
	holed := suffstat.NewFolds(2, 4)
	holed.Fold[0] = nil
	for name, d := range map[string]Data{
		"short weights": short, "short offset": shortOffset, "Y of other rows": wrongY,
		"folds of unequal variables": &Stats{Folds: mixed, Q: 1}, "a missing fold": &Stats{Folds: holed, Q: 1},
		"no predictor": &Stats{Folds: suffstat.NewFolds(1, 2), Q: 2}, "nil rows": (*Rows)(nil), "nil": nil,
	} {
		require.NotPanics(t, func() {
			_, err := Fit(d, penalty.L1{}, 1, nil)
			require.Error(t, err, name)
			_, err = FitPath(d, penalty.L1{}, nil)
			require.Error(t, err, name)
			_, err = CrossValidate(d, penalty.L1{}, nil)
			require.Error(t, err, name)
		}, name)
	}
}

// TestNearSaturatedPoissonFolds: a Poisson cardinality fit on a small
// set its two groups fit exactly (scikit-learn's sample-weight checks'
// data) drives the deviance near 0, whose rounding kept FISTA's
// backtracking from accepting any step ("backtracking found no step");
// every fold fit must now be certified.
func TestNearSaturatedPoissonFolds(t *testing.T) {
	x := mat.NewDense(16, 2, []float64{1, 3, 1, 3, 1, 3, 1, 3, 2, 1, 2, 1, 2, 1, 2, 1, 3, 3, 3, 3, 3, 3, 3, 3, 4, 1, 4, 1, 4, 1, 4, 1})
	y := []float64{3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 3, 3, 4, 4, 4, 4}
	cv, err := CrossValidate(NewRows(x, y), penalty.Cardinality{Nu: 1}, &CVOptions{PathOptions: PathOptions{Options: Options{Family: datafit.Poisson{}}}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if cv.Unconverged > 0 {
		t.Errorf("%d fold fits did not converge", cv.Unconverged)
	}
	for _, m := range cv.Path.Models {
		if !m.Converged {
			t.Errorf("λ = %g: %s, gap %g", m.Lambda, m.Status, m.Gap)
		}
	}
}
