package penalty

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// General is the penalty h(Θ) = ‖GΘ‖₁ + ν‖Π_GΘ‖₁ for an arbitrary m×p matrix
// G, with Π_G = I − G⁺G the projector onto ker G, applied to each column. It
// equals ‖KΘ‖₁ for the stacked matrix K = [G; νΠ_G], which has full column
// rank, so h is a norm.
//
// Its proximal operator has no closed form: Prox solves the dual problem
// min_{‖u‖∞ ≤ τ} ½‖v − Kᵀu‖² per column by accelerated projected gradient
// with adaptive restart, and stops when the prox's primal–dual gap is at most
// Tol·max(primal value, ½‖v‖²), v the column: relative, so that the
// accuracy does not depend on the scale of Θ. Build it with NewGeneral.
type General struct {
	// Tol is the relative duality-gap tolerance of the inner prox solver.
	// If zero, 1e-12 is used.
	Tol float64
	// MaxIter bounds the inner iterations per column. If zero, 100000 is
	// used.
	MaxIter int

	g    *mat.Dense
	nu   float64
	pi   *mat.SymDense
	gram *mat.SymDense // KᵀK = GᵀG + ν²Π
	lip  float64       // ‖K‖₂²

	once sync.Once
	k    *mat.Dense
}

var (
	_ Penalty         = (*General)(nil)
	_ KernelProjector = (*General)(nil)
)

// NewGeneral returns the penalty for the m×p matrix g and ν > 0. A nil g
// means G = 0 with p columns taken from p; otherwise p must equal g's column
// count.
func NewGeneral(g *mat.Dense, p int, nu float64) (*General, error) {
	if nu <= 0 || math.IsNaN(nu) || math.IsInf(nu, 0) {
		return nil, fmt.Errorf("penalty: ν must be positive and finite, got %v", nu)
	}
	if g != nil {
		if _, c := g.Dims(); c != p {
			return nil, fmt.Errorf("penalty: G has %d columns, want %d", c, p)
		}
		if !allFinite(g) {
			return nil, errors.New("penalty: G has a non-finite entry")
		}
	}
	gram := mat.NewSymDense(p, nil)
	if g != nil {
		gram.SymOuterK(1, g.T())
	}
	pi, lip := kernelFromGram(gram)
	if mat.Trace(pi) > 0.5 {
		lip = math.Max(lip, nu*nu)
	}
	gram.AddSym(gram, scaledSym(nu*nu, pi))
	return &General{g: g, nu: nu, pi: pi, gram: gram, lip: lip}, nil
}

// Nu returns ν.
func (h *General) Nu() float64 { return h.nu }

// Stacked returns the explicit (m+p)×p matrix K = [G; νΠ_G], so that
// h(Θ) = ‖KΘ‖₁. ADMM splits on it.
func (h *General) Stacked() *mat.Dense {
	_, p := h.pi.Dims()
	m := 0
	if h.g != nil {
		m, _ = h.g.Dims()
	}
	k := mat.NewDense(m+p, p, nil)
	if m > 0 {
		k.Slice(0, m, 0, p).(*mat.Dense).Copy(h.g)
	}
	k.Slice(m, m+p, 0, p).(*mat.Dense).Scale(h.nu, h.pi)
	return k
}

// StackedGram returns KᵀK = GᵀG + ν²Π_G. The caller must not modify it.
func (h *General) StackedGram() *mat.SymDense { return h.gram }

// ProjectKernel writes Π_G Θ into dst.
func (h *General) ProjectKernel(dst *mat.Dense, theta mat.Matrix) {
	r, c := theta.Dims()
	sizeLike(dst, r, c)
	dst.Mul(h.pi, theta)
}

// Value returns ‖GΘ‖₁ + ν‖Π_GΘ‖₁ (entrywise ℓ1 norms).
func (h *General) Value(theta mat.Matrix) float64 {
	var s float64
	if h.g != nil {
		var gt mat.Dense
		gt.Mul(h.g, theta)
		s = l1(&gt)
	}
	var pt mat.Dense
	h.ProjectKernel(&pt, theta)
	return s + h.nu*l1(&pt)
}

// Prox writes prox_{τh}(Θ) into dst, to the tolerance Tol.
func (h *General) Prox(dst *mat.Dense, theta mat.Matrix, tau float64) {
	h.ProxGap(dst, theta, tau)
}

