package kproject

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// projector is the signature of Exact and Heuristic.
type projector func(dst, v []float64, k int) float64

// naiveMean is the plain mean, independent of segMean.
func naiveMean(x []float64) float64 {
	var s float64
	for _, y := range x {
		s += y
	}
	return s / float64(len(x))
}

// groupCost is the within-group sum of squares, computed directly.
func groupCost(x []float64) float64 {
	m := naiveMean(x)
	var c float64
	for _, y := range x {
		c += (y - m) * (y - m)
	}
	return c
}

// bruteContiguous enumerates every cut set of the sorted s into at most k
// contiguous groups (a bit per gap) and returns the least cost.
func bruteContiguous(s []float64, k int) float64 {
	n := len(s)
	best := math.Inf(1)
	for mask := uint(0); mask < 1<<(n-1); mask++ {
		if bits.OnesCount(mask) > k-1 {
			continue
		}
		var c float64
		start := 0
		for g := 1; g <= n; g++ {
			if g == n || mask&(1<<(g-1)) != 0 {
				c += groupCost(s[start:g])
				start = g
			}
		}
		best = min(best, c)
	}
	return best
}

// bruteAll enumerates every set partition of v into at most k blocks, as
// restricted growth strings, and returns the least cost.
func bruteAll(v []float64, k int) float64 {
	label := make([]int, len(v))
	best := math.Inf(1)
	var rec func(i, blocks int)
	rec = func(i, blocks int) {
		if i == len(v) {
			var c float64
			for b := range blocks {
				var x []float64
				for t, l := range label {
					if l == b {
						x = append(x, v[t])
					}
				}
				c += groupCost(x)
			}
			best = min(best, c)
			return
		}
		for b := 0; b <= blocks && b < k; b++ {
			label[i] = b
			rec(i+1, max(blocks, b+1))
		}
	}
	rec(0, 0)
	return best
}

// referenceDP is the plain O(k·n²) dynamic program with directly computed
// segment costs, exactly k non-empty groups, for larger inputs.
func referenceDP(s []float64, k int) float64 {
	n := len(s)
	w := make([][]float64, n+1)
	for a := range w {
		w[a] = make([]float64, n+1)
		for b := a + 1; b <= n; b++ {
			w[a][b] = groupCost(s[a:b])
		}
	}
	D := slices.Clone(w[0])
	for j := 2; j <= k; j++ {
		next := make([]float64, n+1)
		for i := range next {
			next[i] = math.Inf(1)
			for t := j - 1; t < i; t++ {
				next[i] = min(next[i], D[t]+w[t][i])
			}
		}
		D = next
	}
	return D[n]
}

// sortedCopy returns v sorted.
func sortedCopy(v []float64) []float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s
}

// distinctMap counts distinct values with a map, independent of Distinct.
func distinctMap(x []float64) int {
	m := map[float64]bool{}
	for _, y := range x {
		m[y] = true
	}
	return len(m)
}

// sqDist returns ‖v − x‖².
func sqDist(v, x []float64) float64 {
	var d float64
	for i := range v {
		d += (v[i] - x[i]) * (v[i] - x[i])
	}
	return d
}

// requireRel requires got = want to the relative tolerance tol (exactly when
// want is 0).
func requireRel(t *testing.T, want, got, tol float64, msg ...any) {
	t.Helper()
	require.InDelta(t, want, got, tol*math.Abs(want), msg...)
}

// checkProjection requires that x has at most k distinct values, that every
// value of x is the mean of the v it replaces, that x is nondecreasing in v
// (contiguous clusters) and that dist = ‖v − x‖².
func checkProjection(t *testing.T, v, x []float64, k int, dist float64) {
	t.Helper()
	require.LessOrEqual(t, distinctMap(x), k, "v=%v x=%v", v, x)
	groups := map[float64][]float64{}
	for i, y := range x {
		groups[y] = append(groups[y], v[i])
	}
	for y, members := range groups {
		require.InDelta(t, naiveMean(members), y, 1e-12*(1+math.Abs(y)), "v=%v x=%v", v, x)
	}
	for i := range v {
		for j := range v {
			if v[i] < v[j] {
				require.LessOrEqual(t, x[i], x[j], "v=%v x=%v", v, x)
			}
		}
	}
	requireRel(t, sqDist(v, x), dist, 1e-12, "v=%v x=%v", v, x)
}

