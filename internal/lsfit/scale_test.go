package lsfit

import (
	"math"
	"testing"

	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// The same data at any scale give the same fit, mapped back: coefficients
// scale by sx/sy, λ by sx·sy (the objective's equivariance, DESIGN §3).
// At 1e-160 the products in XᵀY underflow and, unscaled, every coefficient
// was 0 with "converged" and R² 0.
func TestScaleEquivariance(t *testing.T) {
	x, y := statsData(9, 80, 5, 1)
	opts := &fit.Options{Settings: solver.Settings{Tol: 1e-11, MaxIter: 100000}, Method: &solver.FISTA{}}
	pen := penalty.Cardinality{Nu: 1.5}
	want, err := Fit(solver.DenseDesign{X: x}, y, pen, 300, opts)
	require.NoError(t, err)
	wantCV, err := CrossValidate(solver.DenseDesign{X: x}, y, pen, &fit.CVOptions{Folds: 4, PathOptions: fit.PathOptions{NLambda: 8, Options: *opts}})
	require.NoError(t, err)
	for _, s := range []struct{ sx, sy float64 }{{1e-160, 1e-100}, {1e-300, 1}, {1, 1e-300}, {1e200, 1e100}, {1e150, 1}, {1e-100, 1e150}} {
		xs, ys := mat.DenseCopyOf(x), mat.DenseCopyOf(y)
		xs.Scale(s.sx, xs)
		ys.Scale(s.sy, ys)
		lam := 300 * s.sx * s.sy
		got, err := Fit(solver.DenseDesign{X: xs}, ys, pen, lam, opts)
		require.NoError(t, err, "scale %v", s)
		require.Equal(t, lam, got.Lambda)
		require.InDelta(t, want.R2[0], got.R2[0], 1e-9, "scale %v", s)
		require.Equal(t, len(want.DistinctValues(0)), len(got.DistinctValues(0)), "scale %v", s)
		f := s.sy / s.sx
		for i := range 5 {
			require.InDelta(t, want.Coef.At(i, 0)*f, got.Coef.At(i, 0), 1e-8*math.Abs(want.Coef.At(i, 0)*f), "scale %v", s)
		}
		require.InDelta(t, want.Intercept[0]*s.sy, got.Intercept[0], 1e-8*math.Abs(want.Intercept[0]*s.sy))
		if obj := want.Objective * s.sy * s.sy; obj > 1e-290 { // else it underflows on the user's scale
			require.InEpsilon(t, obj, got.Objective, 1e-8)
		}

		cv, err := CrossValidate(solver.DenseDesign{X: xs}, ys, pen, &fit.CVOptions{Folds: 4, PathOptions: fit.PathOptions{NLambda: 8, Options: *opts}})
		require.NoError(t, err, "scale %v", s)
		require.Equal(t, wantCV.IndexMin, cv.IndexMin)
		if floats.Min(wantCV.Mean)*s.sy*s.sy < 0x1p-1022 {
			// errors that underflow on the data's scale (a response
			// near 1e-300) are said, not left as silent zeros
			require.ErrorContains(t, cv.OutOfRange, "mean squared errors would hold 0", "scale %v", s)
			continue
		}
		require.NoError(t, cv.OutOfRange, "scale %v", s)
		for l := range cv.Lambdas {
			require.InEpsilon(t, wantCV.Lambdas[l]*s.sx*s.sy, cv.Lambdas[l], 1e-9)
			require.InEpsilon(t, wantCV.Mean[l]*s.sy*s.sy, cv.Mean[l], 1e-6)
			require.InEpsilon(t, wantCV.SE[l]*s.sy*s.sy, cv.SE[l], 1e-6)
			require.InEpsilon(t, wantCV.Lambdas[l]*s.sx*s.sy, cv.Path.Models[l].Lambda, 1e-9)
		}
	}
}

// Coefficients beyond float64 on the data's scale are an error, not NaN.
func TestScaleOverflowingCoefficients(t *testing.T) {
	x, y := statsData(9, 80, 5, 1)
	x.Scale(1e-200, x)
	y.Scale(1e250, y)
	_, err := Fit(solver.DenseDesign{X: x}, y, penalty.Cardinality{Nu: 1.5}, 3e52, nil)
	require.ErrorContains(t, err, "rescale")
}

// A path's grid and standardised fits are mapped back too.
func TestScalePathStandardized(t *testing.T) {
	x, y := statsData(10, 60, 4, 1)
	po := &fit.PathOptions{NLambda: 6, Options: fit.Options{Standardize: true, Settings: solver.Settings{Tol: 1e-11, MaxIter: 100000}}}
	want, err := FitPath(solver.DenseDesign{X: x}, y, penalty.L1{Nu: 1}, po)
	require.NoError(t, err)
	xs, ys := mat.DenseCopyOf(x), mat.DenseCopyOf(y)
	xs.Scale(1e-150, xs)
	ys.Scale(1e-150, ys)
	got, err := FitPath(solver.DenseDesign{X: xs}, ys, penalty.L1{Nu: 1}, po)
	require.NoError(t, err)
	for l := range want.Models {
		require.InEpsilon(t, want.Lambdas[l]*1e-150, got.Lambdas[l], 1e-9, "standardised: λ scales with y alone")
		require.InDeltaSlice(t, want.Models[l].DistinctValues(0), scaledSlice(got.Models[l].DistinctValues(0), 1e150), 1e-7)
	}
}

func scaledSlice(v []float64, f float64) []float64 {
	out := make([]float64, len(v))
	for i := range v {
		out[i] = v[i] * f
	}
	return out
}

// Constancy is relative to each column's own scale.
func TestIsConstant(t *testing.T) {
	for _, c := range []struct {
		col  []float64
		want bool
	}{
		{[]float64{3, 3, 3}, true},
		{[]float64{1e-300, 1e-300}, true},
		{[]float64{1e300, 1e300, 1e300}, true},
		{[]float64{0, 0}, true},
		{[]float64{1e-12, 2e-12, 3e-12}, false},
		{[]float64{1e-300, 2e-300}, false},
		{[]float64{1e300, -1e300}, false},
		{[]float64{1e8, 1e8 + 1e-2}, false},
		{[]float64{1e8, 1e8 + 1e-8}, true}, // one ulp: rounding, not a spread
		{[]float64{0.1 + 0.2, 0.3}, true},  // one ulp apart
	} {
		require.Equal(t, c.want, IsConstant(c.col), "%v", c.col)
	}
}

// A predictor × 1e-12 is standardised like any other, not set aside as
// constant (a fixed absolute threshold used to do that).
func TestStandardizeTinyColumn(t *testing.T) {
	x, y := statsData(11, 70, 4, 1)
	opts := &fit.Options{Standardize: true, Settings: solver.Settings{Tol: 1e-11, MaxIter: 100000}}
	want, err := Fit(solver.DenseDesign{X: x}, y, penalty.Cardinality{Nu: 1.5}, 50, opts)
	require.NoError(t, err)
	tiny := mat.DenseCopyOf(x)
	for i := range 70 {
		tiny.Set(i, 2, x.At(i, 2)*1e-12)
	}
	got, err := Fit(solver.DenseDesign{X: tiny}, y, penalty.Cardinality{Nu: 1.5}, 50, opts)
	require.NoError(t, err)
	require.InDeltaSlice(t, want.DistinctValues(0), got.DistinctValues(0), 1e-7)
	require.InEpsilon(t, want.Coef.At(2, 0)*1e12, got.Coef.At(2, 0), 1e-6)
}

// Ridge has degree 2: λ scales by sx² (by nothing when standardised), so
// the same data at another scale give the same ridge fit.
func TestScaleRidge(t *testing.T) {
	x, y := statsData(12, 60, 4, 1)
	for _, std := range []bool{false, true} {
		opts := &fit.Options{Standardize: std}
		want, err := Fit(solver.DenseDesign{X: x}, y, penalty.Ridge{}, 40, opts)
		require.NoError(t, err)
		for _, s := range []struct{ sx, sy float64 }{{1e-130, 1e-100}, {1e150, 1}, {1, 1e-200}} { // λ·sx² stays a normal float
			xs, ys := mat.DenseCopyOf(x), mat.DenseCopyOf(y)
			xs.Scale(s.sx, xs)
			ys.Scale(s.sy, ys)
			lam := 40 * s.sx * s.sx
			if std {
				lam = 40
			}
			got, err := Fit(solver.DenseDesign{X: xs}, ys, penalty.Ridge{}, lam, opts)
			require.NoError(t, err)
			for i := range 4 {
				w := want.Coef.At(i, 0) * s.sy / s.sx
				require.InDelta(t, w, got.Coef.At(i, 0), 1e-8*math.Abs(w), "std %v scale %v", std, s)
			}
			require.InDelta(t, want.R2[0], got.R2[0], 1e-9)
		}
	}
}

// Data whose λ or errors are beyond float64 on their own scale are said
// (OutOfRange, with the cause), with the fits and the choice of λ_min
// right. On the old code cross-validation at 1e300 gave +Inf everywhere
// (λ_min marked on an +Inf row) and at 1e-200 zeros, with nothing said;
// paths likewise.
func TestScaleBeyondFloat64(t *testing.T) {
	x, y := statsData(9, 80, 5, 1)
	pen := penalty.Cardinality{Nu: 1.5}
	for _, s := range []float64{1e300, 1e200, 1e-200, 1e-300} {
		xs, ys := mat.DenseCopyOf(x), mat.DenseCopyOf(y)
		xs.Scale(s, xs)
		ys.Scale(s, ys)
		cv, err := CrossValidate(solver.DenseDesign{X: xs}, ys, pen, &fit.CVOptions{Folds: 4, PathOptions: fit.PathOptions{NLambda: 8}})
		require.NoError(t, err)
		require.ErrorContains(t, cv.OutOfRange, "beyond float64", "scale %v", s)
		require.ErrorContains(t, cv.OutOfRange, "the λ grid", "scale %v", s)
		p, err := FitPath(solver.DenseDesign{X: xs}, ys, pen, &fit.PathOptions{NLambda: 8})
		require.NoError(t, err)
		require.ErrorContains(t, p.OutOfRange, "beyond float64", "scale %v", s)
	}
}

// With Standardize each column is rescaled on its own: a column at 1e-50
// next to columns near 1 was refused as "differ in scale" though
// standardising is exactly that rescaling. Now the fit equals the fit of
// the unscaled column, its coefficient scaled by 1e50, at the same λ.
func TestStandardizeColumnScales(t *testing.T) {
	x, y := statsData(9, 80, 5, 1)
	opts := &fit.Options{Standardize: true, Settings: solver.Settings{Tol: 1e-11, MaxIter: 100000}}
	pen := penalty.Cardinality{Nu: 1.5}
	want, err := Fit(solver.DenseDesign{X: x}, y, pen, 30, opts)
	require.NoError(t, err)
	for _, c := range []float64{1e-50, 1e-200, 1e200} {
		xs := mat.DenseCopyOf(x)
		for i := range 80 {
			xs.Set(i, 2, xs.At(i, 2)*c)
		}
		got, err := Fit(solver.DenseDesign{X: xs}, y, pen, 30, opts)
		require.NoError(t, err, "column scaled by %v", c)
		for j := range 5 {
			f := 1.0
			if j == 2 {
				f = 1 / c
			}
			w := want.Coef.At(j, 0) * f
			require.InDelta(t, w, got.Coef.At(j, 0), 1e-7*math.Abs(w)+1e-12*f, "column scaled by %v, coefficient %d", c, j)
		}
		require.InDelta(t, want.Intercept[0], got.Intercept[0], 1e-7)
		_, err = Fit(solver.DenseDesign{X: xs}, y, pen, 30, &fit.Options{})
		var se *ScaleError
		require.ErrorAs(t, err, &se, "column scaled by %v, not standardised", c)
		require.Equal(t, 2, map[bool]int{true: se.Small, false: se.Big}[c < 1])
	}
}

// TestConstantColumnNotAScaleError: with an intercept, a constant column
// (zero once centred) far below the others is not a scale error, whatever
// its magnitude; a varying one is, and so is the constant one without an
// intercept. columnRange asks which columns are constant only when one is
// that small.
func TestConstantColumnNotAScaleError(t *testing.T) {
	x, y := statsData(9, 80, 4, 1)
	pen := penalty.Cardinality{Nu: 1.5}
	for j := range 80 {
		for k := range 3 {
			x.Set(j, k, x.At(j, k)*1e200) // scaled by 2^-665 to fit
		}
		x.Set(j, 3, 1) // constant: 2^-665 once scaled
	}
	_, err := Fit(solver.DenseDesign{X: x}, y, pen, 30, &fit.Options{})
	require.NoError(t, err, "a constant tiny column beside a huge one, with an intercept")
	_, err = Fit(solver.DenseDesign{X: x}, y, pen, 30, &fit.Options{NoIntercept: true})
	var se *ScaleError
	require.ErrorAs(t, err, &se, "without an intercept the constant column counts")
	require.Equal(t, 3, se.Small)
	x.Set(5, 3, 2) // no longer constant
	_, err = Fit(solver.DenseDesign{X: x}, y, pen, 30, &fit.Options{})
	require.ErrorAs(t, err, &se, "a varying tiny column beside a huge one")
	require.Equal(t, 3, se.Small)
}

// TestTinyColumnUnderflowIsAScaleError: a column at 1e-200 beside one at
// 1e200 differs in scale by 2^-1329; scaling the data by the largest
// puts it at 0 in float64, whose exponent passed the scale test, so the
// fit went on with a column it could not represent. It is refused now.
func TestTinyColumnUnderflowIsAScaleError(t *testing.T) {
	x, y := statsData(9, 80, 3, 1)
	for j := range 80 {
		x.Set(j, 0, x.At(j, 0)*1e200)
		x.Set(j, 2, x.At(j, 2)*1e-200)
		x.Set(j, 1, x.At(j, 1)*1e150)
	}
	_, err := Fit(solver.DenseDesign{X: x}, y, penalty.Cardinality{Nu: 1.5}, 30, &fit.Options{})
	var se *ScaleError
	require.ErrorAs(t, err, &se)
	require.Equal(t, 2, se.Small)
	require.Equal(t, 0, se.Big)
}

// A relaxed fit's deviances, refit's and penalised fit's, are on the
// data's scale when the data are far from unit scale: sy² times those of
// the data at unit scale.
func TestScaleRelaxedDeviances(t *testing.T) {
	x, y := statsData(9, 80, 5, 1)
	opts := &fit.Options{Relax: true, Settings: solver.Settings{Tol: 1e-11, MaxIter: 100000}}
	pen := penalty.L1{}
	want, err := Fit(solver.DenseDesign{X: x}, y, pen, 300, opts)
	require.NoError(t, err)
	require.True(t, want.Relaxed)
	for _, sy := range []float64{1e100, 1e-100} {
		ys := mat.DenseCopyOf(y)
		ys.Scale(sy, ys)
		got, err := Fit(solver.DenseDesign{X: x}, ys, pen, 300*sy, opts)
		require.NoError(t, err)
		require.True(t, got.Relaxed)
		require.InEpsilon(t, want.Deviance*sy*sy, got.Deviance, 1e-8, "refit's deviance, scale %g", sy)
		require.InEpsilon(t, want.NullDeviance*sy*sy, got.NullDeviance, 1e-8, "scale %g", sy)
		require.InEpsilon(t, want.PenalizedDeviance*sy*sy, got.PenalizedDeviance, 1e-8, "penalised fit's deviance, scale %g", sy)
		for i := range 5 {
			w := want.Penalised.At(i, 0) * sy
			require.InDelta(t, w, got.Penalised.At(i, 0), 1e-8*math.Abs(w), "penalised fit's coefficient %d, scale %g", i, sy)
		}
	}
}
