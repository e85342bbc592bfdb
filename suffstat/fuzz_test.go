package suffstat

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// extremeNumber draws a magnitude of kind k: 0, subnormal, tiny, unit,
// huge, near the overflow of squares, or any binary exponent at all.
func extremeNumber(rng *rand.Rand, k uint8) float64 {
	switch k % 7 {
	case 0:
		return 0
	case 1:
		return 1e-320 * (1 + rng.Float64())
	case 2:
		return 1e-200 * (1 + rng.Float64())
	case 3:
		return 1 + rng.Float64()
	case 4:
		return 1e300 * (1 + rng.Float64())
	case 5:
		return 1e154 * (1 + rng.Float64())
	}
	return math.Ldexp(1+rng.Float64(), rng.IntN(2098)-1074)
}

// scaledTwoPass is twoPass computed on data scaled by powers of two to
// unit size, column by column, and scaled back, so that the reference
// itself neither overflows nor underflows where the true statistics do
// not.
func scaledTwoPass(z *mat.Dense, w []float64) (float64, []float64, *mat.Dense) {
	_, d := z.Dims()
	ez := make([]int, d)
	for j := range ez {
		ez[j] = exponent(colMaxAbs(z, j))
	}
	var top float64
	for _, v := range w {
		top = math.Max(top, v)
	}
	ew := exponent(top)
	var zs mat.Dense
	zs.Apply(func(_, j int, v float64) float64 { return math.Ldexp(v, -ez[j]) }, z)
	ws := make([]float64, len(w))
	for i, v := range w {
		ws[i] = math.Ldexp(v, -ew)
	}
	tw, mean, c := twoPass(&zs, ws)
	for j := range mean {
		mean[j] = math.Ldexp(mean[j], ez[j])
	}
	c.Apply(func(a, b int, v float64) float64 { return math.Ldexp(v, ez[a]+ez[b]+ew) }, c)
	return math.Ldexp(tw, ew), mean, c
}

// exponent is the binary exponent of m (0 for 0).
func exponent(m float64) int {
	_, e := math.Frexp(m)
	return e
}

// FuzzExtremeWeights adds rows with extreme weights (subnormal, huge,
// mixed, zeros) and values by Add, AddRows and a Chunk: nothing panics,
// and each result is either refused (CheckWeight, Check) or equal to the
// two-pass reference. Through a WeightScale (checkScaled) no finite
// weight is refused. The corpus seeds cover every kind.
func FuzzExtremeWeights(f *testing.F) {
	for kw := range uint8(8) {
		for kz := range uint8(8) {
			f.Add(uint64(kw)*8+uint64(kz), kw, kz, uint8(20))
		}
	}
	f.Fuzz(func(t *testing.T, seed uint64, kw, kz, n uint8) {
		rng := rand.New(rand.NewPCG(seed, 1))
		rows, d := int(n%64)+1, 3
		z := mat.NewDense(rows, d, nil)
		w := make([]float64, rows)
		for i := range rows {
			// kind 7 mixes the others row by row
			k := kw
			if kw%8 == 7 {
				k = uint8(rng.IntN(7))
			}
			w[i] = extremeNumber(rng, k)
			for j := range d {
				kj := kz
				if kz%8 == 7 {
					kj = uint8(rng.IntN(7))
				}
				z.Set(i, j, extremeNumber(rng, kj)*float64(1-2*rng.IntN(2)))
			}
		}
		checkScaled(t, z, w)
		for _, v := range w {
			if err := CheckWeight(v); err != nil {
				return // refused up front, with its reason
			}
		}
		checkExtreme(t, z, w)
	})
}

// checkExtreme compares the three ways of adding rows with the reference.
func checkExtreme(t *testing.T, z *mat.Dense, w []float64) {
	rows, d := z.Dims()
	one, block, chunked := New(d), New(d), New(d)
	c := NewChunk(chunked, 5)
	for i := range rows {
		one.Add(z.RawRowView(i), w[i])
		c.Add(z.RawRowView(i), w[i])
	}
	c.Flush()
	block.AddRows(z, w)
	compareExtreme(t, z, w, one, block, chunked)
}

// checkScaled adds the rows with their weights on a WeightScale, by Add
// and by a Chunk, rescaling the statistics each time the scale moves, and
// compares them with the reference of the weights on the final scale.
func checkScaled(t *testing.T, z *mat.Dense, w []float64) {
	rows, d := z.Dims()
	var s WeightScale
	one, chunked := New(d), New(d)
	c := NewChunk(chunked, 5)
	for i := range rows {
		ws, shift := s.Scale(w[i])
		if shift != 0 {
			c.Flush()
			one.ScaleExp(shift)
			chunked.ScaleExp(shift)
		}
		one.Add(z.RawRowView(i), ws)
		c.Add(z.RawRowView(i), ws)
	}
	c.Flush()
	final := make([]float64, rows)
	for i, v := range w {
		final[i] = math.Ldexp(v, -s.Exp())
		if final[i] >= 0x1p65 {
			t.Fatalf("weight %v is %v on the scale 2^%d", v, final[i], s.Exp())
		}
	}
	compareExtreme(t, z, final, one, chunked)
}

