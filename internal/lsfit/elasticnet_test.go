package lsfit

import (
	"math"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/internal/glm"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestElasticNetPathEqualsFamilyRoute: the elastic net's generated path on
// the least-squares route (Gram coordinate descent, from rows and from
// statistics) equals the gaussian family route's (internal/glm, checked
// against R's glmnet): the same grid, cut at the same λ by glmnet's rule,
// the same coefficients to 1e-7 of the largest, every fit certified; and a
// relaxed fit is least squares on the support.
func TestElasticNetPathEqualsFamilyRoute(t *testing.T) {
	x, y, _ := simulate(13, 200, 8, 1, 0.5)
	yv := mat.Col(nil, 0, y)
	for _, alpha := range []float64{0, 0.3, 0.8} {
		pen := penalty.ElasticNet{Alpha: alpha}
		set := solver.Settings{Tol: 1e-12}
		ls, err := FitPath(solver.DenseDesign{X: x}, y, pen, &fit.PathOptions{Options: fit.Options{Settings: set}})
		require.NoError(t, err)
		st, err := FitPathStats(momentsOf(x, y, allRows(200)), 1, pen, &fit.PathOptions{Options: fit.Options{Settings: set}})
		require.NoError(t, err)
		fam, err := glm.FitPath(&glm.Rows{X: x, Y: yv}, pen, &fit.PathOptions{Options: fit.Options{Family: datafit.Gaussian{}, Settings: set}})
		require.NoError(t, err)
		require.Len(t, ls.Lambdas, len(fam.Lambdas), "α %v: %s / %s", alpha, ls.Note, fam.Note)
		require.Len(t, st.Lambdas, len(fam.Lambdas), "α %v statistics", alpha)
		for k, m := range ls.Models {
			require.InEpsilon(t, fam.Lambdas[k], ls.Lambdas[k], 1e-12)
			require.True(t, m.Converged, "α %v λ %d: %v", alpha, k, m.Status)
			ref := fam.Models[k]
			scale := math.Abs(ref.Intercept[0])
			for _, v := range ref.Coef.RawMatrix().Data {
				scale = math.Max(scale, math.Abs(v))
			}
			for j, v := range mat.Col(nil, 0, ref.Coef) {
				require.InDelta(t, v, m.Coef.At(j, 0), 1e-7*scale, "α %v λ %d coefficient %d", alpha, k, j)
				require.InDelta(t, v, st.Models[k].Coef.At(j, 0), 1e-7*scale, "α %v λ %d statistics", alpha, k)
			}
			require.InDelta(t, ref.Intercept[0], m.Intercept[0], 1e-7*scale)
		}
	}
	pen := penalty.ElasticNet{Alpha: 0.5}
	lmax, _ := solver.LambdaMax(solver.NewLeastSquares(solver.DenseDesign{X: x}, y), pen)
	m, err := Fit(solver.DenseDesign{X: x}, y, pen, 0.7*lmax, &fit.Options{Relax: true})
	require.NoError(t, err)
	require.True(t, m.Relaxed)
	var support []int
	for j := range 8 {
		if m.Coef.At(j, 0) != 0 {
			support = append(support, j)
		}
	}
	require.NotEmpty(t, support)
	require.Less(t, len(support), 8)
	// Least squares on the support, with an intercept: normal equations.
	n, _ := x.Dims()
	a := mat.NewDense(n, len(support)+1, nil)
	for i := range n {
		a.Set(i, 0, 1)
		for c, j := range support {
			a.Set(i, c+1, x.At(i, j))
		}
	}
	var beta mat.Dense
	require.NoError(t, beta.Solve(a, y))
	require.InDelta(t, beta.At(0, 0), m.Intercept[0], 1e-8)
	for c, j := range support {
		require.InDelta(t, beta.At(c+1, 0), m.Coef.At(j, 0), 1e-8)
	}
}
