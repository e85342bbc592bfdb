package tensorreg

import (
	"errors"
	"fmt"
	"math"

	"github.com/cardsparse/cardreg/bounds"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// Theory is Theorem 2's λ for a single-response least-squares fit, with
// its ingredients (bounds.RegressionLambda).
type Theory struct {
	// Lambda = max(M_G, 1/ν)·LambdaT, on the paper's scale.
	Lambda, LambdaT, S, Equivalence, MG float64
	// Sigma is the noise standard deviation used, SigmaFrom where it
	// came from; T the probability the bound may fail.
	Sigma     float64
	SigmaFrom string
	T         float64
}

// ErrNoSigma says that σ cannot be estimated from the least-squares
// residuals (n ≤ p + 1): it has to be given.
var ErrNoSigma = errors.New("tensorreg: cannot estimate sigma from the residuals (too few observations): give it")

// TheoryLambda returns Theorem 2's λ for predictors x (n×p) and response y
// (n×1) under penalty pen with weight ν, on the design centred unless
// noIntercept. A zero sigma is estimated from the residuals of the
// unpenalised least-squares fit (n − p − 1 degrees of freedom, n − p
// without intercept).
func TheoryLambda(x, y *mat.Dense, pen penalty.Penalty, nu, sigma, t float64, noIntercept bool) (*Theory, error) {
	xc := x
	if !noIntercept {
		xc = bounds.CentreColumns(x)
	}
	n, p := xc.Dims()
	th := &Theory{Sigma: sigma, SigmaFrom: "given", T: t}
	if th.Sigma == 0 {
		dof := n - p
		if !noIntercept {
			dof--
		}
		if dof < 1 {
			return nil, fmt.Errorf("%w (n = %d, p = %d)", ErrNoSigma, n, p)
		}
		ls, err := estimator.Fit(&estimator.Rows{X: solver.DenseDesign{X: x}, Y: y}, pen, 0, &estimator.Options{NoIntercept: noIntercept})
		if err != nil {
			return nil, err
		}
		r := ls.Residuals.ColView(0)
		th.Sigma = math.Sqrt(mat.Dot(r, r) / float64(dof))
		th.SigmaFrom = fmt.Sprintf("least-squares residuals, %d degrees of freedom", dof)
	}
	th.MG, _ = bounds.PenaltyKernel(pen, p, 1)
	rc, err := bounds.RegressionLambda(xc, 1, th.Sigma, t, th.MG, nu)
	if err != nil {
		return nil, err
	}
	th.Lambda, th.LambdaT, th.S, th.Equivalence = rc.Lambda, rc.LambdaT, rc.S, rc.Equivalence
	return th, nil
}
