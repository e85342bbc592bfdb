package reference

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// simplexTol is the reduced-cost tolerance passed to lp.Simplex.
const simplexTol = 1e-12

// DualNormLP returns the dual norm of the norm x ↦ ‖Kx‖₁ evaluated at g,
//
//	h*(g) = max{gᵀx : ‖Kx‖₁ ≤ 1} = min{‖u‖_∞ : Kᵀu = g},
//
// computed with gonum's simplex method on the right-hand (minimum ‖u‖_∞)
// formulation; see DualNormLPWitness for the linear program. K (m×n) must
// have full column rank for x ↦ ‖Kx‖₁ to be a norm. DualNormLP returns 0 for
// g = 0 without solving anything, and an error if the LP solver fails, which
// is what happens when K is rank deficient and g is not in the range of Kᵀ.
// It panics if len(g) differs from the number of columns of K or g has a
// non-finite entry.
func DualNormLP(K *mat.Dense, g []float64) (float64, error) {
	val, _, err := DualNormLPWitness(K, g)
	return val, err
}

// DualNormLPWitness is DualNormLP that also returns the minimiser u, which
// satisfies Kᵀu = g (up to rounding) and ‖u‖_∞ = value; by weak duality
// gᵀx = uᵀKx ≤ ‖u‖_∞‖Kx‖₁ for every x, so u certifies value as an upper
// bound on h*(g).
//
// The standard-form LP (min cᵀz subject to Az = b, z ≥ 0) solved after scaling
// g to ĝ = g/‖g‖_∞ has the 3m+1 variables z = (u⁺, u⁻, t, s), with u = u⁺ − u⁻,
// and the n+m equality constraints
//
//	Kᵀu⁺ − Kᵀu⁻           = ĝ   (n rows)
//	u⁺_i + u⁻_i + t_i − s = 0   (m rows; t_i is the slack of u⁺_i + u⁻_i ≤ s),
//
// with objective s. The constraint matrix has full row rank exactly when K
// has full column rank. The reported value is ‖u‖_∞ (after undoing the
// scaling) rather than the LP's s, so that it is attained by the returned u.
// Because this LP is highly degenerate, on which gonum's simplex can cycle,
// it is solved through a perturb-then-re-solve wrapper around lp.Simplex
// (see simplexRobust); an error is also returned if the result violates
// Kᵀu = g by more than 1e-9 relative.
func DualNormLPWitness(K *mat.Dense, g []float64) (value float64, u []float64, err error) {
	m, n := K.Dims()
	scale := checkedInfNorm(g, n, "DualNormLP")
	u = make([]float64, m)
	if scale == 0 {
		return 0, u, nil
	}
	nv := 3*m + 1
	a := mat.NewDense(n+m, nv, nil)
	b := make([]float64, n+m)
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			kij := K.At(i, j)
			a.Set(j, i, kij)
			a.Set(j, m+i, -kij)
		}
		b[j] = g[j] / scale
	}
	for i := 0; i < m; i++ {
		a.Set(n+i, i, 1)
		a.Set(n+i, m+i, 1)
		a.Set(n+i, 2*m+i, 1)
		a.Set(n+i, 3*m, -1)
	}
	c := make([]float64, nv)
	c[3*m] = 1
	z, err := simplexRobust(c, a, b)
	if err != nil {
		return math.NaN(), nil, fmt.Errorf("reference: DualNormLP: %w", err)
	}
	for i := range u {
		u[i] = (z[i] - z[m+i]) * scale
		value = math.Max(value, math.Abs(u[i]))
	}
	// Guard against a silently wrong simplex answer: Kᵀu must reproduce g.
	for j := 0; j < n; j++ {
		var s, mag float64
		for i := 0; i < m; i++ {
			s += K.At(i, j) * u[i]
			mag += math.Abs(K.At(i, j) * u[i])
		}
		if math.Abs(s-g[j]) > 1e-9*(mag+scale) {
			return math.NaN(), nil, fmt.Errorf("reference: DualNormLP: simplex solution violates Kᵀu = g by %g", s-g[j])
		}
	}
	return value, u, nil
}

