package reference

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// GLMFamilies lists the families GLMSolve knows, with the deviances
// d(y, η) it minimises (μ the mean):
//
//	gaussian  (y − η)²                          identity link
//	binomial  2[log(1 + e^η) − yη]              logit link, y ∈ {0, 1}
//	poisson   2[y log y − y − yη + e^η]         log link, y ≥ 0
//	gamma     2[(y − μ)/μ − log(y/μ)], μ = e^η  log link, y > 0
var GLMFamilies = []string{"gaussian", "binomial", "poisson", "gamma"}

// GLMResidualTol is the stopping tolerance of GLMSolve: it stops once the
// primal residual ‖Kβ − z‖₂ and the dual residual ρ‖z − z_prev‖₂ of its
// ADMM are both below it.
const GLMResidualTol = 1e-11

// GLMProblem is the penalised GLM
//
//	min over b₀, β of Σᵢ wᵢ·d(yᵢ, oᵢ + b₀ + xᵢᵀβ) + λ‖Kβ‖₁,
//
// d the deviance of Family (see GLMFamilies).
type GLMProblem struct {
	// Family is one of GLMFamilies.
	Family string
	// X is the n×p design and Y the n responses.
	X *mat.Dense
	Y []float64
	// Weights are the wᵢ, used as given (no rescaling); nil means all 1.
	Weights []float64
	// Offset holds the oᵢ; nil means all 0.
	Offset []float64
	// K is the explicit m×p penalty matrix. A column of zeros leaves its
	// predictor unpenalised.
	K *mat.Dense
	// Lambda is λ ≥ 0.
	Lambda float64
}

// GLMResult is what GLMSolve found.
type GLMResult struct {
	// B0 and Beta are the intercept and the coefficients.
	B0   float64
	Beta []float64
	// Z is the ADMM split variable, soft-thresholded and so exactly sparse:
	// its zeros mark the rows of K the solution makes 0.
	Z []float64
	// Objective is the problem's objective at (B0, Beta).
	Objective float64
	// Iterations is the number of ADMM iterations; Primal and Dual are
	// the last residuals; Converged says both met GLMResidualTol.
	Iterations   int
	Primal, Dual float64
	Converged    bool
}

// GLMSolve minimises a GLMProblem by ADMM on the split z = Kβ (Boyd et al.,
// "Distributed optimization and statistical learning via the alternating
// direction method of multipliers", 2011, §6.4 with a general K), with
// residual balancing of ρ (§3.4.1). The smooth subproblem in (b₀, β) is
// solved by Newton's method with backtracking (newton). It is written from the definitions
// alone, as an independent check of the module's fits, and is meant for
// small p. It stops when both residuals are below GLMResidualTol; after
// maxIter iterations it returns its last iterate with an error wrapping
// ErrNotConverged. It panics if the dimensions disagree or the family is
// unknown.
func GLMSolve(pr GLMProblem, maxIter int) (GLMResult, error) {
	a := newGLMADMM(pr)
	theta := make([]float64, a.p+1) // b₀, β
	var res GLMResult
	for res.Iterations < maxIter && !res.Converged {
		if err := a.newton(theta); err != nil {
			return res, err
		}
		res.Iterations++
		res.Primal, res.Dual = a.dualStep(theta, pr.Lambda)
		res.Converged = res.Primal < GLMResidualTol && res.Dual < GLMResidualTol
		if !res.Converged {
			a.balance(res.Primal, res.Dual)
		}
	}
	res.B0, res.Beta, res.Z = theta[0], theta[1:], a.z
	res.Objective = GLMObjective(pr, res.B0, res.Beta)
	if !res.Converged {
		return res, fmt.Errorf("GLMSolve: residuals %g, %g after %d iterations: %w", res.Primal, res.Dual, maxIter, ErrNotConverged)
	}
	return res, nil
}

// GLMObjective returns the objective of problem pr at (b0, beta).
func GLMObjective(pr GLMProblem, b0 float64, beta []float64) float64 {
	a := newGLMADMM(pr)
	theta := append([]float64{b0}, beta...)
	var pen float64
	for _, v := range a.kb(theta) {
		pen += math.Abs(v)
	}
	a.rho = 0
	return a.smooth(theta, nil, nil) + pr.Lambda*pen
}

