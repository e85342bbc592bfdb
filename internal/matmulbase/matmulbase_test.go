package matmulbase

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// shape is the shape of a product of an m×n and an n×p matrix.
type shape struct{ m, n, p int }

func (s shape) String() string { return fmt.Sprintf("%dx%dx%d", s.m, s.n, s.p) }

// edgeShapes are degenerate, odd and non-square shapes, and shapes around
// the cutoffs 64 and DefaultStrassenCutoff = 128 and twice the latter.
var edgeShapes = []shape{
	{1, 1, 1}, {1, 9, 1}, {1, 1, 9}, {9, 1, 1}, {1, 9, 7}, {7, 9, 1}, {9, 1, 7},
	{2, 2, 2}, {3, 3, 3}, {3, 5, 7}, {7, 5, 3}, {17, 33, 9}, {31, 2, 29},
	{63, 63, 63}, {64, 64, 64}, {65, 65, 65}, {63, 65, 64}, {64, 65, 66},
	{127, 128, 129}, {128, 128, 128}, {129, 130, 131}, {255, 257, 256}, {300, 10, 200},
	{70, 300, 90},
}

// randomShapes returns n shapes with dimensions in [1, maxDim].
func randomShapes(rng *rand.Rand, n, maxDim int) []shape {
	s := make([]shape, n)
	for i := range s {
		s[i] = shape{1 + rng.IntN(maxDim), 1 + rng.IntN(maxDim), 1 + rng.IntN(maxDim)}
	}
	return s
}

// randDense returns an r×c matrix with entries drawn from gen.
func randDense(r, c int, gen func() float64) *mat.Dense {
	d := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			d.Set(i, j, gen())
		}
	}
	return d
}

// smallInts returns a generator of integers in [-3, 3], whose products are
// computed exactly by every algorithm in the package.
func smallInts(rng *rand.Rand) func() float64 {
	return func() float64 { return float64(rng.IntN(7) - 3) }
}

// bits01 returns a generator of 0 and 1.
func bits01(rng *rand.Rand) func() float64 {
	return func() float64 { return float64(rng.IntN(2)) }
}

// gonumMul returns a·b computed by gonum.
func gonumMul(a, b mat.Matrix) *mat.Dense {
	var c mat.Dense
	c.Mul(a, b)
	return &c
}

// absDense returns the matrix of absolute values of a.
func absDense(a mat.Matrix) *mat.Dense {
	var d mat.Dense
	d.Apply(func(_, _ int, v float64) float64 { return math.Abs(v) }, a)
	return &d
}

// requireEqual fails unless got and want have the same shape and entries.
func requireEqual(t *testing.T, want, got mat.Matrix, msg string) {
	t.Helper()
	wr, wc := want.Dims()
	gr, gc := got.Dims()
	require.Equal(t, [2]int{wr, wc}, [2]int{gr, gc}, "%s: shape", msg)
	for i := 0; i < wr; i++ {
		for j := 0; j < wc; j++ {
			if w, g := want.At(i, j), got.At(i, j); w != g {
				require.Equal(t, w, g, "%s: entry (%d, %d)", msg, i, j)
			}
		}
	}
}

// requireClose fails unless got equals a·b to within 1e-9 relative to the
// scale (|a|·|b|)[i,j] of each entry, the natural bound for rounding errors
// of any summation order.
func requireClose(t *testing.T, a, b, got mat.Matrix, msg string) {
	t.Helper()
	want, scale := gonumMul(a, b), gonumMul(absDense(a), absDense(b))
	wr, wc := want.Dims()
	gr, gc := got.Dims()
	require.Equal(t, [2]int{wr, wc}, [2]int{gr, gc}, "%s: shape", msg)
	for i := 0; i < wr; i++ {
		for j := 0; j < wc; j++ {
			diff := math.Abs(got.At(i, j) - want.At(i, j))
			if !(diff <= 1e-9*scale.At(i, j)) {
				require.LessOrEqual(t, diff, 1e-9*scale.At(i, j), "%s: entry (%d, %d)", msg, i, j)
			}
		}
	}
}