// DualNormSupLP solves the left-hand (maximisation) side of the dual norm,
// max{gᵀx : ‖Kx‖₁ ≤ 1}, with gonum's simplex method and returns a maximiser
// x together with value = gᵀx/‖Kx‖₁, which is a lower bound on h*(g) attained
// by x (for g = 0 it returns 0 and x = 0). Together with DualNormLPWitness
// this brackets the dual norm from both sides.
//
// The standard-form LP has the 2n+2m+1 variables (x⁺, x⁻, p, q, r), with
// x = x⁺ − x⁻ and Kx = p − q, the m+1 equality constraints
//
//	Kx⁺ − Kx⁻ − p + q     = 0
//	1ᵀp + 1ᵀq + r         = 1   (r is the slack of ‖Kx‖₁ ≤ 1),
//
// and the objective −gᵀx⁺ + gᵀx⁻ (to be minimised), solved with lp.Simplex
// through the same degeneracy-safe wrapper as DualNormLPWitness. If K is
// rank deficient the LP may be unbounded and an error is returned. It panics
// if len(g) differs from the number of columns of K or g has a non-finite
// entry.
func DualNormSupLP(K *mat.Dense, g []float64) (value float64, x []float64, err error) {
	m, n := K.Dims()
	scale := checkedInfNorm(g, n, "DualNormSupLP")
	x = make([]float64, n)
	if scale == 0 {
		return 0, x, nil
	}
	nv := 2*n + 2*m + 1
	a := mat.NewDense(m+1, nv, nil)
	b := make([]float64, m+1)
	b[m] = 1
	c := make([]float64, nv)
	for j := 0; j < n; j++ {
		c[j] = -g[j] / scale
		c[n+j] = g[j] / scale
		for i := 0; i < m; i++ {
			kij := K.At(i, j)
			a.Set(i, j, kij)
			a.Set(i, n+j, -kij)
		}
	}
	for i := 0; i < m; i++ {
		a.Set(i, 2*n+i, -1)
		a.Set(i, 2*n+m+i, 1)
		a.Set(m, 2*n+i, 1)
		a.Set(m, 2*n+m+i, 1)
	}
	a.Set(m, 2*n+2*m, 1)
	z, err := simplexRobust(c, a, b)
	if err != nil {
		return math.NaN(), nil, fmt.Errorf("reference: DualNormSupLP: %w", err)
	}
	for j := range x {
		x[j] = z[j] - z[n+j]
	}
	var kx1, gx float64
	for i := 0; i < m; i++ {
		var r float64
		for j := 0; j < n; j++ {
			r += K.At(i, j) * x[j]
		}
		kx1 += math.Abs(r)
	}
	for j := range x {
		gx += g[j] * x[j]
	}
	if !(kx1 > 0) {
		return math.NaN(), nil, fmt.Errorf("reference: DualNormSupLP: simplex returned x with ‖Kx‖₁ = %g", kx1)
	}
	return gx / kx1, x, nil
}

// simplexRobust solves the standard-form LP min cᵀz subject to Az = b, z ≥ 0
// with lp.Simplex. gonum's simplex has no iteration limit and can cycle (or
// stop on a near-singular basis) on degenerate problems, and the LPs of this
// file are highly degenerate: many right-hand sides are zero. So the LP is
// first solved with every b_i increased by a small pseudo-random amount,
// which generically makes every basic solution nondegenerate; the support of
// that solution is then an optimal basis. Reduced costs do not depend on b,
// so that basis is still optimal for the unperturbed b, and it is feasible
// there too if the perturbation was small enough; it is handed back to
// lp.Simplex as initialBasic with the original b, and gonum checks
// feasibility and optimality itself (it panics on an infeasible initial
// basis, which is recovered and treated as a failed attempt). A few
// perturbation sizes are tried, deterministically, before giving up.
func simplexRobust(c []float64, a *mat.Dense, b []float64) ([]float64, error) {
	rows, _ := a.Dims()
	rng := rand.New(rand.NewPCG(0x5eed, 0xc0ffee))
	bp := make([]float64, rows)
	var lastErr error
	for _, eps := range []float64{1e-7, 1e-9, 1e-5, 1e-8, 1e-6, 1e-10} {
		for i := range b {
			bp[i] = b[i] + eps*(1+rng.Float64())
		}
		_, zp, err := lp.Simplex(c, a, bp, simplexTol, nil)
		if errors.Is(err, lp.ErrInfeasible) || errors.Is(err, lp.ErrUnbounded) {
			// Small perturbations of b cannot change either verdict here.
			return nil, err
		}
		if err != nil {
			lastErr = err
			continue
		}
		var basis []int
		for j, zj := range zp {
			if zj != 0 {
				basis = append(basis, j)
			}
		}
		if len(basis) != rows {
			lastErr = fmt.Errorf("perturbed LP still degenerate (%d basic values nonzero, %d rows)", len(basis), rows)
			continue
		}
		z, err := simplexFromBasis(c, a, b, basis)
		if err != nil {
			lastErr = err
			continue
		}
		return z, nil
	}
	return nil, lastErr
}

// simplexFromBasis calls lp.Simplex with initialBasic set, turning its panic
// on an infeasible or singular initial basis into an error.
func simplexFromBasis(c []float64, a *mat.Dense, b []float64, basis []int) (z []float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			z, err = nil, fmt.Errorf("lp.Simplex rejected the basis found with perturbed b: %v", r)
		}
	}()
	_, z, err = lp.Simplex(c, a, b, simplexTol, basis)
	return z, err
}

// checkedInfNorm checks len(g) == n and finiteness, and returns ‖g‖_∞.
func checkedInfNorm(g []float64, n int, who string) float64 {
	if len(g) != n {
		panic(fmt.Sprintf("reference: %s: len(g) = %d, K has %d columns", who, len(g), n))
	}
	var s float64
	for _, gj := range g {
		if math.IsNaN(gj) || math.IsInf(gj, 0) {
			panic(fmt.Sprintf("reference: %s: g has a non-finite entry", who))
		}
		s = math.Max(s, math.Abs(gj))
	}
	return s
}
