package factor

import (
	"fmt"
	"slices"
	"strings"
)

// NumericPredictor is what a fit with factors says of one numeric
// predictor: the penalty it gets, the scale it was penalised on and its
// coefficient on both scales.
type NumericPredictor struct {
	// Name is the predictor's.
	Name string `json:"name"`
	// Penalty is its penalty (Options.Numeric: cardinality, lasso or
	// none), and FusedWith, for cardinality, the other numeric predictors
	// of its block (its coefficient may fuse with theirs).
	Penalty   string   `json:"penalty"`
	FusedWith []string `json:"fused_with,omitempty"`
	// SD is the column's weighted population standard deviation
	// (NumericScales), Standardized whether the penalty acts on the
	// coefficient per unit of SD (--standardize) or per unit of the data.
	SD           float64 `json:"sd"`
	Standardized bool    `json:"standardized"`
	// Coefficient is on the data's scale (per unit of the column),
	// PerSD the same per standard deviation (Coefficient × SD): the value
	// the penalty acts on when Standardized.
	Coefficient float64 `json:"coefficient"`
	PerSD       float64 `json:"coefficient_per_sd"`
}

// NumericPredictors describes the numeric predictors of d under the
// numeric penalty named numeric (Options.Numeric; "" is cardinality): sd
// holds one scale per column (NumericScales; nil: unknown, 0 reported),
// standardized says the penalty acted on the coefficients per standard
// deviation, coef holds the coefficients on the data's scale (nil: 0).
func (d *Design) NumericPredictors(numeric string, sd []float64, standardized bool, coef []float64) []NumericPredictor {
	if numeric == "" {
		numeric = NumericCardinality
	}
	num := d.Numeric()
	out := make([]NumericPredictor, len(num))
	for k, j := range num {
		p := NumericPredictor{Name: d.Names[j], Penalty: numeric, Standardized: standardized}
		if sd != nil {
			p.SD = sd[j]
		}
		if coef != nil {
			p.Coefficient = coef[j]
			p.PerSD = coef[j] * p.SD
		}
		if numeric == NumericCardinality {
			for _, i := range num {
				if i != j {
					p.FusedWith = append(p.FusedWith, d.Names[i])
				}
			}
		}
		out[k] = p
	}
	return out
}

// NumericNote says in one line how the numeric predictors of d are
// penalised and on what scale (ps: NumericPredictors), or "" when d has
// none: the note a fit with factors prints, since a shared penalty on
// columns of different scales (a cardinality block fusing them, a lasso's
// one λ) means different things per unit of each.
func NumericNote(ps []NumericPredictor) string {
	if len(ps) == 0 {
		return ""
	}
	parts := make([]string, len(ps))
	for k, p := range ps {
		parts[k] = p.Name
		if p.SD > 0 {
			parts[k] += fmt.Sprintf(" (sd %.4g)", p.SD)
		}
	}
	s := "numeric predictors beside the factors: " + strings.Join(parts, ", ")
	switch p := ps[0]; {
	case p.Penalty == NumericNone:
		return s + ": unpenalised"
	case p.Penalty == NumericCardinality && len(ps) > 1:
		s += "; one cardinality block fuses their coefficients"
	default:
		s += "; each its own " + p.Penalty + " term"
	}
	if p := ps[0]; p.Standardized {
		return s + ", per standard deviation (--standardize, the full data's in every cross-validation fold; the factors' dummy columns are not standardised, their effects are penalised as they are); coefficients are reported on the data's scale"
	}
	if spread(ps) {
		return s + ", per unit of each column, whose scales differ: --standardize penalises them per standard deviation (the factors' dummy columns are left as they are)"
	}
	return s + ", per unit of each column (not standardised)"
}

// spread reports whether the predictors' standard deviations differ by
// more than a factor of 2.
func spread(ps []NumericPredictor) bool {
	sd := make([]float64, len(ps))
	for k, p := range ps {
		sd[k] = p.SD
	}
	lo, hi := slices.Min(sd), slices.Max(sd)
	return lo > 0 && hi > 2*lo
}
