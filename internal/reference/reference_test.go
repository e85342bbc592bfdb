package reference

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// ---------------------------------------------------------------------------
// Small independent helpers (deliberately not shared with the package code).

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

func randVec(r *rand.Rand, n int, scale float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = scale * r.NormFloat64()
	}
	return v
}

func randDense(r *rand.Rand, rows, cols int) *mat.Dense {
	return mat.NewDense(rows, cols, randVec(r, rows*cols, 1))
}

func mulVec(K mat.Matrix, x []float64) []float64 {
	m, _ := K.Dims()
	var out mat.VecDense
	out.MulVec(K, mat.NewVecDense(len(x), x))
	res := make([]float64, m)
	for i := range res {
		res[i] = out.AtVec(i)
	}
	return res
}

func mulTVec(K mat.Matrix, u []float64) []float64 { return mulVec(K.T(), u) }

func l1(x []float64) float64 {
	var s float64
	for _, xi := range x {
		s += math.Abs(xi)
	}
	return s
}

func linf(x []float64) float64 {
	var s float64
	for _, xi := range x {
		s = math.Max(s, math.Abs(xi))
	}
	return s
}

func sqNorm(x []float64) float64 {
	var s float64
	for _, xi := range x {
		s += xi * xi
	}
	return s
}

func sub(a, b []float64) []float64 {
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return d
}

func mean(x []float64) float64 {
	var s float64
	for _, xi := range x {
		s += xi
	}
	return s / float64(len(x))
}

func soft(z, t float64) float64 { return math.Copysign(math.Max(math.Abs(z)-t, 0), z) }

func proxObjective(K mat.Matrix, v, x []float64, tau float64) float64 {
	return 0.5*sqNorm(sub(x, v)) + tau*l1(mulVec(K, x))
}

// isotonic returns the least-squares non-decreasing fit to y (pool adjacent
// violators).
func isotonic(y []float64) []float64 {
	type block struct {
		sum float64
		cnt int
	}
	var bs []block
	for _, yi := range y {
		bs = append(bs, block{yi, 1})
		for len(bs) > 1 {
			p, q := bs[len(bs)-2], bs[len(bs)-1]
			if p.sum/float64(p.cnt) <= q.sum/float64(q.cnt) {
				break
			}
			bs = append(bs[:len(bs)-2], block{p.sum + q.sum, p.cnt + q.cnt})
		}
	}
	out := make([]float64, 0, len(y))
	for _, b := range bs {
		for k := 0; k < b.cnt; k++ {
			out = append(out, b.sum/float64(b.cnt))
		}
	}
	return out
}

// proxCardinalitySorted computes the prox of tau·(Σ_{i<j}|x_i−x_j| + nu|Σx|)
// by a completely different route: the mean separates (soft-threshold of the
// mean at nu·tau) and the pairwise part, being linear with weights 2k−n−1 on
// the cone of vectors ordered like v, reduces to isotonic regression.
func proxCardinalitySorted(v []float64, nu, tau float64) []float64 {
	n := len(v)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	z := make([]float64, n)
	for k, i := range idx {
		z[k] = v[i] - tau*float64(2*k-n+1)
	}
	iso := isotonic(z)
	mv := mean(v)
	shift := soft(mv, nu*tau) - mv
	x := make([]float64, n)
	for k, i := range idx {
		x[i] = iso[k] + shift
	}
	return x
}

// checkProxCertificate re-derives the optimality certificate of ProxExplicit
// from scratch: u is dual feasible, x = v − Kᵀu, and P(x) − D(u) computed by
// the textbook formulas is within tolerance (and matches the reported gap).
func checkProxCertificate(t *testing.T, K *mat.Dense, v []float64, tau float64, x, u []float64, gap float64) {
	t.Helper()
	m, n := K.Dims()
	require.Len(t, x, n)
	require.Len(t, u, m)
	for i, ui := range u {
		require.LessOrEqualf(t, math.Abs(ui), tau, "u[%d] outside the box", i)
	}
	ktu := mulTVec(K, u)
	xr := sub(v, ktu)
	scale := math.Max(1, linf(v))
	for j := range x {
		require.InDeltaf(t, xr[j], x[j], 1e-12*scale, "x is not v − Kᵀu at %d", j)
	}
	P := proxObjective(K, v, x, tau)
	D := 0.5*sqNorm(v) - 0.5*sqNorm(sub(v, ktu))
	slack := 1e-14 * (1 + sqNorm(v))
	require.LessOrEqual(t, P-D, ProxGapTolerance*math.Max(1, P)+slack, "direct primal–dual gap too large")
	require.GreaterOrEqual(t, P-D, -slack, "weak duality violated")
	require.InDelta(t, P-D, gap, slack, "reported gap disagrees with P − D")
	require.LessOrEqual(t, gap, ProxGapTolerance*math.Max(1, P))
}

