package glm

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/internal/rtest"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/suffstat"
	"github.com/stretchr/testify/require"
)

// TestCVMatchesGlmnet runs lasso cross-validation on identical folds and
// grid in cardreg and in R's cv.glmnet, for the binomial family under
// every type.measure and for Poisson and gaussian deviance, with weights:
// λ_min and λ_1se are the same, the curve agrees to 1e-6 relative.
func TestCVMatchesGlmnet(t *testing.T) {
	rtest.SkipUnlessAvailable(t)
	cases := []struct {
		fam     datafit.Family
		measure string
	}{
		{datafit.Binomial{}, "deviance"}, {datafit.Binomial{}, "class"}, {datafit.Binomial{}, "auc"},
		{datafit.Binomial{}, "mse"}, {datafit.Binomial{}, "mae"},
		{datafit.Poisson{}, "deviance"}, {datafit.Gaussian{}, "mse"},
	}
	for _, c := range cases {
		t.Run(c.fam.Name()+" "+c.measure, func(t *testing.T) {
			t.Parallel() // R runs the references one at a time; the fits overlap them
			cvMatch(t, c.fam, c.measure)
		})
	}
}

func cvMatch(t *testing.T, fam datafit.Family, measure string) {
	tb := own(fam, 300, 12, 4)
	if _, ok := fam.(datafit.Gaussian); ok {
		tb = own(datafit.Poisson{}, 300, 12, 4) // counts are a fine gaussian response
	}
	n, p := tb.x.Dims()
	folds := make([]int, n)
	w := make([]float64, n)
	for i := range folds {
		folds[i] = (i * 7) % 5
		w[i] = 0.5 + float64(i%4)/3
	}
	opts := &fit.CVOptions{PathOptions: fit.PathOptions{Options: fit.Options{Family: fam,
		Settings: solver.Settings{Tol: 1e-13, MaxIter: 100000}}, NLambda: 20, MinRatio: 0.02},
		FoldID: folds, Measure: measure}
	cv, err := CrossValidate(&Rows{X: tb.x, Y: tb.y, Weights: w}, penalty.L1{}, opts)
	require.NoError(t, err)
	require.Empty(t, cv.Path.Note)
	// The same data, folds and grid (glmnet scale) for cv.glmnet.
	var b strings.Builder
	for j := range p {
		fmt.Fprintf(&b, "x%d,", j+1)
	}
	b.WriteString("fold,w,y\n")
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for i := range n {
		for j := range p {
			b.WriteString(g(tb.x.At(i, j)) + ",")
		}
		fmt.Fprintf(&b, "%d,%s,%s\n", folds[i]+1, g(w[i]), g(tb.y[i]))
	}
	path := filepath.Join(t.TempDir(), "cv.csv")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	var grid []string
	for _, l := range cv.Lambdas {
		grid = append(grid, g(l/(2*float64(n))))
	}
	out, err := rtest.Output("../../bench/cvglmnet.R", path, "fold", "w", strings.Join(grid, ","), fam.Name(), measure, "w")
	require.NoError(t, err, "%s", out)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Len(t, lines, len(cv.Lambdas)+2)
	parse := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err)
		return v
	}
	for l := range cv.Lambdas {
		f := strings.Fields(lines[l])
		require.InEpsilon(t, parse(f[1]), cv.Mean[l], 1e-6, "cvm at λ %d", l)
		require.InEpsilon(t, parse(f[2]), cv.SE[l], 1e-5, "cvsd at λ %d", l)
	}
	scale := 2 * float64(n)
	require.InEpsilon(t, parse(strings.Fields(lines[len(cv.Lambdas)])[1]), cv.LambdaMin/scale, 1e-9, "λ_min")
	require.InEpsilon(t, parse(strings.Fields(lines[len(cv.Lambdas)+1])[1]), cv.LambdaSE/scale, 1e-9, "λ_1se")
	t.Logf("λ_min index %d, λ_1se index %d of %d", cv.IndexMin, cv.IndexSE, len(cv.Lambdas))
}

// Too few folds is said plainly, also before the rows are counted (a
// streamed cross-validation), never as "… for -1 observations".
func TestFoldCountMessages(t *testing.T) {
	require.EqualError(t, checkFoldCount(2, -1), "glm: 2 folds: need at least 3")
	require.EqualError(t, checkFoldCount(5, 3), "glm: 5 folds for 3 observations: need 3 ≤ K ≤ n")
	require.NoError(t, checkFoldCount(4, -1))
	require.NoError(t, checkFoldCount(3, 3))
}

// TestFoldWeightNamesDataRow: three rows of weight 1e20 among ones pass
// as data (each balanced by the other two), but a fold holding two of them leaves the
// third outweighing its training rows. The error named the row by its
// index among the training rows ("observation 7"), which is not the
// data's row, and did not say that the fold was the cause. Now it is a
// *FoldWeightError naming the data row, in memory and streamed alike.
func TestFoldWeightNamesDataRow(t *testing.T) {
	const k, seed = 5, 3
	tb := own(datafit.Poisson{}, 120, 4, 7)
	rf := suffstat.NewRowFolder(seed, k)
	folds := make([]int, 120)
	for i := range folds {
		folds[i] = rf.Fold(uint64(i))
	}
	// The heavy rows: 40 and the next two rows of another fold g.
	heavy, g := 40, -1
	tb.w = make([]float64, 120)
	for i := range tb.w {
		tb.w[i] = 1
	}
	tb.w[heavy] = 1e20
	for i, placed := 60, 0; placed < 2; i++ {
		if g < 0 && folds[i] != folds[heavy] {
			g = folds[i]
		}
		if folds[i] == g {
			tb.w[i], placed = 1e20, placed+1
		}
	}
	opts := fit.CVOptions{PathOptions: fit.PathOptions{Options: fit.Options{Family: datafit.Poisson{}}, NLambda: 5}, Folds: k, Seed: seed}
	mem := opts
	mem.FoldID = folds
	_, err := CrossValidate(&Rows{X: tb.x, Y: tb.y, Weights: tb.w}, penalty.L1{}, &mem)
	_, serr := CrossValidateSource(&tableSource{tb: tb}, 4, penalty.L1{}, &opts)
	for _, e := range []error{err, serr} {
		var fe *FoldWeightError
		require.ErrorAs(t, e, &fe)
		require.Equal(t, FoldWeightError{Fold: g + 1, Folds: k, Row: heavy, Weight: 1e20, Rest: fe.Rest}, *fe)
		require.Less(t, fe.Rest, 1e20*0x1p-52)
		require.Contains(t, e.Error(), fmt.Sprintf("fold %d of %d: in its training rows (the other folds) the weight 1e+20 of data row %d outweighs", g+1, k, heavy+1))
	}
}
