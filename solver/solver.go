package solver

import (
	"errors"
	"fmt"
	"math"

	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// Loss is a smooth convex function f of a p×q matrix.
type Loss interface {
	// Dims returns the shape p×q of the parameter.
	Dims() (p, q int)
	// Eval returns f(Θ) and, when grad is not nil, writes ∇f(Θ) into it
	// (sized automatically when empty).
	Eval(grad *mat.Dense, theta mat.Matrix) float64
	// Lipschitz returns an upper bound on the Lipschitz constant of ∇f, or
	// 0 when none is known (FISTA then backtracks).
	Lipschitz() float64
}

// DualLoss is a loss f(Θ) = F(XΘ) that can evaluate its Fenchel dual, which
// gives duality gaps.
type DualLoss interface {
	Loss
	// Dual returns the dual objective −F*(−θ) at θ = s·θ(Θ), where θ(Θ) is
	// the dual variable −∇F(XΘ) associated with Θ, s ∈ [0, 1] scales it
	// into the feasible set, and fval = f(Θ).
	Dual(theta mat.Matrix, fval, s float64) float64
	// GapFloor returns the absolute duality gap below which the gap's own
	// evaluation is rounding error. A fit whose gap reaches it has
	// converged as far as float64 can tell (status GapFloor).
	GapFloor() float64
}

// Problem is what to minimise: Loss(Θ) + Lambda·Penalty(Θ).
type Problem struct {
	// Loss is the smooth part f.
	Loss Loss
	// Penalty is h.
	Penalty penalty.Penalty
	// Lambda is λ ≥ 0, on the loss's scale (no 1/(2n) for least squares).
	Lambda float64
}

// Objective returns f(Θ) + λ·h(Θ).
func (p Problem) Objective(theta mat.Matrix) float64 {
	return p.Loss.Eval(nil, theta) + p.Lambda*p.Penalty.Value(theta)
}

// Settings say when a method stops.
type Settings struct {
	// Tol is the relative tolerance of the stopping criterion: the duality
	// gap where it is known, else the fixed-point or ADMM residuals. If zero,
	// DefaultTol is used.
	Tol float64
	// MaxIter bounds the iterations. If zero, DefaultMaxIter is used.
	MaxIter int
	// GapEvery is how often, in iterations, the duality gap is evaluated.
	// If zero, 10 is used.
	GapEvery int
	// Trace records one TraceEntry per criterion evaluation in the result.
	Trace bool
	// inner marks the inner solve of an outer method (proximal Newton's
	// models): its tolerance and MaxIter govern, the stall rule does not
	// (see stallWindow).
	inner bool
}

// DefaultTol is the tolerance used when Settings.Tol is zero.
const DefaultTol = 1e-7

// DefaultMaxIter is the iteration bound used when Settings.MaxIter is zero.
const DefaultMaxIter = 20000

func (s *Settings) defaults() Settings {
	var out Settings
	if s != nil {
		out = *s
	}
	if out.Tol == 0 {
		out.Tol = DefaultTol
	}
	if out.MaxIter == 0 {
		out.MaxIter = DefaultMaxIter
	}
	if out.GapEvery == 0 {
		out.GapEvery = 10
	}
	return out
}

// Status says why a method stopped.
type Status int

// The stopping reasons.
const (
	// GapConverged: the relative duality gap reached Tol.
	GapConverged Status = iota + 1
	// ResidualConverged: the fixed-point or ADMM residuals reached Tol.
	ResidualConverged
	// IterationLimit: MaxIter iterations were run without convergence.
	IterationLimit
	// GapFloor: the absolute duality gap reached the rounding floor of its
	// own evaluation (DualLoss.GapFloor) while the relative gap was still
	// above Tol. This happens for near-exact fits (noiseless data, tiny λ),
	// where the objective is a tiny fraction of ‖Y‖²; Gap says how far the
	// certificate got.
	GapFloor
	// Stalled: neither the objective nor the stopping criterion improved
	// over a run of checks (or the objective was not finite), so the
	// method stopped before MaxIter; the result is not certified. It
	// happens on badly scaled problems, e.g. a λ so small against the
	// gradient that the duality gap cannot certify anything.
	Stalled
	// Uncertifiable: the method stalled at a λ below the rounding error
	// of the loss's gradient in the penalty's dual norm
	// (Result.RoundingLambda, GradientRounder): the computed gradient's
	// dual norm may exceed λ at the exact optimum, so the scaled dual
	// point, and the duality gap, are off by the rounding alone and no
	// method can certify the fit there. A λ above RoundingLambda is
	// beyond the rounding.
	Uncertifiable
)

// String describes the status in words.
func (s Status) String() string {
	switch s {
	case GapConverged:
		return "duality gap below tolerance"
	case ResidualConverged:
		return "residual below tolerance"
	case IterationLimit:
		return "iteration limit reached before convergence"
	case GapFloor:
		return "duality gap at the floating-point floor of its evaluation"
	case Stalled:
		return "stalled: neither the objective nor the duality gap improved any more (badly scaled problem?)"
	case Uncertifiable:
		return "stalled: the duality gap cannot be certified below the gradient's rounding at this λ"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// TraceEntry records one evaluation of the stopping criterion.
type TraceEntry struct {
	// Iteration is the iteration (or sweep) count at the evaluation.
	Iteration int
	// Objective is f + λh there.
	Objective float64
	// Criterion is the relative duality gap or residual at that iteration.
	Criterion float64
}

// Result is what happened.
type Result struct {
	// Theta is the final iterate.
	Theta *mat.Dense
	// Objective is f(Θ) + λh(Θ) at Theta.
	Objective float64
	// Gap is the relative duality gap at Theta, or NaN when the dual norm or
	// the dual of the loss is unknown.
	Gap float64
	// Residual is the last relative fixed-point or ADMM residual, or NaN
	// when the gap was used.
	Residual float64
	// Iterations is the number of iterations run.
	Iterations int
	// Converged reports whether the stopping criterion was met.
	Converged bool
	// Status says why the method stopped.
	Status Status
	// Polished reports whether the final Theta came from a polishing solve.
	Polished bool
	// Trace holds the criterion history when Settings.Trace is set.
	Trace []TraceEntry
	// RoundingLambda, when Status is Uncertifiable, is the dual norm of
	// the gradient's rounding error at Theta (RoundingLambda), the λ
	// above which the rounding no longer prevents a certificate; else 0.
	RoundingLambda float64
}

// Method is how to minimise.
type Method interface {
	// Minimize solves p from the starting point init (nil for zero).
	Minimize(p Problem, init mat.Matrix, s Settings) (*Result, error)
}

// Minimize solves p with method m, starting from init (nil for zero: warm
// starts pass the previous solution), and stopping as s says (nil for the
// defaults). It returns an error for an invalid problem; non-convergence is
// not an error but a Result with Converged false.
func Minimize(p Problem, init mat.Matrix, s *Settings, m Method) (*Result, error) {
	if p.Loss == nil || p.Penalty == nil {
		return nil, errors.New("solver: problem needs a loss and a penalty")
	}
	if err := penalty.Validate(p.Penalty); err != nil {
		return nil, err
	}
	if err := CheckLambda(p.Lambda); err != nil {
		return nil, fmt.Errorf("solver: %w", err)
	}
	if init != nil {
		r, c := init.Dims()
		if pp, q := p.Loss.Dims(); r != pp || c != q {
			return nil, fmt.Errorf("solver: starting point is %d×%d, want %d×%d", r, c, pp, q)
		}
	}
	if m == nil {
		m = &FISTA{}
	}
	res, err := m.Minimize(p, init, s.defaults())
	if err == nil {
		explainStall(p, res)
	}
	return res, err
}

// explainStall turns a Stalled result into Uncertifiable when λ lies
// below the rounding error of the gradient at its point (RoundingLambda):
// no method could have certified it, and the caller can say which λ can.
func explainStall(p Problem, res *Result) {
	if res == nil || res.Status != Stalled || res.Theta == nil {
		return
	}
	if lr, ok := RoundingLambda(p, res.Theta); ok && p.Lambda < lr {
		res.Status, res.RoundingLambda = Uncertifiable, lr
	}
}

// MinRatio returns glmnet's default lambda.min.ratio, the bottom of a
// generated λ grid over λ_max, for n observations and p predictors: 1e-4
// when n ≥ p, 1e-2 when p > n.
func MinRatio(n, p int) float64 {
	if n < p {
		return 1e-2
	}
	return 1e-4
}

// LambdaMax returns the top of a generated λ grid, h*(∇f(0)) for a norm
// (the smallest λ for which Θ = 0 minimises f + λh), the penalty's own
// LambdaMax for one that is not (penalty.GridTop), and false when the
// penalty knows neither.
func LambdaMax(loss Loss, pen penalty.Penalty) (float64, bool) {
	p, q := loss.Dims()
	var g mat.Dense
	loss.Eval(&g, mat.NewDense(p, q, nil))
	return penalty.GridTop(pen, &g)
}

// certificate evaluates the objective and, where possible, the relative
// duality gap at theta, and whether the absolute gap is at the loss's
// rounding floor. grad is scratch space.
func certificate(p Problem, theta, grad *mat.Dense) (obj, gap float64, floor bool) {
	fval := p.Loss.Eval(grad, theta)
	obj = fval + p.Lambda*p.Penalty.Value(theta)
	dl, ok := p.Loss.(DualLoss)
	if !ok || p.Lambda == 0 {
		// At λ = 0 the dual feasible set is {Xᵀθ = 0}: the scaled dual
		// point is feasible only at the exact optimum, so the gap certifies
		// nothing and the residual criterion takes over.
		return obj, math.NaN(), false
	}
	scales, terms, ok := DualScales(p, grad)
	if !ok {
		return obj, math.NaN(), false
	}
	dual := math.Inf(-1)
	for k, s := range scales {
		dual = math.Max(dual, dl.Dual(theta, fval, s)-terms[k])
	}
	g := math.Max(obj-dual, 0)
	return obj, RelativeGap(g, obj), g <= dl.GapFloor()
}

// DualScales returns the scalings s of the dual point θ of gradient grad
// (∇f(Θ) = −Xᵀθ) at which a certificate evaluates the dual objective
// D(s) = −F*(−sθ) − λh*(s∇f(Θ)/λ), and the penalty's share λh*(s∇f/λ) of
// each; the certificate is the best of them. For a norm, the one s =
// min(1, λ/h°(∇f)) that puts the point in the dual norm's ball, where h*
// is zero. For a penalty that is not a norm but knows its conjugate
// (penalty.Conjugator), s = 1 (the dual point of an optimum) and the
// largest s at which h* vanishes (the norm's scaling, which certifies a
// point far from the optimum better when h* is steep: α near 1 for the
// elastic net); every s is feasible where h* is finite, and D(s) ≤ P(Θ)
// by Fenchel–Young. At λ = 0, s = 0 (Xᵀθ = 0, the dual's constraint). ok
// is false when the penalty has neither. p's Loss is not used: a loss
// known by passes or scans evaluates its own −F*(−sθ).
func DualScales(p Problem, grad mat.Matrix) (scales, terms []float64, ok bool) {
	if d, ok := penalty.DualNorm(p.Penalty, grad); ok {
		s := 1.0
		if d > p.Lambda {
			s = p.Lambda / d
		}
		return []float64{s}, []float64{0}, true
	}
	c, ok := p.Penalty.(penalty.Conjugator)
	if !ok {
		return nil, nil, false
	}
	if p.Lambda == 0 {
		return []float64{0}, []float64{0}, true
	}
	var u mat.Dense
	u.Scale(1/p.Lambda, grad)
	scales = []float64{1}
	if z := c.ConjugateZero(&u); z > 1 && !math.IsInf(z, 1) {
		scales = append(scales, 1/z)
	}
	terms = make([]float64, len(scales))
	for k, s := range scales {
		var us mat.Dense
		us.Scale(s, &u)
		terms[k] = p.Lambda * c.Conjugate(&us)
	}
	return scales, terms, true
}

// RelativeGap returns the absolute duality gap gap relative to the
// objective obj, gap/obj, or gap itself when obj ≤ 0 (a zero objective is
// an exact fit, where the absolute gap is the measure left).
func RelativeGap(gap, obj float64) float64 {
	if obj <= 0 {
		return gap
	}
	return gap / obj
}

// GapStatus returns the status of a certificate with relative gap gap
// (floor: at the loss's rounding floor) against tolerance tol (0:
// DefaultTol): GapConverged, GapFloor, or IterationLimit when it does not
// stop a method.
func GapStatus(gap float64, floor bool, tol float64) Status {
	if tol == 0 {
		tol = DefaultTol
	}
	return gapStatus(gap, floor, tol)
}

// Certificate returns the relative duality gap of p at theta (NaN when the
// loss has no dual or the penalty no dual norm): how far from optimal any
// solver's answer is.
func Certificate(p Problem, theta *mat.Dense) float64 {
	r, c := theta.Dims()
	_, gap, _ := CertificateGrad(p, theta, mat.NewDense(r, c, nil))
	return gap
}

// CertificateGrad returns the objective and relative duality gap of p at
// theta, like Certificate, and leaves ∇f(theta) in grad (sized like
// theta): working-set methods read the optimality conditions off it.
func CertificateGrad(p Problem, theta, grad *mat.Dense) (obj, gap float64, floor bool) {
	return certificate(p, theta, grad)
}
