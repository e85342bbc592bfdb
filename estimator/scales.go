package estimator

import (
	"fmt"

	"github.com/cardsparse/cardreg/design"
	"github.com/cardsparse/cardreg/internal/glm"
	"gonum.org/v1/gonum/mat"
)

// ColumnScales returns the scales Options.Standardize divides the columns
// of x by: each column's weighted population standard deviation (glmnet's
// convention; weights w, nil: all 1, any scale), 1 for a constant column.
func ColumnScales(x *mat.Dense, w []float64) []float64 { return glm.ColumnScales(x, w) }

// DivideColumns divides column j of the rows' design by s[j] (1 leaves it
// as it is), so that a fit without Standardize penalises the coefficients
// of the scaled columns per unit of s[j]: the standardisation of some
// columns only (the numeric predictors beside factors). A dense design is
// divided in place (the caller owns it); a *design.Matrix is replaced by
// its scaled view (design.Matrix.Scaled: no copy of the values). The fit's
// coefficients are then on the scaled columns' scale until Unscale*.
func DivideColumns(r *Rows, s []float64) error {
	_, p := r.X.Dims()
	if len(s) != p {
		return fmt.Errorf("estimator: %d scales for %d columns", len(s), p)
	}
	inv := make([]float64, p)
	for j, v := range s {
		if !(v > 0) {
			return fmt.Errorf("estimator: column %d has scale %v: scales must be positive", j, v)
		}
		inv[j] = 1 / v
	}
	if x := denseOf(r.X); x != nil {
		n, _ := x.Dims()
		for i := range n {
			row := x.RawRowView(i)
			for j, v := range s {
				if v != 1 {
					row[j] /= v
				}
			}
		}
		return nil
	}
	if m, ok := r.X.(*design.Matrix); ok {
		scaled, err := m.Scaled(inv)
		if err != nil {
			return err
		}
		r.X = scaled
		return nil
	}
	return fmt.Errorf("estimator: cannot divide the columns of a %T", r.X)
}

// UnscaleModel reports model m, fitted on columns divided by s
// (DivideColumns), on the data's scale: coefficient j divided by s[j], as
// Standardize's fits report theirs. What is on the penalty's scale
// (Model.Penalised, the clusters and distinct values) stays there, as with
// Standardize.
func UnscaleModel(m *Model, s []float64) {
	if m == nil || m.Coef == nil {
		return
	}
	p, q := m.Coef.Dims()
	for j := range p {
		for k := range q {
			m.Coef.Set(j, k, m.Coef.At(j, k)/s[j])
		}
	}
}

// UnscalePath is UnscaleModel of every model of path p.
func UnscalePath(p *Path, s []float64) {
	if p == nil {
		return
	}
	for _, m := range p.Models {
		UnscaleModel(m, s)
	}
}