// compareExtreme compares statistics of the rows z with weights w with the
// two-pass reference, unless they are empty or said to be out of range.
func compareExtreme(t *testing.T, z *mat.Dense, w []float64, ms ...*Moments) {
	_, d := z.Dims()
	tw, mean, ref := scaledTwoPass(z, w)
	for _, m := range ms {
		if m.W == 0 {
			continue
		}
		if m.Check() != nil {
			continue // said, not silently wrong
		}
		if math.Abs(m.W-tw) > 1e-12*tw {
			t.Fatalf("W %v, reference %v", m.W, tw)
		}
		for a := range d {
			za := colMaxAbs(z, a)
			if math.Abs(m.Mean[a]-mean[a]) > 1e-9*za+1e-300 {
				t.Fatalf("mean %d: %v, reference %v", a, m.Mean[a], mean[a])
			}
			for b := a; b < d; b++ {
				// relative error, plus float64's absolute resolution
				// for subnormal values (they hold a few bits only)
				zb := colMaxAbs(z, b)
				bound := 1e-8*tw*za*zb + 1e-320*tw*(za+zb) + 1e-290
				if got, want := m.C[a*d+b], ref.At(a, b); !(math.Abs(got-want) <= bound) && !math.IsInf(want, 0) {
					t.Fatalf("C[%d,%d]: %v, reference %v", a, b, got, want)
				}
			}
		}
		m.Scale(float64(m.N) / m.W) // finite for weights CheckWeight accepts or scaled
	}
}

func colMaxAbs(z *mat.Dense, j int) float64 {
	var m float64
	r, _ := z.Dims()
	for i := range r {
		m = math.Max(m, math.Abs(z.At(i, j)))
	}
	return m
}

// TestCheckWeight: the weights that broke the streamed statistics are
// refused with their value, and ordinary ones pass. On the old code a
// subnormal weight was added and Scale(N/W) then panicked.
func TestCheckWeight(t *testing.T) {
	// 3.5e19 is 1.9·2⁶⁴, past the documented bound (an exponent test let
	// it through).
	for _, w := range []float64{1e-320, 5e-324, 1e-30, 3.5e19, 1e20, 1e308, -1, math.NaN(), math.Inf(1)} {
		if err := CheckWeight(w); err == nil {
			t.Errorf("weight %v accepted", w)
		}
	}
	for _, w := range []float64{0, 1, 1e-19, 1e19, 0.5, 3} {
		if err := CheckWeight(w); err != nil {
			t.Errorf("weight %v: %v", w, err)
		}
	}
}