// ---------------------------------------------------------------------------
// ExplicitCardinality

func TestExplicitCardinalityStructure(t *testing.T) {
	k1 := ExplicitCardinality(1, 0.7)
	r, c := k1.Dims()
	require.Equal(t, [2]int{1, 1}, [2]int{r, c})
	assert.Equal(t, 0.7, k1.At(0, 0))

	// Row order is lexicographic in (i, j).
	k4 := ExplicitCardinality(4, 2)
	want := [][]float64{
		{1, -1, 0, 0}, {1, 0, -1, 0}, {1, 0, 0, -1},
		{0, 1, -1, 0}, {0, 1, 0, -1}, {0, 0, 1, -1},
		{2, 2, 2, 2},
	}
	require.True(t, mat.Equal(k4, mat.NewDense(7, 4, flatten(want))), "got\n%v", mat.Formatted(k4))

	rng := newRand(1)
	for n := 1; n <= 9; n++ {
		for _, nu := range []float64{0, 0.3, 1, 2} {
			K := ExplicitCardinality(n, nu)
			m, cols := K.Dims()
			require.Equal(t, n*(n-1)/2+1, m)
			require.Equal(t, n, cols)
			for trial := 0; trial < 5; trial++ {
				x := randVec(rng, n, 3)
				var want, sum float64
				for i := 0; i < n; i++ {
					sum += x[i]
					for j := i + 1; j < n; j++ {
						want += math.Abs(x[i] - x[j])
					}
				}
				want += nu * math.Abs(sum)
				assert.InDelta(t, want, l1(mulVec(K, x)), 1e-12*(1+want))
			}
		}
	}
	assert.Panics(t, func() { ExplicitCardinality(0, 1) })
}

