package solver

import "github.com/cardsparse/cardreg/penalty"

// Hints tell DefaultMethod what it cannot read off the problem.
type Hints struct {
	// N is the number of observations (0: unknown, taken as enough for
	// the loss's second-order model).
	N int
	// Path says that the method solves the warm-started fits of a λ path
	// (λ > 0), which pay a one-off cost such as forming XᵀX once;
	// Problem.Lambda is then not read.
	Path bool
	// WorkingSet is the working set a path's lasso fits share (it hands
	// each fit's gradient to the next); DefaultMethod returns it when it
	// chooses a working set. If nil, a new one.
	WorkingSet *WorkingSet
}

// workingSetMin is the number of predictors above which DefaultMethod
// solves a lasso on a Reweighter loss on a working set.
const workingSetMin = 64

// DefaultMethod returns the method for p when the caller asks for none,
// from the penalty, the capabilities of the loss, and its shape. The rule,
// written only here:
//
//   - The lasso (penalty.L1, penalty.WeightedL1) at λ > 0 on a Reweighter
//     loss (a generalised linear model's deviance): IRLSCD, glmnet's
//     algorithm, inside a WorkingSet above 64 predictors when the loss is
//     a Restricter.
//   - Any other penalty, or λ = 0, on a Newtoner loss: ProxNewton (whose
//     models FISTA solves in Gram form) for the lasso, and for the other
//     penalties when n ≥ p and p ≤ 5000; else FISTA on the loss directly.
//   - Least squares at λ = 0 (not on a path): FISTA.
//   - Another separable penalty with a per-coordinate prox (the elastic
//     net): IRLSCD on a Reweighter loss at λ > 0; on least squares
//     GramCoordinateDescent when the loss works in Gram form.
//   - The lasso on least squares: coordinate descent, on XᵀX
//     (GramCoordinateDescent) when the loss works in Gram form and the fit
//     is one of a path (the product is paid once) or there is no dense
//     design, else on the columns of the dense design
//     (CoordinateDescent, glmnet's algorithm, no XᵀX).
//   - A fused penalty (cardinality, grouped) on least squares with a
//     dense design and no Gram form (p > n, or p > 5000): ClusterCD.
//   - Otherwise FISTA (with polishing for piecewise-linear penalties).
func DefaultMethod(p Problem, h Hints) Method {
	lasso := IsSeparableL1(p.Penalty)
	zero := p.Lambda == 0 && !h.Path
	if ls, ok := p.Loss.(*LeastSquares); ok {
		return leastSquaresMethod(ls, p.Penalty, lasso, zero, h.Path)
	}
	if _, ok := p.Loss.(Reweighter); ok && CoordinateWise(p.Penalty) && !zero {
		if _, ok := p.Loss.(Restricter); ok && lasso && dims(p.Loss) > workingSetMin {
			if h.WorkingSet != nil {
				return h.WorkingSet
			}
			return &WorkingSet{}
		}
		return IRLSCD{}
	}
	if _, ok := p.Loss.(Newtoner); ok {
		if m := dims(p.Loss); lasso || (h.N == 0 || h.N >= m) && m <= GramLimit {
			return &ProxNewton{}
		}
	}
	return &FISTA{}
}

// leastSquaresMethod is DefaultMethod's rule for least squares.
func leastSquaresMethod(ls *LeastSquares, pen penalty.Penalty, lasso, zero, path bool) Method {
	dense := ls.denseDesign()
	gram := ls.gramer != nil || ls.h != nil // without forming XᵀX
	_, fused := pen.(penalty.Fused)
	switch {
	case zero:
		return &FISTA{}
	case lasso && gram && (path || !dense):
		return GramCoordinateDescent{}
	case lasso && dense:
		return CoordinateDescent{}
	case !lasso && gram && CoordinateWise(pen):
		return GramCoordinateDescent{}
	case fused && dense && !gram:
		return ClusterCD{}
	}
	return &FISTA{}
}

// denseDesign reports whether the loss's design is held densely, by rows
// or by columns, as coordinate descent and ClusterCD need.
func (ls *LeastSquares) denseDesign() bool {
	switch ls.x.(type) {
	case DenseDesign, ColumnDesign:
		return true
	}
	return false
}

// dims returns the number of rows of the loss's parameter.
func dims(f Loss) int {
	m, _ := f.Dims()
	return m
}
