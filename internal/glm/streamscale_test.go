package glm

import (
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/cvcurve"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
)

// TestStreamStandardizeMatchesFit: a streamed fit with standardised
// predictors (its column scales from three passes) equals the in-memory
// standardised fit — coefficients on the data's scale, clusters on the
// standardised one — for both families, the lasso and the cardinality
// penalty, with weights and offsets, and a path and a cross-validation.
func TestStreamStandardizeMatchesFit(t *testing.T) {
	for _, fam := range []datafit.Family{datafit.Binomial{}, datafit.Poisson{}} {
		tb := withWeightsOffsets(own(fam, 400, 6, 17))
		n, p := tb.x.Dims()
		for i := range n {
			tb.x.Set(i, 1, 30*tb.x.At(i, 1)+5) // columns of unequal scale
			tb.x.Set(i, 4, tb.x.At(i, 4)/40)
		}
		for _, pen := range []penalty.Penalty{penalty.L1{}, penalty.Cardinality{Nu: 1}} {
			mem := &fit.Options{Family: fam, Standardize: true, Settings: solver.Settings{Tol: 1e-10}}
			lmax, _, err := LambdaMax(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, mem)
			require.NoError(t, err)
			want, err := Fit(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, 0.1*lmax, mem)
			require.NoError(t, err)
			str := &fit.Options{Family: fam, Standardize: true, Settings: solver.Settings{Tol: 1e-10}}
			got, err := FitSource(&tableSource{tb: tb}, p, pen, 0.1*lmax, str)
			require.NoError(t, err)
			require.True(t, got.Converged, "%s %T", fam.Name(), pen)
			require.InDeltaSlice(t, coef(want), coef(got), 1e-6, "%s %T", fam.Name(), pen)
			require.InDelta(t, want.Intercept[0], got.Intercept[0], 1e-6)
			require.Equal(t, want.Clusters(0), got.Clusters(0), "%s %T", fam.Name(), pen)
		}
		opts := &fit.CVOptions{Folds: 4, Seed: 3, PathOptions: fit.PathOptions{NLambda: 6, Options: fit.Options{Family: fam, Standardize: true}}}
		cv, err := CrossValidateSource(&tableSource{tb: tb}, p, penalty.L1{}, opts)
		require.NoError(t, err)
		opts.FoldID = cvcurve.Assign(n, 4, 3)
		want, err := CrossValidate(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, penalty.L1{}, opts)
		require.NoError(t, err)
		require.InDeltaSlice(t, want.Mean, cv.Mean, 1e-6*want.Mean[0], fam.Name())
	}
}
