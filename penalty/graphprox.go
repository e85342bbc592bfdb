package penalty

import (
	"math"
	"slices"
)

// tvGraph is a weighted graph on n free nodes and one pinned reference node
// whose value is 0. It carries the weighted graph total variation
//
//	h(x) = Σ_{edges {i,j}} w_ij·|x_i − x_j| + Σ_i r_i·|x_i|,
//
// the second sum being the edges to the reference (r_i = 0 when node i has
// none). Every connected component of the free nodes must reach the
// reference, so that h is a norm.
type tvGraph struct {
	adj [][]arc   // adj[i] lists i's edges to other free nodes, both directions stored
	ref []float64 // ref[i] is the weight of the edge from i to the reference
}

type arc struct {
	to int
	w  float64
}

// value returns h(x).
func (g *tvGraph) value(x []float64) float64 {
	var s float64
	for i, as := range g.adj {
		for _, a := range as {
			if a.to > i {
				s += a.w * math.Abs(x[i]-x[a.to])
			}
		}
		s += g.ref[i] * math.Abs(x[i])
	}
	return s
}

// prox replaces v by argmin_x ½‖x − v‖² + τh(x).
//
// For α ≥ 0 the level set {x* > α} minimises Σ_{i∈S}(α − v_i) + τF(S) with
// F(S) = w(∂S) (edges to the reference included, since the reference never
// exceeds α ≥ 0). That is the level set of the free-graph prox y⁺ of
// v − τr, the reference edges having become the linear term τr_i·x_i.
// Likewise the level sets below α < 0 are those of y⁻, the free-graph prox
// of v + τr. Hence x* = max(y⁺, 0) + min(y⁻, 0) (y⁺ ≤ y⁻ by monotonicity, so
// at most one term is non-zero).
func (g *tvGraph) prox(v []float64, tau float64) {
	if tau == 0 {
		return
	}
	n := len(v)
	up := make([]float64, n)
	dn := make([]float64, n)
	for i, x := range v {
		up[i] = x - tau*g.ref[i]
		dn[i] = x + tau*g.ref[i]
	}
	yp := g.freeProx(up, tau)
	ym := g.freeProx(dn, tau)
	for i := range v {
		v[i] = math.Max(yp[i], 0) + math.Min(ym[i], 0)
	}
}

// freeProx returns argmin_y ½‖y − v‖² + τ Σ_{edges} w_ij|y_i − y_j| (the
// reference edges left out) by divide and conquer with minimum cuts
// (D. S. Hochbaum, "An efficient algorithm for image segmentation, Markov
// random fields and related problems", J. ACM 48(4), 2001; F. Bach,
// "Learning with submodular functions", 2013, §9.1). On a set U whose
// outside neighbours are already known to lie above or below it, the edges
// leaving U are linear terms and are folded into the data d. With α the mean
// of d over U, the minimal minimiser S of Σ_{i∈S}(α − d_i) + τ·cut_U(S) is
// {y > α}; if it is empty, all of U is fused at α (the prox of a
// shift-invariant function keeps the mean). Otherwise the cut edges are
// folded into d (−τw on the S side, +τw on the other) and both sides are
// solved on their own. At most 2|U| − 1 cuts are computed; each is a
// Dinic max-flow on the induced subgraph. Fused nodes receive exactly the
// same value.
func (g *tvGraph) freeProx(v []float64, tau float64) []float64 {
	n := len(v)
	d := slices.Clone(v)
	y := make([]float64, n)
	loc := make([]int, n)
	for i := range loc {
		loc[i] = -1
	}
	a := make([]float64, n)
	stack := [][]int{seq(n)}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if len(u) == 1 {
			y[u[0]] = d[u[0]]
			continue
		}
		var alpha float64
		for _, i := range u {
			alpha += d[i]
		}
		alpha /= float64(len(u))
		var scale float64
		for k, i := range u {
			a[k] = alpha - d[i]
			scale += math.Abs(a[k])
		}
		in, val, cut := g.minCut(u, a[:len(u)], tau, loc)
		var ns int
		for _, b := range in {
			if b {
				ns++
			}
		}
		if ns == 0 || ns == len(u) || !(val < -1e-12*(scale+cut)) {
			for _, i := range u {
				y[i] = alpha
			}
			continue
		}
		above := make([]int, 0, ns)
		below := make([]int, 0, len(u)-ns)
		for k, i := range u {
			if in[k] {
				above = append(above, i)
			} else {
				below = append(below, i)
			}
		}
		for _, i := range u {
			loc[i] = -2 // in u, below
		}
		for _, i := range above {
			loc[i] = -3
		}
		for _, i := range above {
			for _, e := range g.adj[i] {
				if loc[e.to] == -2 {
					d[i] -= tau * e.w
					d[e.to] += tau * e.w
				}
			}
		}
		for _, i := range u {
			loc[i] = -1
		}
		stack = append(stack, above, below)
	}
	return y
}

