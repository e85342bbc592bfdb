package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os/exec"
	"runtime"
	"testing"

	"github.com/cardsparse/cardreg/internal/testenv"
	"gonum.org/v1/gonum/mat"
)

// paths runs f on every dispatch path available on this machine: the
// portable Go forms, the AVX2 kernels and the AVX-512 kernels.
func paths(t testing.TB, f func(t testing.TB)) {
	defer func(u, z bool) { UseAsm, UseAVX512 = u, z }(UseAsm, UseAVX512)
	for _, p := range [][2]bool{{false, false}, {true, false}, {true, true}} {
		if p[0] && !hasAsm || p[1] && !hasAVX512 {
			continue
		}
		UseAsm, UseAVX512 = p[0], p[1]
		f(t)
	}
}

// pathName names the dispatch path in force.
func pathName() string {
	switch {
	case !Accelerated():
		return "go"
	case avx512():
		return "avx512"
	}
	return "avx2"
}

// samePaths runs f on every dispatch path and fails unless every path
// gives the bits of the first (the portable Go forms).
func samePaths(t *testing.T, what string, f func() []float64) {
	t.Helper()
	var want []float64
	var wantPath string
	paths(t, func(testing.TB) {
		got := f()
		if want == nil {
			want, wantPath = got, pathName()
			return
		}
		if i := firstBitDiff(got, want); i >= 0 {
			t.Fatalf("%s: %s gives %v at %d, %s %v", what, pathName(), got[i], i, wantPath, want[i])
		}
	})
}

// firstBitDiff returns the first index at which a and b differ in their
// bits (or in length, the shorter length), -1 if they are identical.
func firstBitDiff(a, b []float64) int {
	for i := range min(len(a), len(b)) {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// checkGram compares Gram on a strided n×p view with gonum's SymOuterK.
func checkGram(t testing.TB, rng *rand.Rand, n, p, pad int) {
	ldx := p + pad
	x := make([]float64, max(n*ldx, 1))
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	ldc := p + 3
	dst := make([]float64, max(p*ldc, 1))
	for i := range dst {
		dst[i] = math.NaN() // the lower triangle must stay untouched
	}
	Gram(dst, ldc, x, n, p, ldx)
	var want mat.SymDense
	if n > 0 {
		xv := mat.NewDense(n, ldx, x[:n*ldx]).Slice(0, n, 0, p)
		want.SymOuterK(1, xv.T())
	}
	tol := 1e-13 * float64(n+1)
	for i := range p {
		for j := range p {
			got := dst[i*ldc+j]
			if j < i {
				if !math.IsNaN(got) {
					t.Fatalf("n=%d p=%d pad=%d path %s: lower (%d,%d) written", n, p, pad, pathName(), i, j)
				}
				continue
			}
			w := 0.0
			if n > 0 {
				w = want.At(i, j)
			}
			// The scale of an entry is bounded by sqrt(G_ii G_jj).
			scale := 1.0
			if n > 0 {
				scale = math.Sqrt(want.At(i, i)*want.At(j, j)) + 1
			}
			if math.Abs(got-w) > tol*scale || math.IsNaN(got) {
				t.Fatalf("n=%d p=%d pad=%d path %s: (%d,%d) = %v, want %v", n, p, pad, pathName(), i, j, got, w)
			}
		}
	}
}

func TestGramSmall(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	paths(t, func(t testing.TB) {
		for n := 0; n <= 17; n++ {
			for p := 1; p <= 17; p++ {
				for _, pad := range []int{0, 1, 5} {
					checkGram(t, rng, n, p, pad)
				}
			}
		}
	})
}

func TestGramLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	shapes := [][2]int{{255, 23}, {256, 24}, {257, 25}, {513, 97}, {1000, 150}, {3000, 61}, {20000, 13}, {700, 300}}
	paths(t, func(t testing.TB) {
		for _, procs := range []int{1, 2, 3} {
			old := runtime.GOMAXPROCS(procs)
			for _, s := range shapes {
				checkGram(t, rng, s[0], s[1], 2)
			}
			runtime.GOMAXPROCS(old)
		}
	})
}

// TestGramCanFail makes sure the comparison notices a wrong result.
func TestGramCanFail(t *testing.T) {
	x := []float64{1, 2, 3, 4}
	dst := make([]float64, 4)
	Gram(dst, 2, x, 2, 2, 2)
	if dst[0] != 10 || dst[1] != 14 || dst[3] != 20 {
		t.Fatalf("Gram of [[1 2] [3 4]] = %v", dst)
	}
}

func TestSymRankK(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	var got, want mat.SymDense
	SymRankK(&got, x)
	want.SymOuterK(1, x.T())
	if !mat.EqualApprox(&got, &want, 1e-14) {
		t.Fatalf("SymRankK = %v, want %v", mat.Formatted(&got), mat.Formatted(&want))
	}
}

func FuzzGram(f *testing.F) {
	f.Add(uint16(5), uint16(7), uint8(1), uint64(1))
	f.Add(uint16(300), uint16(30), uint8(0), uint64(2))
	f.Fuzz(func(t *testing.T, n, p uint16, pad uint8, seed uint64) {
		n, p = n%700, p%120+1
		paths(t, func(t testing.TB) {
			checkGram(t, rand.New(rand.NewPCG(seed, 0)), int(n), int(p), int(pad%9))
		})
	})
}

// TestGramBitForBit checks that every dispatch path gives the same bits,
// on shapes that exercise every block width and diagonal start of the
// AVX-512 blocking, slabs of kc rows and a part of one, and two workers.
func TestGramBitForBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var shapes [][2]int
	for p := 1; p <= 50; p++ {
		shapes = append(shapes, [2]int{37, p})
	}
	shapes = append(shapes, [][2]int{{1, 24}, {255, 97}, {256, 100}, {600, 150}, {513, 200}, {3000, 61}}...)
	for _, procs := range []int{1, 2} {
		old := runtime.GOMAXPROCS(procs)
		for _, s := range shapes {
			n, p := s[0], s[1]
			ldx := p + 3
			x := make([]float64, n*ldx)
			for i := range x {
				x[i] = rng.NormFloat64()
			}
			samePaths(t, fmt.Sprintf("Gram %d×%d procs %d", n, p, procs), func() []float64 {
				dst := make([]float64, p*p)
				Gram(dst, p, x, n, p, ldx)
				return dst
			})
		}
		runtime.GOMAXPROCS(old)
	}
}

// TestGenerated checks that regenerating the assembly changes nothing
// (an exhaustive check: it builds and runs the generator, which took most
// of the README's test time; skipped in -short mode or when the asmgen
// module's dependencies cannot be loaded).
func TestGenerated(t *testing.T) {
	testenv.SkipUnlessSlow(t)
	if testing.Short() {
		t.Skip("runs the generator")
	}
	dir := t.TempDir()
	cmd := exec.Command("go", "run", ".", "-pkg", "kernel", "-out", dir+"/k.s", "-stubs", dir+"/s.go")
	cmd.Dir = "asmgen"
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("generator did not run: %v\n%s", err, out)
	}
	for _, f := range [][2]string{{"k.s", "kernel_amd64.s"}, {"s.go", "stub_amd64.go"}} {
		got := readFile(t, dir+"/"+f[0])
		want := readFile(t, f[1])
		if stripHeader(got) != stripHeader(want) {
			t.Errorf("%s is stale: run go generate ./internal/kernel/", f[1])
		}
	}
}