func flatten(rows [][]float64) []float64 {
	var out []float64
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

// ---------------------------------------------------------------------------
// ProxExplicit

func TestProxExplicitIdentityIsSoftThreshold(t *testing.T) {
	rng := newRand(2)
	for _, n := range []int{1, 2, 5, 9} {
		for _, c := range []float64{1, 0.25, 3} {
			K := mat.NewDense(n, n, nil)
			for i := 0; i < n; i++ {
				K.Set(i, i, c)
			}
			for _, tau := range []float64{0, 0.01, 0.3, 2} {
				v := randVec(rng, n, 1)
				x, u, gap, err := ProxExplicitWithDual(K, v, tau)
				require.NoError(t, err)
				checkProxCertificate(t, K, v, tau, x, u, gap)
				for i := range v {
					assert.InDeltaf(t, soft(v[i], c*tau), x[i], 1e-14, "n=%d c=%g tau=%g i=%d", n, c, tau, i)
				}
			}
		}
	}
}

// proxCases enumerates the test sizes of the brief: n ≤ 8, nu ∈ {0.3, 1, 2},
// tau ∈ {0.01, 0.3, 2}, and several kinds of v (Gaussian of two scales, with
// exact ties, and with planted clusters).
func proxCases(rng *rand.Rand, n int) [][]float64 {
	vs := [][]float64{randVec(rng, n, 1), randVec(rng, n, 5)}
	tied := randVec(rng, n, 1)
	for i := 1; i < n; i += 2 {
		tied[i] = tied[i-1]
	}
	vs = append(vs, tied)
	clustered := make([]float64, n)
	for i := range clustered {
		clustered[i] = float64(i%3) + 0.05*rng.NormFloat64() + 1
	}
	vs = append(vs, clustered)
	return vs
}

func TestProxExplicitCardinalityMatchesSortedReference(t *testing.T) {
	rng := newRand(3)
	for n := 1; n <= 8; n++ {
		for _, nu := range []float64{0.3, 1, 2} {
			K := ExplicitCardinality(n, nu)
			for _, tau := range []float64{0.01, 0.3, 2} {
				for ci, v := range proxCases(rng, n) {
					name := fmt.Sprintf("n=%d nu=%g tau=%g case=%d", n, nu, tau, ci)
					x, u, gap, err := ProxExplicitWithDual(K, v, tau)
					require.NoError(t, err, name)
					checkProxCertificate(t, K, v, tau, x, u, gap)

					want := proxCardinalitySorted(v, nu, tau)
					scale := math.Max(1, linf(v))
					for i := range x {
						require.InDeltaf(t, want[i], x[i], 1e-12*scale, "%s i=%d\nx=%v\nwant=%v", name, i, x, want)
					}
					// The mean is soft-thresholded at nu·tau, independently of
					// the pairwise part.
					require.InDelta(t, soft(mean(v), nu*tau), mean(x), 1e-12*scale, name)
					// Order is preserved and ties stay tied.
					for i := range v {
						for j := range v {
							if v[i] < v[j] {
								require.LessOrEqual(t, x[i], x[j]+1e-12*scale, name)
							}
							if v[i] == v[j] {
								require.InDelta(t, x[i], x[j], 1e-12*scale, name)
							}
						}
					}
				}
			}
		}
	}
}

func TestProxExplicitMeanPreservedWhenNuInactive(t *testing.T) {
	rng := newRand(4)
	for n := 2; n <= 8; n++ {
		// nu = 0: the last row of K is zero (and skipped), so the mean of v is
		// kept exactly.
		K := ExplicitCardinality(n, 0)
		for _, tau := range []float64{0.01, 0.3, 2} {
			v := randVec(rng, n, 2)
			x, u, gap, err := ProxExplicitWithDual(K, v, tau)
			require.NoError(t, err)
			checkProxCertificate(t, K, v, tau, x, u, gap)
			assert.InDelta(t, mean(v), mean(x), 1e-13*math.Max(1, linf(v)))
			assert.Equal(t, 0.0, u[len(u)-1], "dual of the zero row must stay 0")
		}
		// nu > 0 but the data already centred: Σx = 0 and the result equals
		// the nu = 0 prox.
		for _, nu := range []float64{0.3, 2} {
			v := randVec(rng, n, 2)
			mv := mean(v)
			for i := range v {
				v[i] -= mv
			}
			x0, _, err := ProxExplicit(K, v, 0.3)
			require.NoError(t, err)
			x1, _, err := ProxExplicit(ExplicitCardinality(n, nu), v, 0.3)
			require.NoError(t, err)
			for i := range x0 {
				assert.InDelta(t, x0[i], x1[i], 1e-12)
			}
			assert.InDelta(t, 0, mean(x1), 1e-13)
		}
	}
}

func TestProxExplicitTwoPointClosedForm(t *testing.T) {
	// n = 2: ‖Kx‖₁ = |x0 − x1| + nu|x0 + x1|, which decouples in the rotated
	// coordinates d = x0 − x1 and s = x0 + x1: d* = S(v0 − v1, 2tau),
	// s* = S(v0 + v1, 2·nu·tau).
	rng := newRand(5)
	for _, nu := range []float64{0.3, 1, 2} {
		K := ExplicitCardinality(2, nu)
		for _, tau := range []float64{0.01, 0.3, 2} {
			for trial := 0; trial < 5; trial++ {
				v := randVec(rng, 2, 2)
				x, _, err := ProxExplicit(K, v, tau)
				require.NoError(t, err)
				d := soft(v[0]-v[1], 2*tau)
				s := soft(v[0]+v[1], 2*nu*tau)
				assert.InDelta(t, (s+d)/2, x[0], 1e-14)
				assert.InDelta(t, (s-d)/2, x[1], 1e-14)
			}
		}
	}
}

func TestProxExplicitGeneralMatrices(t *testing.T) {
	rng := newRand(6)
	type shape struct{ m, n int }
	for si, sh := range []shape{{3, 5}, {7, 4}, {12, 6}, {20, 8}, {1, 3}} {
		K := randDense(rng, sh.m, sh.n)
		if sh.m >= 7 {
			// A zero row, an exactly duplicated row, a nearly parallel row and
			// wildly different row scales make the dual ill-conditioned.
			K.SetRow(0, make([]float64, sh.n))
			K.SetRow(1, mat.Row(nil, 2, K))
			r3 := mat.Row(nil, 2, K)
			r3[0] += 1e-4
			K.SetRow(3, r3)
			r4 := mat.Row(nil, 4, K)
			for j := range r4 {
				r4[j] *= 100
			}
			K.SetRow(4, r4)
			r5 := mat.Row(nil, 5, K)
			for j := range r5 {
				r5[j] *= 1e-3
			}
			K.SetRow(5, r5)
		}
		for _, tau := range []float64{0.01, 0.3, 2} {
			v := randVec(rng, sh.n, 2)
			name := fmt.Sprintf("shape=%d tau=%g", si, tau)
			x, u, gap, err := ProxExplicitWithDual(K, v, tau)
			require.NoError(t, err, name)
			checkProxCertificate(t, K, v, tau, x, u, gap)
			if sh.m >= 7 {
				require.Equal(t, 0.0, u[0], "zero row must be skipped")
			}

			// No random nearby point does better.
			P := proxObjective(K, v, x, tau)
			for trial := 0; trial < 200; trial++ {
				y := append([]float64(nil), x...)
				h := math.Pow(10, -float64(1+trial%8))
				for j := range y {
					y[j] += h * rng.NormFloat64()
				}
				require.GreaterOrEqual(t, proxObjective(K, v, y, tau), P-1e-13*math.Max(1, P), name)
			}

			// Reordering the rows of K changes the coordinate-descent path but
			// not the answer.
			perm := rng.Perm(sh.m)
			Kp := mat.NewDense(sh.m, sh.n, nil)
			for i, pi := range perm {
				Kp.SetRow(i, mat.Row(nil, pi, K))
			}
			xp, _, err := ProxExplicit(Kp, v, tau)
			require.NoError(t, err, name)
			for j := range x {
				assert.InDelta(t, x[j], xp[j], 1e-10*math.Max(1, linf(v)), name)
			}
		}
	}
}

func TestProxExplicitCoordinateDescentAloneConverges(t *testing.T) {
	// Without the active-set polish, plain coordinate descent must still reach
	// the gap tolerance on the test sizes of the brief (it does, if slowly).
	rng := newRand(7)
	for n := 2; n <= 8; n += 3 {
		for _, nu := range []float64{0.3, 2} {
			K := ExplicitCardinality(n, nu)
			for _, tau := range []float64{0.01, 2} {
				v := randVec(rng, n, 1)
				x, u, gap, err := proxExplicit(K, v, tau, ProxMaxSweeps, false)
				require.NoError(t, err)
				checkProxCertificate(t, K, v, tau, x, u, gap)
				want := proxCardinalitySorted(v, nu, tau)
				for i := range x {
					assert.InDelta(t, want[i], x[i], 1e-6)
				}
			}
		}
	}
}

func TestProxExplicitReportsNonConvergence(t *testing.T) {
	rng := newRand(8)
	K := ExplicitCardinality(8, 0.3)
	v := randVec(rng, 8, 1)
	x, u, gap, err := proxExplicit(K, v, 0.3, 1, false)
	require.Error(t, err)
	require.True(t, errors.Is(err, ErrNotConverged))
	require.Greater(t, gap, 0.0)
	// What is returned is still a consistent, dual-feasible pair.
	ktu := mulTVec(K, u)
	for j := range x {
		require.InDelta(t, v[j]-ktu[j], x[j], 1e-12)
	}
	for _, ui := range u {
		require.LessOrEqual(t, math.Abs(ui), 0.3)
	}
	P := proxObjective(K, v, x, 0.3)
	D := 0.5*sqNorm(v) - 0.5*sqNorm(sub(v, ktu))
	require.InDelta(t, P-D, gap, 1e-12)
}

func TestProxExplicitEdgeCases(t *testing.T) {
	K := ExplicitCardinality(3, 1)
	v := []float64{1, -2, 0.5}
	x, gap, err := ProxExplicit(K, v, 0)
	require.NoError(t, err)
	assert.Equal(t, v, x)
	assert.Equal(t, 0.0, gap)
	x[0] = 99
	assert.Equal(t, 1.0, v[0], "result must not alias v")

	x, _, err = ProxExplicit(K, []float64{0, 0, 0}, 1)
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 0, 0}, x)

	assert.Panics(t, func() { _, _, _ = ProxExplicit(K, []float64{1, 2}, 1) })
	assert.Panics(t, func() { _, _, _ = ProxExplicit(K, v, -1) })
	assert.Panics(t, func() { _, _, _ = ProxExplicit(K, v, math.NaN()) })
	assert.Panics(t, func() { _, _, _ = ProxExplicit(K, []float64{1, math.Inf(1), 0}, 1) })
}

