package factor

import (
	"math"
	"slices"
)

// Group is a set of a factor's levels that share one effect.
type Group struct {
	// Levels are the group's levels, in level order.
	Levels []string `json:"levels"`
	// Reference says the group holds the reference level: its effect is 0.
	Reference bool `json:"reference,omitempty"`
	// Effect is the group's coefficient, relative to the reference.
	Effect float64 `json:"effect"`
	// Penalised is the penalised fit's effect when Effect is the refit of
	// Options.Relax (nil otherwise).
	Penalised *float64 `json:"penalised_effect,omitempty"`
	// Relativity is e^Effect for a log link (the factor by which the mean
	// is multiplied against the reference), nil for other links.
	Relativity *float64 `json:"relativity,omitempty"`
	// Rows counts the rows at the group's levels; Share is their share of
	// the weights (of the rows without weights).
	Rows  int     `json:"rows"`
	Share float64 `json:"share"`
}

// Levels is a factor's answer: its level groups.
type Levels struct {
	// Factor is the factor's name, Reference its reference level.
	Factor    string `json:"factor"`
	Reference string `json:"reference"`
	Ordinal   bool   `json:"ordinal"`
	// Groups are the level groups, by decreasing effect.
	Groups []Group `json:"groups"`
}

// Fitted is what Design.Levels reads of a fit.
type Fitted struct {
	// Coef holds one coefficient per design column (the refit with
	// relax); Penalised, when not nil, the penalised fit's, whose equal
	// effects define the groups.
	Coef, Penalised []float64
	// LogLink asks for relativities e^β.
	LogLink bool
	// Weights, when not nil, are the rows' weights (shares are of their
	// sum).
	Weights []float64
}

// Levels returns the level groups of every factor of the fit: levels whose
// penalised effects are equal (exactly: the solvers return exact ties) form
// one group; the reference's group has effect 0.
func (d *Design) Levels(fit Fitted) []Levels {
	out := make([]Levels, len(d.Factors))
	for f, fc := range d.Factors {
		pen := fit.Penalised
		if pen == nil {
			pen = fit.Coef
		}
		byPen, eff := d.Effects(f, pen), d.Effects(f, fit.Coef)
		rows, mass := d.levelMass(f, fit.Weights)
		var total float64
		for _, m := range mass {
			total += m
		}
		var groups []Group
		index := map[float64]int{}
		for l, name := range fc.Levels {
			k, ok := index[byPen[l]]
			if !ok {
				k = len(groups)
				index[byPen[l]] = k
				groups = append(groups, Group{Effect: eff[l]})
				if fit.Penalised != nil {
					v := byPen[l]
					groups[k].Penalised = &v
				}
				if fit.LogLink {
					r := math.Exp(eff[l])
					groups[k].Relativity = &r
				}
			}
			g := &groups[k]
			g.Levels = append(g.Levels, name)
			g.Reference = g.Reference || l == fc.Ref
			g.Rows += rows[l]
			g.Share += mass[l] / total
		}
		slices.SortStableFunc(groups, func(a, b Group) int {
			switch {
			case a.Effect > b.Effect:
				return -1
			case a.Effect < b.Effect:
				return 1
			}
			return 0
		})
		out[f] = Levels{Factor: fc.Name, Reference: fc.Levels[fc.Ref], Ordinal: fc.Ordinal, Groups: groups}
	}
	return out
}

// levelMass returns factor f's rows per level and their weight (the rows
// without weights): from its codes and w, or for a factor read by a stream
// (no codes) from its counts and masses.
func (d *Design) levelMass(f int, w []float64) ([]int, []float64) {
	fc := d.Factors[f]
	rows, mass := make([]int, len(fc.Levels)), make([]float64, len(fc.Levels))
	if fc.Codes == nil && fc.Counts != nil {
		for c, n := range fc.Counts {
			rows[c], mass[c] = int(n), n
			if fc.Mass != nil {
				mass[c] = fc.Mass[c]
			}
		}
		return rows, mass
	}
	for i, c := range fc.Codes {
		rows[c]++
		if w != nil {
			mass[c] += w[i]
		} else {
			mass[c]++
		}
	}
	return rows, mass
}

// DF returns the degrees of freedom of coefficients coef (one per design
// column) for AIC and BIC: per factor the number of distinct non-zero level
// effects, plus the distinct non-zero values of the numeric predictors
// under a cardinality penalty (each non-zero numeric coefficient
// otherwise, numeric says which), the intercept not counted.
func (d *Design) DF(coef []float64, numeric string) int {
	df := 0
	for f := range d.Factors {
		df += distinctNonZero(d.Effects(f, coef))
	}
	var num []float64
	for _, j := range d.Numeric() {
		num = append(num, coef[j])
	}
	if numeric == NumericCardinality || numeric == "" {
		return df + distinctNonZero(num)
	}
	for _, v := range num {
		if v != 0 || numeric == NumericNone {
			df++
		}
	}
	return df
}

func distinctNonZero(v []float64) int {
	seen := map[float64]bool{}
	for _, x := range v {
		if x != 0 {
			seen[x] = true
		}
	}
	return len(seen)
}