// randomVector draws n values: normal, or small integers (many ties) with
// probability one half; both include negative values.
func randomVector(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	ties := rng.IntN(2) == 0
	for i := range v {
		if ties {
			v[i] = float64(rng.IntN(5) - 2)
		} else {
			v[i] = 3 * rng.NormFloat64()
		}
	}
	return v
}

func TestExactMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 600 {
		n := 1 + trial%10
		v := randomVector(rng, n)
		for k := 1; k <= n+1; k++ {
			x := make([]float64, n)
			got := Exact(x, v, k)
			want := bruteContiguous(sortedCopy(v), k)
			requireRel(t, want, got, 1e-12, "v=%v k=%d", v, k)
			if n <= 7 {
				requireRel(t, bruteAll(v, k), got, 1e-12, "all partitions v=%v k=%d", v, k)
			}
			checkProjection(t, v, x, k, got)
		}
	}
}

func TestExactMatchesReferenceDP(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 40 {
		n := 20 + rng.IntN(100)
		v := randomVector(rng, n)
		if trial%4 == 0 {
			for i := range v {
				v[i] += 1e6 // a large offset stresses cancellation
			}
		}
		for _, k := range []int{2, 3, 5, 8, 13} {
			x := make([]float64, n)
			got := Exact(x, v, k)
			requireRel(t, referenceDP(sortedCopy(v), k), got, 1e-9, "n=%d k=%d", n, k)
			checkProjection(t, v, x, k, got)
		}
	}
}

func TestExactHandWorked(t *testing.T) {
	// Sorted 0 1 2 | 3 4 5 | 10: costs 2 + 2 + 0. The best alternatives,
	// 0 1 | 2 3 4 5 | 10 and 0 1 2 3 | 4 5 | 10, cost 5.5.
	v := []float64{5, 1, 4, 2, 3, 10, 0}
	x := make([]float64, len(v))
	require.Equal(t, 4.0, Exact(x, v, 3))
	require.Equal(t, []float64{4, 1, 4, 1, 4, 10, 1}, x)
}

func TestHeuristicHandWorked(t *testing.T) {
	// n = 7, k = 3: q = 2, r = 1, so the parts hold 3, 2, 2 sorted values:
	// 0 1 2 → 1, 3 4 → 3.5, 5 10 → 7.5; distance 2 + 0.5 + 12.5.
	v := []float64{5, 1, 4, 2, 3, 10, 0}
	x := make([]float64, len(v))
	require.Equal(t, 15.0, Heuristic(x, v, 3))
	require.Equal(t, []float64{7.5, 1, 3.5, 1, 3.5, 7.5, 1}, x)

	// n = 10, k = 4: q = 2, r = 2, parts of 3, 3, 2, 2.
	v = []float64{9, 0, 8, 1, 7, 2, 6, 3, 5, 4}
	x = make([]float64, len(v))
	require.Equal(t, 2+2+0.5+0.5, Heuristic(x, v, 4))
	require.Equal(t, []float64{8.5, 1, 8.5, 1, 6.5, 1, 6.5, 4, 4, 4}, x)
}

func TestHeuristicAtLeastExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 300 {
		n := 1 + rng.IntN(60)
		v := randomVector(rng, n)
		k := 1 + rng.IntN(n+2)
		xe, xh := make([]float64, n), make([]float64, n)
		e, h := Exact(xe, v, k), Heuristic(xh, v, k)
		require.GreaterOrEqual(t, h, e*(1-1e-12), "v=%v k=%d", v, k)
		checkProjection(t, v, xh, k, h)
		if k >= distinctMap(v) {
			require.Zero(t, e)
			require.Zero(t, h)
			require.Equal(t, v, xe)
			require.Equal(t, v, xh)
		}
	}
}

