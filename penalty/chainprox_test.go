package penalty

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// chainCase draws an ordinal chain of k levels: a reference position, edge
// weights (nil on every third case) and a column, with ties on odd cases.
func chainCase(rng *rand.Rand, k, trial int) (ref int, w, v []float64, tau float64) {
	ref = rng.IntN(k)
	if trial%3 != 0 {
		w = make([]float64, k-1)
		for e := range w {
			w[e] = 0.2 + 2*rng.Float64()
		}
	}
	scale := []float64{0.01, 1, 100}[trial%3]
	v = randColumn(rng, k-1, scale, trial%2 == 1)
	for i := range v { // a few steps, so that the fit has several segments
		v[i] += scale * float64(i*4/k)
	}
	return ref, w, v, scale * (0.02 + 2*rng.Float64())
}

// The dynamic programme and the minimum-cut method of the general graph
// prox (tvGraph.prox on the chain's graph) are two exact algorithms for the
// same prox: they must agree to rounding, on both sides of the reference,
// with the reference at either end, with and without weights.
func TestChainProxMatchesMinCut(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	var s chainScratch
	for trial := 0; trial < 400; trial++ {
		k := 2 + rng.IntN(40)
		ref, w, v, tau := chainCase(rng, k, trial)
		got := slices.Clone(v)
		chainProx(got, ref, w, tau, &s)
		want := slices.Clone(v)
		chainGraph(k, ref, w).prox(want, tau)
		scale := 1e-9 * (1 + math.Abs(tau) + mat.Norm(mat.NewVecDense(len(v), v), math.Inf(1)))
		require.InDeltaSlice(t, want, got, scale, "trial %d k=%d ref=%d w=%v τ=%v v=%v", trial, k, ref, w, tau, v)
	}
}

// The prox's own optimality condition, on chains too long for the
// min-cut reference: z = prox_{τh}(v) exactly when g = (v − z)/τ is a
// subgradient of h at z, i.e. h*(g) ≤ 1 (chainDual, a closed form) and
// ⟨g, z⟩ = h(z) (the graph's value). Fused levels must be exact ties and
// levels fused with the reference exact zeros.
func TestChainProxOptimality(t *testing.T) {
	rng := rand.New(rand.NewPCG(73, 74))
	var s chainScratch
	for trial := 0; trial < 30; trial++ {
		k := 500 + rng.IntN(3000)
		ref, w, v, tau := chainCase(rng, k, trial)
		z := slices.Clone(v)
		chainProx(z, ref, w, tau, &s)
		g := make([]float64, len(v))
		var gz float64
		for i := range g {
			g[i] = (v[i] - z[i]) / tau
			gz += g[i] * z[i]
		}
		h := chainGraph(k, ref, w).value(z)
		require.LessOrEqual(t, chainDual(g, ref, w), 1+1e-9, "trial %d: dual norm of (v − z)/τ", trial)
		require.InDelta(t, h, gz, 1e-9*(1+h), "trial %d: ⟨g, z⟩ against h(z)", trial)
		for i := range z {
			require.False(t, z[i] != 0 && math.Abs(z[i]) < 1e-12*(1+math.Abs(v[i])), "trial %d: near-zero %v", trial, z[i])
			if i > 0 {
				d := math.Abs(z[i] - z[i-1])
				require.False(t, d != 0 && d < 1e-12*(1+math.Abs(z[i])), "trial %d: near tie %v %v", trial, z[i-1], z[i])
			}
		}
	}
}

// BenchmarkLargeOrdinalProx: the prox of a chain of 10⁵ levels, linear in
// K (the min-cut method it replaced took 7 s per prox at this size, and a
// fit takes thousands).
func BenchmarkLargeOrdinalProx(b *testing.B) {
	rng := rand.New(rand.NewPCG(75, 76))
	n := 100_000 - 1
	h, err := NewBlocks(n, []Block{{Type: OrdinalBlock, Rows: seq(n), Ref: n / 3}})
	require.NoError(b, err)
	theta := draw(rng, n, 1, false)
	var dst mat.Dense
	for b.Loop() {
		h.Prox(&dst, theta, 0.5)
	}
}