// ---------------------------------------------------------------------------
// DualNormLP

func TestDualNormLPScaledIdentity(t *testing.T) {
	rng := newRand(9)
	for _, n := range []int{1, 3, 6} {
		for _, nu := range []float64{1, 0.3, 2, 7.5} {
			K := mat.NewDense(n, n, nil)
			for i := 0; i < n; i++ {
				K.Set(i, i, nu)
			}
			for trial := 0; trial < 4; trial++ {
				g := randVec(rng, n, 2)
				got, err := DualNormLP(K, g)
				require.NoError(t, err)
				assert.InDelta(t, linf(g)/nu, got, 1e-12*linf(g)/nu, "n=%d nu=%g", n, nu)
			}
		}
	}
}

func TestDualNormLPZeroAndScaling(t *testing.T) {
	rng := newRand(10)
	K := ExplicitCardinality(5, 0.3)
	got, err := DualNormLP(K, make([]float64, 5))
	require.NoError(t, err)
	assert.Equal(t, 0.0, got)
	val, x, err := DualNormSupLP(K, make([]float64, 5))
	require.NoError(t, err)
	assert.Equal(t, 0.0, val)
	assert.Equal(t, make([]float64, 5), x)

	for trial := 0; trial < 10; trial++ {
		g := randVec(rng, 5, 1)
		h := randVec(rng, 5, 1)
		ng, err := DualNormLP(K, g)
		require.NoError(t, err)
		nh, err := DualNormLP(K, h)
		require.NoError(t, err)
		require.Greater(t, ng, 0.0)
		// Absolute homogeneity.
		for _, c := range []float64{-3, 1e-3, 1e4} {
			gc := make([]float64, 5)
			for i := range g {
				gc[i] = c * g[i]
			}
			ngc, err := DualNormLP(K, gc)
			require.NoError(t, err)
			assert.InDelta(t, math.Abs(c)*ng, ngc, 1e-10*math.Abs(c)*ng)
		}
		// Triangle inequality.
		s := make([]float64, 5)
		for i := range s {
			s[i] = g[i] + h[i]
		}
		ns, err := DualNormLP(K, s)
		require.NoError(t, err)
		assert.LessOrEqual(t, ns, ng+nh+1e-12)
	}
}

