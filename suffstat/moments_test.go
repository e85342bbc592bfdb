package suffstat

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// twoPass is the reference: the weighted mean, then the centred
// co-moments, each a plain sum over the rows.
func twoPass(z *mat.Dense, w []float64) (float64, []float64, *mat.Dense) {
	n, d := z.Dims()
	var sw float64
	mean := make([]float64, d)
	for i := range n {
		sw += w[i]
		for j := range d {
			mean[j] += w[i] * z.At(i, j)
		}
	}
	for j := range mean {
		mean[j] /= sw
	}
	c := mat.NewDense(d, d, nil)
	for i := range n {
		for a := range d {
			for b := range d {
				c.Set(a, b, c.At(a, b)+w[i]*(z.At(i, a)-mean[a])*(z.At(i, b)-mean[b]))
			}
		}
	}
	return sw, mean, c
}

func randomRows(rng *rand.Rand, n, d int, shift float64) (*mat.Dense, []float64) {
	z := mat.NewDense(n, d, nil)
	w := make([]float64, n)
	for i := range n {
		w[i] = rng.Float64() * 3
		if i%7 == 0 {
			w[i] = 0
		}
		for j := range d {
			z.Set(i, j, shift+float64(j)*rng.NormFloat64()+rng.Float64())
		}
	}
	return z, w
}

// requireClose checks m against the two-pass reference to a relative
// tolerance.
func requireClose(t *testing.T, m *Moments, z *mat.Dense, w []float64, tol float64) {
	t.Helper()
	sw, mean, c := twoPass(z, w)
	require.InEpsilon(t, sw, m.W, tol)
	scale := mat.Norm(c, math.Inf(1))
	for j := range mean {
		require.InDelta(t, mean[j], m.Mean[j], tol*(math.Abs(mean[j])+1))
	}
	s := m.Sym()
	d, _ := c.Dims()
	for a := range d {
		for b := range d {
			require.InDelta(t, c.At(a, b), s.At(a, b), tol*scale, "C[%d,%d]", a, b)
		}
	}
}

// A Chunk (blocks of any size, weights with zeros) gives the statistics of
// Add row by row, counts included.
func TestChunk(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, d = 257, 6
	z, w := randomRows(rng, n, d, 3)
	w[5], w[77] = 0, 0
	for _, size := range []int{1, 7, 64, 300} {
		m := New(d)
		c := NewChunk(m, size)
		for i := range n {
			c.Add(z.RawRowView(i), w[i])
		}
		c.Flush()
		c.Flush() // an empty flush changes nothing
		require.Equal(t, int64(n), m.N)
		requireClose(t, m, z, w, 1e-12)
	}
	// Close after full blocks were handed on: returns (the worker ends).
	c := NewChunk(New(d), 4)
	for i := range 14 {
		c.Add(z.RawRowView(i), 1)
	}
	c.Close()
	c.Close()
	require.Panics(t, func() { NewChunk(New(d), 4).Add(make([]float64, d), -1) })
	require.Panics(t, func() { NewChunk(New(d), 4).Add(make([]float64, d+1), 1) })
}

// Row by row, by chunks and by merges in any order: the same statistics.
func TestMergeAnyOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, d = 300, 5
	z, w := randomRows(rng, n, d, 3)

	byRow := New(d)
	for i := range n {
		byRow.Add(z.RawRowView(i), w[i])
	}
	requireClose(t, byRow, z, w, 1e-12)
	require.Equal(t, int64(n), byRow.N)

	// Chunks of random sizes, merged in a random order.
	for trial := range 5 {
		var chunks []*Moments
		for i0 := 0; i0 < n; {
			i1 := min(n, i0+1+rng.IntN(60))
			c := New(d)
			if trial%2 == 0 {
				c.AddRows(z.Slice(i0, i1, 0, d), w[i0:i1])
			} else {
				for i := i0; i < i1; i++ {
					c.Add(z.RawRowView(i), w[i])
				}
			}
			chunks = append(chunks, c)
			i0 = i1
		}
		rng.Shuffle(len(chunks), func(i, j int) { chunks[i], chunks[j] = chunks[j], chunks[i] })
		all := New(d)
		for _, c := range chunks {
			all.Merge(c)
		}
		require.Equal(t, int64(n), all.N)
		requireClose(t, all, z, w, 1e-12)
	}
}

// A weight of 2 is the row counted twice; weight 0 is the row left out.
func TestWeightsAreCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	z, _ := randomRows(rng, 40, 3, 0)
	weighted, dup := New(3), New(3)
	for i := range 40 {
		weighted.Add(z.RawRowView(i), float64(i%3))
		for range i % 3 {
			dup.Add(z.RawRowView(i), 1)
		}
	}
	require.InDelta(t, dup.W, weighted.W, 0)
	for j := range 3 {
		require.InEpsilon(t, dup.Mean[j], weighted.Mean[j], 1e-13)
	}
	for k := range dup.C {
		require.InDelta(t, dup.C[k], weighted.C[k], 1e-12*math.Abs(dup.C[k]))
	}
}

