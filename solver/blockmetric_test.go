package solver

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// ordinalProblem returns a centred least-squares problem on two numeric
// columns of scale sd (‖x‖² ≈ n·sd²) beside the k−1 dummies of an ordinal
// factor with k levels (level l on 1 + l mod 3 rows, level 0 the
// reference, a step effect along the order), the penalty a cardinality
// block on the numeric columns and the chain on the levels, and the
// centred design and response.
func ordinalProblem(rng *rand.Rand, k int, sd float64) (*mat.Dense, *mat.Dense, *penalty.Blocks) {
	var levels []int
	for l := 0; l < k; l++ {
		for c := 0; c <= l%3; c++ {
			levels = append(levels, l)
		}
	}
	n, p := len(levels), k+1
	x := mat.NewDense(n, p, nil)
	y := mat.NewDense(n, 1, nil)
	for i, l := range levels {
		x.Set(i, 0, sd*rng.NormFloat64())
		x.Set(i, 1, sd*rng.NormFloat64())
		if l > 0 {
			x.Set(i, 1+l, 1)
		}
		y.Set(i, 0, 0.5*x.At(i, 0)/sd+[]float64{-0.4, 0, 0.3, 0, 0.5}[5*l/k]+rng.NormFloat64())
	}
	centre(x)
	centre(y)
	chain := make([]int, k-1)
	for i := range chain {
		chain[i] = 2 + i
	}
	pen, err := penalty.NewBlocks(p, []penalty.Block{
		{Type: penalty.CardinalityBlock, Rows: []int{0, 1}},
		{Type: penalty.OrdinalBlock, Rows: chain, Ref: 0},
	})
	if err != nil {
		panic(err)
	}
	return x, y, pen
}

// centre subtracts each column's mean.
func centre(m *mat.Dense) {
	r, c := m.Dims()
	for j := 0; j < c; j++ {
		var s float64
		for i := 0; i < r; i++ {
			s += m.At(i, j)
		}
		for i := 0; i < r; i++ {
			m.Set(i, j, m.At(i, j)-s/float64(r))
		}
	}
}

// generalOf returns the ordinal problem's penalty as ‖GΘ‖₁ (G has full
// column rank), which ADMM splits on: the cardinality block's |θ₀ − θ₁| and
// |θ₀ + θ₁| (ν = 1), and the chain's differences from the reference.
func generalOf(p int) *penalty.General {
	g := mat.NewDense(p, p, nil)
	g.Set(0, 0, 1)
	g.Set(0, 1, -1)
	g.Set(1, 0, 1)
	g.Set(1, 1, 1)
	g.Set(2, 2, 1) // |x₁ − x_ref|, x_ref = 0
	for r := 3; r < p; r++ {
		g.Set(r, r, 1)
		g.Set(r, r-1, -1)
	}
	h, err := penalty.NewGeneral(g, p, 1)
	if err != nil {
		panic(err)
	}
	return h
}

// TestBlockMetricMatchesADMM checks FISTA in the block metric against
// ADMM, a method that shares neither its steps nor its prox, on a small
// ordinal factor beside numeric columns of a much larger scale.
func TestBlockMetricMatchesADMM(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 1))
	x, y, pen := ordinalProblem(rng, 12, 5)
	_, p := x.Dims()
	lambda := 4.0
	fit, err := Minimize(Problem{Loss: NewLeastSquares(SparseOf(x, 1), y), Penalty: pen, Lambda: lambda}, nil, &Settings{Tol: 1e-12}, &FISTA{NoPolish: true})
	require.NoError(t, err)
	require.True(t, fit.Converged, "%v", fit.Status)
	require.NotNil(t, newBlockMetric(Problem{Loss: NewLeastSquares(SparseOf(x, 1), y), Penalty: pen, Lambda: lambda}), "the problem's blocks differ in scale: the metric should be used")

	var h mat.SymDense
	h.SymOuterK(1, x.T())
	var c mat.Dense
	c.Mul(x.T(), y)
	yy := mat.Dot(mat.NewVecDense(len(y.RawMatrix().Data), y.RawMatrix().Data), mat.NewVecDense(len(y.RawMatrix().Data), y.RawMatrix().Data))
	ref, err := Minimize(Problem{Loss: NewGramLeastSquares(&h, &c, yy), Penalty: generalOf(p), Lambda: lambda}, nil, &Settings{Tol: 1e-12, MaxIter: 200000}, &ADMM{})
	require.NoError(t, err)
	require.True(t, ref.Converged, "ADMM: %v", ref.Status)
	for i := 0; i < p; i++ {
		require.InDelta(t, ref.Theta.At(i, 0), fit.Theta.At(i, 0), 1e-6, "row %d", i)
	}
}

// plainBlocks hides the *penalty.Blocks type from FISTA, which then takes
// its plain step 1/L on every row: the reference the metric is tested
// against.
type plainBlocks struct{ *penalty.Blocks }

// TestBlockMetricOrdinalConverges: 400 levels of one to three rows beside
// numeric columns with ‖x‖² ≈ 25n. The plain step is 1/(2λ_max(XᵀX)),
// about a hundredth of what a level's curvature allows, and FISTA took
// thousands of iterations; in the block metric it takes tens.
func TestBlockMetricOrdinalConverges(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2))
	x, y, pen := ordinalProblem(rng, 400, 5)
	_, p := x.Dims()
	loss := NewLeastSquares(SparseOf(x, 1), y) // no Gram form, as lsfit holds a factor's dummies
	require.NotNil(t, newBlockMetric(Problem{Loss: loss, Penalty: pen}))
	gram := NewLeastSquares(DenseDesign{X: x}, y) // the reference's iterations cost p², not n·p
	for _, lambda := range []float64{2, 8, 30} {
		fit, err := Minimize(Problem{Loss: loss, Penalty: pen, Lambda: lambda}, nil, &Settings{MaxIter: 1000}, &FISTA{})
		require.NoError(t, err)
		require.True(t, fit.Converged, "λ %v: %v after %d iterations, gap %.3g", lambda, fit.Status, fit.Iterations, fit.Gap)
		require.LessOrEqual(t, fit.Gap, DefaultTol)

		ref, err := Minimize(Problem{Loss: gram, Penalty: plainBlocks{pen}, Lambda: lambda}, nil, &Settings{Tol: 1e-10, MaxIter: 100000}, &FISTA{})
		require.NoError(t, err)
		require.True(t, ref.Converged, "reference at λ %v: %v", lambda, ref.Status)
		var worst float64
		for i := 0; i < p; i++ {
			worst = math.Max(worst, math.Abs(ref.Theta.At(i, 0)-fit.Theta.At(i, 0)))
		}
		require.Less(t, worst, 1e-6, "λ %v: largest difference from the plain step's solution", lambda)
		t.Logf("λ %v: %d iterations in the metric, %d with the plain step", lambda, fit.Iterations, ref.Iterations)
	}
}
