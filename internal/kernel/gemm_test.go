package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// gemmCase is one call of Gemm for checkGemm: the transpose flags, the
// shape, the padding of every stride and beta.
type gemmCase struct {
	tA, tB  bool
	m, n, k int
	pad     int
	beta    float64
}

// String names the case (and the dispatch path) in a failure.
func (g gemmCase) String() string {
	return fmt.Sprintf("tA=%v tB=%v m=%d n=%d k=%d pad=%d beta=%v asm=%v", g.tA, g.tB, g.m, g.n, g.k, g.pad, g.beta, Accelerated())
}

// strided returns an r×c matrix of standard normal draws stored with the
// stride c+pad (at least 1), padding included.
func strided(rng *rand.Rand, r, c, pad int) ([]float64, int) {
	ld := max(c+pad, 1)
	x := make([]float64, max(r*ld, 1))
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	return x, ld
}

// checkGemm compares Gemm with gonum's Dgemm on strided operands (pad
// extra columns in every stride), for one transpose case and beta; the
// padding of C must stay untouched.
func checkGemm(t testing.TB, rng *rand.Rand, tA, tB bool, m, n, k, pad int, beta float64) {
	g := gemmCase{tA, tB, m, n, k, pad, beta}
	ra, ca := stored(tA, m, k)
	rb, cb := stored(tB, k, n)
	a, lda := strided(rng, ra, ca, pad)
	b, ldb := strided(rng, rb, cb, pad)
	c, ldc := strided(rng, m, n, pad)
	if beta == 0 && m*n > 0 {
		c[0] = math.NaN() // beta 0 overwrites
	}
	for i := range m {
		for j := n; j < ldc && i*ldc+j < len(c); j++ {
			c[i*ldc+j] = math.Inf(1) // padding
		}
	}
	want := g.reference(a, lda, b, ldb, c, ldc)
	Gemm(tA, tB, m, n, k, a, lda, b, ldb, beta, c, ldc)
	g.compare(t, c, want, ldc)
}

// reference returns what Gemm should leave in c: gonum's Dgemm's result.
func (g gemmCase) reference(a []float64, lda int, b []float64, ldb int, c []float64, ldc int) []float64 {
	want := append([]float64(nil), c...)
	if g.beta == 0 {
		for i := range g.m {
			clear(want[i*ldc : i*ldc+g.n])
		}
	}
	if g.m == 0 || g.n == 0 || g.k == 0 {
		g.scale(want, ldc)
		return want
	}
	tr := func(t bool) blas.Transpose {
		if t {
			return blas.Trans
		}
		return blas.NoTrans
	}
	ra, ca := stored(g.tA, g.m, g.k)
	rb, cb := stored(g.tB, g.k, g.n)
	blas64.Gemm(tr(g.tA), tr(g.tB), 1,
		blas64.General{Rows: ra, Cols: ca, Stride: lda, Data: a},
		blas64.General{Rows: rb, Cols: cb, Stride: ldb, Data: b},
		g.beta, blas64.General{Rows: g.m, Cols: g.n, Stride: ldc, Data: want})
	return want
}

// scale multiplies the m×n matrix c (stride ldc) by beta unless beta is 0
// (then c was cleared).
func (g gemmCase) scale(c []float64, ldc int) {
	if g.beta == 0 {
		return
	}
	for i := range g.m {
		for j := range g.n {
			c[i*ldc+j] *= g.beta
		}
	}
}

// compare fails t unless c equals want within rounding (1e-13·(k+1)
// relative to √k + |want| + 1, no NaN) and c's padding is still +Inf.
func (g gemmCase) compare(t testing.TB, c, want []float64, ldc int) {
	tol := 1e-13 * float64(g.k+1)
	for i := range g.m {
		for j := range ldc {
			got, w := c[i*ldc+j], want[i*ldc+j]
			if j >= g.n {
				if !math.IsInf(got, 1) {
					t.Fatalf("%v: padding (%d,%d) written", g, i, j)
				}
				continue
			}
			if math.Abs(got-w) > tol*(math.Sqrt(float64(g.k))+math.Abs(w)+1) || math.IsNaN(got) {
				t.Fatalf("%v: (%d,%d) = %v, want %v", g, i, j, got, w)
			}
		}
	}
}

