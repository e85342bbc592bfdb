package penalty

import "math"

// chainGraph returns the graph of an ordinal factor with k levels in order,
// the level ref pinned at 0 and edge e joining levels e and e+1 with weight
// w[e] (nil means 1). The free nodes are the other levels in order: level l
// is node l for l < ref and node l − 1 for l > ref. The edges at the
// reference become reference weights, so the chain splits into the two
// chains on either side of ref, each with its end next to ref tied to 0.
func chainGraph(k, ref int, w []float64) *tvGraph {
	g := &tvGraph{adj: make([][]arc, k-1), ref: make([]float64, k-1)}
	node := func(l int) int {
		if l < ref {
			return l
		}
		return l - 1
	}
	for e := 0; e < k-1; e++ {
		we := 1.0
		if w != nil {
			we = w[e]
		}
		switch {
		case e == ref:
			g.ref[node(e+1)] += we
		case e+1 == ref:
			g.ref[node(e)] += we
		default:
			i, j := node(e), node(e+1)
			g.adj[i] = append(g.adj[i], arc{j, we})
			g.adj[j] = append(g.adj[j], arc{i, we})
		}
	}
	return g
}

// chainDual returns the dual norm of the ordinal chain penalty with the
// reference at ref. The chain is a tree rooted at the reference, so its
// difference operator D (one row per edge) is invertible and
// h*(g) = ‖W⁻¹D⁻ᵀg‖_∞ = max_e |g(side of e away from ref)|/w_e, the side
// sums being running sums from each end of the chain towards ref. O(k).
func chainDual(g []float64, ref int, w []float64) float64 {
	k := len(g) + 1
	weight := func(e int) float64 {
		if w == nil {
			return 1
		}
		return w[e]
	}
	var best, s float64
	// Edges e < ref join levels e and e+1 ≤ ref; the far side is levels
	// 0…e, i.e. nodes 0…e.
	for e := 0; e < ref; e++ {
		s += g[e]
		best = math.Max(best, math.Abs(s)/weight(e))
	}
	// Edges e ≥ ref join levels e and e+1 > ref; the far side is levels
	// e+1…k−1, i.e. nodes e…k−2.
	s = 0
	for e := k - 2; e >= ref; e-- {
		s += g[e]
		best = math.Max(best, math.Abs(s)/weight(e))
	}
	return best
}
