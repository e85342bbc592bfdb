package bounds

import (
	"github.com/cardsparse/cardreg/internal/testenv"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestAllPairsByLP: the LP method, which knows nothing of A's structure,
// reproduces the closed form M_A = 2/n (DESIGN §3), unweighted and weighted.
// TestAllPairsByLP checks M_A = 2/n by linear programs (2^(n−1) of them)
// up to n = 9, and up to n = 12 with CARDREG_SLOW (40 s more).
func TestAllPairsByLP(t *testing.T) {
	top := 9
	if testenv.Slow() {
		top = 12
	}
	if testing.Short() {
		top = 8
	}
	for n := 2; n <= top; n++ {
		k, err := KernelOf(penalty.AllPairs(n))
		require.NoError(t, err)
		require.True(t, k.Exact)
		require.InDelta(t, 2/float64(n), k.Upper, 1e-9, "n=%d", n)
		require.InDelta(t, AllPairs(n, 1), k.Upper, 1e-9)
	}
	for _, n := range []int{3, 5} {
		w := math.Sqrt(float64(n * 4)) // √P for a layer with 4 columns
		a := penalty.AllPairs(n)
		a.Scale(w, a)
		k, err := KernelOf(a)
		require.NoError(t, err)
		require.InDelta(t, AllPairs(n, w), k.Upper, 1e-9)
		require.LessOrEqual(t, k.Upper, 2/w+1e-12, "the paper's bound 2/√P")
	}
	require.Zero(t, AllPairs(1, 1))
}

func TestGroupedByLP(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for trial := 0; trial < 6; trial++ {
		p := 4 + rng.IntN(5)
		labels := make([]int, p)
		for i := range labels {
			labels[i] = rng.IntN(3)
		}
		g := penalty.NewGrouped(labels, 1)
		k, err := KernelOf(penalty.GroupedMatrix(g, 2))
		require.NoError(t, err)
		sizes := make([]int, len(g.Groups()))
		weights := make([]float64, len(sizes))
		for j, rows := range g.Groups() {
			sizes[j], weights[j] = len(rows), g.Weight(j, 2)
		}
		require.InDelta(t, Grouped(sizes, weights), k.Upper, 1e-9, "labels %v", labels)
	}
}

// TestIntervalBracketsExact: on random small G the interval's lower and
// upper ends bracket the exact value, and the upper end is ‖G⁺‖₁→₁.
func TestIntervalBracketsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for trial := 0; trial < 8; trial++ {
		m, p := 2+rng.IntN(6), 2+rng.IntN(5)
		g := mat.NewDense(m, p, nil)
		for i := 0; i < m; i++ {
			for j := 0; j < p; j++ {
				if rng.Float64() < 0.7 {
					g.Set(i, j, rng.NormFloat64())
				}
			}
		}
		exact, err := KernelOf(g)
		require.NoError(t, err)
		r, err := newRange(g)
		require.NoError(t, err)
		lo, err := r.lower()
		require.NoError(t, err)
		require.LessOrEqual(t, lo, exact.Upper*(1+1e-9), "trial %d", trial)
		require.LessOrEqual(t, exact.Upper, r.upper()*(1+1e-9), "trial %d", trial)
		var pinv mat.Dense
		require.NoError(t, pinv.Solve(g, eye(m))) // least-squares pseudo-inverse when full rank
		if rank(g) == min(m, p) && m >= p {
			require.InDelta(t, mat.Norm(&pinv, 1), r.upper(), 1e-8*r.upper())
		}
	}
	k, err := KernelOf(mat.NewDense(3, 4, nil))
	require.NoError(t, err)
	require.Zero(t, k.Upper)
	require.True(t, k.Exact)
	// Beyond MaxExactColumns: an interval that contains the closed form.
	big, err := KernelOf(penalty.AllPairs(MaxExactColumns + 2))
	require.NoError(t, err)
	require.False(t, big.Exact)
	want := 2 / float64(MaxExactColumns+2)
	require.LessOrEqual(t, big.Lower, want+1e-12)
	require.GreaterOrEqual(t, big.Upper, want-1e-12)
}

func eye(n int) *mat.Dense {
	m := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		m.Set(i, i, 1)
	}
	return m
}

func rank(g *mat.Dense) int {
	var svd mat.SVD
	svd.Factorize(g, mat.SVDNone)
	r := 0
	for _, s := range svd.Values(nil) {
		if s > 1e-10 {
			r++
		}
	}
	return r
}

// TestPenaltyKernel: the closed forms per penalty agree with the LP method
// on the penalty's explicit G.
func TestPenaltyKernel(t *testing.T) {
	m, ok := PenaltyKernel(penalty.L1{}, 5, 1)
	require.True(t, ok)
	require.Zero(t, m)
	m, ok = PenaltyKernel(penalty.Cardinality{}, 5, 1)
	require.True(t, ok)
	k, err := KernelOf(penalty.AllPairs(5))
	require.NoError(t, err)
	require.InDelta(t, k.Upper, m, 1e-9)
	g := penalty.NewGrouped([]int{0, 0, 1, 1, 1, 2}, 1)
	m, ok = PenaltyKernel(g, 6, 3)
	require.True(t, ok)
	k, err = KernelOf(penalty.GroupedMatrix(g, 3))
	require.NoError(t, err)
	require.InDelta(t, k.Upper, m, 1e-9)
	_, ok = PenaltyKernel(penalty.Ridge{}, 5, 1)
	require.False(t, ok)
}
