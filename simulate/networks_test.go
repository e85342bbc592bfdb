package simulate

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/cardsparse/cardreg/deepreg"
	"github.com/cardsparse/cardreg/deepreg/kproject"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// checkNetworkRun runs the shared checks of a Quick result from seed 7 and
// checks its columns, row count, seeds and that no wall time is missing.
func checkNetworkRun(t *testing.T, e Experiment, seeds int, columns []string, rows int) *Result {
	t.Helper()
	r := checkQuick(t, e, 7, seeds, "method", "variant", "status", "compressed", "projected", "lambda") // lambda: NA when unpenalised, checked by the caller
	assert.Equal(t, columns, r.Columns)
	require.Len(t, r.Rows, rows)
	assert.Equal(t, []uint64{7, 8}[:seeds], r.Seeds)
	for _, c := range r.Timing {
		for _, v := range mustFloats(t, r, c) {
			assert.False(t, math.IsNaN(v), "no wall time is missing")
		}
	}
	return r
}

func mustFloats(t *testing.T, r *Result, col string) []float64 {
	t.Helper()
	v, err := r.Floats(col)
	require.NoError(t, err)
	return v
}

func TestRegressionVsLassoQuick(t *testing.T) {
	cols := []string{"seed", "method", "status", "lambda", "weight_error_fro", "target_norm_fro", "test_mse", "test_function_mse",
		"val_mse", "train_mse", "diverged_fits", "seconds"}
	r := checkNetworkRun(t, RegressionVsLasso(), 2, cols, 2*3)
	methods := make([]string, len(r.Rows))
	for i, row := range r.Rows {
		methods[i] = row[1]
	}
	assert.Equal(t, []string{"unpenalised", "lasso", "cardinality", "unpenalised", "lasso", "cardinality"}, methods)
	// The penalised fits have a λ from the grid, the unpenalised one none.
	grid := regressionSettings(true).Lambdas
	lams, err := r.Floats("lambda")
	require.NoError(t, err)
	for i, l := range lams {
		if methods[i] == "unpenalised" {
			assert.True(t, math.IsNaN(l))
		} else {
			assert.Contains(t, grid, l)
		}
	}
}

// TestRegressionTarget checks the target: the paper's architecture, at most
// four distinct values in every column of every weight matrix, and exactly
// four where the column is long enough (with high probability).
func TestRegressionTarget(t *testing.T) {
	s := regressionSettings(false)
	for seed := uint64(1); seed <= 5; seed++ {
		d := regDraw(s, seed)
		assert.Equal(t, []int{1, 2, 10, 15, 20, 1}, d.target.Arch())
		assert.Equal(t, "isru identity arctan identity", actNames(d.target))
		full := 0
		for _, w := range d.target.Weights {
			r, c := w.Dims()
			for j := 0; j < c; j++ {
				k := kproject.Distinct(mat.Col(nil, j, w))
				assert.LessOrEqual(t, k, 4)
				assert.LessOrEqual(t, k, r)
				if r >= 15 && k == 4 {
					full++
				}
			}
		}
		assert.Greater(t, full, 20, "the long columns use all four values")
		_, p := d.xTrain.Dims()
		assert.Equal(t, 1, p)
		n, _ := d.xTrain.Dims()
		assert.Equal(t, s.NTrain, n)
		// The responses are the target's outputs plus unit noise.
		f, err := d.target.Predict(d.xTest)
		require.NoError(t, err)
		var ss float64
		for i := 0; i < s.NTest; i++ {
			e := d.yTest.At(i, 0) - f.At(i, 0)
			ss += e * e
		}
		assert.InDelta(t, 1, ss/float64(s.NTest), 0.15, "noise variance")
	}
}

func actNames(n *deepreg.Network) string {
	var s string
	for i, a := range n.Activations {
		if i > 0 {
			s += " "
		}
		s += a.String()
	}
	return s
}

