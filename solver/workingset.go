package solver

import (
	"errors"
	"math"
	"slices"

	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// Restricter is a loss whose problem can be restricted to some of its
// predictors, the others held at zero: the capability WorkingSet needs.
type Restricter interface {
	Loss
	// Restrict returns the loss with only the predictors at positions
	// keep (increasing) free.
	Restrict(keep []int) Loss
	// Adopt tells the loss that theta (over all its predictors) is the
	// point sub, one of its Restricts, was last evaluated at, with zeros
	// outside sub's predictors, so that it reuses what sub computed there.
	// It does nothing when theta is not that point.
	Adopt(sub Loss, theta mat.Matrix)
}

// WorkingSet solves a lasso problem (penalty.L1 or penalty.WeightedL1, one
// response) on a working set of predictors: those nonzero at the starting
// point and those whose gradient there is within a margin of their
// threshold λfⱼ, grown by every predictor violating its optimality
// condition until none does. Predictors outside the set are zero; the
// answer is certified by the duality gap of the full problem, so the
// working set changes the speed only (glmnet's strong rules, skglm's
// working sets). The margin is glmnet's sequential strong rule
// |gⱼ| ≥ (2λ − λ')fⱼ when the previous fit (at λ' > λ) was this
// WorkingSet's or was handed over by Remember, else workingMargin.
//
// With the default inner method, each set's fit stops at IRLSCD's forecast
// of its certificate without computing it: the optimality check on the
// full problem computes the full gradient, which is the certificate's, so
// one pass over X serves both. When the forecast falls short of the
// certificate, the set is fitted again to its own certificate.
//
// A WorkingSet keeps the gradient at its last solution for the next fit
// of a path: use one per path, not concurrently. It needs a Restricter
// loss.
type WorkingSet struct {
	// Inner solves the restricted problems. If nil, IRLSCD.
	Inner Method

	grad       *mat.Dense // ∇f at gradAt, the last certified solution
	gradAt     []float64
	prevLambda float64 // the λ of that solution (the strong rule's λ')
}

// workingMargin admits predictors whose gradient is within this fraction
// of their threshold λfⱼ when there is no previous λ to go by.
const workingMargin = 0.8

// Remember records grad = ∇f(theta), theta certified optimal at lambda
// elsewhere (an exact zero solution at λ ≥ λ_max): the next fit starting
// from theta uses it and the sequential strong rule from lambda, as after
// the working set's own fits.
func (w *WorkingSet) Remember(lambda float64, theta, grad *mat.Dense) {
	w.grad, w.gradAt, w.prevLambda = grad, slices.Clone(theta.RawMatrix().Data), lambda
}

// Minimize implements Method.
func (w *WorkingSet) Minimize(p Problem, init mat.Matrix, s Settings) (*Result, error) {
	rl, ok := p.Loss.(Restricter)
	if !ok {
		return nil, errors.New("solver: a working set needs a loss that restricts to some predictors (a Restricter)")
	}
	m, q := p.Loss.Dims()
	factors, ok := L1Factors(p.Penalty, m)
	if !ok || q != 1 {
		return nil, errors.New("solver: a working set needs the lasso penalty (with or without factors) and one response")
	}
	s = s.defaults()
	x := mat.NewDense(m, 1, nil)
	if init != nil {
		x.Copy(init)
	}
	grad := w.startGrad(p.Loss, x)
	set := w.initial(x, grad, factors, p.Lambda)
	total, forecast := 0, w.Inner == nil
	for {
		if len(set) == 0 {
			set = []int{argmaxScore(grad, factors)}
		}
		sub, res, err := w.solveOn(rl, set, p, factors, x, s, forecast)
		if err != nil {
			return nil, err
		}
		total += res.Iterations
		if len(set) == m && !math.IsNaN(res.Gap) {
			res.Iterations = total
			return res, nil // the subproblem was the full problem, certified
		}
		for a, j := range set {
			x.Set(j, 0, res.Theta.At(a, 0))
		}
		if sub != Loss(rl) {
			rl.Adopt(sub, x)
		}
		// The optimality check's full gradient is the certificate's.
		obj, gap, floor := CertificateGrad(p, x, grad)
		add := violations(set, grad, factors, p.Lambda)
		if len(add) > 0 {
			set = mergeSorted(set, add)
			continue
		}
		status := gapStatus(gap, floor, s.Tol)
		if status == IterationLimit && math.IsNaN(res.Gap) {
			forecast = false // the forecast fell short: the set's own certificate decides
			continue
		}
		// The full problem's certificate decides, not the subproblem's.
		out := *res
		out.Theta, out.Iterations, out.Objective, out.Gap = x, total, obj, gap
		w.Remember(p.Lambda, x, grad)
		out.Status, out.Converged = status, status != IterationLimit
		return &out, nil
	}
}

// startGrad returns ∇f(x): the remembered one when x is the last
// solution (a path's warm start), else evaluated.
func (w *WorkingSet) startGrad(f Loss, x *mat.Dense) *mat.Dense {
	m, _ := x.Dims()
	grad := mat.NewDense(m, 1, nil)
	if w.grad != nil && slices.Equal(w.gradAt, x.RawMatrix().Data) {
		grad.Copy(w.grad)
	} else {
		f.Eval(grad, x)
	}
	return grad
}

// initial returns the starting set: the predictors nonzero at x and those
// whose gradient reaches margin·λfⱼ.
func (w *WorkingSet) initial(x, grad *mat.Dense, factors []float64, lambda float64) []int {
	var set []int
	margin := w.margin(lambda)
	for j, f := range factors {
		if x.At(j, 0) != 0 || math.Abs(grad.At(j, 0)) >= margin*lambda*f {
			set = append(set, j)
		}
	}
	return set
}

// margin is the fraction of λfⱼ a predictor's gradient must reach to
// start in the working set: on a path from λ' > λ, glmnet's sequential
// strong rule |gⱼ| ≥ (2λ − λ')fⱼ, else workingMargin. Either only
// guesses: the predictors it leaves out are checked and added by the full
// problem's optimality conditions.
func (w *WorkingSet) margin(lambda float64) float64 {
	if prev := w.prevLambda; prev > lambda && w.grad != nil {
		return math.Max(2-prev/lambda, 0)
	}
	return workingMargin
}

// solveOn minimises over the predictors in set, starting from x.
// With forecast (the default inner method only), the set's fit stops at its
// certificate's forecast, which the caller then computes on the full
// problem.
func (w *WorkingSet) solveOn(rl Restricter, set []int, p Problem, factors []float64, x *mat.Dense, s Settings, forecast bool) (Loss, *Result, error) {
	var sub Loss = rl
	if m, _ := rl.Dims(); len(set) < m {
		sub = rl.Restrict(set)
	}
	f := make([]float64, len(set))
	start := mat.NewDense(len(set), 1, nil)
	for a, j := range set {
		f[a] = factors[j]
		start.Set(a, 0, x.At(j, 0))
	}
	var h penalty.Penalty = penalty.WeightedL1{Factors: f}
	if l1, ok := p.Penalty.(penalty.L1); ok {
		h = l1
	}
	inner := w.Inner
	if inner == nil {
		inner = IRLSCD{forecast: forecast}
	}
	res, err := Minimize(Problem{Loss: sub, Penalty: h, Lambda: p.Lambda}, start, &s, inner)
	return sub, res, err
}

// violations returns the predictors outside set (increasing) whose
// gradient breaks their optimality condition at zero, |gⱼ| ≤ λfⱼ.
func violations(set []int, grad *mat.Dense, factors []float64, lambda float64) []int {
	in := make([]bool, len(factors))
	for _, j := range set {
		in[j] = true
	}
	var add []int
	for j, f := range factors {
		if !in[j] && math.Abs(grad.At(j, 0)) > lambda*f {
			add = append(add, j)
		}
	}
	return add
}

// argmaxScore returns the predictor whose gradient is largest relative
// to its penalty factor.
func argmaxScore(grad *mat.Dense, factors []float64) int {
	best, arg := -1.0, 0
	for j, f := range factors {
		if s := math.Abs(grad.At(j, 0)) / f; s > best {
			best, arg = s, j
		}
	}
	return arg
}

// mergeSorted returns the sorted union of the disjoint sets a and b.
func mergeSorted(a, b []int) []int {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return out
}
