package glm

import (
	"math"

	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// relax refits the deviance on the clusters of a penalised solution
// (glmnet's relax = TRUE with γ = 0): one free value per cluster of equal
// coefficients, the lasso's zeros kept at zero, no penalty; the intercept
// and unpenalised coefficients stay minimised out inside the loss. The
// smooth problem in the cluster values is solved by gonum's BFGS. It
// reports false, keeping theta, when the penalty is not piecewise linear
// or the refit does not converge to a finite point (separable data).
func (pb *problem) relax(pen penalty.Penalty, theta *mat.Dense) (*mat.Dense, bool) {
	pw, ok := pen.(penalty.Piecewise)
	if !ok {
		return theta, false
	}
	col := mat.Col(nil, 0, theta)
	clusters := pw.Piece(col, 1).Clusters
	if len(clusters) == 0 {
		return theta, true // every coefficient is zero: nothing to refit
	}
	m := len(col)
	expand := func(v []float64) *mat.Dense {
		b := mat.NewDense(m, 1, nil)
		for c, cl := range clusters {
			for _, i := range cl {
				b.Set(i, 0, v[c])
			}
		}
		return b
	}
	grad := mat.NewDense(m, 1, nil)
	prob := optimize.Problem{
		Func: func(v []float64) float64 { return pb.loss.Eval(nil, expand(v)) },
		Grad: func(g, v []float64) {
			pb.loss.Eval(grad, expand(v))
			for c, cl := range clusters {
				g[c] = 0
				for _, i := range cl {
					g[c] += grad.At(i, 0)
				}
			}
		},
	}
	start := make([]float64, len(clusters))
	for c, cl := range clusters {
		start[c] = col[cl[0]]
	}
	f0 := prob.Func(start)
	set := &optimize.Settings{GradientThreshold: 1e-9 * math.Max(1, pb.null), MajorIterations: 1000}
	res, err := optimize.Minimize(prob, start, set, &optimize.BFGS{})
	if err != nil || res == nil || res.Status != optimize.GradientThreshold || !(res.F <= f0) {
		return theta, false
	}
	for _, v := range res.X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return theta, false
		}
	}
	out := expand(res.X)
	pb.loss.Eval(nil, out) // leave the loss's profile at the refit
	return out, true
}
