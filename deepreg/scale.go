package deepreg

import (
	"errors"
	"fmt"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// ScaleOptions configure FitScale.
type ScaleOptions struct {
	// LearningRate is the first projected-gradient step on Ω (default
	// 0.1); every step is halved until the objective decreases, and grown
	// by a quarter after a success.
	LearningRate float64
	// Iterations bounds the projected-gradient steps (default 1000); the
	// fit stops earlier when no step decreases the objective.
	Iterations int
}

// ScaleResult is the outcome of FitScale.
type ScaleResult struct {
	// Kappa is κ̂ and Direction is Ω̂, with Σ_l h(Ω̂^l) ≤ 1; the fitted
	// network is κ̂·g_Ω̂.
	Kappa     float64
	Direction *Network
	// Objective is (1/n)Σ‖y_i − κ̂ g_Ω̂(x_i)‖² + λκ̂ at the end.
	Objective float64
	// Iterations is the number of steps taken.
	Iterations int
}

// FitScale fits the source paper's estimator
//
//	argmin over κ ≥ 0 and Ω with Σ_l h(Ω^l) ≤ 1 of (1/n)Σ‖y_i − κ·g_Ω(x_i)‖² + λκ
//
// by projected gradient on the profile objective min_κ (κ in closed form
// for fixed Ω, Kappa), projecting onto the ball with ProjectBall, with a
// backtracking step so that the objective decreases monotonically. h must be a norm (cardinality,
// grouped, lasso); start is the initial direction and is not modified.
func FitScale(start *Network, x solver.Design, y *mat.Dense, h penalty.Penalty, lambda float64, opts *ScaleOptions) (*ScaleResult, error) {
	if err := start.check(); err != nil {
		return nil, err
	}
	if err := start.checkData(x, y); err != nil {
		return nil, err
	}
	if _, ok := h.(penalty.Ridge); ok || h == nil {
		return nil, errors.New("deepreg: the scale estimator needs a norm (cardinality, grouped or lasso), not ridge or none")
	}
	if err := solver.CheckLambda(lambda); err != nil {
		return nil, fmt.Errorf("deepreg: %w", err)
	}
	o := ScaleOptions{LearningRate: 0.1, Iterations: 1000}
	if opts != nil {
		if opts.LearningRate > 0 {
			o.LearningRate = opts.LearningRate
		}
		if opts.Iterations > 0 {
			o.Iterations = opts.Iterations
		}
	}
	omega := start.Clone()
	omega.Biases = nil // the estimator's class has no biases
	ProjectBall(omega.Weights, h)
	// h is a norm, so −Ω^L stays in the ball: start on the side where the
	// outputs correlate positively with y (κ is 0 on the other).
	if out, err := omega.Output(x); err == nil && mat.Dot(flat(y), flat(out)) < 0 {
		last := omega.Weights[len(omega.Weights)-1]
		last.Scale(-1, last)
	}
	res := &ScaleResult{Direction: omega}
	f, err := profile(omega, x, y, lambda)
	if err != nil {
		return nil, err
	}
	eta := o.LearningRate
	for it := 0; it < o.Iterations; it++ {
		next, fn, ok := scaleStep(omega, x, y, h, lambda, f, &eta)
		if !ok { // no step lowers the objective: a stationary point
			break
		}
		omega, f = next, fn
		res.Iterations = it + 1
	}
	out, err := omega.Output(x)
	if err != nil {
		return nil, err
	}
	res.Direction = omega
	res.Kappa = Kappa(out, y, lambda)
	res.Objective = scaleObjective(out, y, res.Kappa, lambda)
	return res, nil
}

// profile returns min over κ ≥ 0 of the estimator's objective at Ω.
func profile(omega *Network, x solver.Design, y *mat.Dense, lambda float64) (float64, error) {
	out, err := omega.Output(x)
	if err != nil {
		return 0, err
	}
	return scaleObjective(out, y, Kappa(out, y, lambda), lambda), nil
}

// scaleStep takes one projected gradient step from Ω at the optimal κ,
// halving *eta until the objective f decreases (at most 40 times) and
// growing it by a quarter after a success. ok is false when no step
// decreased f.
func scaleStep(omega *Network, x solver.Design, y *mat.Dense, h penalty.Penalty, lambda, f float64, eta *float64) (*Network, float64, bool) {
	out, _ := omega.Output(x)
	kappa := Kappa(out, y, lambda)
	if kappa == 0 { // the zero fit: no gradient through κ·g
		return nil, f, false
	}
	// The network with W^L scaled by κ outputs κ·g_Ω: its gradients are
	// those in Ω^l for l < L, and 1/κ times that in Ω^L (by the envelope
	// theorem the gradient at the optimal κ is that of the profile).
	_, g := scaledNet(omega, kappa).Gradient(x, y, SquaredError{})
	last := len(omega.Weights) - 1
	for try := 0; try < 40; try, *eta = try+1, *eta/2 {
		next := omega.Clone()
		for l, w := range next.Weights {
			step := *eta
			if l == last {
				step *= kappa
			}
			w.Add(w, scaled(-step, g.Weights[l]))
		}
		ProjectBall(next.Weights, h)
		if fn, err := profile(next, x, y, lambda); err == nil && fn < f {
			*eta *= 1.25
			return next, fn, true
		}
	}
	return nil, f, false
}

// scaledNet returns the network with its last weight matrix multiplied by
// κ (sharing the other matrices), whose output is κ·g_Ω.
func scaledNet(n *Network, kappa float64) *Network {
	out := &Network{Activations: n.Activations, Weights: append([]*mat.Dense(nil), n.Weights...)}
	last := len(out.Weights) - 1
	out.Weights[last] = scaled(kappa, n.Weights[last])
	return out
}

// Kappa returns the minimiser over κ ≥ 0 of (1/n)Σ‖y_i − κ·out_i‖² + λκ:
// κ = max(0, (⟨y, out⟩ − nλ/2) / ‖out‖²), and 0 when out is zero.
func Kappa(out, y *mat.Dense, lambda float64) float64 {
	n, _ := out.Dims()
	o := flat(out)
	num := mat.Dot(flat(y), o) - float64(n)*lambda/2
	den := mat.Dot(o, o)
	if den == 0 || num <= 0 {
		return 0
	}
	return num / den
}

func scaleObjective(out, y *mat.Dense, kappa, lambda float64) float64 {
	var r mat.Dense
	r.Scale(kappa, out)
	return SquaredError{}.Value(&r, y) + lambda*kappa
}

func flat(m *mat.Dense) *mat.VecDense {
	r, c := m.Dims()
	return mat.NewVecDense(r*c, mat.DenseCopyOf(m).RawMatrix().Data)
}

// ProjectBall replaces the matrices ws by their Euclidean projection onto
// {Σ_l h(W^l) ≤ 1}: unchanged inside the ball, else prox_{τh} of every
// matrix at the one τ where the sum of h equals 1, found by bisection (h
// of the prox decreases in τ). It returns τ (0 inside the ball).
func ProjectBall(ws []*mat.Dense, h penalty.Penalty) float64 {
	total := func(tau float64, dst []*mat.Dense) float64 {
		s := 0.0
		for l, w := range ws {
			h.Prox(dst[l], w, tau)
			s += h.Value(dst[l])
		}
		return s
	}
	tmp := make([]*mat.Dense, len(ws))
	for l, w := range ws {
		r, c := w.Dims()
		tmp[l] = mat.NewDense(r, c, nil)
	}
	if total(0, tmp) <= 1 {
		return 0
	}
	lo, hi := 0.0, 1.0
	for total(hi, tmp) > 1 {
		lo, hi = hi, 2*hi
	}
	for it := 0; it < 100 && hi-lo > 1e-15*hi; it++ {
		mid := (lo + hi) / 2
		if total(mid, tmp) > 1 {
			lo = mid
		} else {
			hi = mid
		}
	}
	total(hi, tmp)
	for l, w := range ws {
		w.Copy(tmp[l])
	}
	return hi
}