// mulFunc is a float product under test, applied to shapes whose largest
// dimension is at most maxDim, or to all shapes if maxDim is 0.
type mulFunc struct {
	name   string
	mul    func(a, b *mat.Dense) *mat.Dense
	maxDim int
}

// applies reports whether f is tested on shape s.
func (f mulFunc) applies(s shape) bool {
	return f.maxDim == 0 || max(s.m, s.n, s.p) <= f.maxDim
}

// strassenWith returns Strassen with the given cutoff as a mulFunc.
func strassenWith(cutoff, maxDim int) mulFunc {
	return mulFunc{
		name:   fmt.Sprintf("Strassen/cutoff=%d", cutoff),
		mul:    func(a, b *mat.Dense) *mat.Dense { return Strassen(a, b, cutoff) },
		maxDim: maxDim,
	}
}

// floatMuls are Naive and Strassen with a range of cutoffs; small cutoffs
// force deep recursion and padding at every level, and are restricted to
// small shapes to bound the 7^depth leaf count.
var floatMuls = []mulFunc{
	{name: "Naive", mul: Naive},
	strassenWith(-1, 20),
	strassenWith(1, 40),
	strassenWith(2, 40),
	strassenWith(3, 70),
	strassenWith(8, 0),
	strassenWith(64, 0),
	strassenWith(DefaultStrassenCutoff, 0),
}

// testShapes returns edgeShapes followed by n random shapes.
func testShapes(rng *rand.Rand, n, maxDim int) []shape {
	return slices.Concat(edgeShapes, randomShapes(rng, n, maxDim))
}

func TestMulExactOnSmallIntegers(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	shapes := testShapes(rng, 30, 100)
	for _, f := range floatMuls {
		for _, s := range shapes {
			if !f.applies(s) {
				continue
			}
			a, b := randDense(s.m, s.n, smallInts(rng)), randDense(s.n, s.p, smallInts(rng))
			requireEqual(t, gonumMul(a, b), f.mul(a, b), f.name+"/"+s.String())
		}
	}
}

func TestMulCloseOnNormalFloats(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	shapes := testShapes(rng, 30, 100)
	for _, f := range floatMuls {
		for _, s := range shapes {
			if !f.applies(s) {
				continue
			}
			a, b := randDense(s.m, s.n, rng.NormFloat64), randDense(s.n, s.p, rng.NormFloat64)
			requireClose(t, a, b, f.mul(a, b), f.name+"/"+s.String())
		}
	}
}

// TestMulStridedViews multiplies views into larger matrices, whose row
// stride exceeds their width, and checks that the operands are not modified.
func TestMulStridedViews(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, f := range floatMuls {
		for _, s := range testShapes(rng, 10, 100) {
			if !f.applies(s) {
				continue
			}
			a := randDense(s.m+3, s.n+5, smallInts(rng)).Slice(2, 2+s.m, 3, 3+s.n).(*mat.Dense)
			b := randDense(s.n+4, s.p+2, smallInts(rng)).Slice(1, 1+s.n, 1, 1+s.p).(*mat.Dense)
			a0, b0 := mat.DenseCopyOf(a), mat.DenseCopyOf(b)
			requireEqual(t, gonumMul(a, b), f.mul(a, b), f.name+"/"+s.String())
			requireEqual(t, a0, a, f.name+"/"+s.String()+": a modified")
			requireEqual(t, b0, b, f.name+"/"+s.String()+": b modified")
		}
	}
}

func TestMulAliasedOperands(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, f := range floatMuls {
		a := randDense(37, 37, smallInts(rng))
		requireEqual(t, gonumMul(a, a), f.mul(a, a), f.name)
	}
}