// minCut returns the minimal minimiser S ⊆ u (as in[k] for u[k]) of
//
//	Σ_{k∈S} a_k + c·Σ_{i∈S, j∈u∖S, {i,j} an edge} w_ij,
//
// its value val, and c times the weight of its cut. It uses loc as scratch
// (all −1 on entry and on return).
func (g *tvGraph) minCut(u []int, a []float64, c float64, loc []int) (in []bool, val, cut float64) {
	m := len(u)
	for k, i := range u {
		loc[i] = k
	}
	src, snk := m, m+1
	net := newFlowNet(m + 2)
	for k, i := range u {
		switch {
		case a[k] < 0:
			net.add(src, k, -a[k], 0)
		case a[k] > 0:
			net.add(k, snk, a[k], 0)
		}
		if c > 0 {
			for _, e := range g.adj[i] {
				if l := loc[e.to]; l > k {
					net.add(k, l, c*e.w, c*e.w)
				}
			}
		}
	}
	net.maxFlow(src, snk)
	reach := net.reach(src)
	in = reach[:m]
	for k, i := range u {
		if !in[k] {
			continue
		}
		val += a[k]
		for _, e := range g.adj[i] {
			if l := loc[e.to]; l >= 0 && !in[l] {
				cut += c * e.w
			}
		}
	}
	for _, i := range u {
		loc[i] = -1
	}
	return in, val + cut, cut
}

// dualNorm returns h*(g) = max over non-empty S of |g(S)|/F(S), F(S) the
// weight of the edges leaving S (reference edges included): h is the
// Lovász extension of F on each sign, so the extreme points of its unit
// ball are ±1_S/F(S). The maximum is found by Dinkelbach's method for each
// sign: from t = the best singleton ratio, the set S maximising
// g(S) − t·F(S) is a minimum cut (costs t·r_i − g_i, capacities t·w_ij);
// while its value is positive, t ← g(S)/F(S), which strictly increases t
// and ends after finitely many cuts at the exact maximum (up to the
// rounding of the cut values).
func (g *tvGraph) dualNorm(gr []float64) float64 {
	n := len(gr)
	deg := make([]float64, n)
	for i, as := range g.adj {
		deg[i] = g.ref[i]
		for _, e := range as {
			deg[i] += e.w
		}
	}
	loc := make([]int, n)
	for i := range loc {
		loc[i] = -1
	}
	all := seq(n)
	a := make([]float64, n)
	var best float64
	for _, sign := range []float64{1, -1} {
		var t float64
		for i, x := range gr {
			t = math.Max(t, sign*x/deg[i])
		}
		done := false
		for iter := 0; iter < 10*n+10 && !done; iter++ {
			var scale float64
			for i, x := range gr {
				a[i] = t*g.ref[i] - sign*x
				scale += math.Abs(a[i])
			}
			in, val, cut := g.minCut(all, a, t, loc)
			if !(val < -1e-13*(scale+cut)) {
				done = true
				break
			}
			var num, den float64
			for i, b := range in {
				if !b {
					continue
				}
				num += sign * gr[i]
				den += g.ref[i]
				for _, e := range g.adj[i] {
					if !in[e.to] {
						den += e.w
					}
				}
			}
			nt := num / den
			if !(nt > t) {
				done = true
				break
			}
			t = nt
		}
		if !done {
			// Each t is a lower bound: never certify with one. Every S
			// has w(∂S) ≥ Σ_{i∈S} ref_i ≥ min ref, so Σ|g|/min ref bounds
			// h* from above (a looser, still valid, certificate).
			return g.dualBound(gr)
		}
		best = math.Max(best, t)
	}
	return best
}