func TestDualNormLPTwoPointClosedForm(t *testing.T) {
	// For n = 2 the unit ball {|x0−x1| + nu|x0+x1| ≤ 1} is the polygon with
	// vertices ±(1,1)/(2nu) and ±(1,−1)/2.
	rng := newRand(11)
	for _, nu := range []float64{0.3, 1, 2} {
		K := ExplicitCardinality(2, nu)
		for trial := 0; trial < 8; trial++ {
			g := randVec(rng, 2, 1)
			want := math.Max(math.Abs(g[0]+g[1])/(2*nu), math.Abs(g[0]-g[1])/2)
			got, err := DualNormLP(K, g)
			require.NoError(t, err)
			assert.InDelta(t, want, got, 1e-12*want)
		}
	}
}

func TestDualNormLPCertificatesAndSampling(t *testing.T) {
	rng := newRand(12)
	var mats []*mat.Dense
	for _, n := range []int{1, 3, 5, 8} {
		for _, nu := range []float64{0.3, 1, 2} {
			mats = append(mats, ExplicitCardinality(n, nu))
		}
	}
	mats = append(mats, randDense(rng, 6, 4), randDense(rng, 4, 4), randDense(rng, 15, 5))
	for mi, K := range mats {
		m, n := K.Dims()
		for trial := 0; trial < 3; trial++ {
			name := fmt.Sprintf("matrix=%d trial=%d", mi, trial)
			g := randVec(rng, n, 1)
			if trial == 2 && n > 1 {
				g[0] = 0 // some exact zeros in g
			}
			val, u, err := DualNormLPWitness(K, g)
			require.NoError(t, err, name)
			plain, err := DualNormLP(K, g)
			require.NoError(t, err, name)
			require.Equal(t, val, plain)

			// Upper-bound certificate: Kᵀu = g and ‖u‖_∞ = val.
			require.Len(t, u, m)
			ktu := mulTVec(K, u)
			for j := range g {
				require.InDelta(t, g[j], ktu[j], 1e-10*(1+val), name)
			}
			require.InDelta(t, val, linf(u), 1e-14*val, name)

			// Lower-bound certificate: the maximiser of the sup attains val.
			sup, x, err := DualNormSupLP(K, g)
			require.NoError(t, err, name)
			kx := l1(mulVec(K, x))
			require.LessOrEqual(t, kx, 1+1e-10, name)
			var gx float64
			for j := range g {
				gx += g[j] * x[j]
			}
			require.InDelta(t, val, gx/kx, 1e-10*val, name)
			require.InDelta(t, val, sup, 1e-10*val, name)

			// Random sampling of the defining supremum never exceeds val.
			var best float64
			for s := 0; s < 2000; s++ {
				y := randVec(rng, n, 1)
				if s%2 == 1 {
					// Sparse / near-vertex directions.
					for j := range y {
						if rng.IntN(2) == 0 {
							y[j] = 0
						}
					}
				}
				ky := l1(mulVec(K, y))
				if ky == 0 {
					continue
				}
				var gy float64
				for j := range g {
					gy += g[j] * y[j]
				}
				ratio := gy / ky
				best = math.Max(best, ratio)
				require.LessOrEqual(t, ratio, val*(1+1e-12), name)
			}
			require.Greater(t, best, 0.0, name)
		}
	}
}