// ProxGap is Prox that also returns the largest relative duality gap of the
// inner problem over the columns: a certificate of the prox's accuracy.
func (h *General) ProxGap(dst *mat.Dense, theta mat.Matrix, tau float64) float64 {
	if tau < 0 || math.IsNaN(tau) {
		panic("penalty: negative or NaN prox step")
	}
	p, q := theta.Dims()
	sizeLike(dst, p, q)
	var worst float64
	v := make([]float64, p)
	for j := 0; j < q; j++ {
		mat.Col(v, j, theta)
		x, gap := h.proxCol(v, tau)
		dst.SetCol(j, x)
		worst = math.Max(worst, gap)
	}
	return worst
}

// proxCol runs accelerated projected gradient on the dual of one column's
// prox, u ∈ [−τ, τ]^(m+p), x = v − Kᵀu, and returns x with its relative gap
// ½‖Kᵀu‖² + τ‖Kx‖₁ − ½‖v‖² + ½‖x‖² over max(primal value, ½‖v‖²).
func (h *General) proxCol(v []float64, tau float64) ([]float64, float64) {
	x := append([]float64(nil), v...)
	if tau == 0 || h.lip == 0 {
		return x, 0
	}
	tol := h.Tol
	if tol == 0 {
		tol = 1e-12
	}
	maxIter := h.MaxIter
	if maxIter == 0 {
		maxIter = 100000
	}
	K := h.stackedCache()
	kk, _ := K.Dims()
	u := mat.NewVecDense(kk, nil)
	uOld := mat.NewVecDense(kk, nil)
	y := mat.NewVecDense(kk, nil)
	vv := mat.NewVecDense(len(v), v)
	xv := mat.NewVecDense(len(v), x)
	kx := mat.NewVecDense(kk, nil)
	ktu := mat.NewVecDense(len(v), nil)
	t := 1.0
	gap := math.Inf(1)
	for it := 0; it < maxIter; it++ {
		// x at the extrapolated point y, gradient step, box projection.
		ktu.MulVec(K.T(), y)
		xv.SubVec(vv, ktu)
		kx.MulVec(K, xv)
		uOld.CopyVec(u)
		for i := 0; i < kk; i++ {
			u.SetVec(i, math.Max(-tau, math.Min(tau, y.AtVec(i)+kx.AtVec(i)/h.lip)))
		}
		tNew := (1 + math.Sqrt(1+4*t*t)) / 2
		beta := (t - 1) / tNew
		// Adaptive restart when the step opposes the momentum.
		if restart(u, uOld, y) {
			beta, tNew = 0, 1
		}
		for i := 0; i < kk; i++ {
			y.SetVec(i, u.AtVec(i)+beta*(u.AtVec(i)-uOld.AtVec(i)))
		}
		t = tNew
		if it%10 == 0 || it == maxIter-1 {
			ktu.MulVec(K.T(), u)
			xv.SubVec(vv, ktu)
			kx.MulVec(K, xv)
			primal := 0.5*mat.Dot(ktu, ktu) + tau*vecL1(kx)
			vv2 := 0.5 * mat.Dot(vv, vv)
			gap = primal - vv2 + 0.5*mat.Dot(xv, xv)
			if gap != 0 { // relative to the terms it is a difference of
				gap /= math.Max(primal, vv2)
			}
			if gap <= tol {
				break
			}
		}
	}
	return x, math.Max(gap, 0)
}

// stackedCache returns K, built once.
func (h *General) stackedCache() *mat.Dense {
	h.once.Do(func() { h.k = h.Stacked() })
	return h.k
}

// restart reports whether ⟨y − u, u − uOld⟩ > 0 (O'Donoghue and Candès's
// gradient restart test).
func restart(u, uOld, y *mat.VecDense) bool {
	var s float64
	for i := 0; i < u.Len(); i++ {
		s += (y.AtVec(i) - u.AtVec(i)) * (u.AtVec(i) - uOld.AtVec(i))
	}
	return s > 0
}

func l1(m *mat.Dense) float64 {
	r, c := m.Dims()
	var s float64
	for i := 0; i < r; i++ {
		for _, x := range m.RawRowView(i)[:c] {
			s += math.Abs(x)
		}
	}
	return s
}

func vecL1(v *mat.VecDense) float64 {
	var s float64
	for i := 0; i < v.Len(); i++ {
		s += math.Abs(v.AtVec(i))
	}
	return s
}

func scaledSym(a float64, s *mat.SymDense) *mat.SymDense {
	n := s.SymmetricDim()
	out := mat.NewSymDense(n, nil)
	out.ScaleSym(a, s)
	return out
}

func allFinite(m *mat.Dense) bool {
	r, c := m.Dims()
	for i := 0; i < r; i++ {
		for _, x := range m.RawRowView(i)[:c] {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return false
			}
		}
	}
	return true
}
