package kernel

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// checkMulVec compares MulVec on an m×n matrix of stride lda with gonum's
// Dgemv (1e-13 relative to Σ|a_ij·x_j|: the summation orders differ) and,
// bit for bit, with Dot row by row (the order MulVec documents). y starts
// as NaN, so that a row no worker wrote fails.
func checkMulVec(t testing.TB, rng *rand.Rand, m, n, lda int) {
	t.Helper()
	a := make([]float64, max(0, (m-1)*lda+n))
	for i := range a {
		a[i] = rng.NormFloat64()
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	y := make([]float64, m+2)
	for i := range y {
		y[i] = math.NaN()
	}
	MulVec(y, a, m, n, lda, x)
	if m == 0 {
		return
	}
	ref := make([]float64, m)
	blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: m, Cols: n, Stride: lda, Data: a},
		blas64.Vector{N: n, Inc: 1, Data: x}, 0, blas64.Vector{N: m, Inc: 1, Data: ref})
	for i := range m {
		row := a[i*lda : i*lda+n]
		if want := Dot(row, x); math.Float64bits(y[i]) != math.Float64bits(want) {
			t.Fatalf("MulVec %d×%d (lda %d, asm %v, %d procs): y[%d] = %v, Dot of the row %v",
				m, n, lda, UseAsm, runtime.GOMAXPROCS(0), i, y[i], want)
		}
		var scale float64
		for j, v := range row {
			scale += math.Abs(v * x[j])
		}
		if math.Abs(y[i]-ref[i]) > 1e-13*scale {
			t.Fatalf("MulVec %d×%d: y[%d] = %v, gonum's Dgemv %v", m, n, i, y[i], ref[i])
		}
	}
	if !math.IsNaN(y[m]) || !math.IsNaN(y[m+1]) {
		t.Fatalf("MulVec %d×%d wrote past y[m-1]", m, n)
	}
}

// TestMulVec runs small, odd and strided shapes and shapes above the
// parallel threshold with 1, 2 and 3 workers, on every dispatch path.
func TestMulVec(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 3} {
		runtime.GOMAXPROCS(procs)
		paths(t, func(t testing.TB) {
			for _, s := range [][3]int{{0, 3, 3}, {1, 1, 1}, {3, 17, 20}, {17, 3, 3}, {50, 50, 53}, {600, 500, 500}, {513, 513, 520}, {2, 200000, 200000}} {
				checkMulVec(t, rng, s[0], s[1], s[2])
			}
		})
	}
}

// TestMulVecCanFail: mulVecRows writes the rows of its share only, so a
// dropped worker's share stays NaN; TestMulVec's outputs start as NaN and
// fail on it (seen when the last share was dropped by hand).
func TestMulVecCanFail(t *testing.T) {
	a := []float64{1, 2, 3, 4}
	x := []float64{1, 1}
	y := []float64{math.NaN(), math.NaN()}
	mulVecRows(y, a, 0, 1, 2, 2, x) // only the first share
	if y[0] != 3 || !math.IsNaN(y[1]) {
		t.Fatalf("mulVecRows wrote %v", y)
	}
	MulVec(y, a, 2, 2, 2, x)
	if y[0] != 3 || y[1] != 7 {
		t.Fatalf("MulVec wrote %v, want [3 7]", y)
	}
}

// TestMulVecPanics: bad shapes panic.
func TestMulVecPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"short y":   func() { MulVec(make([]float64, 1), make([]float64, 4), 2, 2, 2, make([]float64, 2)) },
		"short x":   func() { MulVec(make([]float64, 2), make([]float64, 4), 2, 2, 2, make([]float64, 1)) },
		"small lda": func() { MulVec(make([]float64, 2), make([]float64, 4), 2, 2, 1, make([]float64, 2)) },
		"short a":   func() { MulVec(make([]float64, 2), make([]float64, 3), 2, 2, 2, make([]float64, 2)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// BenchmarkMulVec times MulVec and gonum's Dgemv on square matrices of the
// sizes of a cardinality fit's Gram matrix.
func BenchmarkMulVec(b *testing.B) {
	for _, p := range []int{500, 1000, 2000} {
		a := make([]float64, p*p)
		x := make([]float64, p)
		y := make([]float64, p)
		for i := range a {
			a[i] = float64(i%13) - 6
		}
		for i := range x {
			x[i] = float64(i%5) - 2
		}
		b.Run("kernel/"+strconv.Itoa(p), func(b *testing.B) {
			for b.Loop() {
				MulVec(y, a, p, p, p, x)
			}
		})
		b.Run("gonum/"+strconv.Itoa(p), func(b *testing.B) {
			for b.Loop() {
				blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: p, Cols: p, Stride: p, Data: a},
					blas64.Vector{N: p, Inc: 1, Data: x}, 0, blas64.Vector{N: p, Inc: 1, Data: y})
			}
		})
	}
}