func TestDualNormLPDegenerateInstances(t *testing.T) {
	// Integer, sparse and tied g make both LPs highly degenerate; gonum's
	// simplex on its own can cycle or hit a singular basis on such problems
	// (e.g. DualNormSupLP with nu = 0.01, n ≥ 9). Both sides must still agree.
	rng := newRand(20)
	check := func(K *mat.Dense, g []float64, name string) {
		if linf(g) == 0 {
			return
		}
		val, err := DualNormLP(K, g)
		require.NoError(t, err, name)
		sup, _, err := DualNormSupLP(K, g)
		require.NoError(t, err, name)
		require.InDelta(t, val, sup, 1e-11*val, name)
	}
	for _, n := range []int{3, 6, 9, 10} {
		for _, nu := range []float64{0.01, 1, 10} {
			K := ExplicitCardinality(n, nu)
			for kind := 0; kind < 3; kind++ {
				g := randVec(rng, n, 1)
				for i := range g {
					switch kind {
					case 0:
						g[i] = float64(rng.IntN(5) - 2)
					case 1:
						if rng.IntN(2) == 0 {
							g[i] = 0
						}
					case 2:
						if i%2 == 1 {
							g[i] = g[i-1]
						}
					}
				}
				check(K, g, fmt.Sprintf("n=%d nu=%g kind=%d g=%v", n, nu, kind, g))
			}
		}
	}
	for trial := 0; trial < 40; trial++ {
		n := 1 + rng.IntN(8)
		m := n + rng.IntN(20)
		K := randDense(rng, m, n)
		for i := 0; i < m; i++ {
			if rng.IntN(4) == 0 {
				r := make([]float64, n)
				for j := range r {
					r[j] = float64(rng.IntN(3) - 1)
				}
				K.SetRow(i, r)
			}
		}
		g := make([]float64, n)
		for i := range g {
			g[i] = float64(rng.IntN(3) - 1)
		}
		check(K, g, fmt.Sprintf("random trial=%d", trial))
	}
}

func TestDualNormLPMatchesProxThreshold(t *testing.T) {
	// Moreau: prox_{tau‖K·‖₁}(v) = 0 exactly when tau ≥ h*(v).
	rng := newRand(13)
	for _, n := range []int{2, 4, 7} {
		for _, nu := range []float64{0.3, 1, 2} {
			K := ExplicitCardinality(n, nu)
			v := randVec(rng, n, 1)
			d, err := DualNormLP(K, v)
			require.NoError(t, err)
			x, _, err := ProxExplicit(K, v, d*(1+1e-9))
			require.NoError(t, err)
			assert.Less(t, linf(x), 1e-10, "n=%d nu=%g", n, nu)
			x, _, err = ProxExplicit(K, v, d*(1-1e-3))
			require.NoError(t, err)
			assert.Greater(t, linf(x), 1e-6, "n=%d nu=%g", n, nu)
		}
	}
}

func TestDualNormLPRankDeficient(t *testing.T) {
	// nu = 0 leaves 1 in the null space of K, so g with Σg ≠ 0 is not in the
	// range of Kᵀ and the dual "norm" is infinite: both LPs must fail.
	K := ExplicitCardinality(4, 0)
	g := []float64{1, 0.5, -0.2, 0.1}
	_, err := DualNormLP(K, g)
	assert.Error(t, err)
	_, _, err = DualNormSupLP(K, g)
	assert.Error(t, err)
	assert.Panics(t, func() { _, _ = DualNormLP(K, []float64{1, 2}) })
}

// ---------------------------------------------------------------------------
// LassoCD

func checkLassoKKT(t *testing.T, X *mat.Dense, y []float64, lambda float64, beta []float64, name string) {
	t.Helper()
	_, p := X.Dims()
	r := sub(y, mulVec(X, beta))
	grad := mulTVec(X, r)
	lmax := 2 * linf(mulTVec(X, y))
	tol := 1e-8 * math.Max(1e-300, math.Max(lambda, lmax))
	for j := 0; j < p; j++ {
		g := 2 * grad[j]
		if beta[j] != 0 {
			require.InDeltaf(t, lambda*math.Copysign(1, beta[j]), g, tol, "%s: active j=%d", name, j)
		} else {
			require.LessOrEqualf(t, math.Abs(g), lambda+tol, "%s: inactive j=%d", name, j)
		}
	}
}

func lassoObjective(X *mat.Dense, y, beta []float64, lambda float64) float64 {
	return sqNorm(sub(y, mulVec(X, beta))) + lambda*l1(beta)
}

