package factor

import "slices"

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
		for k := len(lambdas) - 2; k >= 0; k-- {
			upper, lower := d.Partition(f, coefs[k]), d.Partition(f, coefs[k+1])
			groups := slices.Max(upper) + 1
			for g := range groups {
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
				if len(order) < 2 {
					continue
				}
				m := Merge{Factor: fc.Name, Lambda: lambdas[k], Reference: ref, Groups: groups}
				for _, o := range order {
					m.Joined = append(m.Joined, parts[o])
				}
				out = append(out, m)
			}
		}
	}
	return out
}
