package data

import (
	"slices"

	"github.com/cardsparse/cardreg/design"
)

// fillDesign is fill for RowsOptions.Design: the predictors' columns
// xcols as a design.Matrix (a numeric column's values shared with the
// table, a factor's levels but its reference as indicator columns, O(n)
// memory per factor whatever its levels), Y from the targets.
func (r *Rows) fillDesign(t *Table, xcols, targets []int) error {
	n := t.Rows()
	cols := make([]design.Column, 0, len(r.Names))
	fi := 0
	for _, j := range xcols {
		if fi == len(r.Factors) || r.Factors[fi].Name != t.Names()[j] {
			cols = append(cols, design.Column{Dense: t.Col(j)})
			continue
		}
		f := r.Factors[fi]
		ind, err := design.Indicators(f.Codes, len(f.Levels), false)
		if err != nil {
			return err
		}
		cols = append(cols, slices.Delete(ind, f.Ref, f.Ref+1)...) // the reference has no column (Factor.Dummy)
		fi++
	}
	m, err := design.New(n, cols)
	if err != nil {
		return err
	}
	r.Design, r.Y = m, t.Dense(targets)
	return nil
}
