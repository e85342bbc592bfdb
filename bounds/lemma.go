package bounds

import (
	"math"
	"math/rand/v2"

	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// LemmaCheck is one check of M_G ≤ bound, M_G computed by the LP method
// (KernelOf), not by its closed form; its JSON is cardreg bound's.
type LemmaCheck struct {
	// Kind is "all-pairs" (√P·A_n) or "grouped" (a random partition).
	Kind string `json:"kind"`
	// Rows is n, Cols the layer's column count c, and P = n·c.
	Rows int `json:"rows"`
	Cols int `json:"cols"`
	P    int `json:"P"`
	// Groups holds the group sizes of a grouped check.
	Groups []int `json:"group_sizes,omitempty"`
	// MG is M_G by the linear programs, Closed its closed form.
	MG     float64 `json:"M_G_lp"`
	Closed float64 `json:"closed_form"`
	// Bound is the lemma's bound: 2/√P, or max_k 2/√P_k for a grouped
	// check; Ratio is MG/Bound.
	Bound float64 `json:"bound"`
	Ratio float64 `json:"ratio"`
	// Holds reports MG ≤ Bound up to the linear programs' rounding.
	Holds bool `json:"holds"`
}

// boundCheck is one check before its linear programs: the row without
// M_G, the ratio and the verdict, the matrix G, and the absolute slack of
// the verdict on top of the relative tolerance 1e-9 (the LP's rounding).
type boundCheck struct {
	row   LemmaCheck
	g     *mat.Dense
	slack float64
}

// LemmaChecks checks the source paper's lemma M_A ≤ 2/√P numerically:
// for every n = 2..maxRows and column count c in cols, M_G of the weighted
// all-pairs matrix √P·A_n (P = n·c) against 2/√P, and parts random
// grouped partitions (seeded by seed) of 4–10 rows into at most 3 groups
// against max_k 2/√P_k. It calls tick (when not nil) after each check
// with the linear programs solved so far and in all.
func LemmaChecks(maxRows int, cols []int, parts int, seed uint64, tick func(done, total int)) ([]LemmaCheck, error) {
	checks := append(allPairsChecks(maxRows, cols), groupedChecks(maxRows, cols, parts, seed)...)
	total, done := 0, 0
	for _, c := range checks {
		total += programs(c.g)
	}
	out := make([]LemmaCheck, len(checks))
	for i, c := range checks {
		k, err := KernelOf(c.g)
		if err != nil {
			return nil, err
		}
		r := c.row
		r.MG, r.Holds = k.Upper, k.Upper <= r.Bound*(1+1e-9)+c.slack
		if r.Bound > 0 {
			r.Ratio = k.Upper / r.Bound
		}
		out[i] = r
		if done += programs(c.g); tick != nil {
			tick(done, total)
		}
	}
	return out, nil
}

// programs is the number of linear programs KernelOf solves on g
// (one when it bounds M_G by an interval instead).
func programs(g *mat.Dense) int {
	if _, p := g.Dims(); p <= MaxExactColumns {
		return 1 << (p - 1)
	}
	return 1
}

// allPairsChecks are the checks of the weighted all-pairs matrices √P·A_n.
func allPairsChecks(maxRows int, cols []int) []boundCheck {
	var out []boundCheck
	for n := 2; n <= maxRows; n++ {
		for _, c := range cols {
			p := n * c
			w := math.Sqrt(float64(p))
			a := penalty.AllPairs(n)
			a.Scale(w, a)
			out = append(out, boundCheck{g: a, row: LemmaCheck{Kind: "all-pairs", Rows: n, Cols: c, P: p,
				Closed: AllPairs(n, w), Bound: 2 / w}})
		}
	}
	return out
}

// groupedChecks are the checks of random grouped partitions of 4–10 rows
// into at most 3 groups.
func groupedChecks(maxRows int, cols []int, parts int, seed uint64) []boundCheck {
	var out []boundCheck
	rng := rand.New(rand.NewPCG(seed, 7))
	for t := 0; t < parts; t++ {
		lo, hi := min(4, maxRows), min(maxRows, 10) // partitions of 4–10 rows
		n := lo + rng.IntN(hi-lo+1)
		labels := make([]int, n)
		for i := range labels {
			labels[i] = rng.IntN(3)
		}
		c := cols[t%len(cols)]
		g := penalty.NewGrouped(labels, 1)
		var sizes []int
		var weights []float64
		bound := 0.0
		for j, rows := range g.Groups() {
			sizes = append(sizes, len(rows))
			weights = append(weights, g.Weight(j, c))
			if len(rows) >= 2 {
				bound = math.Max(bound, 2/g.Weight(j, c))
			}
		}
		out = append(out, boundCheck{g: penalty.GroupedMatrix(g, c), slack: 1e-12, row: LemmaCheck{Kind: "grouped",
			Rows: n, Cols: c, P: n * c, Groups: sizes, Closed: Grouped(sizes, weights), Bound: bound}})
	}
	return out
}
