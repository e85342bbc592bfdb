package glm

import (
	"fmt"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/glmscan"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/internal/testenv"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/suffstat"
	"github.com/stretchr/testify/require"
)

// roundsCase is a data set and what to compare.
type roundsCase struct {
	fam     datafit.Family
	pen     penalty.Penalty
	offsets bool
	std     bool
	sample  int
}

// TestFitRoundsMatchesCrossValidate: a cross-validated path fitted in
// rounds from scans of the rows (a sample far smaller than the rows) is
// CrossValidate's on the same folds: the same grid, every full-data model
// certified at the tolerance (1e-6) by its own gap and equal to the in-memory fit
// within what the two gaps allow, the same λ_min and λ_1se, in at most six
// scans.
func TestFitRoundsMatchesCrossValidate(t *testing.T) {
	cases := []roundsCase{
		{fam: datafit.Binomial{}, pen: penalty.L1{}, std: true, sample: 3000},
		{fam: datafit.Poisson{}, pen: penalty.L1{}, offsets: true, sample: 3000},
		// A penalty that is not a norm: certified by its conjugate.
		{fam: datafit.Poisson{}, pen: penalty.ElasticNet{Alpha: 0}, offsets: true, sample: 3000},
	}
	if testenv.Slow() {
		cases = append(cases,
			roundsCase{fam: datafit.Tweedie{P: 1.5}, pen: penalty.L1{}, offsets: true, sample: 3000},
			roundsCase{fam: datafit.NegBin{Theta: 2}, pen: penalty.L1{}, sample: 3000},
			roundsCase{fam: datafit.Binomial{}, pen: penalty.ElasticNet{Alpha: 0.5}, std: true, sample: 3000},
			roundsCase{fam: datafit.Poisson{}, pen: penalty.ElasticNet{Alpha: 0.9}, offsets: true, sample: 3000},
			roundsCase{fam: datafit.Binomial{}, pen: penalty.L1{}, std: true, sample: 1 << 20}, // all rows
			roundsCase{fam: datafit.Binomial{}, pen: penalty.Cardinality{Nu: 1}, sample: 3000},
			roundsCase{fam: datafit.Poisson{}, pen: penalty.L1{}, std: true, sample: 1 << 20})
	}
	for _, c := range cases {
		tb := own(c.fam, 10000, 8, 77)
		if c.offsets {
			tb = withWeightsOffsets(tb)
		} else {
			tb.w = withWeightsOffsets(own(c.fam, 10000, 1, 1)).w
		}
		const k = 5
		ids := make([]int, len(tb.y))
		rf := suffstat.NewRowFolder(3, k)
		for i := range ids {
			ids[i] = rf.Fold(uint64(i))
		}
		set := solver.Settings{Tol: 1e-9}
		po := fit.PathOptions{Options: fit.Options{Family: c.fam, Settings: set, Standardize: c.std}, NLambda: 15}
		want, err := CrossValidate(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, c.pen, &fit.CVOptions{PathOptions: po, FoldID: ids})
		require.NoError(t, err)
		src := &tableSource{tb: tb}
		sc := glmscan.NewRowScanner(src, c.fam, 8, k, func(i uint64) int { return ids[i] }, 1)
		po.Settings.Tol = 1e-6 // the certificate
		got, err := FitRounds(sc, 8, c.pen, &RoundsOptions{CVOptions: fit.CVOptions{PathOptions: po}, CV: true, SampleSize: c.sample})
		require.NoError(t, err)
		name := fmt.Sprintf("%s %T%v", c.fam.Name(), c.pen, c.pen)
		t.Logf("%s %v: %d scans, sample %d, %d λ, unconverged folds %d", name, c.pen, got.Scans, got.SampleRows, len(got.CV.Lambdas), got.CV.Unconverged)
		require.Equal(t, src.passes, got.Scans)
		require.LessOrEqual(t, got.Scans, 6, name)
		require.Equal(t, len(want.Lambdas), len(got.CV.Lambdas), name)
		for l := range want.Lambdas {
			require.InEpsilon(t, want.Lambdas[l], got.CV.Lambdas[l], 1e-12, name)
			gm, wm := got.Path.Models[l], want.Path.Models[l]
			require.True(t, gm.Converged, "%s λ %d gap %v", name, l, gm.Gap)
			require.LessOrEqual(t, gm.Gap, 1e-6)
			// Both within their gaps of the optimum: the objectives agree,
			// and the gap bounds the excess over the tighter fit.
			require.InDelta(t, wm.Objective, gm.Objective, 1e-6*wm.Objective, "%s λ %d", name, l)
			require.LessOrEqual(t, gm.Objective-wm.Objective, gm.Gap*gm.Objective+wm.Gap*wm.Objective+1e-12*wm.Objective, "%s λ %d: gap below the excess", name, l)
			require.InDelta(t, wm.NullDeviance, gm.NullDeviance, 1e-9*wm.NullDeviance)
			require.InEpsilon(t, want.Mean[l], got.CV.Mean[l], 1e-3, "%s λ %d", name, l)
		}
		require.Equal(t, want.IndexMin, got.CV.IndexMin, name)
		require.Equal(t, want.IndexSE, got.CV.IndexSE, name)
		require.Zero(t, got.CV.Unconverged)
	}
}

