package reference

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// LassoDefaultTol is the relative stopping tolerance LassoCD uses when it is
// given a tol that is not positive.
const LassoDefaultTol = 1e-13

// LassoMaxSweeps is the number of full coordinate-descent sweeps after which
// LassoCD stops even if its tolerance has not been met.
const LassoMaxSweeps = 1000000

// LassoCD returns a minimiser β of the lasso objective
//
//	‖y − Xβ‖²₂ + lambda·‖β‖₁
//
// (note: no 1/(2n) factor and no intercept; the caller centres the data),
// computed by cyclic coordinate descent with the closed-form update
//
//	β_j ← S(x_jᵀr_j, lambda/2) / ‖x_j‖²,  r_j = y − Xβ + x_jβ_j,
//
// where S is soft-thresholding. Columns of X that are entirely zero keep
// β_j = 0. Sweeps stop when max_j ‖x_j‖·|Δβ_j| ≤ tol·max(1, ‖y‖₂) over a
// whole sweep; a tol ≤ 0 selects LassoDefaultTol. If LassoMaxSweeps sweeps
// pass first, the last iterate is returned; use LassoCDStatus to detect that.
// LassoCD panics if len(y) differs from the number of rows of X or lambda is
// negative or NaN.
func LassoCD(X *mat.Dense, y []float64, lambda float64, tol float64) []float64 {
	beta, _, _ := LassoCDStatus(X, y, lambda, tol)
	return beta
}

// LassoCDStatus is LassoCD that also reports the number of sweeps performed
// and whether the stopping rule was met before LassoMaxSweeps.
func LassoCDStatus(X *mat.Dense, y []float64, lambda float64, tol float64) (beta []float64, sweeps int, converged bool) {
	nObs, p := X.Dims()
	if len(y) != nObs {
		panic(fmt.Sprintf("reference: LassoCD: len(y) = %d, X has %d rows", len(y), nObs))
	}
	if !(lambda >= 0) {
		panic("reference: LassoCD needs lambda >= 0")
	}
	if !(tol > 0) {
		tol = LassoDefaultTol
	}
	cols := make([][]float64, p)
	sq := make([]float64, p)
	for j := range cols {
		cols[j] = mat.Col(nil, j, X)
		sq[j] = dot(cols[j], cols[j])
	}
	threshold := tol * math.Max(1, math.Sqrt(dot(y, y)))
	half := lambda / 2

	beta = make([]float64, p)
	r := make([]float64, nObs)
	for sweeps = 1; sweeps <= LassoMaxSweeps; sweeps++ {
		// Residual r = y − Xβ from scratch each sweep, so no drift builds up.
		copy(r, y)
		for j, bj := range beta {
			if bj != 0 {
				for i, xij := range cols[j] {
					r[i] -= xij * bj
				}
			}
		}
		var maxChange float64
		for j, col := range cols {
			if sq[j] == 0 {
				continue
			}
			z := dot(col, r) + sq[j]*beta[j]
			nb := softThreshold(z, half) / sq[j]
			d := nb - beta[j]
			if d == 0 {
				continue
			}
			for i, xij := range col {
				r[i] -= d * xij
			}
			beta[j] = nb
			maxChange = math.Max(maxChange, math.Abs(d)*math.Sqrt(sq[j]))
		}
		if maxChange <= threshold {
			return beta, sweeps, true
		}
	}
	return beta, LassoMaxSweeps, false
}

// softThreshold returns sign(z)·max(|z| − t, 0).
func softThreshold(z, t float64) float64 {
	switch {
	case z > t:
		return z - t
	case z < -t:
		return z + t
	default:
		return 0
	}
}