// TestCheckOverflow: statistics of values near 1e200 overflow and Check
// names the variable instead of letting +Inf through.
func TestCheckOverflow(t *testing.T) {
	m := New(2)
	m.Add([]float64{1, 1e200}, 1)
	m.Add([]float64{2, -1e200}, 1)
	err := m.Check()
	if err == nil {
		t.Fatal("no error")
	}
	if re, ok := err.(*RangeError); !ok || re.Var != 1 {
		t.Fatalf("error %v", err)
	}
	m = New(2)
	m.Add([]float64{1, 1e100}, 1)
	m.Add([]float64{2, -1e100}, 1)
	if err := m.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestWeightSummary: one weight of 1e308 among ones leaves the others
// below its rounding and is refused, naming the row. Kish's effective
// sample (under 2) refused frequency weights that glmnet fits: one row of
// 1000 among 200 ones, an aggregated count of 1500 among ones, and a row
// of 1e15 among ones; they pass now, as do equal weights at any scale.
// The boundary is Σ others against Max·2⁻⁵².
func TestWeightSummary(t *testing.T) {
	sum := func(w []float64) *WeightSummary {
		var s WeightSummary
		for _, v := range w {
			s.Add(v)
		}
		return &s
	}
	w := make([]float64, 200)
	for i := range w {
		w[i] = 1
	}
	w[3] = 1e308
	s := sum(w)
	if err := s.Check(); err == nil || s.MaxRow != 3 || !strings.Contains(err.Error(), "outweighs") {
		t.Fatalf("1e308 among ones: %v, row %d", err, s.MaxRow)
	}
	for _, heavy := range []float64{1000, 1500, 1e15} {
		w[3] = heavy
		if err := sum(w).Check(); err != nil {
			t.Fatalf("%g among ones: %v", heavy, err)
		}
	}
	// 1 next to 2⁵² is at its rounding (kept); next to 2⁵³ it is below.
	for _, c := range []struct {
		w    []float64
		fail bool
	}{
		{[]float64{1, 0x1p52}, false},
		{[]float64{0x1p53, 1}, true},
		{[]float64{1, 0x1p53, 0}, true},
		{[]float64{0, 5, 0}, true},
		{[]float64{5}, false},
		{[]float64{0x1p-1074, 1e-320, 1e-320}, false},
	} {
		if err := sum(c.w).Check(); (err != nil) != c.fail {
			t.Fatalf("weights %v: %v", c.w, err)
		}
	}
	for _, c := range []float64{1e-320, 1, 1e308} {
		for i := range w {
			w[i] = c
		}
		if s := sum(w); s.Check() != nil || s.MaxRow != 0 {
			t.Fatalf("weights %v: %v, heaviest row %d", c, s.Check(), s.MaxRow)
		}
	}
}

// TestWeightScale: weights of 1e20 and 2e20 (refused as they are, above
// 2^64) give on a WeightScale the statistics of 1 and 2, up to the one
// factor; a first weight of 1e-30 or 1e-320 before ones (the scale moves
// up by 2^99, 2^1063) counts for what it weighs. Both were refused on the
// gaussian route.
func TestWeightScale(t *testing.T) {
	const n = 50
	z := mat.NewDense(n, 2, nil)
	for i := range n {
		z.Set(i, 0, math.Sin(float64(i)))
		z.Set(i, 1, math.Cos(float64(3*i))+float64(i%5))
	}
	add := func(w func(i int) float64) *Moments {
		var s WeightScale
		m := New(2)
		for i := range n {
			ws, shift := s.Scale(w(i))
			m.ScaleExp(shift)
			m.Add(z.RawRowView(i), ws)
		}
		m.Scale(n / m.W)
		return m
	}
	direct := func(w func(i int) float64) *Moments {
		m := New(2)
		for i := range n {
			m.Add(z.RawRowView(i), w(i))
		}
		m.Scale(n / m.W)
		return m
	}
	near := func(a, b *Moments) bool {
		for i := range a.C {
			if math.Abs(a.C[i]-b.C[i]) > 1e-12*(1+math.Abs(b.C[i])) {
				return false
			}
		}
		return math.Abs(a.Mean[0]-b.Mean[0]) < 1e-14 && math.Abs(a.Mean[1]-b.Mean[1]) < 1e-13
	}
	big := add(func(i int) float64 { return float64(1+i%2) * 1e20 })
	if want := direct(func(i int) float64 { return float64(1 + i%2) }); !near(big, want) {
		t.Fatalf("1e20/2e20: %v %v, want the statistics of 1/2: %v %v", big.Mean, big.C, want.Mean, want.C)
	}
	// 1e-320 is compared with 0: as it is, Add keeps a few of its bits
	for _, c := range []struct{ tiny, as float64 }{{1e-30, 1e-30}, {1e-320, 0}} {
		first := func(v float64) func(int) float64 {
			return func(i int) float64 { return map[bool]float64{true: v, false: 1}[i == 0] }
		}
		if got, want := add(first(c.tiny)), direct(first(c.as)); !near(got, want) {
			t.Fatalf("%v first: %v %v, want %v %v", c.tiny, got.Mean, got.C, want.Mean, want.C)
		}
	}
}

// TestCheckMagnitude: values at 1e-200 (whose squares underflow: the
// statistics call the variable constant) are refused, as are values at
// 1e-150 with weights near 1e-19; values at 1e-150 with weight 1 pass.
func TestCheckMagnitude(t *testing.T) {
	for _, c := range []struct{ m, w float64 }{{1e-200, 1}, {1e-160, 1}, {1e-150, 1e-19}} {
		if CheckMagnitude(c.m, c.w) == nil {
			t.Errorf("%v accepted", c)
		}
	}
	for _, c := range []struct{ m, w float64 }{{0, 1}, {1e-150, 1}, {1, 1e-19}, {1e200, 1}} {
		if err := CheckMagnitude(c.m, c.w); err != nil {
			t.Errorf("%v: %v", c, err)
		}
	}
	m := New(1)
	m.Add([]float64{1e-200}, 1)
	m.Add([]float64{3e-200}, 1)
	if m.C[0] != 0 {
		t.Errorf("squares at 1e-200 kept: %v (the check is not needed?)", m.C[0])
	}
}
