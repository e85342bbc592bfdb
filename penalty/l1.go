package penalty

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// L1 is the lasso penalty h(Θ) = ν‖Θ‖₁, the case G = 0 of the family
// (ker G is everything and Π_G = I).
type L1 struct {
	// Nu is the weight ν > 0. If zero, 1 is used, which gives the lasso; a
	// negative or NaN ν makes every method panic.
	Nu float64
}

var (
	_ Penalty         = L1{}
	_ DualNormer      = L1{}
	_ KernelProjector = L1{}
	_ Piecewise       = L1{}
)

// Value returns ν‖Θ‖₁.
func (l L1) Value(theta mat.Matrix) float64 { return valueCols(l, theta) }

// Prox writes the soft-thresholding of Θ at τν into dst.
func (l L1) Prox(dst *mat.Dense, theta mat.Matrix, tau float64) { proxCols(l, dst, theta, tau) }

// DualNorm returns ‖g‖_∞/ν.
func (l L1) DualNorm(g mat.Matrix) float64 { return dualCols(l, g) }

// ProjectKernel copies Θ into dst: Π_G = I for G = 0.
func (l L1) ProjectKernel(dst *mat.Dense, theta mat.Matrix) {
	r, c := theta.Dims()
	sizeLike(dst, r, c)
	dst.Copy(theta)
}

func (l L1) colValue(v []float64, _ int) float64 {
	var s float64
	for _, x := range v {
		s += math.Abs(x)
	}
	return nuOrOne(l.Nu) * s
}

func (l L1) colProx(v []float64, tau float64, _ int, _ *workspace) {
	a := tau * nuOrOne(l.Nu)
	for i, x := range v {
		v[i] = SoftThreshold(x, a)
	}
}

func (l L1) colDual(g []float64, _ int, _ *workspace) float64 {
	var m float64
	for _, x := range g {
		m = math.Max(m, math.Abs(x))
	}
	return m / nuOrOne(l.Nu)
}

// Ridge is the ridge baseline h(Θ) = ‖Θ‖²_F. It is not a norm and has no
// dual norm; solvers that need one report so.
type Ridge struct{}

var _ Penalty = Ridge{}

// Value returns ‖Θ‖²_F.
func (Ridge) Value(theta mat.Matrix) float64 {
	n := mat.Norm(theta, 2)
	return n * n
}

// Prox writes Θ/(1 + 2τ) into dst.
func (Ridge) Prox(dst *mat.Dense, theta mat.Matrix, tau float64) {
	if tau < 0 || math.IsNaN(tau) {
		panic("penalty: negative or NaN prox step")
	}
	r, c := theta.Dims()
	sizeLike(dst, r, c)
	dst.Scale(1/(1+2*tau), theta)
}

// Validate refuses a negative, NaN or infinite ν.
func (h L1) Validate() error { return checkNu("lasso", h.Nu) }
