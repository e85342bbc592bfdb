package kernel

import (
	"math"
	"math/rand/v2"
	"os/exec"
	"runtime"
	"testing"

	"github.com/cardsparse/cardreg/internal/testenv"
	"gonum.org/v1/gonum/mat"
)

// paths runs f on every dispatch path available on this machine.
func paths(t testing.TB, f func(t testing.TB)) {
	defer func(u bool) { UseAsm = u }(UseAsm)
	for _, asm := range []bool{false, true} {
		if asm && !hasAsm {
			continue
		}
		UseAsm = asm
		f(t)
	}
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
					t.Fatalf("n=%d p=%d pad=%d asm=%v: lower (%d,%d) written", n, p, pad, Accelerated(), i, j)
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
				t.Fatalf("n=%d p=%d pad=%d asm=%v: (%d,%d) = %v, want %v", n, p, pad, Accelerated(), i, j, got, w)
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
	f.Add(uint16(5), uint16(7), uint8(1), uint64(1), false)
	f.Add(uint16(300), uint16(30), uint8(0), uint64(2), true)
	f.Fuzz(func(t *testing.T, n, p uint16, pad uint8, seed uint64, asm bool) {
		n, p = n%700, p%120+1
		defer func(u bool) { UseAsm = u }(UseAsm)
		UseAsm = asm
		checkGram(t, rand.New(rand.NewPCG(seed, 0)), int(n), int(p), int(pad%9))
	})
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
