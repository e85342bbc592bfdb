package glm

import (
	"math"
	"slices"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// workingSetMin is the number of penalised predictors above which lasso
// fits use a working set.
const workingSetMin = 64

// fitWorkingSet solves a lasso fit on a working set of predictors: those
// nonzero at the warm start and those whose gradient is within a margin of
// the threshold λfⱼ, grown by every predictor violating its optimality
// condition until none does. Predictors outside the set are zero; the
// answer is certified by the duality gap of the full problem, so the
// working set changes the speed only (as in glmnet's strong rules and
// skglm's working sets).
func (pb *problem) fitWorkingSet(pen penalty.Penalty, lambda float64, init *mat.Dense) (*solver.Result, error) {
	m, _ := pb.loss.Dims()
	factors := factorsOf(pen, m)
	x := mat.NewDense(m, 1, nil)
	if init != nil {
		x.Copy(init)
	}
	full := solver.Problem{Loss: pb.loss, Penalty: pen, Lambda: lambda}
	grad := mat.NewDense(m, 1, nil)
	if pb.grad != nil && slices.Equal(pb.gradAt, x.RawMatrix().Data) {
		grad.Copy(pb.grad) // a path's warm start: the last certificate's
	} else {
		pb.loss.Eval(grad, x)
	}
	var set []int
	margin := pb.margin(lambda)
	for j := range m {
		if x.At(j, 0) != 0 || math.Abs(grad.At(j, 0)) >= margin*lambda*factors[j] {
			set = append(set, j)
		}
	}
	total := 0
	for {
		if len(set) == 0 {
			set = []int{argmaxScore(grad, factors)}
		}
		sub, res, err := pb.solveOn(set, pen, factors, lambda, x)
		if err != nil {
			return nil, err
		}
		total += res.Iterations
		if len(set) == m {
			res.Iterations = total
			return res, nil // the subproblem was the full problem, certified
		}
		for a, j := range set {
			x.Set(j, 0, res.Theta.At(a, 0))
		}
		pb.loss.Adopt(sub, x)
		obj, gap, floor := solver.CertificateGrad(full, x, grad)
		in := make([]bool, m)
		for _, j := range set {
			in[j] = true
		}
		var add []int
		for j := range m {
			if !in[j] && math.Abs(grad.At(j, 0)) > lambda*factors[j] {
				add = append(add, j)
			}
		}
		if len(add) == 0 || len(set) == m {
			// The full problem's certificate decides, not the subproblem's.
			out := *res
			out.Theta, out.Iterations, out.Objective, out.Gap = x, total, obj, gap
			pb.grad, pb.gradAt, pb.prevLambda = grad, slices.Clone(x.RawMatrix().Data), lambda
			out.Status = solver.GapStatus(gap, floor, pb.opts.Settings.Tol)
			out.Converged = out.Status != solver.IterationLimit
			return &out, nil
		}
		set = mergeSorted(set, add)
	}
}

// workingMargin admits predictors whose gradient is within this fraction
// of their threshold λfⱼ when there is no previous λ to go by.
const workingMargin = 0.8

// margin is the fraction of λfⱼ a predictor's gradient must reach to
// start in the working set: on a path from λ' > λ, glmnet's sequential
// strong rule |gⱼ| ≥ (2λ − λ')fⱼ, else workingMargin. Either only guesses:
// the predictors it leaves out are checked and added by the full
// problem's optimality conditions.
func (pb *problem) margin(lambda float64) float64 {
	if prev := pb.prevLambda; prev > lambda && pb.grad != nil {
		return math.Max(2-prev/lambda, 0)
	}
	return workingMargin
}

// solveOn minimises over the predictors in set, starting from x.
func (pb *problem) solveOn(set []int, pen penalty.Penalty, factors []float64, lambda float64, x *mat.Dense) (*datafit.Loss, *solver.Result, error) {
	sub := pb.loss
	if m, _ := pb.loss.Dims(); len(set) < m {
		sub = pb.loss.Restrict(set)
	}
	f := make([]float64, len(set))
	start := mat.NewDense(len(set), 1, nil)
	for a, j := range set {
		f[a] = factors[j]
		start.Set(a, 0, x.At(j, 0))
	}
	var h penalty.Penalty = penalty.WeightedL1{Factors: f}
	if l1, ok := pen.(penalty.L1); ok {
		h = l1
	}
	res, err := solver.Minimize(solver.Problem{Loss: sub, Penalty: h, Lambda: lambda}, start, &pb.opts.Settings, solver.IRLSCD{})
	return sub, res, err
}

func factorsOf(pen penalty.Penalty, m int) []float64 {
	f := make([]float64, m)
	switch h := pen.(type) {
	case penalty.WeightedL1:
		copy(f, h.Factors)
	case penalty.L1:
		nu := penalty.EffectiveNu(h.Nu)
		for j := range f {
			f[j] = nu
		}
	}
	return f
}

func argmaxScore(grad *mat.Dense, factors []float64) int {
	best, arg := -1.0, 0
	for j, f := range factors {
		if s := math.Abs(grad.At(j, 0)) / f; s > best {
			best, arg = s, j
		}
	}
	return arg
}

func mergeSorted(a, b []int) []int {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return out
}
