package cardmat

import (
	"encoding/csv"
	"github.com/cardsparse/cardreg/internal/testfiles"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// letterRegression reads the 16 letter features and draws a response
// y = Xβ + noise with four distinct coefficients, seeded.
func letterRegression(tb testing.TB) (*mat.Dense, *mat.Dense) {
	f, err := os.Open(testfiles.SharedFile(tb, "letter_recognition.csv"))
	require.NoError(tb, err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	require.NoError(tb, err)
	x := mat.NewDense(len(recs)-1, 16, nil)
	for i, rec := range recs[1:] {
		for j := 0; j < 16; j++ {
			v, err := strconv.ParseFloat(rec[j], 64)
			require.NoError(tb, err)
			x.Set(i, j, v)
		}
	}
	rng := rand.New(rand.NewPCG(7, 7))
	levels := []float64{-1, 0, 0.5, 2}
	r, _ := x.Dims()
	y := mat.NewDense(r, 1, nil)
	beta := make([]float64, 16)
	for j := range beta {
		beta[j] = levels[rng.IntN(4)]
	}
	for i := 0; i < r; i++ {
		s := 0.0
		for j, b := range beta {
			s += b * x.At(i, j)
		}
		y.Set(i, 0, s+2*rng.NormFloat64())
	}
	return x, y
}

// TestLetterCompressedFit: a cardinality path and a CV run on the compressed
// letter data give the dense answers.
func TestLetterCompressedFit(t *testing.T) {
	x, y := letterRegression(t)
	m, err := Encode(x)
	require.NoError(t, err)
	opts := &estimator.PathOptions{NLambda: 20, Options: estimator.Options{Settings: solver.Settings{Tol: 1e-10}}}
	dense, err := estimator.FitPath(&estimator.Rows{X: solver.DenseDesign{X: x}, Y: y}, penalty.Cardinality{Nu: 1}, opts)
	require.NoError(t, err)
	comp, err := estimator.FitPath(&estimator.Rows{X: m, Y: y}, penalty.Cardinality{Nu: 1}, opts)
	require.NoError(t, err)
	require.Equal(t, len(dense.Models), len(comp.Models))
	for k := range dense.Models {
		require.True(t, mat.EqualApprox(dense.Models[k].Coef, comp.Models[k].Coef, 1e-6), "λ #%d", k)
	}
}

func benchLetterPath(b *testing.B, design func(*mat.Dense) solver.Design) {
	x, y := letterRegression(b)
	opts := &estimator.PathOptions{NLambda: 50}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := estimator.FitPath(&estimator.Rows{X: design(x), Y: y}, penalty.Cardinality{Nu: 1}, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// The letter fits time the whole path, the compressed one with encoding.
func BenchmarkLetterPathDense(b *testing.B) {
	benchLetterPath(b, func(x *mat.Dense) solver.Design { return solver.DenseDesign{X: x} })
}

func BenchmarkLetterPathCompressed(b *testing.B) {
	benchLetterPath(b, func(x *mat.Dense) solver.Design {
		m, err := Encode(x)
		if err != nil {
			b.Fatal(err)
		}
		return m
	})
}