// GLMADMM minimises Σᵢ wᵢ·dev(yᵢ, b₀ + xᵢᵀβ) + λ‖Kβ‖₁ (no offset) for a
// family of GLMFamilies by GLMSolve, and returns b₀, β and the objective.
// Unlike GLMSolve it does not report running out of iterations: the last
// iterate is returned without an error.
func GLMADMM(family string, x *mat.Dense, y, w []float64, k *mat.Dense, lambda float64, iters int) (b0 float64, beta []float64, obj float64, err error) {
	res, err := GLMSolve(GLMProblem{Family: family, X: x, Y: y, Weights: w, K: k, Lambda: lambda}, iters)
	if err != nil && res.Beta == nil {
		return 0, nil, 0, err
	}
	return res.B0, res.Beta, res.Objective, nil
}

// glmADMM is the state of GLMSolve: the problem, the split variable z = Kβ,
// the scaled dual u and the penalty parameter rho.
type glmADMM struct {
	family    string
	x, k      *mat.Dense
	y, w, off []float64
	n, p, m   int
	z, u      []float64
	rho       float64
}

func newGLMADMM(pr GLMProblem) *glmADMM {
	n, p := pr.X.Dims()
	m, kp := pr.K.Dims()
	switch {
	case kp != p:
		panic(fmt.Sprintf("reference: K has %d columns for %d predictors", kp, p))
	case len(pr.Y) != n, pr.Weights != nil && len(pr.Weights) != n, pr.Offset != nil && len(pr.Offset) != n:
		panic(fmt.Sprintf("reference: %d rows but %d responses, %d weights, %d offsets", n, len(pr.Y), len(pr.Weights), len(pr.Offset)))
	}
	known := false
	for _, f := range GLMFamilies {
		known = known || f == pr.Family
	}
	if !known {
		panic("reference: unknown family " + pr.Family)
	}
	w := pr.Weights
	if w == nil {
		w = make([]float64, n)
		for i := range w {
			w[i] = 1
		}
	}
	off := pr.Offset
	if off == nil {
		off = make([]float64, n)
	}
	return &glmADMM{family: pr.Family, x: pr.X, k: pr.K, y: pr.Y, w: w, off: off, n: n, p: p, m: m,
		z: make([]float64, m), u: make([]float64, m), rho: 1}
}

// dev returns observation i's deviance at the linear predictor eta, with
// its first and second derivatives in eta.
func (a *glmADMM) dev(i int, eta float64) (d, d1, d2 float64) {
	y := a.y[i]
	switch a.family {
	case "gaussian":
		return (y - eta) * (y - eta), 2 * (eta - y), 2
	case "binomial":
		mu := 1 / (1 + math.Exp(-eta))
		return 2 * (math.Max(eta, 0) + math.Log1p(math.Exp(-math.Abs(eta))) - y*eta), 2 * (mu - y), 2 * mu * (1 - mu)
	case "poisson":
		mu := math.Exp(eta)
		ylogy := 0.0
		if y > 0 {
			ylogy = y * math.Log(y)
		}
		return 2 * (ylogy - y - y*eta + mu), 2 * (mu - y), 2 * mu
	case "gamma":
		// With r = y/μ = y·e^−η: d = 2[r − 1 − log r], d′ = 2(1 − r), d″ = 2r.
		r := y * math.Exp(-eta)
		return 2 * (r - 1 - math.Log(r)), 2 * (1 - r), 2 * r
	}
	panic("reference: unknown family " + a.family)
}

// kb returns Kβ for t = (b₀, β).
func (a *glmADMM) kb(t []float64) []float64 {
	out := make([]float64, a.m)
	for r := range a.m {
		for j := range a.p {
			out[r] += a.k.At(r, j) * t[j+1]
		}
	}
	return out
}

// design returns entry c of observation i's row (1, xᵢ) of the design
// with intercept.
func (a *glmADMM) design(i, c int) float64 {
	if c == 0 {
		return 1
	}
	return a.x.At(i, c-1)
}

// smooth returns the smooth part of the augmented Lagrangian at t = (b₀, β),
// Σᵢ wᵢ·dev + ρ/2‖Kβ − z + u‖², and sets its gradient and Hessian into
// grad and hess when they are not nil.
func (a *glmADMM) smooth(t []float64, grad []float64, hess *mat.SymDense) float64 {
	if grad != nil {
		clear(grad)
	}
	if hess != nil {
		hess.Zero()
	}
	f := a.addDeviance(t, grad, hess)
	return a.addAugmented(f, t, grad, hess)
}

