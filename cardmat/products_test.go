package cardmat

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// randomShape draws r, c, n between 1 and the bounds, with one of them
// often 1 (a single row, column or output column).
func randomShape(rng *rand.Rand, maxR, maxC, maxN int) (int, int, int) {
	r, c, n := 1+rng.IntN(maxR), 1+rng.IntN(maxC), 1+rng.IntN(maxN)
	switch rng.IntN(6) {
	case 0:
		r = 1
	case 1:
		c = 1
	case 2:
		n = 1
	}
	return r, c, n
}

// TestLeftMulEqualsDense: d·X for a dense d equals gonum's product exactly
// on integer data, and its counts follow the formula.
func TestLeftMulEqualsDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 1))
	for trial := 0; trial < 40; trial++ {
		p, c, r := randomShape(rng, 70, 14, 40)
		x := integerMatrix(rng, p, c, 1+rng.IntN(9))
		d := integerMatrix(rng, r, p, 30)
		m, err := Encode(x)
		require.NoError(t, err)
		var got, want mat.Dense
		ops := m.LeftMulOps(&got, d)
		want.Mul(d, x)
		require.True(t, mat.Equal(&want, &got), "d·X %d×%d·%d×%d", r, p, p, c)
		mult := 0
		for _, v := range m.Distinct() {
			mult += v * r
		}
		require.Equal(t, mult, ops.Multiplications)
	}
}

// TestRowMatrix: row-wise encoding round-trips, and its product (the
// paper's Algorithm 2) equals gonum's exactly on integer data.
func TestRowMatrix(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 1))
	for trial := 0; trial < 40; trial++ {
		r, p, n := randomShape(rng, 20, 90, 30)
		w := integerMatrix(rng, p, r, 1+rng.IntN(6)) // columns of this are the rows of W
		wt := mat.DenseCopyOf(w.T())
		rm, err := EncodeRows(wt)
		require.NoError(t, err)
		require.True(t, mat.Equal(wt, rm.Decode()))
		gr, gc := rm.Dims()
		require.Equal(t, []int{r, p}, []int{gr, gc})
		for i, k := range rm.Distinct() {
			seen := map[float64]bool{}
			for _, v := range mat.Row(nil, i, wt) {
				seen[v] = true
			}
			require.Equal(t, len(seen), k, "row %d", i)
		}
		b := integerMatrix(rng, p, n, 25)
		var got, want mat.Dense
		ops := rm.MulOps(&got, b)
		want.Mul(wt, b)
		require.True(t, mat.Equal(&want, &got), "W·V %d×%d·%d×%d", r, p, p, n)
		mult := 0
		for _, k := range rm.Distinct() {
			mult += k * n
		}
		require.Equal(t, mult, ops.Multiplications)
		require.Equal(t, wt.At(r-1, p-1), rm.At(r-1, p-1))
	}
}

// TestMulCompressed: the paper's Algorithm 3 (both factors compressed)
// equals gonum's product exactly on integer data and to rounding
// otherwise, and needs Σ_j m_j·n_j multiplications.
func TestMulCompressed(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	for trial := 0; trial < 40; trial++ {
		r, p, n := randomShape(rng, 80, 12, 60)
		w := integerMatrix(rng, r, p, 1+rng.IntN(8))
		v := mat.DenseCopyOf(integerMatrix(rng, n, p, 1+rng.IntN(8)).T())
		wm, err := Encode(w)
		require.NoError(t, err)
		vm, err := EncodeRows(v)
		require.NoError(t, err)
		var got, want mat.Dense
		ops := MulCompressed(&got, wm, vm)
		want.Mul(w, v)
		require.True(t, mat.Equal(&want, &got), "%d×%d·%d×%d", r, p, p, n)
		mult := 0
		for j, k := range wm.Distinct() {
			mult += k * vm.Distinct()[j]
		}
		require.Equal(t, mult, ops.Multiplications)
	}
	// Non-integer values, as in the paper's benchmarks: integers shifted by
	// one normal draw.
	shift := rng.NormFloat64()
	w, v := integerMatrix(rng, 300, 9, 10), integerMatrix(rng, 9, 200, 10)
	w.Apply(func(_, _ int, x float64) float64 { return x - shift }, w)
	v.Apply(func(_, _ int, x float64) float64 { return x - shift }, v)
	wm, _ := Encode(w)
	vm, _ := EncodeRows(v)
	var got, want mat.Dense
	MulCompressed(&got, wm, vm)
	want.Mul(w, v)
	require.True(t, mat.EqualApprox(&want, &got, 1e-12))
}

// TestMulNonIntegerMatchesToRounding: every product agrees with gonum to
// rounding on real-valued data with ties.
func TestMulNonIntegerMatchesToRounding(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 1))
	x := mat.NewDense(500, 7, nil)
	x.Apply(func(_, _ int, _ float64) float64 { return math.Round(rng.NormFloat64()*3) / 7 }, x)
	m, err := Encode(x)
	require.NoError(t, err)
	b := mat.NewDense(7, 300, nil)
	b.Apply(func(_, _ int, _ float64) float64 { return rng.NormFloat64() }, b)
	var got, want mat.Dense
	m.Mul(&got, b)
	want.Mul(x, b)
	require.True(t, mat.EqualApprox(&want, &got, 1e-12))
	d := mat.NewDense(40, 500, nil)
	d.Apply(func(_, _ int, _ float64) float64 { return rng.NormFloat64() }, d)
	got.Reset()
	want.Reset()
	m.LeftMul(&got, d)
	want.Mul(d, x)
	require.True(t, mat.EqualApprox(&want, &got, 1e-11))
}

