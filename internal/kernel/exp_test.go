package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ulpsApart returns |got − want| in units of want's last place (the
// smallest subnormal's for 0).
func ulpsApart(got, want float64) float64 {
	if got == want {
		return 0
	}
	ulp := math.Abs(math.Nextafter(want, math.Inf(1)) - want)
	if math.IsInf(want, 0) || math.IsNaN(got) != math.IsNaN(want) {
		return math.Inf(1)
	}
	return math.Abs(got-want) / ulp
}

// expInputs are values over Exp's whole range, its edges and specials.
func expInputs(r *rand.Rand) []float64 {
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1e-300, -1e-300, expLo, expHi, -745.1, -745.2, -744, 709, 709.78, 709.79,
		-708.3, -708.4, 0.34657359027997264, -0.34657359027997264, 1e-17, -40, 40}
	for range 300000 {
		xs = append(xs, 1490*r.Float64()-760, 4*r.NormFloat64(), 0.7*r.Float64()-0.35)
	}
	return xs
}

func TestExp(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	worst := 0.0
	for _, x := range expInputs(r) {
		got, want := Exp(x), math.Exp(x)
		if math.IsInf(want, 1) && x < 709.782712893384 { // math.Exp overflows early on amd64
			want = math.Exp(x-1) * math.E
		}
		if want < 0x1p-1022 { // subnormal: an absolute ulp of the smallest subnormal
			if math.Abs(got-want) > 2*5e-324 {
				t.Fatalf("Exp(%v) = %v, math.Exp %v", x, got, want)
			}
			continue
		}
		if e := ulpsApart(got, want); e > 3 {
			t.Fatalf("Exp(%v) = %v, math.Exp %v: %v ulps apart", x, got, want, e)
		} else {
			worst = math.Max(worst, e)
		}
	}
	for _, x := range []float64{math.Inf(-1), -1000, -746.1} {
		if got := Exp(x); got != 0 {
			t.Errorf("Exp(%v) = %v, want 0", x, got)
		}
	}
	for _, x := range []float64{math.Inf(1), 710, 1000} {
		if got := Exp(x); !math.IsInf(got, 1) {
			t.Errorf("Exp(%v) = %v, want +Inf", x, got)
		}
	}
	if got := Exp(math.NaN()); !math.IsNaN(got) {
		t.Errorf("Exp(NaN) = %v", got)
	}
	t.Logf("worst %.2f ulps", worst)
}

func TestLog1pUnit(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	xs := []float64{0, 1, 0.5, 5e-324, 1e-300, 1e-17, 0x1p-53, 0x1p-52, math.Sqrt2 - 1, math.Nextafter(math.Sqrt2-1, 0), math.Nextafter(1, 0)}
	for range 300000 {
		xs = append(xs, r.Float64(), math.Exp(-745*r.Float64()), math.Exp(-40*r.Float64()))
	}
	worst := 0.0
	for _, x := range xs {
		got, want := Log1pUnit(x), math.Log1p(x)
		if e := ulpsApart(got, want); e > 2 {
			t.Fatalf("Log1pUnit(%v) = %v, math.Log1p %v: %v ulps apart", x, got, want, e)
		} else {
			worst = math.Max(worst, e)
		}
	}
	t.Logf("worst %.2f ulps", worst)
}

// TestExpToBitForBit checks that the vector kernels give the scalar
// functions' values bit for bit (the tails, every dispatch path), so that
// a family's vector and row-by-row evaluations agree.
func TestExpToBitForBit(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	x := append(expInputs(r), math.NaN(), math.Inf(1), math.Inf(-1), -1000, 1000)
	u := make([]float64, len(x))
	for i := range u {
		u[i] = math.Abs(math.Sin(x[i])) // in [0, 1]
		if i%5 == 0 {
			u[i] = math.Exp(-math.Abs(x[i]))
		}
	}
	paths(t, func(t testing.TB) {
		for _, n := range []int{0, 1, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 20, 23, 24, 25, len(x)} {
			got := make([]float64, n)
			ExpTo(got, x)
			for i, g := range got {
				if w := Exp(x[i]); math.Float64bits(g) != math.Float64bits(w) && !(math.IsNaN(g) && math.IsNaN(w)) {
					t.Fatalf("path %s: ExpTo[%d] of %v = %v, Exp %v", pathName(), i, x[i], g, w)
				}
			}
			Log1pUnitTo(got, u)
			for i, g := range got {
				if w := Log1pUnit(u[i]); math.Float64bits(g) != math.Float64bits(w) {
					t.Fatalf("path %s: Log1pUnitTo[%d] of %v = %v, Log1pUnit %v", pathName(), i, u[i], g, w)
				}
			}
		}
	})
}

// BenchmarkExp times ExpTo and Log1pUnitTo beside math.Exp and
// math.Log1p over 10⁵ values.
func BenchmarkExp(b *testing.B) {
	const n = 100000
	r := rand.New(rand.NewPCG(1, 1))
	x, u, dst := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = -2 * math.Abs(r.NormFloat64())
		u[i] = math.Exp(x[i])
	}
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"ExpTo", func() { ExpTo(dst, x) }},
		{"math.Exp", func() {
			for i, v := range x {
				dst[i] = math.Exp(v)
			}
		}},
		{"Log1pUnitTo", func() { Log1pUnitTo(dst, u) }},
		{"math.Log1p", func() {
			for i, v := range u {
				dst[i] = math.Log1p(v)
			}
		}},
	} {
		paths(b, func(testing.TB) {
			if c.name[:4] == "math" && pathName() != "go" {
				return
			}
			b.Run(c.name+"/path="+pathName(), func(b *testing.B) {
				cpuLoop(b, n, "Gvalues/cpu-s", c.f)
			})
		})
	}
}