func TestHeuristicPartMeans(t *testing.T) {
	// Every value of the heuristic is the mean of its part, and the part
	// sizes in sorted order are q+1 (r times) then q.
	rng := rand.New(rand.NewPCG(7, 8))
	for range 200 {
		n := 2 + rng.IntN(40)
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		k := 1 + rng.IntN(n-1)
		x := make([]float64, n)
		Heuristic(x, v, k)
		idx, s := sortIndex(v)
		start := 0
		for j := range k {
			size := n / k
			if j < n%k {
				size++
			}
			m := naiveMean(s[start : start+size])
			for _, i := range idx[start : start+size] {
				require.InDelta(t, m, x[i], 1e-12*(1+math.Abs(m)))
			}
			start += size
		}
	}
}

func TestTies(t *testing.T) {
	v := []float64{2, 2, 9, 5, 2, 5, 9, 1, 9}
	x := make([]float64, len(v))
	require.Zero(t, Exact(x, v, 4))
	require.Equal(t, v, x)
	for k := 1; k <= 3; k++ {
		got := Exact(x, v, k)
		requireRel(t, bruteContiguous(sortedCopy(v), k), got, 1e-12)
		checkProjection(t, v, x, k, got)
		for i := range v {
			for j := range v {
				if v[i] == v[j] {
					require.Equal(t, x[i], x[j], "equal values split, k=%d x=%v", k, x)
				}
			}
		}
	}
	// The heuristic splits equal values by index: sorted 1 2 2 | 2 5 5 | 9 9 9.
	// Costs (2/3)² + 2·(1/3)² = 2/3 and 2² + 1 + 1 = 6.
	require.InDelta(t, 6+2.0/3, Heuristic(x, v, 3), 1e-14)
	require.InDeltaSlice(t, []float64{5.0 / 3, 5.0 / 3, 9, 4, 4, 4, 9, 5.0 / 3, 9}, x, 1e-15)
}

func TestDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	v := randomVector(rng, 50)
	for _, p := range []projector{Exact, Heuristic} {
		a, b := make([]float64, len(v)), make([]float64, len(v))
		da, db := p(a, v, 4), p(b, v, 4)
		require.Equal(t, da, db)
		require.Equal(t, a, b)
	}
}

func TestKOne(t *testing.T) {
	v := []float64{-1, 4, 2.5, -7, 0.5}
	m := naiveMean(v)
	want := groupCost(v)
	for _, p := range []projector{Exact, Heuristic} {
		x := make([]float64, len(v))
		requireRel(t, want, p(x, v, 1), 1e-14)
		for _, y := range x {
			require.InDelta(t, m, y, 1e-15)
		}
	}
}

func TestKAtLeastN(t *testing.T) {
	v := []float64{3, -1, 3, 7}
	for _, p := range []projector{Exact, Heuristic} {
		for _, k := range []int{3, 4, 5, 100} {
			x := make([]float64, len(v))
			require.Zero(t, p(x, v, k))
			require.Equal(t, v, x)
		}
	}
}

func TestSmall(t *testing.T) {
	for _, p := range []projector{Exact, Heuristic} {
		x := []float64{0}
		require.Zero(t, p(x, []float64{-2.5}, 1))
		require.Equal(t, []float64{-2.5}, x)
		require.Zero(t, p(nil, nil, 1))
		x = make([]float64, 2)
		require.Equal(t, 2.0, p(x, []float64{1, 3}, 1))
		require.Equal(t, []float64{2, 2}, x)
	}
}

func TestNegative(t *testing.T) {
	v := []float64{-3, 11, -1, -2, 10}
	for _, p := range []projector{Exact, Heuristic} {
		x := make([]float64, len(v))
		require.Equal(t, 2.5, p(x, v, 2))
		require.Equal(t, []float64{-2, 10.5, -2, -2, 10.5}, x)
	}
}