// TestEncodeEdgeCases: negative zero shares zero's code; a column beyond
// two-byte codes and non-finite entries of a row-encoded matrix are
// rejected naming the user's row and column.
func TestEncodeEdgeCases(t *testing.T) {
	m, err := Encode(mat.NewDense(3, 1, []float64{0, math.Copysign(0, -1), 1}))
	require.NoError(t, err)
	require.Equal(t, []int{2}, m.Distinct())

	big := mat.NewDense(maxDistinct+1, 1, nil)
	for i := 0; i <= maxDistinct; i++ {
		big.Set(i, 0, float64(i))
	}
	_, err = Encode(big)
	require.ErrorContains(t, err, "column 1 has more than 65536 distinct values")
	big.Set(maxDistinct, 0, 0) // exactly 65536: two-byte codes
	m, err = Encode(big)
	require.NoError(t, err)
	require.Equal(t, float64(maxDistinct-1), m.At(maxDistinct-1, 0))

	a := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, math.Inf(1)})
	_, err = EncodeRows(a)
	require.ErrorContains(t, err, "row 2, column 3")
	_, err = EncodeRows(nil)
	require.Error(t, err)
	_, err = EncodeRows(&mat.Dense{})
	require.Error(t, err)
}

// TestWideBlocks: binary and three-valued columns form blocks of up to
// eight columns (256 combinations); the product stays exact and needs one
// row addition per block.
func TestWideBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 1))
	x := randomBinary(rng, 2000, 21, 0.5)
	for i := 0; i < 2000; i++ {
		x.Set(i, 20, float64(rng.IntN(3)))
	}
	m, err := Encode(x)
	require.NoError(t, err)
	b := integerMatrix(rng, 21, 33, 50)
	var got, want mat.Dense
	ops := m.MulOps(&got, b)
	want.Mul(x, b)
	require.True(t, mat.Equal(&want, &got))
	// Blocks: columns 0–7, 8–15, then 16–19 with the three-valued 20
	// (2⁴·3 = 48 combinations).
	build := (4 + 8 + 16 + 32 + 64 + 128 + 256) * 2 * 33
	build += (4 + 8 + 16 + 48) * 33
	require.Equal(t, 2*2000*33+build, ops.Additions)
}

// TestAliasingViewsAndWideCodes: outputs that alias an input, inputs that
// are views (slices, transposes) and columns with two-byte codes all give
// gonum's products.
func TestAliasingViewsAndWideCodes(t *testing.T) {
	x := mat.NewDense(3, 3, []float64{1, 2, 0, 0, 1, 2, 2, 0, 1})
	m, err := Encode(x)
	require.NoError(t, err)
	r := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	var want mat.Dense
	want.Mul(x.T(), r)
	m.MulTrans(r, r)
	require.True(t, mat.Equal(&want, r), "Xᵀ·R into R")
	rm, err := EncodeRows(x)
	require.NoError(t, err)
	b := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	want.Reset()
	want.Mul(x, b)
	rm.Mul(b, b)
	require.True(t, mat.Equal(&want, b), "W·V into V")

	rng := rand.New(rand.NewPCG(16, 1))
	big := integerMatrix(rng, 400, 5, 6)
	for i := 0; i < 400; i++ { // column 2: 400 values, two-byte codes
		big.Set(i, 2, float64(i%300))
	}
	view := big.Slice(10, 400, 1, 5).(*mat.Dense) // strided view
	vm, err := Encode(view)
	require.NoError(t, err)
	bt := integerMatrix(rng, 7, 4, 9)
	var got, w mat.Dense
	vm.Mul(&got, bt.T())
	w.Mul(view, bt.T())
	require.True(t, mat.Equal(&w, &got), "view times transpose")
	rr := integerMatrix(rng, 390, 3, 9)
	got.Reset()
	w.Reset()
	vm.MulTrans(&got, rr)
	w.Mul(view.T(), rr)
	require.True(t, mat.Equal(&w, &got), "two-byte codes in Xᵀ·R")
	var g, wg mat.SymDense
	vm.Gram(&g)
	wg.SymOuterK(1, view.T())
	require.True(t, mat.Equal(&wg, &g), "Gram with a 300-value column (direct dot products)")
	sub := vm.SelectRows([]int{5, 0, 389}).(*Matrix)
	require.Equal(t, view.At(389, 1), sub.At(2, 1))
	require.Panics(t, func() { vm.Gram(mat.NewSymDense(3, nil)) })
	require.Panics(t, func() { vm.Mul(mat.NewDense(2, 2, nil), bt.T()) })
}

// TestPaperIntroductionExample is the source paper's §1 example: W (6×2)
// with three distinct values per column times V (2×4) with two per row
// takes 3·2·2 = 12 multiplications compressed against 6·2·4 = 48 dense.
func TestPaperIntroductionExample(t *testing.T) {
	w := mat.NewDense(6, 2, []float64{2.1, 1.1, 1, 2.3, 1, 1.1, 2.1, 1.1, 3, 2.3, 3, 4})
	a, b, c, d := 1.5, -2.0, 0.5, 3.0
	v := mat.NewDense(2, 4, []float64{a, b, b, a, c, d, d, c})
	cw, err := Encode(w)
	require.NoError(t, err)
	rv, err := EncodeRows(v)
	require.NoError(t, err)
	var got, want mat.Dense
	ops := MulCompressed(&got, cw, rv)
	want.Mul(w, v)
	require.True(t, mat.EqualApprox(&got, &want, 1e-12))
	require.Equal(t, 12, ops.Multiplications)
	require.Equal(t, 48, DenseOps(6, 2, 4).Multiplications)
}
