package penalty

import (
	"sync"

	"github.com/cardsparse/cardreg/internal/radix"
)

// workspace holds the per-column scratch space of the sorted-form routines,
// so that a matrix costs O(p) memory whatever its number of columns.
type workspace struct {
	col   []float64 // one column of the matrix at hand
	pairs []pair
	spare []pair // the radix sort's second buffer
	z     []float64
	sums  []float64
	cnts  []int
	chain chainScratch // the ordinal chain's prox
}

type pair = radix.Pair

func newWorkspace(n int) *workspace {
	return &workspace{
		col:   make([]float64, n),
		pairs: make([]pair, n),
		spare: make([]pair, n),
		z:     make([]float64, n),
		sums:  make([]float64, n),
		cnts:  make([]int, n),
	}
}

// workspaces recycles workspaces: the prox, value and dual norm run at
// every iteration of a solver, and allocating seven vectors of length p
// each time kept the garbage collector busy on wide data.
var workspaces sync.Pool

// getWorkspace returns a workspace for vectors of length up to n; give it
// back with putWorkspace.
func getWorkspace(n int) *workspace {
	if w, ok := workspaces.Get().(*workspace); ok && len(w.pairs) >= n {
		return w
	}
	return newWorkspace(n)
}

func putWorkspace(w *workspace) { workspaces.Put(w) }

// sortDesc returns v's entries and indices sorted by decreasing value, in
// one of w's two pair buffers.
func (w *workspace) sortDesc(v []float64) []pair {
	ps := w.pairs[:len(v)]
	for i, x := range v {
		ps[i] = pair{V: x, I: i}
	}
	return radix.SortDesc(ps, w.spare)
}

// pairwiseWeight is the coefficient n + 1 − 2k of the k-th largest entry
// (k = 1…n) in the sorted form Σ_{i<j}|v_i − v_j| = Σ_k (n+1−2k)·v_(k).
func pairwiseWeight(n, k int) float64 { return float64(n + 1 - 2*k) }

// pairwiseValue returns Σ_{i<j}|v_i − v_j| in O(n log n) (DESIGN §3, sorted
// form).
func pairwiseValue(v []float64, w *workspace) float64 {
	n := len(v)
	var s float64
	for k, p := range w.sortDesc(v) {
		s += pairwiseWeight(n, k+1) * p.V
	}
	return s
}

// pairwiseProx replaces v by the prox of τ·Σ_{i<j}|v_i − v_j|: sort
// decreasingly, subtract τ(n+1−2k), project onto non-increasing sequences
// by PAVA, undo the sort (DESIGN §3). The mean of v is preserved.
func pairwiseProx(v []float64, tau float64, w *workspace) {
	n := len(v)
	if n < 2 || tau == 0 {
		return
	}
	ps := w.sortDesc(v)
	z := w.z[:n]
	for k, p := range ps {
		z[k] = p.V - tau*pairwiseWeight(n, k+1)
	}
	isotonicDecreasing(z, w)
	for k, p := range ps {
		v[p.I] = z[k]
	}
}

// isotonicDecreasing replaces z by its Euclidean projection onto
// non-increasing sequences (pool-adjacent-violators, O(n)). Pooled entries
// receive exactly the same value, so clusters are exact ties.
func isotonicDecreasing(z []float64, w *workspace) {
	sums, cnts := w.sums[:0], w.cnts[:0]
	for _, x := range z {
		s, c := x, 1
		// Pool while the previous block's mean is below this one's:
		// s_prev/c_prev < s/c, compared without division.
		for len(sums) > 0 {
			top := len(sums) - 1
			if sums[top]*float64(c) >= s*float64(cnts[top]) {
				break
			}
			s += sums[top]
			c += cnts[top]
			sums, cnts = sums[:top], cnts[:top]
		}
		sums = append(sums, s)
		cnts = append(cnts, c)
	}
	k := 0
	for b, s := range sums {
		m := s / float64(cnts[b])
		for e := k + cnts[b]; k < e; k++ {
			z[k] = m
		}
	}
}

// pairwiseDual returns the dual norm of the pairwise part on the centred
// vector g⊥ = g − ḡ·1: max_{1≤k<n} S_k(g⊥)/(k(n−k)), S_k the sum of the k
// largest entries (DESIGN §3). It is 0 for n < 2.
func pairwiseDual(g []float64, mean float64, w *workspace) float64 {
	n := len(g)
	var best, s float64
	for k, p := range w.sortDesc(g) {
		if k == n-1 {
			break
		}
		s += p.V - mean
		kk := float64(k + 1)
		if r := s / (kk * (float64(n) - kk)); r > best {
			best = r
		}
	}
	return best
}
