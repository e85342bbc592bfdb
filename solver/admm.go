package solver

import (
	"errors"
	"math"

	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// Quadratic is a loss f(Θ) = ⟨Θ, HΘ⟩ − 2⟨Θ, C⟩ + const with a shared p×p
// Hessian H/2 acting on every column; least squares in Gram form is one.
type Quadratic interface {
	Loss
	// Gram returns H (XᵀX for least squares), or nil when it is not formed.
	Gram() *mat.SymDense
	// Cross returns C (XᵀY for least squares).
	Cross() *mat.Dense
}

// Splitter is a penalty h(Θ) = ‖KΘ‖₁ with an explicit K, which ADMM splits
// on; penalty.General is one.
type Splitter interface {
	penalty.Penalty
	// Stacked returns K.
	Stacked() *mat.Dense
	// StackedGram returns KᵀK.
	StackedGram() *mat.SymDense
}

// ADMM is the alternating direction method of multipliers for a quadratic
// loss and a penalty ‖KΘ‖₁ (a Splitter), with the split z = KΘ:
//
//	Θ ← (2H + ρKᵀK)⁻¹ (2C + ρKᵀ(z − u)),  z ← soft(KΘ + u, λ/ρ),  u ← u + KΘ − z.
//
// The Cholesky factor of 2H + ρKᵀK is computed once and reused across
// iterations and across calls with the same loss, penalty and ρ (a λ path).
// It stops when the primal residual ‖KΘ − z‖ ≤ Tol·max(‖KΘ‖, ‖z‖) and the
// dual residual ρ‖Kᵀ(z − z_prev)‖ ≤ Tol·‖ρKᵀu‖, each with an absolute floor
// (Boyd et al., 2011, §3.3.1) of Tol·1e-3 times the problem's own magnitude
// (‖2C‖ for the dual residual, about ‖KΘ‖ for the primal one), so that the
// criterion does not depend on the data's scale.
type ADMM struct {
	// Rho is the penalty parameter ρ > 0. If zero, 2·tr(H)/tr(KᵀK) is used,
	// which balances the two terms of the system and does not depend on λ.
	Rho float64

	cacheLoss Quadratic
	cachePen  Splitter
	cacheRho  float64
	chol      mat.Cholesky
	k         *mat.Dense
}

// Minimize implements Method. It returns an error when the loss is not a
// Quadratic with its Gram matrix formed or the penalty is not a Splitter.
func (m *ADMM) Minimize(p Problem, init mat.Matrix, s Settings) (*Result, error) {
	loss, ok := p.Loss.(Quadratic)
	if !ok || loss.Gram() == nil {
		return nil, errors.New("solver: ADMM needs a quadratic loss with its Gram matrix (least squares with n ≥ p)")
	}
	pen, ok := p.Penalty.(Splitter)
	if !ok {
		return nil, errors.New("solver: ADMM needs a penalty with an explicit split matrix K (penalty.General)")
	}
	if err := m.factorize(loss, pen); err != nil {
		return nil, err
	}
	rows, cols := loss.Dims()
	kr, _ := m.k.Dims()
	theta := mat.NewDense(rows, cols, nil)
	if init != nil {
		theta.Copy(init)
	}
	rho := m.cacheRho
	z := mat.NewDense(kr, cols, nil)
	Mul(z, m.k, theta)
	u := mat.NewDense(kr, cols, nil)
	var kt, rhs, tmp, zOld, diff, twoC mat.Dense
	twoC.Scale(2, loss.Cross())
	res := &Result{Gap: math.NaN(), Status: IterationLimit}
	thr := p.Lambda / rho
	floorPri, floorDual := m.floors(loss, pen)
	for it := 1; it <= s.MaxIter; it++ {
		tmp.Sub(z, u)
		Mul(&rhs, m.k.T(), &tmp)
		rhs.Scale(rho, &rhs)
		rhs.Add(&rhs, &twoC)
		if err := m.chol.SolveTo(theta, &rhs); err != nil {
			return nil, err
		}
		Mul(&kt, m.k, theta)
		zOld.CloneFrom(z)
		z.Add(&kt, u)
		z.Apply(func(_, _ int, v float64) float64 { return penalty.SoftThreshold(v, thr) }, z)
		diff.Sub(&kt, z)
		u.Add(u, &diff)
		res.Iterations = it
		if it%s.GapEvery != 0 && it != s.MaxIter {
			continue
		}
		primal := mat.Norm(&diff, 2)
		zOld.Sub(z, &zOld)
		var dres, ku mat.Dense
		Mul(&dres, m.k.T(), &zOld)
		Mul(&ku, m.k.T(), u)
		dual := rho * mat.Norm(&dres, 2)
		epsPri := s.Tol * (floorPri + math.Max(mat.Norm(&kt, 2), mat.Norm(z, 2)))
		epsDual := s.Tol * (floorDual + rho*mat.Norm(&ku, 2))
		res.Residual = math.Max(relative(primal, epsPri/s.Tol), relative(dual, epsDual/s.Tol))
		res.Objective = p.Objective(theta)
		if s.Trace {
			res.Trace = append(res.Trace, TraceEntry{Iteration: it, Objective: res.Objective, Criterion: res.Residual})
		}
		if primal <= epsPri && dual <= epsDual {
			res.Converged, res.Status = true, ResidualConverged
			break
		}
	}
	res.Theta = theta
	res.Objective = p.Objective(theta)
	return res, nil
}

// floors returns the absolute parts of the stopping tolerances, over Tol:
// 1e-3 times the problem's own magnitudes, so that they do not depend on
// the data's scale. The dual residual has the units of the gradient, whose
// size at Θ = 0 is ‖2C‖; the primal residual those of KΘ, whose size is
// about √(tr(KᵀK)/p)·‖Θ‖, with ‖Θ‖ ≈ ‖2C‖/(2·tr(H)/p), the gradient over
// the mean curvature.
func (m *ADMM) floors(loss Quadratic, pen Splitter) (primal, dual float64) {
	h := loss.Gram()
	p := h.SymmetricDim()
	g := 2 * mat.Norm(loss.Cross(), 2)
	curv := 2 * mat.Trace(h) / float64(p)
	if g == 0 || !(curv > 0) {
		return 0, 1e-3 * g
	}
	return 1e-3 * g / curv * math.Sqrt(mat.Trace(pen.StackedGram())/float64(p)), 1e-3 * g
}

// factorize forms and factorises 2H + ρKᵀK unless the cached factor fits.
func (m *ADMM) factorize(loss Quadratic, pen Splitter) error {
	rho := m.Rho
	h, ktk := loss.Gram(), pen.StackedGram()
	if rho == 0 {
		rho = 2 * mat.Trace(h) / math.Max(mat.Trace(ktk), 1e-300)
		if rho == 0 {
			rho = 1
		}
	}
	if m.cacheLoss == loss && m.cachePen == pen && m.cacheRho == rho {
		return nil
	}
	n := h.SymmetricDim()
	sys := mat.NewSymDense(n, nil)
	sys.ScaleSym(2, h)
	scaled := mat.NewSymDense(n, nil)
	scaled.ScaleSym(rho, ktk)
	sys.AddSym(sys, scaled)
	if !m.chol.Factorize(sys) {
		return errors.New("solver: ADMM system 2H + ρKᵀK is not positive definite")
	}
	m.cacheLoss, m.cachePen, m.cacheRho, m.k = loss, pen, rho, pen.Stacked()
	return nil
}
