package estimator

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/design"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// mixedDesign returns a design of two dense columns, a sparse block and a
// factor's indicators, its dense copy, and a response of family fam.
func mixedDesign(t *testing.T, rng *rand.Rand, n int, fam string) (*design.Matrix, *mat.Dense, []float64) {
	const levels, sparse = 4, 6
	codes := make([]int32, n)
	for i := range codes {
		codes[i] = int32(rng.IntN(levels))
	}
	ind, err := design.Indicators(codes, levels, true)
	require.NoError(t, err)
	cols := []design.Column{{Dense: make([]float64, n)}, {Dense: make([]float64, n)}}
	for i := range n {
		cols[0].Dense[i] = rng.NormFloat64()
		cols[1].Dense[i] = 3 + 0.5*rng.NormFloat64() // off centre
	}
	for range sparse {
		var c design.Column
		for i := range n {
			if rng.Float64() < 0.1 {
				c.Rows = append(c.Rows, int32(i))
				c.Vals = append(c.Vals, rng.ExpFloat64())
			}
		}
		cols = append(cols, c)
	}
	cols = append(cols, ind...)
	m, err := design.New(n, cols)
	require.NoError(t, err)
	x := m.Dense()
	y := make([]float64, n)
	for i := range n {
		eta := 0.5*x.At(i, 0) - 0.3*x.At(i, 1) + 0.8*x.At(i, 2) + 0.4*x.At(i, len(cols)-1) + 0.9
		switch fam {
		case "binomial":
			if rng.Float64() < 1/(1+math.Exp(-eta+1)) {
				y[i] = 1
			}
		case "poisson":
			y[i] = float64(poissonDraw(rng, math.Exp(eta/3)))
		default:
			y[i] = eta + rng.NormFloat64()
		}
	}
	return m, x, y
}

// poissonDraw draws a Poisson count of mean mu (Knuth's product of
// uniforms).
func poissonDraw(rng *rand.Rand, mu float64) int {
	k, prod, limit := 0, rng.Float64(), math.Exp(-mu)
	for prod > limit {
		k++
		prod *= rng.Float64()
	}
	return k
}

// A design held by columns (dense, sparse, indicators) gives the fit of
// the same rows as a dense matrix: paths and cross-validation, every
// family, with weights, offsets, standardisation, the lasso, penalty
// factors and the elastic net.
func TestDesignMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 1))
	const n = 300
	for _, fam := range []string{"gaussian", "binomial", "poisson"} {
		m, x, y := mixedDesign(t, rng, n, fam)
		_, p := m.Dims()
		w, off := make([]float64, n), make([]float64, n)
		for i := range n {
			w[i], off[i] = 0.5+rng.Float64(), 0.2*rng.NormFloat64()
		}
		f := make([]float64, p)
		for j := range f {
			f[j] = 0.5 + float64(j%3)
		}
		family, err := datafit.ByName(fam)
		require.NoError(t, err)
		for _, pen := range []penalty.Penalty{penalty.L1{}, penalty.WeightedL1{Factors: f}, penalty.ElasticNet{Alpha: 0.5}} {
			for _, std := range []bool{false, true} {
				opts := CVOptions{Folds: 3, Seed: 5}
				opts.NLambda = 12
				opts.Family, opts.Standardize = family, std
				opts.Settings = solver.Settings{Tol: 1e-12}
				sparse := &Rows{X: m, Y: mat.NewDense(n, 1, y), Weights: w, Offset: off}
				dense := &Rows{X: solver.DenseDesign{X: x}, Y: mat.NewDense(n, 1, y), Weights: w, Offset: off, noCompress: true}
				cs, err := CrossValidate(sparse, pen, &opts)
				require.NoError(t, err, "%s %T", fam, pen)
				cd, err := CrossValidate(dense, pen, &opts)
				require.NoError(t, err)
				require.Equal(t, len(cd.Path.Models), len(cs.Path.Models))
				for l, md := range cd.Path.Models {
					ms := cs.Path.Models[l]
					require.InDelta(t, md.Intercept[0], ms.Intercept[0], 1e-7, "%s %T std %v λ %d", fam, pen, std, l)
					require.True(t, mat.EqualApprox(md.Coef, ms.Coef, 1e-7), "%s %T std %v λ %d\n%v\n%v", fam, pen, std, l, mat.Formatted(md.Coef.T()), mat.Formatted(ms.Coef.T()))
					require.True(t, ms.Converged)
				}
				require.InDeltaSlice(t, cd.Mean, cs.Mean, 1e-7)
				require.Equal(t, cd.IndexMin, cs.IndexMin)
			}
		}
	}
}
