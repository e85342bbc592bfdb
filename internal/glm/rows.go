package glm

import (
	"github.com/cardsparse/cardreg/design"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// Rows are the data of a family fit held in memory: the design, the
// response, and each row's weight, offset and, for a row that aggregates
// observations, their count and constant. The fit's options are
// fit.Options, shared with every route.
type Rows struct {
	// X is the n×p design and Y the n responses.
	X *mat.Dense
	// Design, when X is nil, holds the design by columns (dense, sparse,
	// a factor's indicators), fitted without densifying it.
	Design *design.Matrix
	Y      []float64
	// Weights and Offset are as in datafit.Data (nil: all 1, all 0).
	Weights, Offset []float64
	// Counts and Constant describe rows that each aggregate identical
	// observations (the estimator's compression of designs of factors):
	// Counts[i] ≥ 1 observations stand for row i, whose weight is the sum
	// of theirs, and Constant[i] ≥ 0, on the scale of Weights, is what the
	// row's deviance leaves out of theirs, independent of η (datafit.Data's
	// Observations and Constant). The weights are then rescaled to sum to
	// the observations, which are Model.N, the n of the grid's MinRatio and
	// of the folds' λ·n_train/n, and the deviances, the objective and the
	// held-out deviance of cross-validation are the observations'. nil:
	// each row is one observation.
	Counts   []int
	Constant []float64
	// Merge, when not nil, regroups a fold's training rows in
	// cross-validation: rows that aggregate observations (Counts) and were
	// kept apart by their folds merge once their folds are out of the way.
	// It returns the rows to fit.
	Merge func(train *Rows) *Rows
}

// pick returns the rows idx of r (without Merge).
func (r *Rows) pick(idx []int) *Rows {
	out := &Rows{Y: pick(r.Y, idx), Weights: pick(r.Weights, idx),
		Offset: pick(r.Offset, idx), Counts: pick(r.Counts, idx), Constant: pick(r.Constant, idx)}
	if r.Design != nil {
		out.Design = r.Design.SelectRows(idx)
	} else {
		out.X = rows(r.X, idx)
	}
	return out
}

// byColumns returns the rows with a dense X held by columns (a
// design.Matrix, its columns non-zero on at most solver.SparseMaxDensity
// of the rows held sparse, as the loss holds them): the loss shares them
// instead of copying, standardisation scales them without a copy, and
// cross-validation's folds select their rows column by column. Rows whose
// folds regroup them (Merge) stay dense.
func (r *Rows) byColumns() *Rows {
	if r.X == nil || r.Merge != nil {
		return r
	}
	out := *r
	out.Design, out.X = design.FromDense(r.X, solver.SparseMaxDensity), nil
	return &out
}

// dims returns the shape of the rows' design.
func (r *Rows) dims() (n, p int) {
	if r.X == nil {
		return r.Design.Dims()
	}
	return r.X.Dims()
}

// linkOf returns the linear predictor of model m on the rows (offset
// included).
func (r *Rows) linkOf(m *fit.Model) []float64 {
	if r.X == nil {
		return mat.Col(nil, 0, m.LinkOf(r.Design, r.Offset))
	}
	return link(m, r.X, r.Offset)
}
