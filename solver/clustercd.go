package solver

import (
	"errors"
	"math"

	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// ClusterCD is hybrid coordinate descent for least squares with a fused
// penalty (penalty.Cardinality, penalty.Grouped) on a dense design, after
// the hybrid method for SLOPE of J. Larsson, Q. Klopfenstein, M. Massias
// and J. Wallin ("Coordinate descent for SLOPE", AISTATS 2023). The
// coefficients of a column are held as clusters of equal values within
// each block of the penalty, and the method alternates:
//
//   - a proximal gradient step on the whole problem, which can split
//     clusters and is where the clusters are read off Θ;
//   - up to five sweeps of exact updates of one cluster's common value,
//     the others fixed. Along a cluster C the loss is a quadratic with
//     curvature ‖X1_C‖², and the penalty is piecewise linear with kinks at
//     the other clusters' values in its block and where the block's sum is
//     zero; the update walks the kinks from the current value to the
//     minimiser, and a cluster that stops on another's value merges with
//     it. A sweep costs O(n) per cluster, not O(np).
//
// With p ≫ n and few distinct values, a sweep over the clusters is far
// cheaper than a gradient, and the clusters (the structure the penalty is
// after) settle in a few gradient steps; the sweeps then converge on them
// like coordinate descent on a small problem.
//
// Before each gradient step the relative duality gap is evaluated, at the
// better of two dual points each scaled to its best feasible multiple (the
// residual, and the extrapolation of the last residuals as in
// CoordinateDescent), and the method stops when it is at most Tol, like
// the others. Once the clusters are the same at two evaluations (at the
// first, from a warm start: on a path the previous λ's clusters are often
// the solution's), the problem restricted to them is solved exactly, as
// FISTA's polishing does; when that solution leaves the clusters' piece
// (two clusters cross, a block sum changes sign), the method steps towards
// it as far as the piece reaches, which lowers the objective. Iterations
// counts gradient steps and sweeps.
//
// The sweeps converge like coordinate descent, slowly when the clusters'
// columns X1_C are nearly dependent (about as many clusters as rows, at
// the small-λ end of a path): a fit not certified after hybridSteps
// gradient steps continues with FISTA from where it is. On the 50-λ path
// of bench/fitbench at 200×2000 (at most 195 clusters) this took 8299
// iterations where FISTA took 15750; at the end of a path on 200×5000
// regression data with more clusters than rows, most fits were handed
// over, and took up to twice FISTA's iterations.
type ClusterCD struct{}

// sweepsPerStep is the number of cluster sweeps between two proximal
// gradient steps (the hybrid method's default).
const sweepsPerStep = 5

// hybridSteps is the number of gradient steps after which an uncertified
// fit hands over to FISTA.
const hybridSteps = 150

// Minimize implements Method. It returns an error unless the loss is a
// LeastSquares on a dense design (DenseDesign or ColumnDesign), the penalty
// is a penalty.Fused and λ > 0.
func (ClusterCD) Minimize(p Problem, init mat.Matrix, s Settings) (*Result, error) {
	r, err := startCluster(p, init, s)
	if err != nil {
		return nil, err
	}
	res := r.res
	steps := 0
	for it := 0; ; {
		obj, gap, floor := r.certify(it)
		res.Iterations, res.Polished = it, false
		if res.done(s, obj, gap, floor) || it >= s.MaxIter || r.improve(obj, gap) {
			break
		}
		if steps++; steps > hybridSteps {
			return res.handOver(p, r.theta, s)
		}
		it = r.gradientStep(it)
	}
	res.Theta = r.theta
	return res, nil
}

// clusterRun is the state of one ClusterCD minimisation.
type clusterRun struct {
	p                        Problem
	s                        Settings
	ls                       *LeastSquares
	st                       *clusterState
	theta, grad, pgrad, step *mat.Dense
	L                        float64
	pol                      *polishState
	hist                     *residuals
	res                      *Result
}

// startCluster checks that ClusterCD applies to p and returns its state
// at init (nil: zero).
func startCluster(p Problem, init mat.Matrix, s Settings) (*clusterRun, error) {
	ls, ok := p.Loss.(*LeastSquares)
	if !ok {
		return nil, errors.New("solver: cluster coordinate descent needs a least-squares loss")
	}
	fz, ok := p.Penalty.(penalty.Fused)
	if !ok {
		return nil, errors.New("solver: cluster coordinate descent needs a fused penalty (cardinality or grouped)")
	}
	if p.Lambda == 0 {
		return nil, errors.New("solver: cluster coordinate descent needs λ > 0")
	}
	xt, ok := ls.columns()
	if !ok {
		return nil, errors.New("solver: cluster coordinate descent needs a dense design")
	}
	rows, cols := ls.Dims()
	r := &clusterRun{p: p, s: s, ls: ls, theta: mat.NewDense(rows, cols, nil), grad: mat.NewDense(rows, cols, nil),
		pgrad: mat.NewDense(rows, cols, nil), step: mat.NewDense(rows, cols, nil), hist: &residuals{},
		res: &Result{Status: IterationLimit, Residual: math.NaN()}}
	if init != nil {
		r.theta.Copy(init)
	}
	blocks, weights, nu := fz.FusedBlocks(rows, cols)
	r.st = newClusterState(xt, ls.y, blocks, weights, nu, p.Lambda)
	if r.L = ls.Lipschitz(); !(r.L > 0) || math.IsInf(r.L, 0) {
		return nil, errors.New("solver: cluster coordinate descent needs a finite Lipschitz constant")
	}
	r.pol = newPolisher(p)
	if r.pol != nil && init != nil {
		// A warm start from a nearby λ often has the solution's clusters:
		// solve on them at once.
		r.pol.eager = true
	}
	return r, nil
}

// certify returns the certificate at theta after it iterations, the gap
// at the better of the residual's dual point and the extrapolation of the
// last residuals.
func (r *clusterRun) certify(it int) (obj, gap float64, floor bool) {
	obj, gap, floor = bestCertificate(r.p, r.ls, r.theta, r.grad)
	if it > 0 {
		r.hist.push(r.st.residual())
		if u := r.hist.extrapolate(); u != nil {
			if g := extrapolatedGap(r.p, r.ls, obj, u); g < gap*obj {
				gap = RelativeGap(g, obj)
			}
		}
	}
	return obj, gap, floor
}

// improve tries to better theta (certificate obj, gap) on its clusters,
// and reports whether the result stops the method. Once the clusters are
// the same at two certificates (or at once from a warm start), it solves
// the problem on them exactly (as FISTA does) and keeps the solution if it
// is better certified; when the piece's minimiser lies off the piece, it
// goes towards it as far as the piece reaches, which lowers the objective
// (kept only if it does, against rounding).
func (r *clusterRun) improve(obj, gap float64) bool {
	res, s := r.res, r.s
	if r.pol.try(r.p, r.theta) {
		pObj, pGap, pFloor := bestCertificate(r.p, r.ls, r.pol.cand, r.pgrad)
		if pGap < gap && pObj <= obj {
			r.theta.Copy(r.pol.cand)
			r.grad, r.pgrad = r.pgrad, r.grad
			res.Polished = true
			return res.done(s, pObj, pGap, pFloor)
		}
		return false
	}
	if r.pol == nil || !r.pol.off {
		return false
	}
	r.step.Copy(r.theta)
	if !r.st.towards(r.theta, r.pol.cand) {
		return false
	}
	tObj, tGap, tFloor := bestCertificate(r.p, r.ls, r.theta, r.pgrad)
	if tObj > obj {
		r.theta.Copy(r.step)
		return false
	}
	r.grad, r.pgrad = r.pgrad, r.grad
	return res.done(s, tObj, tGap, tFloor)
}

// gradientStep takes a proximal gradient step from theta (iteration it)
// and then up to sweepsPerStep cluster sweeps, and returns the iteration
// count after them.
func (r *clusterRun) gradientStep(it int) int {
	r.step.Scale(-1/r.L, r.grad)
	r.step.Add(r.step, r.theta)
	r.p.Penalty.Prox(r.theta, r.step, r.p.Lambda/r.L)
	r.st.rebuild(r.theta)
	it++
	rows, _ := r.ls.Dims()
	for k := 0; k < sweepsPerStep && it < r.s.MaxIter; k++ {
		it++
		if r.st.sweep() <= 1e-3*r.s.Tol*r.ls.yy/float64(rows) {
			break
		}
	}
	r.st.write(r.theta)
	return it
}

// bestCertificate is the relative duality gap of a least-squares problem at
// theta, with the dual point θ = 2sR at the s that maximises the dual
// objective 2s⟨R, Y⟩ − s²‖R‖² over the feasible |s| ≤ λ/h*(2XᵀR). It
// leaves ∇f(theta) in grad.
func bestCertificate(p Problem, ls *LeastSquares, theta, grad *mat.Dense) (obj, gap float64, floor bool) {
	fval := ls.Eval(grad, theta)
	obj = fval + p.Lambda*p.Penalty.Value(theta)
	d, ok := penalty.DualNorm(p.Penalty, grad)
	if !ok {
		return obj, math.NaN(), false
	}
	ry := ls.yy - frob(theta, ls.c)
	g := math.Max(obj-scaledDual(ry, fval, d, p.Lambda), 0)
	return obj, RelativeGap(g, obj), g <= ls.GapFloor()
}

// scaledDual returns the dual objective 2s⟨u, Y⟩ − s²‖u‖² at the point
// 2s·u, for s at its best feasible value (dualScale), given ⟨u, Y⟩, ‖u‖²
// and d = h*(2Xᵀu).
func scaledDual(uy, uu, d, lambda float64) float64 {
	return lsDual(uy, uu, dualScale(uy, uu, lambda/d))
}

// done records a certificate in res and reports whether it stops the
// method.
func (res *Result) done(s Settings, obj, gap float64, floor bool) bool {
	res.Objective, res.Gap = obj, gap
	if s.Trace {
		res.Trace = append(res.Trace, TraceEntry{Iteration: res.Iterations, Objective: obj, Criterion: gap})
	}
	res.Status = gapStatus(gap, floor, s.Tol)
	res.Converged = res.Status != IterationLimit
	return res.Converged
}

// extrapolatedGap returns the absolute duality gap at objective obj for
// the dual point 2sU, U the n×q matrix stored column after column in u,
// at the best feasible s (see bestCertificate). Any U gives a valid gap;
// the extrapolation of the last residuals (residuals.extrapolate) is
// usually far closer to the dual optimum than the last residual.
func extrapolatedGap(p Problem, ls *LeastSquares, obj float64, u []float64) float64 {
	n, q := ls.y.Dims()
	um := mat.NewDense(q, n, u)
	var g mat.Dense
	ls.x.MulTrans(&g, um.T())
	g.Scale(2, &g)
	d, ok := penalty.DualNorm(p.Penalty, &g)
	uy, uu := frob(um.T(), ls.y), sqNorm(um)
	if !ok || !(uu > 0) {
		return math.Inf(1)
	}
	return math.Max(obj-scaledDual(uy, uu, d, p.Lambda), 0)
}

// handOver continues a fit with FISTA from theta with the iterations left,
// and returns FISTA's result with the iterations of both.
func (res *Result) handOver(p Problem, theta *mat.Dense, s Settings) (*Result, error) {
	rest := s
	rest.MaxIter = s.MaxIter - res.Iterations
	out, err := (&FISTA{}).Minimize(p, theta, rest)
	if err != nil {
		return nil, err
	}
	out.Iterations += res.Iterations
	if s.Trace {
		for i := range out.Trace {
			out.Trace[i].Iteration += res.Iterations
		}
		out.Trace = append(res.Trace, out.Trace...)
	}
	return out, nil
}
