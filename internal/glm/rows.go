package glm

import "gonum.org/v1/gonum/mat"

// Rows are the data of a family fit held in memory: the design, the
// response, and each row's weight, offset and, for a row that aggregates
// observations, their count and constant. The fit's options are
// fit.Options, shared with every route.
type Rows struct {
	// X is the n×p design and Y the n responses.
	X *mat.Dense
	Y []float64
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
	return &Rows{X: rows(r.X, idx), Y: pick(r.Y, idx), Weights: pick(r.Weights, idx),
		Offset: pick(r.Offset, idx), Counts: pick(r.Counts, idx), Constant: pick(r.Constant, idx)}
}
