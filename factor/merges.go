package factor

import (
	"slices"

	"github.com/cardsparse/cardreg/data"
)

// Merge is one event along a path: at Lambda, groups of a factor's levels
// that were apart at the next smaller λ of the path share one effect.
type Merge struct {
	// Factor is the factor's name.
	Factor string `json:"factor"`
	// Lambda is the first λ of the path (going up) at which they share it.
	Lambda float64 `json:"lambda"`
	// Joined are the groups that merge, each in level order; the
	// reference's group, when one of them, is marked by Reference.
	Joined [][]string `json:"joined"`
	// Reference says the merged group holds the reference level (its
	// effect is then 0).
	Reference bool `json:"reference"`
	// Groups is the factor's number of level groups at Lambda.
	Groups int `json:"groups"`
}

// Partition returns factor f's level groups of coefficients coef (one per
// design column) as the group index of each level: levels with equal
// effects share an index (the reference's effect is 0), numbered in order
// of first appearance along the levels.
func (d *Design) Partition(f int, coef []float64) []int {
	eff := d.Effects(f, coef)
	index := map[float64]int{}
	out := make([]int, len(eff))
	for l, v := range eff {
		k, ok := index[v]
		if !ok {
			k = len(index)
			index[v] = k
		}
		out[l] = k
	}
	return out
}

// Merges returns, for every factor, the merges along a path: coefs[k]
// holds the coefficients at lambdas[k], λ decreasing as a path is fitted.
// Going up from the smallest λ, a group at lambdas[k] made of several
// groups at lambdas[k+1] is a merge at lambdas[k]. (A group can also split
// as λ grows on a non-monotone path; only merges are listed.)
func (d *Design) Merges(lambdas []float64, coefs [][]float64) []Merge {
	var out []Merge
	for f, fc := range d.Factors {
		parts := make([][]int, len(lambdas)) // each λ's partition, once
		for k := range lambdas {
			parts[k] = d.Partition(f, coefs[k])
		}
		for k := len(lambdas) - 2; k >= 0; k-- {
			groups := slices.Max(parts[k]) + 1
			for g := range groups {
				if m, ok := merged(fc, parts[k], parts[k+1], g); ok {
					m.Lambda, m.Groups = lambdas[k], groups
					out = append(out, m)
				}
			}
		}
	}
	return out
}

// merged returns the merge that makes group g of partition upper from
// the groups of lower (factor fc's levels), and false when g is one group
// of lower already.
func merged(fc *data.Factor, upper, lower []int, g int) (Merge, bool) {
	parts := map[int][]string{}
	var order []int
	ref := false
	for l, u := range upper {
		if u != g {
			continue
		}
		if _, ok := parts[lower[l]]; !ok {
			order = append(order, lower[l])
		}
		parts[lower[l]] = append(parts[lower[l]], fc.Levels[l])
		ref = ref || l == fc.Ref
	}
	m := Merge{Factor: fc.Name, Reference: ref}
	for _, o := range order {
		m.Joined = append(m.Joined, parts[o])
	}
	return m, len(order) >= 2
}