// Every size 1–17 in each dimension (non-multiples of the 6×8 tile and
// around them), with and without padding, every transpose case, beta 0, 1
// and another, on every dispatch path.
func TestGemmSmall(t *testing.T) {
	paths(t, func(t testing.TB) {
		rng := rand.New(rand.NewPCG(1, 2))
		for m := 0; m <= 17; m++ {
			for n := 0; n <= 17; n++ {
				for _, k := range []int{0, 1, 2, 5, 8, 17} {
					for c := range 4 {
						checkGemm(t, rng, c&1 == 1, c&2 == 2, m, n, k, (m+n+k)%3, []float64{0, 1, -0.5}[(m*n+k)%3])
					}
				}
			}
		}
		for k := 1; k <= 17; k++ {
			checkGemm(t, rng, false, true, 7, 9, k, 1, 1)
		}
	})
}

// Sizes beyond one k slab (kc) and one row block (mc), in parallel, and the
// shapes of the digits network's products.
func TestGemmLarge(t *testing.T) {
	paths(t, func(t testing.TB) {
		rng := rand.New(rand.NewPCG(3, 4))
		for _, s := range [][3]int{{1797, 40, 64}, {1797, 64, 40}, {40, 64, 1797}, {10, 40, 1797}, {1797, 10, 40}, {300, 257, 600}, {mc + 1, 3, kc + 1}} {
			for c := range 4 {
				checkGemm(t, rng, c&1 == 1, c&2 == 2, s[0], s[1], s[2], 2, 0)
			}
		}
	})
}

// A hand example in every transpose case, so that the comparison with
// gonum is not the only check: A = [[1 2] [3 4]], B = [[5 6] [7 8]].
func TestGemmByHand(t *testing.T) {
	a, b := []float64{1, 2, 3, 4}, []float64{5, 6, 7, 8}
	for _, c := range []struct {
		tA, tB bool
		want   [4]float64
	}{
		{false, false, [4]float64{19, 22, 43, 50}},
		{true, false, [4]float64{26, 30, 38, 44}},
		{false, true, [4]float64{17, 23, 39, 53}},
		{true, true, [4]float64{23, 31, 34, 46}},
	} {
		got := make([]float64, 4)
		Gemm(c.tA, c.tB, 2, 2, 2, a, 2, b, 2, 0, got, 2)
		if [4]float64(got) != c.want {
			t.Fatalf("tA=%v tB=%v: %v, want %v", c.tA, c.tB, got, c.want)
		}
	}
}

// Mul on mat.Dense views against gonum's Mul.
func TestMul(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	rnd := func(r, c int) *mat.Dense {
		x := mat.NewDense(r+2, c+3, nil)
		for i := range r + 2 {
			for j := range c + 3 {
				x.Set(i, j, rng.NormFloat64())
			}
		}
		return x.Slice(1, r+1, 2, c+2).(*mat.Dense)
	}
	a, b := rnd(30, 11), rnd(19, 11)
	var got, want mat.Dense
	Mul(&got, a, false, b, true)
	want.Mul(a, b.T())
	if !mat.EqualApprox(&got, &want, 1e-12) {
		t.Fatal("Mul(a, bᵀ) differs from gonum")
	}
	c := rnd(30, 7)
	got.Reset()
	Mul(&got, a, true, c, false)
	want.Reset()
	want.Mul(a.T(), c)
	if !mat.EqualApprox(&got, &want, 1e-12) {
		t.Fatal("Mul(aᵀ, c) differs from gonum")
	}
	// dst a view of an operand: the product is formed apart.
	sq := rnd(11, 11)
	want.Reset()
	want.Mul(sq, sq)
	Mul(sq, sq, false, sq, false)
	if !mat.EqualApprox(sq, &want, 1e-12) {
		t.Fatal("Mul(s, s, s) (aliased) differs from gonum")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("mismatched shapes did not panic")
		}
	}()
	Mul(&got, a, false, c, false)
}

func FuzzGemm(f *testing.F) {
	f.Add(uint8(7), uint8(9), uint8(13), uint8(1), uint8(3), true)
	f.Fuzz(func(t *testing.T, m, n, k, pad, cs uint8, asm bool) {
		defer func(u bool) { UseAsm = u }(UseAsm)
		UseAsm = asm
		rng := rand.New(rand.NewPCG(uint64(m), uint64(n)))
		checkGemm(t, rng, cs&1 == 1, cs&2 == 2, int(m%70), int(n%70), int(k)*2, int(pad%4), []float64{0, 1, 2}[int(cs/4)%3])
	})
}