func TestLassoCDKKT(t *testing.T) {
	rng := newRand(14)
	type shape struct{ n, p int }
	for si, sh := range []shape{{40, 5}, {30, 12}, {10, 25}, {50, 3}} {
		X := randDense(rng, sh.n, sh.p)
		if sh.p >= 3 {
			// Strongly correlated pair of columns.
			c0 := mat.Col(nil, 0, X)
			c1 := mat.Col(nil, 1, X)
			for i := range c1 {
				c1[i] = c0[i] + 0.05*c1[i]
			}
			X.SetCol(1, c1)
		}
		truth := make([]float64, sh.p)
		truth[0], truth[sh.p-1] = 2, -1.5
		y := mulVec(X, truth)
		for i := range y {
			y[i] += 0.3 * rng.NormFloat64()
		}
		lmax := 2 * linf(mulTVec(X, y))
		for _, frac := range []float64{0, 1e-3, 0.05, 0.3, 0.9, 1, 1.5} {
			lambda := frac * lmax
			name := fmt.Sprintf("shape=%d frac=%g", si, frac)
			if frac == 0 && sh.p > sh.n {
				continue // no unique solution; the KKT check is still valid but slow to converge
			}
			beta, sweeps, ok := LassoCDStatus(X, y, lambda, 0)
			require.True(t, ok, "%s: not converged after %d sweeps", name, sweeps)
			require.Equal(t, beta, LassoCD(X, y, lambda, 0))
			checkLassoKKT(t, X, y, lambda, beta, name)
			if frac >= 1 {
				require.Equal(t, make([]float64, sh.p), beta, "%s: lambda ≥ lambda_max must give 0", name)
			}
			obj := lassoObjective(X, y, beta, lambda)
			for trial := 0; trial < 50; trial++ {
				b := append([]float64(nil), beta...)
				b[rng.IntN(sh.p)] += 1e-4 * rng.NormFloat64()
				require.GreaterOrEqual(t, lassoObjective(X, y, b, lambda), obj-1e-10*obj, name)
			}
		}
	}
}

func TestLassoCDNearlyCollinear(t *testing.T) {
	// Columns with pairwise correlation ≈ 0.997 make coordinate descent
	// crawl, so a loose stopping rule would show up as a KKT violation.
	rng := newRand(21)
	n, p := 40, 4
	base := randVec(rng, n, 1)
	X := mat.NewDense(n, p, nil)
	for j := 0; j < p; j++ {
		for i := 0; i < n; i++ {
			X.Set(i, j, base[i]+0.05*rng.NormFloat64())
		}
	}
	y := make([]float64, n)
	for i := range y {
		y[i] = 3*X.At(i, 0) - 2*X.At(i, 2) + 0.1*rng.NormFloat64()
	}
	lmax := 2 * linf(mulTVec(X, y))
	for _, frac := range []float64{1e-4, 1e-3, 0.01, 0.1} {
		name := fmt.Sprintf("frac=%g", frac)
		beta, sweeps, ok := LassoCDStatus(X, y, frac*lmax, 0)
		require.True(t, ok, name)
		t.Logf("%s: %d sweeps", name, sweeps)
		checkLassoKKT(t, X, y, frac*lmax, beta, name)
	}
}

func TestLassoCDOrthonormalDesign(t *testing.T) {
	// With orthonormal columns the objective separates:
	// β_j = S(x_jᵀy, lambda/2).
	rng := newRand(15)
	var qr mat.QR
	qr.Factorize(randDense(rng, 30, 6))
	var q mat.Dense
	qr.QTo(&q)
	X := mat.DenseCopyOf(q.Slice(0, 30, 0, 6))
	y := randVec(rng, 30, 2)
	xty := mulTVec(X, y)
	for _, lambda := range []float64{0, 0.5, 2, 5} {
		beta := LassoCD(X, y, lambda, 1e-14)
		for j := range beta {
			assert.InDelta(t, soft(xty[j], lambda/2), beta[j], 1e-12)
		}
	}
}

func TestLassoCDZeroLambdaIsLeastSquares(t *testing.T) {
	rng := newRand(16)
	X := randDense(rng, 25, 4)
	y := randVec(rng, 25, 1)
	var ols mat.VecDense
	require.NoError(t, ols.SolveVec(X, mat.NewVecDense(25, y)))
	beta := LassoCD(X, y, 0, 0)
	for j := range beta {
		assert.InDelta(t, ols.AtVec(j), beta[j], 1e-10)
	}
}

func TestLassoCDZeroColumnAndPanics(t *testing.T) {
	rng := newRand(17)
	X := randDense(rng, 20, 4)
	X.SetCol(2, make([]float64, 20))
	y := randVec(rng, 20, 1)
	beta := LassoCD(X, y, 1, 0)
	assert.Equal(t, 0.0, beta[2])
	Xr := mat.NewDense(20, 3, nil)
	for i, j := range []int{0, 1, 3} {
		Xr.SetCol(i, mat.Col(nil, j, X))
	}
	br := LassoCD(Xr, y, 1, 0)
	for i, j := range []int{0, 1, 3} {
		assert.InDelta(t, br[i], beta[j], 1e-12)
	}
	assert.Panics(t, func() { LassoCD(X, y[:5], 1, 0) })
	assert.Panics(t, func() { LassoCD(X, y, -1, 0) })
}

// ---------------------------------------------------------------------------
// AdjustedRand