// dualBound is an upper bound of the dual norm, Σ|g_i| / min_i ref_i (the
// weights of the edges to the pinned reference bound every cut from below).
func (g *tvGraph) dualBound(gr []float64) float64 {
	var s float64
	low := math.Inf(1)
	for i, x := range gr {
		s += math.Abs(x)
		low = math.Min(low, g.ref[i])
	}
	return s / low
}

// flowNet is a flow network for Dinic's maximum-flow algorithm with
// floating-point capacities; residual capacities at or below eps (a
// rounding-level fraction of the largest capacity) count as saturated.
type flowNet struct {
	head, next, to []int
	res            []float64
	level, iter    []int
	eps            float64
}

func newFlowNet(n int) *flowNet {
	f := &flowNet{head: make([]int, n), level: make([]int, n), iter: make([]int, n)}
	for i := range f.head {
		f.head[i] = -1
	}
	return f
}

// add adds the arc u→v with capacity c and its reverse with capacity rc.
func (f *flowNet) add(u, v int, c, rc float64) {
	f.to = append(f.to, v, u)
	f.res = append(f.res, c, rc)
	f.next = append(f.next, f.head[u], f.head[v])
	f.head[u] = len(f.to) - 2
	f.head[v] = len(f.to) - 1
	f.eps = math.Max(f.eps, 1e-14*math.Max(c, rc))
}

func (f *flowNet) bfs(s int) {
	for i := range f.level {
		f.level[i] = -1
	}
	f.level[s] = 0
	queue := []int{s}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for e := f.head[u]; e >= 0; e = f.next[e] {
			if v := f.to[e]; f.res[e] > f.eps && f.level[v] < 0 {
				f.level[v] = f.level[u] + 1
				queue = append(queue, v)
			}
		}
	}
}

func (f *flowNet) dfs(u, t int, limit float64) float64 {
	if u == t {
		return limit
	}
	for ; f.iter[u] >= 0; f.iter[u] = f.next[f.iter[u]] {
		e := f.iter[u]
		v := f.to[e]
		if f.res[e] <= f.eps || f.level[v] != f.level[u]+1 {
			continue
		}
		if got := f.dfs(v, t, math.Min(limit, f.res[e])); got > 0 {
			f.res[e] -= got
			f.res[e^1] += got
			return got
		}
	}
	return 0
}

func (f *flowNet) maxFlow(s, t int) {
	for {
		f.bfs(s)
		if f.level[t] < 0 {
			return
		}
		copy(f.iter, f.head)
		for f.dfs(s, t, math.Inf(1)) > 0 {
		}
	}
}

// reach returns the nodes reachable from s in the residual network: the
// source side of the minimum cut that is smallest by inclusion.
func (f *flowNet) reach(s int) []bool {
	seen := make([]bool, len(f.head))
	seen[s] = true
	stack := []int{s}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for e := f.head[u]; e >= 0; e = f.next[e] {
			if v := f.to[e]; f.res[e] > f.eps && !seen[v] {
				seen[v] = true
				stack = append(stack, v)
			}
		}
	}
	return seen
}
