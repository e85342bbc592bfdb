package cardmat

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func randomBinary(rng *rand.Rand, r, c int, density float64) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if rng.Float64() < density {
				m.Set(i, j, 1)
			}
		}
	}
	return m
}

// TestPopcountMul: the popcount product equals gonum's product exactly (the
// counts are integers), and modulo 2 equals its parity, across shapes that
// are and are not multiples of 64.
func TestPopcountMul(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, s := range [][3]int{{1, 1, 1}, {3, 70, 5}, {64, 64, 64}, {65, 130, 17}, {200, 33, 129}} {
		a, b := randomBinary(rng, s[0], s[1], 0.4), randomBinary(rng, s[1], s[2], 0.6)
		pa, err := EncodeBinary(a)
		require.NoError(t, err)
		pb, err := EncodeBinary(b)
		require.NoError(t, err)
		var want mat.Dense
		want.Mul(a, b)
		require.True(t, mat.Equal(&want, PopcountMul(pa, pb)), "shape %v", s)
		parity := mat.DenseCopyOf(&want)
		parity.Apply(func(_, _ int, v float64) float64 { return math.Mod(v, 2) }, parity)
		require.True(t, mat.Equal(parity, MulMod2(pa, pb).Dense()), "mod 2, shape %v", s)
	}
	_, err := EncodeBinary(mat.NewDense(1, 2, []float64{1, 2}))
	require.ErrorContains(t, err, "not 0 or 1")
}

func binaryPair() (*mat.Dense, *mat.Dense) {
	rng := rand.New(rand.NewPCG(5, 5))
	return randomBinary(rng, 2048, 2048, 0.5), randomBinary(rng, 2048, 2048, 0.5)
}

func BenchmarkBinary2048Dense(b *testing.B) {
	x, y := binaryPair()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var out mat.Dense
		out.Mul(x, y)
	}
}

func BenchmarkBinary2048Popcount(b *testing.B) {
	x, y := binaryPair()
	px, _ := EncodeBinary(x)
	py, _ := EncodeBinary(y)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		PopcountMul(px, py)
	}
}

// TestMulMod2: the packed GF(2) product equals the parity of the integer
// product across shapes that are not multiples of 64 or 8, and the packed
// forms round-trip.
func TestMulMod2(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for trial := 0; trial < 30; trial++ {
		r, p, n := 1+rng.IntN(150), 1+rng.IntN(200), 1+rng.IntN(150)
		a, b := randomBinary(rng, r, p, rng.Float64()), randomBinary(rng, p, n, rng.Float64())
		pa, err := EncodeBinary(a)
		require.NoError(t, err)
		pb, err := EncodeBinary(b)
		require.NoError(t, err)
		require.True(t, mat.Equal(a, pa.Dense()))
		require.True(t, mat.Equal(b.T(), pb.T()))
		var want mat.Dense
		want.Mul(a, b)
		want.Apply(func(_, _ int, v float64) float64 { return math.Mod(v, 2) }, &want)
		require.True(t, mat.Equal(&want, MulMod2(pa, pb).Dense()), "%d×%d·%d×%d", r, p, p, n)
	}
}

func BenchmarkBinary2048Mod2(b *testing.B) {
	x, y := binaryPair()
	px, _ := EncodeBinary(x)
	py, _ := EncodeBinary(y)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		MulMod2(px, py)
	}
}

func BenchmarkBinary2048Encode(b *testing.B) {
	x, _ := binaryPair()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		px, _ := EncodeBinary(x)
		px.packColumns()
	}
}

// TestEncodeBinaryEntries: −0 packs as 0; NaN, ±Inf and values near 0 or 1
// are rejected naming the first bad entry.
func TestEncodeBinaryEntries(t *testing.T) {
	row := make([]float64, 130)
	row[3], row[64], row[129] = 1, 1, math.Copysign(0, -1)
	b, err := EncodeBinary(mat.NewDense(1, 130, row))
	require.NoError(t, err)
	require.Equal(t, []float64{0, 1, 1, 0}, []float64{b.At(0, 0), b.At(0, 3), b.At(0, 64), b.At(0, 129)})
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e-300, 1 + 1e-15, -1, 0.5} {
		r := make([]float64, 130)
		r[70], r[100] = bad, 2
		_, err := EncodeBinary(mat.NewDense(1, 130, r))
		require.ErrorContains(t, err, "entry (1, 71)", "%v", bad)
	}
	_, err = EncodeBinary(nil)
	require.Error(t, err)
}

// TestBinaryParallelAndBounds: products large enough to run on both cores
// stay exact; At checks its indices.
func TestBinaryParallelAndBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	a, b := randomBinary(rng, 300, 330, 0.5), randomBinary(rng, 330, 310, 0.5)
	pa, _ := EncodeBinary(a)
	pb, _ := EncodeBinary(b)
	var want mat.Dense
	want.Mul(a, b)
	require.True(t, mat.Equal(&want, PopcountMul(pa, pb)))
	want.Apply(func(_, _ int, v float64) float64 { return math.Mod(v, 2) }, &want)
	require.True(t, mat.Equal(&want, MulMod2(pa, pb).Dense()))
	require.Panics(t, func() { pa.At(0, 330) })
	require.Panics(t, func() { pa.At(300, 0) })
}