// On x = 1e8 + U(0, 1) the centred updates keep the variance 1/12, where
// raw sums lose every digit.
func TestLargeOffset(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 100000
	x := make([]float64, n)
	for i := range x {
		x[i] = 1e8 + rng.Float64()
	}
	// The exact sample variance, by centring on the exact offset first.
	var s, ss float64
	for _, v := range x {
		s += v - 1e8
	}
	mean := s / n
	for _, v := range x {
		ss += (v - 1e8 - mean) * (v - 1e8 - mean)
	}
	want := ss / n
	require.InDelta(t, 1.0/12, want, 0.002)

	row, chunked, merged, blocks := New(1), New(1), New(1), New(1)
	bc := NewChunk(blocks, 333)
	for _, v := range x {
		row.Add([]float64{v}, 1)
		bc.Add([]float64{v}, 1)
	}
	bc.Flush()
	chunked.AddRows(mat.NewDense(n, 1, x), nil)
	for i0 := 0; i0 < n; i0 += 1000 {
		c := New(1)
		c.AddRows(mat.NewDense(1000, 1, x[i0:i0+1000]), nil)
		merged.Merge(c)
	}
	for _, m := range []*Moments{row, chunked, merged, blocks} {
		require.InEpsilon(t, want, m.C[0]/m.W, 1e-6)
	}

	// What raw sums would give: no correct digit (this is the failure the
	// package exists to avoid; if it ever passed, the test data would be
	// too easy).
	var raw, raw2 float64
	for _, v := range x {
		raw += v
		raw2 += v * v
	}
	naive := raw2/n - (raw/n)*(raw/n)
	require.Greater(t, math.Abs(naive-want)/want, 0.5, "raw sums got %v, want %v", naive, want)
}

func TestFolds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n, d, k = 200, 4, 5
	z, w := randomRows(rng, n, d, 1)
	f := NewFolds(k, d)
	fold := make([]int, n)
	for i := range n {
		fold[i] = FoldOf(uint64(i), 42, k)
		f.Fold[fold[i]].Add(z.RawRowView(i), w[i])
	}
	requireClose(t, f.All(), z, w, 1e-12)
	for kk := range k {
		// The training statistics equal those of the other folds' rows.
		var rows []float64
		var ws []float64
		for i := range n {
			if fold[i] != kk {
				rows = append(rows, z.RawRowView(i)...)
				ws = append(ws, w[i])
			}
		}
		requireClose(t, f.Train(kk), mat.NewDense(len(ws), d, rows), ws, 1e-12)
	}
}

// FoldOf is deterministic, depends on the seed, and balanced.
func TestFoldOf(t *testing.T) {
	const k, n = 7, 70000
	counts := make([]int, k)
	changed := 0
	for i := range uint64(n) {
		f := FoldOf(i, 1, k)
		require.Equal(t, f, FoldOf(i, 1, k))
		counts[f]++
		if FoldOf(i, 2, k) != f {
			changed++
		}
	}
	for _, c := range counts {
		require.InDelta(t, n/k, c, 0.03*n/k)
	}
	require.Greater(t, changed, n/2, "another seed gives other folds")
}

// RowFold deals each block of k rows to the k folds: balanced for any n,
// deterministic, and seed-dependent.
func TestRowFold(t *testing.T) {
	for _, k := range []int{2, 5, 10} {
		for _, n := range []int{k, 3*k + 1, 1000} {
			counts := make([]int, k)
			for i := range uint64(n) {
				f := RowFold(i, 3, k)
				require.Equal(t, f, RowFold(i, 3, k))
				counts[f]++
			}
			for _, c := range counts {
				require.InDelta(t, float64(n)/float64(k), c, 1, "n %d k %d: %v", n, k, counts)
			}
		}
		changed := 0
		for i := range uint64(100) {
			if RowFold(i, 3, k) != RowFold(i, 4, k) {
				changed++
			}
		}
		require.Greater(t, changed, 20)
	}
}

// A RowFolder, read in any order, gives RowFold's definition: the r-th
// entry of the block's Fisher–Yates permutation drawn from PCG(seed, block).
func TestRowFolder(t *testing.T) {
	want := func(i, seed uint64, k int) int {
		rng := rand.New(rand.NewPCG(seed, i/uint64(k)))
		perm := make([]int, k)
		for j := range perm {
			perm[j] = j
		}
		for j := k - 1; j > 0; j-- {
			l := rng.IntN(j + 1)
			perm[j], perm[l] = perm[l], perm[j]
		}
		return perm[i%uint64(k)]
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, k := range []int{1, 3, 10} {
		rf := NewRowFolder(7, k)
		for i := range uint64(200) {
			require.Equal(t, want(i, 7, k), rf.Fold(i))
		}
		for range 200 {
			i := rng.Uint64N(1000)
			require.Equal(t, want(i, 7, k), rf.Fold(i))
			require.Equal(t, want(i, 7, k), RowFold(i, 7, k))
		}
	}
}

// TestCheckWeightSaysWhichWay: a weight out of range is said to be above
// or below it, with both remedies (all weights that large or small: one
// common factor; a single one: it dominates, or counts for nothing). The
// old message only said to divide them all by one factor, which cannot
// fix one 1e308 among ones.
func TestCheckWeightSaysWhichWay(t *testing.T) {
	for _, c := range []struct {
		w    float64
		want []string
	}{
		{1e308, []string{"1e+308 is above 1.84e+19", "within [5.42e-20, 1.84e+19]", "all the weights are that large", "divide them all", "a single weight", "outweighs them all"}},
		{1e20, []string{"1e+20 is above", "divide them all"}},
		{1e-320, []string{"1e-320 is below 5.42e-20", "all the weights are that small", "multiply them all", "counts for nothing"}},
		{5e-324, []string{"is below", "multiply them all"}},
	} {
		err := CheckWeight(c.w)
		if err == nil {
			t.Fatalf("weight %v accepted", c.w)
		}
		for _, s := range c.want {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("weight %v: %q does not say %q", c.w, err, s)
			}
		}
	}
}