// addDeviance returns Σᵢ wᵢ·dev(yᵢ, oᵢ + b₀ + xᵢᵀβ) and adds its gradient
// and Hessian to grad and hess when they are not nil.
func (a *glmADMM) addDeviance(t []float64, grad []float64, hess *mat.SymDense) float64 {
	var f float64
	for i := range a.n {
		eta := a.off[i] + t[0]
		for j := range a.p {
			eta += a.x.At(i, j) * t[j+1]
		}
		d, d1, d2 := a.dev(i, eta)
		f += a.w[i] * d
		for c := range a.p + 1 {
			xc := a.design(i, c)
			if grad != nil {
				grad[c] += a.w[i] * d1 * xc
			}
			if hess != nil {
				for b := c; b < a.p+1; b++ {
					hess.SetSym(c, b, hess.At(c, b)+a.w[i]*d2*xc*a.design(i, b))
				}
			}
		}
	}
	return f
}

// addAugmented returns f + ρ/2‖Kβ − z + u‖² and adds the term's gradient
// and Hessian to grad and hess when they are not nil.
func (a *glmADMM) addAugmented(f float64, t []float64, grad []float64, hess *mat.SymDense) float64 {
	if a.rho == 0 {
		return f
	}
	r := a.kb(t)
	for q := range a.m {
		v := r[q] - a.z[q] + a.u[q]
		f += a.rho / 2 * v * v
		for j := range a.p {
			if grad != nil {
				grad[j+1] += a.rho * v * a.k.At(q, j)
			}
			if hess != nil {
				for l := j; l < a.p; l++ {
					hess.SetSym(j+1, l+1, hess.At(j+1, l+1)+a.rho*a.k.At(q, j)*a.k.At(q, l))
				}
			}
		}
	}
	return f
}

// dualStep updates z and u after the smooth step landed at theta and
// returns the primal residual ‖Kβ − z‖₂ and the dual residual ρ‖z − z_prev‖₂.
func (a *glmADMM) dualStep(theta []float64, lambda float64) (primal, dual float64) {
	r := a.kb(theta)
	for q := range a.m {
		old := a.z[q]
		a.z[q] = softThreshold(r[q]+a.u[q], lambda/a.rho)
		a.u[q] += r[q] - a.z[q]
		primal += (r[q] - a.z[q]) * (r[q] - a.z[q])
		dual += (a.z[q] - old) * (a.z[q] - old)
	}
	return math.Sqrt(primal), a.rho * math.Sqrt(dual)
}

// balance doubles or halves rho, rescaling u, when the primal and dual
// residuals differ by more than a factor 10 (residual balancing, Boyd et
// al. §3.4.1).
func (a *glmADMM) balance(primal, dual float64) {
	if primal > 10*dual {
		a.rho *= 2
		for q := range a.u {
			a.u[q] /= 2
		}
	} else if dual > 10*primal {
		a.rho /= 2
		for q := range a.u {
			a.u[q] *= 2
		}
	}
}

// newtonSteps bounds the Newton steps of one smooth subproblem.
const newtonSteps = 100

// newton minimises the smooth part of the augmented Lagrangian over
// t = (b₀, β) in place by Newton's method: the step d solves H d = −g by
// Cholesky, and is halved until the objective decreases by the Armijo
// amount, up to a rounding allowance of 1e-13 of its size (near the
// minimum the decrease is below rounding and the full step is right).
// It stops when a step moves no entry by more than 1e-15·(1 + max|t|), or
// after newtonSteps steps. The subproblem is strictly convex when the design
// (1, X) has full column rank; an error is returned if the Hessian is not
// positive definite.
func (a *glmADMM) newton(t []float64) error {
	dim := a.p + 1
	g := make([]float64, dim)
	h := mat.NewSymDense(dim, nil)
	trial := make([]float64, dim)
	var chol mat.Cholesky
	var d mat.VecDense
	for range newtonSteps {
		f := a.smooth(t, g, h)
		if !chol.Factorize(h) {
			return fmt.Errorf("reference: Newton step: the Hessian is not positive definite")
		}
		if err := chol.SolveVecTo(&d, mat.NewVecDense(dim, g)); err != nil {
			return fmt.Errorf("reference: Newton step: %w", err)
		}
		var slope, size, step float64 // slope = gᵀ(−d) < 0
		for c := range dim {
			slope -= g[c] * d.AtVec(c)
			size = math.Max(size, math.Abs(t[c]))
		}
		s := 1.0
		for range 60 {
			for c := range dim {
				trial[c] = t[c] - s*d.AtVec(c)
			}
			if a.smooth(trial, nil, nil) <= f+1e-4*s*slope+1e-13*math.Abs(f) {
				break
			}
			s /= 2
		}
		for c := range dim {
			step = math.Max(step, math.Abs(trial[c]-t[c]))
		}
		copy(t, trial)
		if step <= 1e-15*(1+size) {
			return nil
		}
	}
	return nil
}
