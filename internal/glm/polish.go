package glm

import (
	"math"
	"slices"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// polishSteps bounds the Newton steps of polish; on a fixed piece Newton
// converges quadratically and two or three suffice.
const polishSteps = 8

// polishStop ends the Newton steps once a step moves no coefficient by
// more than this fraction of max|β|: Newton converges quadratically on
// the piece, so the error left is of the order of its square, far below
// the 1e-6 that polishing is for.
const polishStop = 1e-6

// polish finishes a fit of a piecewise-linear penalty (other than the
// lasso, whose coordinate descent is exact on its support) as the
// least-squares fits are finished: Newton's method on the smooth problem
// restricted to the solution's piece (its clusters, their signs and the
// blocks at the kernel's kink), each step the exact minimiser of the
// quadratic model on the piece (solver.LeastSquares.Polish). The gap
// certificate at the default tolerance bounds the objective, not the
// coefficients: along flat directions they were off by up to 1e-4 of
// max|β|. The polished point is kept only while it stays on the piece,
// lowers the objective, and its certified gap is no larger than res's; it
// returns res otherwise. Cross-validation's fold fits skip it
// (problem.noPolish): only their predictions are used.
func (pb *problem) polish(pen penalty.Penalty, lambda float64, res *solver.Result) *solver.Result {
	pw, ok := pen.(penalty.Piecewise)
	if !ok || pb.noPolish || lambda == 0 || solver.IsSeparableL1(pen) || res.Theta == nil || math.IsNaN(res.Gap) {
		return res
	}
	prob := solver.Problem{Loss: pb.loss, Penalty: pen, Lambda: lambda}
	x := mat.DenseCopyOf(res.Theta)
	piece := pw.Piece(mat.Col(nil, 0, x), 1)
	if len(piece.Clusters) == 0 {
		return res
	}
	obj := res.Objective
	moved := false
	for range polishSteps {
		q, err := pb.loss.Quadratic(x)
		if err != nil {
			break
		}
		cand := mat.NewDense(x.RawMatrix().Rows, 1, nil)
		if !q.Polish(cand, []penalty.Piece{piece}, lambda) || !samePiece(piece, pw.Piece(mat.Col(nil, 0, cand), 1)) {
			break
		}
		f := prob.Objective(cand)
		if !(f <= obj) {
			break
		}
		var d mat.Dense
		d.Sub(cand, x)
		step := mat.Norm(&d, math.Inf(1))
		x, obj, moved = cand, f, true
		if step <= polishStop*mat.Norm(x, math.Inf(1)) {
			break
		}
	}
	if !moved {
		pb.loss.Eval(nil, res.Theta)
		return res
	}
	grad := mat.NewDense(x.RawMatrix().Rows, 1, nil)
	pObj, pGap, pFloor := solver.CertificateGrad(prob, x, grad)
	if !(pGap <= res.Gap) || !(pObj <= res.Objective) {
		pb.loss.Eval(nil, res.Theta)
		return res
	}
	out := *res
	out.Theta, out.Objective, out.Gap, out.Polished = x, pObj, pGap, true
	if st := solver.GapStatus(pGap, pFloor, pb.opts.Settings.Tol); st != solver.IterationLimit {
		out.Converged, out.Status = true, st
	}
	return &out
}

// samePiece reports whether two pieces have the same clusters, slope signs
// and kink constraints.
func samePiece(a, b penalty.Piece) bool {
	if len(a.Clusters) != len(b.Clusters) || len(a.Constraints) != len(b.Constraints) {
		return false
	}
	for c := range a.Clusters {
		if !slices.Equal(a.Clusters[c], b.Clusters[c]) || math.Signbit(a.Slopes[c]) != math.Signbit(b.Slopes[c]) {
			return false
		}
	}
	for k := range a.Constraints {
		if !slices.Equal(a.Constraints[k], b.Constraints[k]) {
			return false
		}
	}
	return true
}
