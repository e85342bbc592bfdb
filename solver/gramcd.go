package solver

import (
	"errors"
	"math"

	"github.com/cardsparse/cardreg/internal/kernel"
	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// GramCoordinateDescent is cyclic coordinate descent for least squares with
// the lasso penalty on the Gram form of the loss ("covariance updates", as
// glmnet's type.gaussian = "covariance" and scikit-learn's precomputed
// Gram): it keeps the correlations g = XᵀY − XᵀXΘ = XᵀR, so that the
// update of coordinate k,
//
//	θ_k ← soft(g_k + H_kk θ_k, λf_k/2)/H_kk,   g ← g − H_k Δθ_k,
//
// costs O(p) when θ_k moves and O(1) when it stays, where H = XᵀX. It
// suits paths and data with n ≫ p, where H is formed once (or comes from
// sufficient statistics, NewGramLeastSquares) and every λ then costs far
// less than a pass over the rows.
//
// It sweeps as CoordinateDescent does (all coordinates, then the nonzero
// ones until they settle) and stops on the same relative duality gap, with
// the same gap-safe screening, all computed from H, XᵀY and ‖Y‖² alone:
// ‖R‖² = ‖Y‖² − ⟨Θ, XᵀY⟩ − ⟨Θ, g⟩ and ⟨R, Y⟩ = ‖Y‖² − ⟨Θ, XᵀY⟩. g is
// recomputed from H and Θ before each gap, so that rounding accumulated by
// the updates never enters the certificate. With several response columns
// the gap is that of the whole problem, at one dual scaling common to all
// columns. Iterations counts sweeps.
type GramCoordinateDescent struct{}

// Minimize implements Method. It returns an error unless the loss is a
// LeastSquares in Gram form (n ≥ p on a design with a Gram form, or built
// from sufficient statistics) and the penalty is the separable L1 or
// another separable penalty with a per-coordinate prox
// (penalty.CoordinateProxer, as the elastic net: its update is the prox of
// the unpenalised one, its gap the conjugate's, see gapConjugate).
func (GramCoordinateDescent) Minimize(p Problem, init mat.Matrix, s Settings) (*Result, error) {
	ls, factors, prox, err := cdProblem(p)
	if err != nil {
		return nil, err
	}
	if ls.gram() == nil {
		return nil, errors.New("solver: Gram coordinate descent needs the loss in Gram form (n ≥ p and a design with a Gram form, or sufficient statistics)")
	}
	rows, cols := ls.Dims()
	st := newGramCD(ls, factors, p.Lambda, init)
	st.prox, st.pen = prox, p.Penalty
	res := &Result{Status: IterationLimit, Residual: math.NaN()}
	for sweeps := 0; sweeps < s.MaxIter; {
		big := st.sweep(false)
		sweeps++
		// Settle the active set before paying for a gap.
		for inner := 0; inner < 1000 && sweeps < s.MaxIter && big > 1e-3*s.Tol*ls.yy/float64(rows); inner++ {
			big = st.sweep(true)
			sweeps++
		}
		res.Iterations = sweeps
		obj, gap := st.certificate()
		res.Objective, res.Gap = obj, gap
		if s.Trace {
			res.Trace = append(res.Trace, TraceEntry{Iteration: sweeps, Objective: obj, Criterion: gap})
		}
		if gap <= s.Tol || gap*obj <= gapFloorRatio*ls.yy {
			res.Converged = true
			res.Status = GapConverged
			if gap > s.Tol {
				res.Status = GapFloor
			}
			break
		}
	}
	res.Theta = mat.NewDense(rows, cols, nil)
	for j, col := range st.theta {
		res.Theta.SetCol(j, col)
	}
	return res, nil
}

// gramCD is the state of Gram coordinate descent: per response column, the
// coefficients and the correlations g = XᵀY − HΘ.
type gramCD struct {
	h        []float64 // H = XᵀX, p×p row-major (row k is column k)
	p        int
	c        [][]float64 // the columns of XᵀY
	theta, g [][]float64
	screened [][]bool
	factors  []float64
	lambda   float64
	yy       float64
	// prox is the penalty's per-coordinate prox when it is not the lasso
	// (nil for the lasso, whose update stays inline); factors then hold
	// its thresholds at zero. pen is the penalty.
	prox penalty.CoordinateProxer
	pen  penalty.Penalty
}

func newGramCD(ls *LeastSquares, factors []float64, lambda float64, init mat.Matrix) *gramCD {
	p, q := ls.Dims()
	raw := ls.hd.RawMatrix()
	h := raw.Data
	if raw.Stride != p {
		h = make([]float64, p*p)
		for k := range p {
			copy(h[k*p:(k+1)*p], raw.Data[k*raw.Stride:])
		}
	}
	st := &gramCD{h: h, p: p, factors: factors, lambda: lambda, yy: ls.yy}
	for j := range q {
		st.c = append(st.c, mat.Col(nil, j, ls.c))
		theta := make([]float64, p)
		if init != nil {
			mat.Col(theta, j, init)
		}
		st.theta = append(st.theta, theta)
		st.g = append(st.g, make([]float64, p))
		st.screened = append(st.screened, make([]bool, p))
	}
	st.correlations()
	return st
}

func (st *gramCD) row(k int) []float64 { return st.h[k*st.p : (k+1)*st.p] }

// correlations recomputes g = XᵀY − HΘ from the nonzero coefficients.
func (st *gramCD) correlations() {
	for j, theta := range st.theta {
		g := st.g[j]
		copy(g, st.c[j])
		for k, t := range theta {
			if t != 0 {
				kernel.Axpy(-t, st.row(k), g)
			}
		}
	}
}

// sweep updates every coordinate not screened out (only the nonzero ones
// when active) of every column, and returns the largest H_kk Δθ_k², the
// decrease an update buys in the loss.
func (st *gramCD) sweep(active bool) float64 {
	var big float64
	for j, theta := range st.theta {
		g, screened := st.g[j], st.screened[j]
		for k, t := range theta {
			if screened[k] || (active && t == 0) {
				continue
			}
			hkk := st.h[k*st.p+k]
			if hkk == 0 {
				continue // a zero column: θ_k stays 0
			}
			next := penalty.SoftThreshold(g[k]+hkk*t, st.lambda*st.factors[k]/2) / hkk
			if st.prox != nil {
				next = st.prox.CoordinateProx(k, g[k]/hkk+t, st.lambda/(2*hkk))
			}
			if delta := next - t; delta != 0 {
				kernel.Axpy(-delta, st.row(k), g)
				theta[k] = next
				big = math.Max(big, hkk*delta*delta)
			}
		}
	}
	return big
}

// certificate recomputes the correlations, screens coordinates out by the
// gap-safe rule (setting those that are nonzero to zero), and returns the
// objective and the relative duality gap of the point returned.
func (st *gramCD) certificate() (obj, gap float64) {
	st.correlations()
	obj, gap, s := st.gap()
	zeroed := false
	for j, theta := range st.theta {
		for k, t := range theta {
			if !st.screened[j][k] && safeZero(st.g[j][k], s, gap+gapFloorRatio*st.yy, st.h[k*st.p+k], st.lambda*st.factors[k]) {
				st.screened[j][k] = true
				if t != 0 {
					theta[k], zeroed = 0, true
				}
			}
		}
	}
	if zeroed { // certify the point returned, not the one screened
		st.correlations()
		obj, gap, _ = st.gap()
	}
	return obj, RelativeGap(gap, obj)
}

// gap returns P(Θ), the absolute duality gap and the dual scaling s at
// the dual point 2sR (lassoGap), one s for every column: ‖R‖² =
// ‖Y‖² − ⟨Θ, XᵀY⟩ − ⟨Θ, g⟩ and ⟨R, Y⟩ = ‖Y‖² − ⟨Θ, XᵀY⟩.
func (st *gramCD) gap() (obj, gap, s float64) {
	if st.prox != nil {
		return st.gapConjugate()
	}
	var dual, l1, tc, tg float64
	for j, theta := range st.theta {
		dual = math.Max(dual, l1DualNorm(st.g[j], st.factors))
		for k, t := range theta {
			l1 += st.factors[k] * math.Abs(t)
		}
		tc += kernel.Dot(theta, st.c[j])
		tg += kernel.Dot(theta, st.g[j])
	}
	s = math.Min(1, st.lambda/dual)
	obj, gap = lassoGap(math.Max(st.yy-tc-tg, 0), st.yy-tc, l1, st.lambda, s)
	return obj, gap, s
}

// gapConjugate is gap for a penalty that is not the lasso: P(Θ) =
// ‖R‖² + λh(Θ) and the dual objective at 2sR, 2s⟨R, Y⟩ − s²‖R‖² −
// λh*(2sXᵀR/λ), the better of s = 1 and the largest s at which h*
// vanishes (DualScales). Every such point is feasible, so the gap-safe
// rule applies with the thresholds tⱼ.
func (st *gramCD) gapConjugate() (obj, gap, s float64) {
	c, ok := st.pen.(penalty.Conjugator)
	theta := mat.NewDense(st.p, len(st.theta), nil)
	u := mat.NewDense(st.p, len(st.theta), nil)
	var tc, tg float64
	for j, th := range st.theta {
		theta.SetCol(j, th)
		u.SetCol(j, st.g[j])
		tc += kernel.Dot(th, st.c[j])
		tg += kernel.Dot(th, st.g[j])
	}
	rr, ry := math.Max(st.yy-tc-tg, 0), st.yy-tc
	obj = rr + st.lambda*st.pen.Value(theta)
	if !ok {
		return obj, math.Inf(1), 0
	}
	u.Scale(2/st.lambda, u)
	dual := func(s float64) float64 {
		var us mat.Dense
		us.Scale(s, u)
		return lsDual(ry, rr, s) - st.lambda*c.Conjugate(&us)
	}
	s, best := 1.0, dual(1)
	if z := c.ConjugateZero(u); z > 1 && !math.IsInf(z, 1) {
		if d := dual(1 / z); d > best {
			s, best = 1/z, d
		}
	}
	return obj, math.Max(obj-best, 0), s
}