func TestAliasing(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, p := range []projector{Exact, Heuristic} {
		for _, k := range []int{1, 3, 8, 40} {
			v := randomVector(rng, 30)
			want := make([]float64, len(v))
			d := p(want, v, k)
			got := slices.Clone(v)
			require.Equal(t, d, p(got, got, k))
			require.Equal(t, want, got)
		}
	}
}

func TestColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	const r, c = 40, 6
	data := make([]float64, r*c)
	for i := range data {
		data[i] = rng.NormFloat64()
	}
	for _, exact := range []bool{true, false} {
		p := Heuristic
		if exact {
			p = Exact
		}
		m := mat.NewDense(r, c, slices.Clone(data))
		orig := mat.DenseCopyOf(m)
		total := Columns(m, 5, exact)
		var want float64
		for j := range c {
			col := mat.Col(nil, j, orig)
			x := make([]float64, r)
			want += p(x, col, 5)
			require.Equal(t, x, mat.Col(nil, j, m), "column %d", j)
		}
		require.Equal(t, want, total)
	}
}

func TestPanics(t *testing.T) {
	require.PanicsWithValue(t, "kproject: Exact: k = 0, need k ≥ 1", func() { Exact(nil, nil, 0) })
	require.PanicsWithValue(t, "kproject: Heuristic: k = -1, need k ≥ 1", func() { Heuristic(nil, nil, -1) })
	for _, p := range []projector{Exact, Heuristic} {
		require.Panics(t, func() { p(make([]float64, 2), make([]float64, 3), 1) })
		require.Panics(t, func() { p(make([]float64, 2), []float64{1, math.NaN()}, 5) })
		require.Panics(t, func() { p(make([]float64, 2), []float64{math.Inf(-1), 1}, 1) })
	}
}

func TestDistinct(t *testing.T) {
	require.Zero(t, Distinct(nil))
	require.Equal(t, 1, Distinct([]float64{4}))
	v := []float64{3, 1, 3, -2, 1, 3}
	require.Equal(t, 3, Distinct(v))
	require.Equal(t, []float64{3, 1, 3, -2, 1, 3}, v, "Distinct must not reorder v")
	require.Equal(t, 1, Distinct([]float64{math.Copysign(0, -1), 0}))
	require.Equal(t, 3, Distinct([]float64{math.NaN(), math.NaN(), 1}))
}

// TestHeuristicGap measures how much worse the heuristic is than the exact
// projection on N(0,1) columns of length 40 with k = 8.
func TestHeuristicGap(t *testing.T) {
	const n, k, seeds = 40, 8, 1000
	var sum, worst float64
	best := math.Inf(1)
	v, x := make([]float64, n), make([]float64, n)
	for seed := range uint64(seeds) {
		rng := rand.New(rand.NewPCG(seed, 0))
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		r := Heuristic(x, v, k) / Exact(x, v, k)
		require.GreaterOrEqual(t, r, 1-1e-12)
		sum += r
		worst, best = max(worst, r), min(best, r)
	}
	t.Logf("heuristic/exact over %d seeds (n=%d, k=%d): mean %.4f, min %.4f, max %.4f", seeds, n, k, sum/seeds, best, worst)
}

func benchmark(b *testing.B, p projector) {
	for _, c := range []struct{ n, k int }{{40, 8}, {1000, 16}} {
		rng := rand.New(rand.NewPCG(uint64(c.n), uint64(c.k)))
		v := make([]float64, c.n)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		x := make([]float64, c.n)
		b.Run(fmt.Sprintf("n=%d,k=%d", c.n, c.k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p(x, v, c.k)
			}
		})
	}
}

func BenchmarkExact(b *testing.B)     { benchmark(b, Exact) }
func BenchmarkHeuristic(b *testing.B) { benchmark(b, Heuristic) }