// ariPairCounting computes the ARI from the pair-counting definition over all
// pairs of items: a = together in both, b = together only in the first,
// c = together only in the second, d = apart in both;
// ARI = 2(ad − bc) / ((a+b)(b+d) + (a+c)(c+d)).
func ariPairCounting(x, y []int) float64 {
	var a, b, c, d float64
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			sx, sy := x[i] == x[j], y[i] == y[j]
			switch {
			case sx && sy:
				a++
			case sx:
				b++
			case sy:
				c++
			default:
				d++
			}
		}
	}
	return 2 * (a*d - b*c) / ((a+b)*(b+d) + (a+c)*(c+d))
}

func TestAdjustedRandIdenticalAndRelabeled(t *testing.T) {
	rng := newRand(18)
	for trial := 0; trial < 20; trial++ {
		n := 2 + rng.IntN(30)
		k := 1 + rng.IntN(5)
		a := make([]int, n)
		for i := range a {
			a[i] = rng.IntN(k)
		}
		assert.Equal(t, 1.0, AdjustedRand(a, a))
		relabel := map[int]int{}
		b := make([]int, n)
		for i, ai := range a {
			if _, ok := relabel[ai]; !ok {
				relabel[ai] = -1000*len(relabel) + 7 - rng.IntN(3)*100000
			}
			b[i] = relabel[ai]
		}
		assert.Equal(t, 1.0, AdjustedRand(a, b))
		assert.Equal(t, 1.0, AdjustedRand(b, a))
	}
}

func TestAdjustedRandHandComputed(t *testing.T) {
	// {0,1},{2,3} vs {0,1},{2},{3}: a=1, b=1, c=0, d=4 → 2·4/(2·5+1·4) = 4/7.
	a, b := []int{0, 0, 1, 1}, []int{0, 0, 1, 2}
	assert.InDelta(t, 4.0/7.0, ariPairCounting(a, b), 1e-15)
	assert.InDelta(t, 4.0/7.0, AdjustedRand(a, b), 1e-15)
	// {0,1,2},{3,4,5} vs {0,1},{2,3},{4,5}: a=2, b=4, c=1, d=8 → 24/99 = 8/33.
	a, b = []int{5, 5, 5, 9, 9, 9}, []int{0, 0, 1, 1, 2, 2}
	assert.InDelta(t, 8.0/33.0, ariPairCounting(a, b), 1e-15)
	assert.InDelta(t, 8.0/33.0, AdjustedRand(a, b), 1e-15)
	// Can be negative.
	a, b = []int{0, 0, 1, 1}, []int{0, 1, 0, 1}
	assert.InDelta(t, ariPairCounting(a, b), AdjustedRand(a, b), 1e-15)
	assert.Less(t, AdjustedRand(a, b), 0.0)
}

func TestAdjustedRandMatchesPairCounting(t *testing.T) {
	rng := newRand(19)
	for trial := 0; trial < 200; trial++ {
		n := 3 + rng.IntN(40)
		ka, kb := 1+rng.IntN(6), 1+rng.IntN(6)
		a, b := make([]int, n), make([]int, n)
		for i := range a {
			a[i] = rng.IntN(ka) * 13
			b[i] = rng.IntN(kb) - 2
		}
		want := ariPairCounting(a, b)
		got := AdjustedRand(a, b)
		if math.IsNaN(want) {
			// Only the trivial-and-equal case has a 0/0 pair count.
			assert.Equal(t, 1.0, got)
			continue
		}
		assert.InDelta(t, want, got, 1e-12, "a=%v b=%v", a, b)
		assert.InDelta(t, got, AdjustedRand(b, a), 1e-15, "symmetry")
	}
}

func TestAdjustedRandDegenerate(t *testing.T) {
	one := []int{4, 4, 4, 4, 4}
	singles := []int{0, 1, 2, 3, 4}
	got := AdjustedRand(one, singles)
	assert.False(t, math.IsNaN(got))
	assert.Equal(t, 0.0, got)
	assert.Equal(t, 0.0, AdjustedRand(singles, one))
	assert.Equal(t, 1.0, AdjustedRand(one, []int{1, 1, 1, 1, 1}))
	assert.Equal(t, 1.0, AdjustedRand(singles, []int{9, 8, 7, 6, 5}))
	assert.Equal(t, 1.0, AdjustedRand([]int{3}, []int{-1}))
	assert.Equal(t, 1.0, AdjustedRand(nil, nil))
	assert.Equal(t, 1.0, AdjustedRand([]int{1, 2}, []int{5, 6}))
	assert.Equal(t, 0.0, AdjustedRand([]int{1, 1}, []int{5, 6}))
	assert.Panics(t, func() { AdjustedRand([]int{1}, []int{1, 2}) })
}