func TestMulShapeMismatchPanics(t *testing.T) {
	a, b := mat.NewDense(2, 3, nil), mat.NewDense(4, 2, nil)
	for _, f := range floatMuls {
		require.PanicsWithValue(t, mat.ErrShape, func() { f.mul(a, b) }, f.name)
	}
}

func TestStrassenDepth(t *testing.T) {
	for _, c := range []struct{ m, n, p, cutoff, want int }{
		{1, 1, 1, 1, 0},
		{2, 2, 2, 1, 1},
		{5, 5, 5, 1, 3}, // 5 → 3 → 2 → 1.
		{64, 64, 64, 64, 0},
		{65, 65, 65, 64, 1},
		{128, 128, 128, 64, 1},
		{129, 129, 129, 64, 2},
		{300, 10, 300, 64, 0},
		{1000, 100, 1000, 64, 1},
		{1024, 1024, 1024, 64, 4},
	} {
		got := strassenDepth(c.m, c.n, c.p, c.cutoff)
		require.Equal(t, c.want, got, "%+v", c)
	}
}

// TestStrassenRecursionRuns checks, through rounding, that Strassen runs its
// recursion when some dimension exceeds the cutoff and only the leaf kernel
// otherwise, so that a Strassen that silently fell back to the naive loop
// would be caught.
func TestStrassenRecursionRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	a, b := randDense(40, 40, rng.NormFloat64), randDense(40, 40, rng.NormFloat64)
	leaf := mat.NewDense(40, 40, nil)
	naiveIKJ(rawView(leaf), rawView(a), rawView(b))
	require.True(t, mat.Equal(leaf, Strassen(a, b, 40)), "cutoff 40 must use the leaf kernel only")
	require.False(t, mat.Equal(leaf, Strassen(a, b, 4)), "cutoff 4 must recurse and round differently")
}

// refGF2 returns the integer product a·b reduced mod 2.
func refGF2(a, b *mat.Dense) *mat.Dense {
	m, n := a.Dims()
	_, p := b.Dims()
	c := mat.NewDense(m, p, nil)
	for i := 0; i < m; i++ {
		for j := 0; j < p; j++ {
			s := 0
			for k := 0; k < n; k++ {
				s += int(a.At(i, k)) * int(b.At(k, j))
			}
			c.Set(i, j, float64(s%2))
		}
	}
	return c
}

// requirePaddingZero fails unless the unused bits of every row of x are 0.
func requirePaddingZero(t *testing.T, x *Bits, msg string) {
	t.Helper()
	if x.cols%64 == 0 {
		return
	}
	for i := 0; i < x.rows; i++ {
		last := x.row(i)[x.stride-1]
		require.Zero(t, last>>uint(x.cols%64), "%s: padding bits of row %d", msg, i)
	}
}

// gf2Shapes are shapes with widths at, below and above multiples of 64 and
// of every k in 1..8, and inner dimensions smaller than k.
var gf2Shapes = []shape{
	{1, 1, 1}, {1, 64, 1}, {1, 1, 64}, {3, 2, 5}, {3, 7, 65}, {2, 63, 64},
	{5, 64, 63}, {4, 65, 129}, {64, 128, 64}, {9, 127, 130}, {33, 200, 1},
}

func TestFourRussiansMatchesIntegerProductMod2(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	shapes := slices.Concat(gf2Shapes, randomShapes(rng, 25, 200))
	for _, s := range shapes {
		a, b := randDense(s.m, s.n, bits01(rng)), randDense(s.n, s.p, bits01(rng))
		want := refGF2(a, b)
		pa, err := PackBits(a)
		require.NoError(t, err)
		pb, err := PackBits(b)
		require.NoError(t, err)
		for _, k := range []int{1, 2, 3, 4, 5, 6, 7, 8, 11, 16} {
			msg := fmt.Sprintf("%v/k=%d", s, k)
			got := FourRussians(pa, pb, k)
			r, c := got.Dims()
			require.Equal(t, [2]int{s.m, s.p}, [2]int{r, c}, msg)
			requirePaddingZero(t, got, msg)
			requireEqual(t, want, got.Dense(), msg)
		}
	}
}