// TestRegressionFitsCoincideAtZero: with λ = 0 the lasso and cardinality fits
// are the unpenalised one (same start, same steps), and a positive λ moves
// them; the cardinality penalty fuses weights, the lasso zeroes them.
func TestRegressionFitsCoincideAtZero(t *testing.T) {
	s := regressionSettings(true)
	d := regDraw(s, 3)
	start, err := deepreg.New(s.Arch, regActs, false, d.initSeed)
	require.NoError(t, err)
	plain, err := regFit(s, d, start, nil, 0)
	require.NoError(t, err)
	for _, h := range []penalty.Penalty{penalty.L1{Nu: 1}, penalty.Cardinality{Nu: 1}} {
		zero, err := regFit(s, d, start, h, 0)
		require.NoError(t, err)
		assert.Equal(t, 0.0, weightDistance(plain, zero), "%T at λ = 0", h)
		pen, err := regFit(s, d, start, h, 0.05)
		require.NoError(t, err)
		assert.Greater(t, weightDistance(plain, pen), 1e-3, "%T at λ = 0.05", h)
	}
	// The start is shared and untouched.
	again, err := deepreg.New(s.Arch, regActs, false, d.initSeed)
	require.NoError(t, err)
	assert.Equal(t, 0.0, weightDistance(start, again))
	// A strong cardinality penalty leaves fewer distinct values in W³ (20×15).
	card, err := regFit(s, d, start, penalty.Cardinality{Nu: 1}, 0.05)
	require.NoError(t, err)
	distinct := func(n *deepreg.Network) int {
		k := 0
		for j := 0; j < 15; j++ {
			k += kproject.Distinct(mat.Col(nil, j, n.Weights[3]))
		}
		return k
	}
	assert.Less(t, distinct(card), distinct(plain))
}

func TestDigitsQuick(t *testing.T) {
	needData(t, "digits.csv")
	s := digitsSettings(true)
	reports := s.Epochs / s.ReportEvery
	cols := []string{"seed", "variant", "status", "compressed", "project_k", "epoch", "seconds", "loss", "train_accuracy", "heldout_loss", "heldout_accuracy"}
	r := checkNetworkRun(t, Digits(), 2, cols, 2*len(s.Variants)*reports)
	checkCurves(t, r, s)
	acc, err := r.Floats("train_accuracy")
	require.NoError(t, err)
	for _, a := range acc {
		assert.True(t, a >= 0 && a <= 1)
	}
}

func TestLetterQuick(t *testing.T) {
	needData(t, "letter_recognition.csv")
	s := letterSettings(true)
	reports := s.Epochs / s.ReportEvery
	cols := []string{"seed", "variant", "status", "compressed", "project_k", "epoch", "seconds", "loss", "train_mse", "heldout_loss", "heldout_mse"}
	r := checkNetworkRun(t, Letter(), 1, cols, len(s.Variants)*reports)
	checkCurves(t, r, s)
}

// checkCurves checks that the dense and compressed inputs give the same
// training (the compressed products are exact up to rounding), that the
// projection changes it, and that the wall time increases along a run.
func checkCurves(t *testing.T, r *Result, s curveSettings) {
	t.Helper()
	loss, err := r.Floats("loss")
	require.NoError(t, err)
	secs, err := r.Floats("seconds")
	require.NoError(t, err)
	reports := s.Epochs / s.ReportEvery
	byVariant := map[string][]float64{}
	for i, row := range r.Rows {
		if row[0] == r.Rows[0][0] {
			byVariant[row[1]] = append(byVariant[row[1]], loss[i])
		}
		if i%reports > 0 {
			assert.Greater(t, secs[i], secs[i-1])
		}
	}
	require.Len(t, byVariant, len(s.Variants))
	dense, comp := byVariant["dense"], byVariant["compressed"]
	require.Len(t, dense, reports)
	for j := range dense {
		assert.InDelta(t, dense[j], comp[j], 1e-9*math.Max(1, dense[j]), "epoch %d", j)
	}
	proj := byVariant[s.Variants[2].Name]
	assert.Greater(t, math.Abs(proj[len(proj)-1]-dense[len(dense)-1]), 1e-9, "the projection changes the fit")
	// The losses of the dense run decrease.
	assert.Less(t, dense[len(dense)-1], dense[0])
}

func TestCurveDataErrors(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "digits.csv"), []byte("a,b\n1,2\n"), 0o644))
	s := digitsSettings(true)
	_, _, err := curveData(Config{DataDir: dir}, &s)
	assert.Error(t, err)
	_, err = Letter().Run(Config{Quick: true, DataDir: dir})
	assert.ErrorContains(t, err, "letter_recognition.csv")
}
