package tensorreg

import (
	"math"
	"testing"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// The same data at any scale give the same fit, mapped back: coefficients
// scale by sx/sy, λ by sx·sy (the objective's equivariance, DESIGN §3).
// At 1e-160 the products in XᵀY underflow and, unscaled, every coefficient
// was 0 with "converged" and R² 0.
func TestScaleEquivariance(t *testing.T) {
	x, y := statsData(9, 80, 5, 1)
	opts := &Options{Settings: solver.Settings{Tol: 1e-11, MaxIter: 100000}, Method: &solver.FISTA{}}
	pen := penalty.Cardinality{Nu: 1.5}
	want, err := Fit(solver.DenseDesign{X: x}, y, pen, 300, opts)
	require.NoError(t, err)
	wantCV, err := CrossValidate(solver.DenseDesign{X: x}, y, pen, &CVOptions{Folds: 4, PathOptions: PathOptions{NLambda: 8, Options: *opts}})
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

		cv, err := CrossValidate(solver.DenseDesign{X: xs}, ys, pen, &CVOptions{Folds: 4, PathOptions: PathOptions{NLambda: 8, Options: *opts}})
		require.NoError(t, err, "scale %v", s)
		require.Equal(t, wantCV.IndexMin, cv.IndexMin)
		for l := range cv.Lambdas {
			require.InEpsilon(t, wantCV.Lambdas[l]*s.sx*s.sy, cv.Lambdas[l], 1e-9)
			if e := wantCV.MeanError[l] * s.sy * s.sy; e > 1e-290 {
				require.InEpsilon(t, e, cv.MeanError[l], 1e-6)
			}
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
	po := &PathOptions{NLambda: 6, Options: Options{Standardize: true, Settings: solver.Settings{Tol: 1e-11, MaxIter: 100000}}}
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
	opts := &Options{Standardize: true, Settings: solver.Settings{Tol: 1e-11, MaxIter: 100000}}
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
		opts := &Options{Standardize: std}
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