// TestFourRussiansDenseOnes checks all-ones operands, whose product mod 2 is
// the parity of the inner dimension, so that every table entry is used.
func TestFourRussiansDenseOnes(t *testing.T) {
	for _, n := range []int{1, 2, 7, 8, 9, 64, 65, 130} {
		ones := func() float64 { return 1 }
		a, b := randDense(3, n, ones), randDense(n, 70, ones)
		got, err := FourRussiansDense(a, b)
		require.NoError(t, err)
		requireEqual(t, refGF2(a, b), got, fmt.Sprintf("n=%d", n))
		require.Equal(t, float64(n%2), got.At(2, 69), "n=%d", n)
	}
}

func TestFourRussiansDenseRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, s := range slices.Concat(gf2Shapes, randomShapes(rng, 10, 150)) {
		a, b := randDense(s.m, s.n, bits01(rng)), randDense(s.n, s.p, bits01(rng))
		got, err := FourRussiansDense(a, b)
		require.NoError(t, err)
		requireEqual(t, refGF2(a, b), got, s.String())
	}
}

func TestPackBitsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, c := range []int{1, 2, 63, 64, 65, 127, 128, 130} {
		a := randDense(5, c, bits01(rng))
		p, err := PackBits(a)
		require.NoError(t, err)
		requirePaddingZero(t, p, fmt.Sprint(c))
		requireEqual(t, a, p.Dense(), fmt.Sprintf("width %d", c))
	}
	p, err := PackBits(mat.NewDense(1, 2, []float64{math.Copysign(0, -1), 1}))
	require.NoError(t, err, "negative zero is 0")
	requireEqual(t, mat.NewDense(1, 2, []float64{0, 1}), p.Dense(), "negative zero")
}

func TestPackBitsRejectsNonBinary(t *testing.T) {
	for _, v := range []float64{0.5, math.NaN(), 2, -1, math.Inf(1)} {
		a := mat.NewDense(4, 70, nil)
		a.Set(2, 66, v) // Row 3, column 67, in the second word.
		a.Set(3, 0, v)  // A later entry that must not be reported.
		_, err := PackBits(a)
		require.Error(t, err, "%v", v)
		require.Contains(t, err.Error(), "row 3, column 67", "%v", v)
		require.Contains(t, err.Error(), fmt.Sprint(v), "%v", v)
	}
	_, err := PackBits(&mat.Dense{})
	require.ErrorContains(t, err, "empty")
}

func TestFourRussiansDenseRejectsNonBinary(t *testing.T) {
	good := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	bad := mat.NewDense(2, 2, []float64{1, 0, 0.5, 1})
	_, err := FourRussiansDense(bad, good)
	require.ErrorContains(t, err, "a: row 2, column 1")
	_, err = FourRussiansDense(good, bad)
	require.ErrorContains(t, err, "b: row 2, column 1")
	require.True(t, strings.HasPrefix(err.Error(), "matmulbase: FourRussiansDense: "), err.Error())
}

func TestFourRussiansPanics(t *testing.T) {
	a, err := PackBits(mat.NewDense(2, 3, nil))
	require.NoError(t, err)
	b, err := PackBits(mat.NewDense(3, 2, nil))
	require.NoError(t, err)
	require.PanicsWithValue(t, mat.ErrShape, func() { FourRussians(a, a, 8) })
	require.PanicsWithValue(t, mat.ErrShape, func() { _, _ = FourRussiansDense(mat.NewDense(2, 3, nil), mat.NewDense(2, 3, nil)) })
	require.Panics(t, func() { FourRussians(a, b, 0) })
	require.Panics(t, func() { FourRussians(a, b, 17) })
	require.NotPanics(t, func() { FourRussians(a, b, 16) })
}
