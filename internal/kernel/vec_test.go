package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// checkVec compares Dot, Dot3 and AxpyMul with plain loops on vectors of
// length n starting at offset off of their backing arrays (unaligned
// views), on the current dispatch path.
func checkVec(t testing.TB, rng *rand.Rand, n, off int) {
	vec := func() []float64 {
		v := make([]float64, n+off+3)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		return v[off : off+n]
	}
	a, b, c := vec(), vec(), vec()
	var d, d3, scale, scale3 float64
	for i := range n {
		d += a[i] * b[i]
		d3 += a[i] * b[i] * c[i]
		scale += math.Abs(a[i] * b[i])
		scale3 += math.Abs(a[i] * b[i] * c[i])
	}
	tol := 1e-14 * float64(n+1)
	if got := Dot(a, b); math.Abs(got-d) > tol*(scale+1) {
		t.Fatalf("Dot n=%d off=%d (path %s): %v, want %v", n, off, pathName(), got, d)
	}
	if got := Dot3(a, b, c); math.Abs(got-d3) > tol*(scale3+1) {
		t.Fatalf("Dot3 n=%d off=%d (path %s): %v, want %v", n, off, pathName(), got, d3)
	}
	y := vec()
	want := make([]float64, n)
	for i := range n {
		want[i] = y[i] + 0.7*a[i]*b[i]
	}
	full := y[:n+3] // the values past n must not change
	after := append([]float64(nil), full[n:]...)
	AxpyMul(0.7, a, b, y)
	for i := range n {
		if math.Abs(y[i]-want[i]) > 1e-15*(math.Abs(want[i])+1) {
			t.Fatalf("AxpyMul n=%d off=%d (path %s): y[%d] = %v, want %v", n, off, pathName(), i, y[i], want[i])
		}
		want[i] = y[i] - 1.3*c[i]
	}
	Axpy(-1.3, c, y)
	for i := range n {
		if math.Abs(y[i]-want[i]) > 1e-15*(math.Abs(want[i])+1) {
			t.Fatalf("Axpy n=%d off=%d (path %s): y[%d] = %v, want %v", n, off, pathName(), i, y[i], want[i])
		}
	}
	for _, acc := range []bool{false, true} {
		d := vec()
		for i := range n {
			s := a[i] + b[i] + c[i] + d[i] // the documented order: exact equality
			if acc {
				s += y[i]
			}
			want[i] = s
		}
		Sum4(acc, a, b, c, d, y)
		for i := range n {
			if y[i] != want[i] {
				t.Fatalf("Sum4 acc=%v n=%d off=%d (path %s): y[%d] = %v, want %v", acc, n, off, pathName(), i, y[i], want[i])
			}
		}
	}
	for i, v := range after {
		if full[n+i] != v {
			t.Fatalf("AxpyMul, Axpy or Sum4 n=%d wrote past the end", n)
		}
	}
}

// TestVec runs every length 0–70 and a few long ones, aligned and not, on
// every dispatch path (the Go fallback forced too).
func TestVec(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	paths(t, func(t testing.TB) {
		for n := range 71 {
			for _, off := range []int{0, 1, 3} {
				checkVec(t, rng, n, off)
			}
		}
		for _, n := range []int{1000, 4097, 100003} {
			checkVec(t, rng, n, 1)
		}
	})
}

// TestVecBitForBit checks that every dispatch path gives the same bits:
// every length to 70 and long ones, at offsets that misalign the vectors
// from 64-byte lines.
func TestVecBitForBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	lengths := []int{1000, 4097, 5000, 100003}
	for n := range 71 {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		for _, off := range []int{0, 1, 3, 7} {
			a, b, c, y := randVec(rng, n, off), randVec(rng, n, off), randVec(rng, n, off), randVec(rng, n, off)
			samePaths(t, fmt.Sprintf("n=%d off=%d", n, off), func() []float64 {
				return vecResults(a, b, c, y)
			})
		}
	}
}

// randVec returns n standard normal values at offset off of a fresh array.
func randVec(rng *rand.Rand, n, off int) []float64 {
	v := make([]float64, n+off)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v[off:]
}