// TestFitRoundsUncertified: when the scans run out before the
// certificates hold, the models say so (not converged, their gap above
// the tolerance) and the cross-validation counts them.
func TestFitRoundsUncertified(t *testing.T) {
	fam := datafit.Binomial{}
	tb := own(fam, 3000, 6, 5)
	sc := glmscan.NewRowScanner(&tableSource{tb: tb}, fam, 6, 3, func(i uint64) int { return int(i % 3) }, 1)
	po := fit.PathOptions{Options: fit.Options{Family: fam, Settings: solver.Settings{Tol: 1e-12}}, NLambda: 8}
	got, err := FitRounds(sc, 6, penalty.L1{}, &RoundsOptions{CVOptions: fit.CVOptions{PathOptions: po}, CV: true, SampleSize: 200, MaxScans: 3})
	require.NoError(t, err)
	require.Equal(t, 3, got.Scans)
	bad := 0
	for _, m := range got.Path.Models {
		if !m.Converged {
			bad++
			require.Greater(t, m.Gap, 1e-12)
		}
	}
	require.Positive(t, bad)
	require.Positive(t, got.CV.Unconverged)
}

// TestFitRoundsRefuses: families, offsets and options a fit in rounds
// does not take are refused with a reason.
func TestFitRoundsRefuses(t *testing.T) {
	tb := withWeightsOffsets(own(datafit.Binomial{}, 200, 3, 5))
	sc := glmscan.NewRowScanner(&tableSource{tb: tb}, datafit.Binomial{}, 3, 1, nil, 1)
	_, err := FitRounds(sc, 3, penalty.L1{}, &RoundsOptions{CVOptions: fit.CVOptions{PathOptions: fit.PathOptions{Options: fit.Options{Family: datafit.Binomial{}}}}})
	require.ErrorIs(t, err, ErrRoundsUnfit)
	// Offsets: a closed-form start from the totals for the power
	// families (Poisson, gamma, Tweedie) only.
	for _, fam := range []datafit.Family{datafit.Gaussian{}, datafit.NegBin{Theta: 2}} {
		sc := glmscan.NewRowScanner(&tableSource{tb: tb}, fam, 3, 1, nil, 1)
		_, err = FitRounds(sc, 3, penalty.L1{}, &RoundsOptions{CVOptions: fit.CVOptions{PathOptions: fit.PathOptions{Options: fit.Options{Family: fam}}}})
		require.ErrorIs(t, err, ErrRoundsUnfit)
		require.ErrorContains(t, err, fam.Name()+" data with offsets")
	}
	_, err = FitRounds(sc, 3, penalty.L1{}, &RoundsOptions{CVOptions: fit.CVOptions{PathOptions: fit.PathOptions{Options: fit.Options{Family: datafit.Binomial{}, Relax: true}}}})
	require.ErrorContains(t, err, "relax")
	_, err = FitRounds(sc, 3, penalty.L1{}, &RoundsOptions{CVOptions: fit.CVOptions{PathOptions: fit.PathOptions{Options: fit.Options{Family: datafit.Poisson{}}}, Measure: "auc"}})
	require.ErrorContains(t, err, "auc")
}
