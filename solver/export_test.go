package solver

import "gonum.org/v1/gonum/mat"

// ForeseenGap returns IRLSCD's forecast of the certificate's relative
// gap for the lasso with factors at λ = lambda at theta (tests only).
func ForeseenGap(rw Reweighter, factors []float64, lambda float64, theta mat.Matrix) float64 {
	cd := newIRLSState(rw, factors, lambda, theta)
	return cd.foreseenGap(cd.objective())
}