// vecResults returns Dot, Dot3, Dot of x with itself and y after AxpyMul
// and then Axpy (on a copy of y), every value the kernels give.
func vecResults(a, b, c, y []float64) []float64 {
	out := []float64{Dot(a, b), Dot3(a, b, c), Dot(c, c)}
	y = append([]float64(nil), y...)
	AxpyMul(0.7, a, b, y)
	out = append(out, y...)
	Axpy(-1.3, c, y)
	return append(out, y...)
}

// TestBitForBitCanFail: the data of TestVecBitForBit tell summation orders
// apart, so that a path that summed its lanes in another order would be
// caught: a sequential sum and one with the 4-wide registers added in
// another order differ in their bits from Dot for most lengths.
func TestBitForBitCanFail(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	seq, swapped := 0, 0
	for n := 16; n < 200; n++ {
		a, b := randVec(rng, n, 1), randVec(rng, n, 1)
		d := Dot(a, b)
		var s float64
		var acc [block]float64
		for i := range n {
			s += a[i] * b[i]
			if i < n&^(block-1) {
				acc[i%block] = math.FMA(a[i], b[i], acc[i%block])
			}
		}
		if s != d {
			seq++
		}
		var v [4]float64
		for l := range v {
			v[l] = (acc[l] + acc[8+l]) + (acc[4+l] + acc[12+l])
		}
		w := (v[0] + v[2]) + (v[1] + v[3])
		for i := n &^ (block - 1); i < n; i++ {
			w += a[i] * b[i]
		}
		if w != d {
			swapped++
		}
	}
	if seq < 100 || swapped < 50 {
		t.Fatalf("of 184 lengths, a sequential sum differs from Dot at %d, a swapped register order at %d", seq, swapped)
	}
	t.Logf("of 184 lengths, a sequential sum differs from Dot at %d, a swapped register order at %d", seq, swapped)
}

// TestVecCanFail: a wrong sum is caught.
func TestVecCanFail(t *testing.T) {
	x := []float64{1, 2, 3}
	if Dot(x, x) != 14 || Dot3(x, x, x) != 36 {
		t.Fatal("Dot or Dot3 wrong on a hand example")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a short second vector did not panic")
		}
	}()
	Dot(x, x[:2])
}

// FuzzVec checks arbitrary lengths and offsets on every path.
func FuzzVec(f *testing.F) {
	f.Add(uint16(17), uint8(1), uint64(1))
	f.Fuzz(func(t *testing.T, n uint16, off uint8, seed uint64) {
		rng := rand.New(rand.NewPCG(seed, 1))
		paths(t, func(t testing.TB) { checkVec(t, rng, int(n%5000), int(off%8)) })
	})
}

// BenchmarkVec times Dot, Dot3, AxpyMul and Axpy on every dispatch path
// at the column lengths of the GLM benchmarks; cpu-ns/op is the process's
// CPU time per call (run with GOMAXPROCS=1).
func BenchmarkVec(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1000, 5000, 100000} {
		x, y, z, w := randVec(rng, n, 0), randVec(rng, n, 0), randVec(rng, n, 0), randVec(rng, n, 0)
		for _, op := range []struct {
			name string
			f    func()
		}{
			{"Dot", func() { Dot(x, y) }},
			{"Dot3", func() { Dot3(x, y, z) }},
			{"AxpyMul", func() { AxpyMul(1e-9, x, y, w) }},
			{"Axpy", func() { Axpy(1e-9, x, w) }},
		} {
			paths(b, func(testing.TB) {
				b.Run(fmt.Sprintf("%s/n=%d/path=%s", op.name, n, pathName()), func(b *testing.B) {
					cpuLoop(b, float64(n), "Gvalues/cpu-s", op.f)
				})
			})
		}
	}
}

// A vector shorter than the operation panics, even with spare capacity
// past its length (which the assembly would otherwise read).
func TestVecShortPanics(t *testing.T) {
	long := make([]float64, 40)
	short := make([]float64, 40)[:20] // capacity 40
	for name, f := range map[string]func(){
		"Dot":     func() { Dot(long, short) },
		"Dot3":    func() { Dot3(long, long, short) },
		"AxpyMul": func() { AxpyMul(1, long, short, long) },
		"Axpy":    func() { Axpy(1, short, long) },
		"Sum4":    func() { Sum4(true, long, long, long, short, long) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic for a short vector", name)
				}
			}()
			f()
		}()
	}
}
