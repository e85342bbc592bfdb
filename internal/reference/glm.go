package reference

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// GLMADMM minimises Σᵢ wᵢ·dev(yᵢ, b₀ + xᵢᵀβ) + λ‖Kβ‖₁ by ADMM on the split
// z = Kβ with K explicit (e.g. ExplicitCardinality), for family "binomial"
// (dev = 2[log(1+e^η) − yη]) or "poisson" (dev = 2[y log y − y − yη + e^η]).
// The smooth subproblem in (b₀, β) is solved by gonum's Newton method. It
// is written from the definitions alone, as an independent check of
// package glm, and is meant for small p. It returns b₀, β and the
// objective.
func GLMADMM(family string, x *mat.Dense, y, w []float64, k *mat.Dense, lambda float64, iters int) (b0 float64, beta []float64, obj float64, err error) {
	n, p := x.Dims()
	m, _ := k.Dims()
	a := &glmADMM{family: family, x: x, k: k, y: y, w: w, n: n, p: p, m: m,
		z: make([]float64, m), u: make([]float64, m), rho: 1}
	theta := make([]float64, p+1) // b₀, β
	prob := optimize.Problem{
		Func: func(t []float64) float64 { return a.smooth(t, nil, nil) },
		Grad: func(g, t []float64) { a.smooth(t, g, nil) },
		Hess: func(h *mat.SymDense, t []float64) { a.smooth(t, nil, h) },
	}
	for it := 0; it < iters; it++ {
		res, err := optimize.Minimize(prob, theta, &optimize.Settings{GradientThreshold: 1e-11}, &optimize.Newton{})
		if err != nil && res == nil {
			return 0, nil, 0, fmt.Errorf("reference: Newton step: %w", err)
		}
		copy(theta, res.X)
		if a.dualStep(theta, lambda) {
			break
		}
	}
	beta = theta[1:]
	var pen float64
	for _, v := range a.kb(theta) {
		pen += math.Abs(v)
	}
	a.rho, a.u, a.z = 0, make([]float64, m), make([]float64, m)
	return theta[0], beta, a.smooth(theta, nil, nil) + lambda*pen, nil
}

// glmADMM is the state of GLMADMM: the problem, the split variable z = Kβ,
// the scaled dual u and the penalty parameter rho.
type glmADMM struct {
	family  string
	x, k    *mat.Dense
	y, w    []float64
	n, p, m int
	z, u    []float64
	rho     float64
}

// dev returns observation i's deviance at the linear predictor eta, with
// its first and second derivatives in eta.
func (a *glmADMM) dev(i int, eta float64) (d, d1, d2 float64) {
	y := a.y[i]
	switch a.family {
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

// addDeviance returns Σᵢ wᵢ·dev(yᵢ, b₀ + xᵢᵀβ) and adds its gradient and
// Hessian to grad and hess when they are not nil.
func (a *glmADMM) addDeviance(t []float64, grad []float64, hess *mat.SymDense) float64 {
	var f float64
	for i := range a.n {
		eta := t[0]
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

// dualStep updates z and u after the smooth step landed at theta, reports
// whether the primal and dual residuals are both below 1e-11, and
// otherwise rebalances rho.
func (a *glmADMM) dualStep(theta []float64, lambda float64) (converged bool) {
	r := a.kb(theta)
	zOld := append([]float64(nil), a.z...)
	var primal, dual float64
	for q := range a.m {
		a.z[q] = softThreshold(r[q]+a.u[q], lambda/a.rho)
		a.u[q] += r[q] - a.z[q]
		primal += (r[q] - a.z[q]) * (r[q] - a.z[q])
		dual += (a.z[q] - zOld[q]) * (a.z[q] - zOld[q])
	}
	if math.Sqrt(primal) < 1e-11 && a.rho*math.Sqrt(dual) < 1e-11 {
		return true
	}
	a.balance(primal, dual)
	return false
}

// balance doubles or halves rho, rescaling u, when the squared primal and
// dual residuals differ by more than a factor 100 (residual balancing,
// Boyd et al. §3.4.1).
func (a *glmADMM) balance(primal, dual float64) {
	rho := a.rho
	if primal > 100*rho*rho*dual {
		a.rho *= 2
		for q := range a.u {
			a.u[q] /= 2
		}
	} else if rho*rho*dual > 100*primal {
		a.rho /= 2
		for q := range a.u {
			a.u[q] *= 2
		}
	}
}
