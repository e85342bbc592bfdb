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
	dev := func(i int, eta float64) (d, d1, d2 float64) {
		switch family {
		case "binomial":
			mu := 1 / (1 + math.Exp(-eta))
			return 2 * (math.Max(eta, 0) + math.Log1p(math.Exp(-math.Abs(eta))) - y[i]*eta), 2 * (mu - y[i]), 2 * mu * (1 - mu)
		case "poisson":
			mu := math.Exp(eta)
			ylogy := 0.0
			if y[i] > 0 {
				ylogy = y[i] * math.Log(y[i])
			}
			return 2 * (ylogy - y[i] - y[i]*eta + mu), 2 * (mu - y[i]), 2 * mu
		}
		panic("reference: unknown family " + family)
	}
	z, u := make([]float64, m), make([]float64, m)
	theta := make([]float64, p+1) // b₀, β
	rho := 1.0
	kb := func(t []float64) []float64 {
		out := make([]float64, m)
		for r := range m {
			for j := range p {
				out[r] += k.At(r, j) * t[j+1]
			}
		}
		return out
	}
	// The smooth part with the augmented term, its gradient and Hessian.
	smooth := func(t []float64, grad []float64, hess *mat.SymDense) float64 {
		var f float64
		if grad != nil {
			clear(grad)
		}
		if hess != nil {
			hess.Zero()
		}
		for i := range n {
			eta := t[0]
			for j := range p {
				eta += x.At(i, j) * t[j+1]
			}
			d, d1, d2 := dev(i, eta)
			f += w[i] * d
			for a := range p + 1 {
				xa := 1.0
				if a > 0 {
					xa = x.At(i, a-1)
				}
				if grad != nil {
					grad[a] += w[i] * d1 * xa
				}
				if hess != nil {
					for b := a; b < p+1; b++ {
						xb := 1.0
						if b > 0 {
							xb = x.At(i, b-1)
						}
						hess.SetSym(a, b, hess.At(a, b)+w[i]*d2*xa*xb)
					}
				}
			}
		}
		r := kb(t)
		for q := range m {
			v := r[q] - z[q] + u[q]
			f += rho / 2 * v * v
			for j := range p {
				if grad != nil {
					grad[j+1] += rho * v * k.At(q, j)
				}
				if hess != nil {
					for l := j; l < p; l++ {
						hess.SetSym(j+1, l+1, hess.At(j+1, l+1)+rho*k.At(q, j)*k.At(q, l))
					}
				}
			}
		}
		return f
	}
	prob := optimize.Problem{
		Func: func(t []float64) float64 { return smooth(t, nil, nil) },
		Grad: func(g, t []float64) { smooth(t, g, nil) },
		Hess: func(h *mat.SymDense, t []float64) { smooth(t, nil, h) },
	}
	for it := 0; it < iters; it++ {
		res, err := optimize.Minimize(prob, theta, &optimize.Settings{GradientThreshold: 1e-11}, &optimize.Newton{})
		if err != nil && res == nil {
			return 0, nil, 0, fmt.Errorf("reference: Newton step: %w", err)
		}
		copy(theta, res.X)
		r := kb(theta)
		zOld := append([]float64(nil), z...)
		var primal, dual float64
		for q := range m {
			z[q] = softThreshold(r[q]+u[q], lambda/rho)
			u[q] += r[q] - z[q]
			primal += (r[q] - z[q]) * (r[q] - z[q])
			dual += (z[q] - zOld[q]) * (z[q] - zOld[q])
		}
		if math.Sqrt(primal) < 1e-11 && rho*math.Sqrt(dual) < 1e-11 {
			break
		}
		// Residual balancing (Boyd et al. §3.4.1).
		if primal > 100*rho*rho*dual {
			rho *= 2
			for q := range u {
				u[q] /= 2
			}
		} else if rho*rho*dual > 100*primal {
			rho /= 2
			for q := range u {
				u[q] *= 2
			}
		}
	}
	beta = theta[1:]
	var pen float64
	for _, v := range kb(theta) {
		pen += math.Abs(v)
	}
	rho, u, z = 0, make([]float64, m), make([]float64, m)
	return theta[0], beta, smooth(theta, nil, nil) + lambda*pen, nil
}
