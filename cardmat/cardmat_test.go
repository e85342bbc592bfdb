package cardmat

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// integerMatrix draws an r×c matrix whose column j takes at most k[j]
// distinct integer values, so products are exact in float64.
func integerMatrix(rng *rand.Rand, r, c, k int) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for j := 0; j < c; j++ {
		kj := 1 + rng.IntN(k)
		for i := 0; i < r; i++ {
			m.Set(i, j, float64(rng.IntN(kj)-kj/2))
		}
	}
	return m
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, shape := range [][3]int{{1, 1, 3}, {1, 7, 4}, {9, 1, 5}, {50, 12, 10}, {300, 3, 1}, {700, 2, 600}} {
		a := integerMatrix(rng, shape[0], shape[1], shape[2])
		if shape[2] == 600 { // some columns beyond 256 values: two-byte codes
			for i := 0; i < shape[0]; i++ {
				a.Set(i, 0, float64(i)+0.5)
			}
		}
		m, err := Encode(a)
		require.NoError(t, err)
		require.True(t, mat.Equal(a, m.Decode()), "shape %v", shape)
		for j, d := range m.Distinct() {
			col := mat.Col(nil, j, a)
			seen := map[float64]bool{}
			for _, v := range col {
				seen[v] = true
			}
			require.Equal(t, len(seen), d)
		}
	}
	all := mat.NewDense(4, 3, nil)
	all.Apply(func(int, int, float64) float64 { return 2.5 }, all)
	m, err := Encode(all)
	require.NoError(t, err)
	require.Equal(t, []int{1, 1, 1}, m.Distinct())
	require.True(t, mat.Equal(all, m.Decode()))
}

func TestEncodeRejectsBadInput(t *testing.T) {
	a := mat.NewDense(2, 2, []float64{1, math.NaN(), 3, 4})
	_, err := Encode(a)
	require.ErrorContains(t, err, "row 1, column 2")
	a.Set(0, 1, math.Inf(-1))
	_, err = Encode(a)
	require.Error(t, err)
	_, err = Encode(nil)
	require.Error(t, err)
}

// TestProductsEqualDense: every product equals gonum's, exactly for integer
// data; the operation counts follow the formulas.
func TestProductsEqualDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for trial := 0; trial < 12; trial++ {
		r, c, n := 1+rng.IntN(60), 1+rng.IntN(12), 1+rng.IntN(9)
		a := integerMatrix(rng, r, c, 1+rng.IntN(8))
		m, err := Encode(a)
		require.NoError(t, err)
		b := integerMatrix(rng, c, n, 20)
		var got, want mat.Dense
		ops := m.MulOps(&got, b)
		want.Mul(a, b)
		require.True(t, mat.Equal(&want, &got), "X·B %d×%d×%d", r, c, n)
		// Multiplications: one table row per distinct value. Additions: each
		// output row adds one table row per block after the first, a block being a run of
		// adjacent columns with at most min(256, M/4) value combinations,
		// whose table is built a column at a time at N additions per row.
		mult, add, d := 0, 0, m.Distinct()
		for _, v := range d {
			mult += v * n
		}
		limit := min(256, max(1, r/4))
		for j := 0; j < c; {
			size := d[j]
			j++
			for j < c && size*d[j] <= limit {
				size *= d[j]
				add += size * n
				j++
			}
			add += r * n
		}
		add -= r * n // the first block's row is copied, not added
		require.Equal(t, Ops{Multiplications: mult, Additions: add}, ops)
		require.LessOrEqual(t, ops.Multiplications, DenseOps(r, c, n).Multiplications)

		rr := integerMatrix(rng, r, n, 20)
		var gotT, wantT mat.Dense
		m.MulTrans(&gotT, rr)
		wantT.Mul(a.T(), rr)
		require.True(t, mat.Equal(&wantT, &gotT), "Xᵀ·R")

		var g mat.SymDense
		m.Gram(&g)
		var wg mat.SymDense
		wg.SymOuterK(1, a.T())
		require.True(t, mat.Equal(&wg, &g), "XᵀX")
	}
	// Non-integer data: equal to rounding.
	x := mat.NewDense(30, 4, nil)
	for i := 0; i < 30; i++ {
		for j := 0; j < 4; j++ {
			x.Set(i, j, float64(rng.IntN(3))*0.1+0.05)
		}
	}
	m, err := Encode(x)
	require.NoError(t, err)
	b := mat.NewDense(4, 2, []float64{0.3, -1.7, 2.2, 0.9, -0.4, 1.1, 0.05, 3})
	var got, want mat.Dense
	m.Mul(&got, b)
	want.Mul(x, b)
	require.True(t, mat.EqualApprox(&want, &got, 1e-13))
}

func TestMemory(t *testing.T) {
	a := mat.NewDense(1000, 2, nil)
	for i := 0; i < 1000; i++ {
		a.Set(i, 0, float64(i%4))   // 4 values: 2 bits
		a.Set(i, 1, float64(i%300)) // 300 values: two-byte codes, 9 bits
	}
	m, err := Encode(a)
	require.NoError(t, err)
	mem := m.Memory()
	require.Equal(t, 8000, mem.DenseFloat32)
	require.Equal(t, 16000, mem.DenseFloat64)
	require.Equal(t, 8*4+1000+8*300+2*1000, mem.Stored)
	require.Equal(t, float64(4*4)+2*1000/8.0+float64(4*300)+9*1000/8.0, mem.Packed)
}

// TestRegressionOnCompressedDesign: a cardinality fit and a CV run on the
// compressed form equal those on the dense matrix.
func TestRegressionOnCompressedDesign(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	x := integerMatrix(rng, 200, 6, 5)
	beta := []float64{1, 1, -2, -2, 0.5, 1}
	y := mat.NewDense(200, 1, nil)
	for i := 0; i < 200; i++ {
		s := 3.0
		for j, b := range beta {
			s += b * x.At(i, j)
		}
		y.Set(i, 0, s+0.3*rng.NormFloat64())
	}
	cm, err := Encode(x)
	require.NoError(t, err)
	opts := &estimator.Options{Settings: solver.Settings{Tol: 1e-12}}
	dense, err := estimator.Fit(&estimator.Rows{X: solver.DenseDesign{X: x}, Y: y}, penalty.Cardinality{Nu: 1}, 20, opts)
	require.NoError(t, err)
	comp, err := estimator.Fit(&estimator.Rows{X: cm, Y: y}, penalty.Cardinality{Nu: 1}, 20, opts)
	require.NoError(t, err)
	require.True(t, comp.Converged)
	require.True(t, mat.EqualApprox(dense.Coef, comp.Coef, 1e-8))
	require.InDelta(t, dense.Intercept[0], comp.Intercept[0], 1e-8)
	cvOpts := &estimator.CVOptions{PathOptions: estimator.PathOptions{NLambda: 8}, Folds: 4, Seed: 2}
	a, err := estimator.CrossValidate(&estimator.Rows{X: solver.DenseDesign{X: x}, Y: y}, penalty.L1{}, cvOpts)
	require.NoError(t, err)
	b, err := estimator.CrossValidate(&estimator.Rows{X: cm, Y: y}, penalty.L1{}, cvOpts)
	require.NoError(t, err)
	require.InDeltaSlice(t, a.Mean, b.Mean, 1e-6)
}
