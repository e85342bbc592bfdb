package glm

import (
	"math"

	"github.com/cardsparse/cardreg/datafit"
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
// or the refit does not converge to a finite point, and then also a note
// when the refit's minimum does not exist (separation: see diverges).
func (pb *problem) relax(pen penalty.Penalty, theta *mat.Dense) (*mat.Dense, bool, string) {
	col := mat.Col(nil, 0, theta)
	clusters, ok := penalty.SupportClusters(pen, col, 1)
	if !ok {
		return theta, false, ""
	}
	if len(clusters) == 0 {
		return theta, true, "" // every coefficient is zero: nothing to refit
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
	eta0 := pb.loss.Eta()
	set := &optimize.Settings{GradientThreshold: 1e-9 * math.Max(1, pb.null), MajorIterations: 1000}
	res, err := optimize.Minimize(prob, start, set, &optimize.BFGS{})
	if res != nil && finiteAll(res.X) {
		if note := pb.diverges(prob.Func, start, res.X, eta0, expand); note != "" {
			pb.loss.Eval(nil, theta)
			return theta, false, note
		}
	}
	if res == nil || !(res.F <= f0) || !finiteAll(res.X) || !(err == nil && res.Status == optimize.GradientThreshold || nearStationary(prob, res.X, pb.null)) {
		pb.loss.Eval(nil, theta)
		return theta, false, "the unpenalised refit did not converge; the coefficients are the penalised fit's"
	}
	out := expand(res.X)
	pb.loss.Eval(nil, out) // leave the loss's profile at the refit
	return out, true, ""
}

// looseGrad is the gradient, relative to the null deviance, at which a
// refit whose line search failed (the gradient's rounding, from the
// profiled intercept, is near BFGS's threshold of 1e-9) is still taken.
const looseGrad = 1e-7

// nearStationary reports whether the gradient of prob at v is within
// looseGrad·max(1, null).
func nearStationary(prob optimize.Problem, v []float64, null float64) bool {
	g := make([]float64, len(v))
	prob.Grad(g, v)
	for _, x := range g {
		if !(math.Abs(x) <= looseGrad*math.Max(1, null)) {
			return false
		}
	}
	return true
}

// finiteAll reports whether every value of v is finite.
func finiteAll(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// boundary is how close to 0 (or 1) a fitted probability or a fitted rate
// of a zero count must come for the refit to count as heading to the
// boundary (the BFGS gradient threshold stops it long before R's 10ε).
const boundary = 1e-6

// rayRounding is the relative slack of the deviance comparisons in
// diverges.
const rayRounding = 1e-12

// diverges reports, as a note, when the unpenalised refit v (from the
// penalised cluster values v0, whose linear predictor is eta0; f the
// deviance in the cluster values) has no finite minimiser: some fitted
// probability is numerically 0 or 1 (binomial), or some fitted rate of a
// zero count numerically 0 (Poisson), and moving further the way the refit
// went — the linear predictor as a whole, intercept and unpenalised
// coefficients included, or all cluster values together, or any one
// cluster's — by at least max(‖v‖∞, 1) times the move does not raise the
// deviance. At a finite minimum such a move raises it (the deviance is
// strictly convex in η there, and the move stays in the span of the
// columns); where the data separate, it keeps falling towards 0 (or
// towards the fit without the zero-count rows). The move of η as a whole
// comes first: the profiled deviance f re-fits the intercept from a warm
// start, and at the refit's far-away coefficients, where the curvature is
// numerically 0, that profile can stop short and overstate the deviance
// (issue 35: a separable refit taken as converged with slopes near 1000).
func (pb *problem) diverges(f func([]float64) float64, v0, v, eta0 []float64, expand func([]float64) *mat.Dense) string {
	note := pb.atBoundary(expand(v))
	if note == "" {
		return ""
	}
	eta := pb.loss.Eta()
	fv := f(v)
	scale := 1.0
	for _, x := range v {
		scale = math.Max(scale, math.Abs(x))
	}
	flat := func(w []float64) bool {
		fw := f(w)
		return !(fw > fv+rayRounding*math.Abs(fv))
	}
	all := make([]float64, len(v))
	var move float64
	for c := range v {
		move = math.Max(move, math.Abs(v[c]-v0[c]))
	}
	if move > 0 {
		t := math.Max(1, scale/move)
		ray := make([]float64, len(eta))
		for i, e := range eta {
			ray[i] = e + (e-eta0[i])*t
		}
		if d := pb.loss.DevianceAt(ray); !(d > fv+rayRounding*math.Abs(fv)) {
			return note
		}
		for c := range v {
			all[c] = v[c] + (v[c]-v0[c])*t
		}
		if flat(all) {
			return note
		}
	}
	for c := range v {
		d := v[c] - v0[c]
		if d == 0 {
			continue
		}
		copy(all, v)
		all[c] = v[c] + math.Copysign(scale, d)
		if flat(all) {
			return note
		}
	}
	return ""
}

// atBoundary returns R's warning when, at the cluster values expanded to
// theta, a row with positive weight has a fitted probability within
// boundary of 0 or 1 (binomial) or a zero response a fitted mean below it
// (the log-link families of counts and amounts: Poisson, Tweedie, negbin),
// else "".
func (pb *problem) atBoundary(theta *mat.Dense) string {
	// The families whose intercept-only fit is at infinity for one class
	// (binomial) or for zeros alone (log-link counts and amounts) have
	// refits at infinity when a cluster separates those rows.
	classes := datafit.Classes(pb.fam)
	zeros := !classes && datafit.InterceptAtInfinity(pb.fam, 0, 0) != nil
	pb.loss.Eval(nil, theta)
	y, w := pb.loss.Response(), pb.rows.Weights
	for i, e := range pb.loss.Eta() {
		if w != nil && !(w[i] > 0) {
			continue
		}
		mu := pb.fam.Mean(e)
		switch {
		case classes:
			if mu < boundary || mu > 1-boundary {
				return "fitted probabilities numerically 0 or 1 occurred: the unpenalised refit does not exist (separation); the coefficients are the penalised fit's"
			}
		case zeros:
			if y[i] == 0 && mu < boundary {
				return "fitted rates numerically 0 occurred: the unpenalised refit does not exist (zero responses that a cluster separates); the coefficients are the penalised fit's"
			}
		}
	}
	return ""
}
