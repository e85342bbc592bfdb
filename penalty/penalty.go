package penalty

import (
	"fmt"
	"math"

	"github.com/cardsparse/cardreg/internal/densemat"
	"gonum.org/v1/gonum/mat"
)

// Penalty is a convex penalty h acting on a p×q parameter matrix. It is all a
// proximal solver needs of a penalty.
type Penalty interface {
	// Value returns h(Θ).
	Value(theta mat.Matrix) float64

	// Prox writes prox_{τh}(Θ) = argmin_X ½‖X − Θ‖²_F + τ·h(X) into dst,
	// which is sized automatically when empty. dst and theta may be the same
	// matrix. Prox panics if τ < 0 or if dst has the wrong size.
	Prox(dst *mat.Dense, theta mat.Matrix, tau float64)
}

// DualNormer is implemented by penalties that are norms with a dual norm
// h*(g) = sup{⟨g, x⟩ : h(x) ≤ 1} known in closed form.
type DualNormer interface {
	// DualNorm returns h*(g) for a matrix g of the penalty's shape.
	DualNorm(g mat.Matrix) float64
}

// KernelProjector is implemented by penalties of the form ‖GΘ‖₁ + ν‖Π_GΘ‖₁
// that can apply the orthogonal projector Π_G onto ker G to each column.
type KernelProjector interface {
	// ProjectKernel writes Π_G Θ into dst (sized automatically when empty).
	ProjectKernel(dst *mat.Dense, theta mat.Matrix)
}

// DualNorm returns h*(g) and true when p knows its dual norm in closed
// form, and 0 and false otherwise.
func DualNorm(p Penalty, g mat.Matrix) (float64, bool) {
	d, ok := p.(DualNormer)
	if !ok {
		return 0, false
	}
	return d.DualNorm(g), true
}

// columnwise is the shape shared by the penalties whose value and prox are
// sums and products over columns. q is the number of columns of the whole
// matrix, which the grouped weights √P_k depend on.
type columnwise interface {
	colValue(v []float64, q int) float64
	colProx(v []float64, tau float64, q int, w *workspace)
}

// columnDual is columnwise with a dual norm per column; the dual norm of a
// sum of column norms is the maximum over columns.
type columnDual interface {
	colDual(g []float64, q int, w *workspace) float64
}

func valueCols(c columnwise, theta mat.Matrix) float64 {
	p, q := theta.Dims()
	v := make([]float64, p)
	var s float64
	for j := 0; j < q; j++ {
		mat.Col(v, j, theta)
		s += c.colValue(v, q)
	}
	return s
}

func proxCols(c columnwise, dst *mat.Dense, theta mat.Matrix, tau float64) {
	if tau < 0 || math.IsNaN(tau) {
		panic("penalty: negative or NaN prox step")
	}
	p, q := theta.Dims()
	sizeLike(dst, p, q)
	w := getWorkspace(p)
	defer putWorkspace(w)
	v := w.col[:p]
	for j := 0; j < q; j++ {
		mat.Col(v, j, theta)
		c.colProx(v, tau, q, w)
		dst.SetCol(j, v)
	}
}

func dualCols(c columnDual, g mat.Matrix) float64 {
	p, q := g.Dims()
	w := getWorkspace(p)
	defer putWorkspace(w)
	v := w.col[:p]
	var m float64
	for j := 0; j < q; j++ {
		mat.Col(v, j, g)
		m = math.Max(m, c.colDual(v, q, w))
	}
	return m
}

// sizeLike sizes an empty dst to r×c and panics on a size mismatch: the
// designs' products' rule (densemat.Size), under the name the penalties'
// Prox and ProjectKernel call.
func sizeLike(dst *mat.Dense, r, c int) { densemat.Size(dst, r, c) }

// SoftThreshold returns sign(x)·max(|x| − a, 0), the prox of a|·| at x.
func SoftThreshold(x, a float64) float64 {
	switch {
	case x > a:
		return x - a
	case x < -a:
		return x + a
	}
	return 0
}

func sum(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s
}

// EffectiveNu is the one home of the library's default: a zero ν means
// ν = 1 (the lasso's L1{}, the plain Cardinality{}). It panics on a
// negative or NaN ν, which Validate refuses first.
func EffectiveNu(nu float64) float64 {
	if nu < 0 || math.IsNaN(nu) {
		panic("penalty: negative or NaN ν")
	}
	if nu == 0 {
		return 1
	}
	return nu
}

func nuOrOne(nu float64) float64 { return EffectiveNu(nu) }

// Validator is implemented by penalties whose parameters can be out of
// range.
type Validator interface {
	// Validate returns an error saying which parameter is out of range.
	Validate() error
}

// Validate returns p's Validate error, or nil when p has nothing to
// check. Solvers call it before any work, so that a bad parameter is an
// error, never a panic or a meaningless "converged".
func Validate(p Penalty) error {
	if v, ok := p.(Validator); ok {
		return v.Validate()
	}
	return nil
}

// checkNu refuses a ν that is negative, NaN or infinite (zero means 1).
func checkNu(name string, nu float64) error {
	if nu < 0 || math.IsNaN(nu) || math.IsInf(nu, 0) {
		return fmt.Errorf("penalty: %s ν = %v must be finite and ≥ 0 (0 means 1)", name, nu)
	}
	return nil
}

// Conjugator is implemented by penalties that are not norms but know
// their convex conjugate h*(U) = sup_Θ ⟨U, Θ⟩ − h(Θ) in closed form: the
// duality gap of f + λh then uses the dual objective
// −f*(−θ) − λh*(Xᵀθ/λ) at any dual point θ, instead of scaling θ into a
// dual-norm ball (solver's certificate).
type Conjugator interface {
	// Conjugate returns h*(U), +Inf outside its domain.
	Conjugate(u mat.Matrix) float64
	// ConjugateZero returns the smallest c with h*(U/c) = 0 (h* is zero on
	// a neighbourhood of the origin): the certificate also tries the dual
	// point scaled by 1/c, where the conjugate vanishes, as a norm's does.
	ConjugateZero(u mat.Matrix) float64
}

// CoordinateProxer is implemented by separable penalties
// h(Θ) = Σᵢⱼ hᵢ(Θᵢⱼ), one function per row, whose per-coordinate prox is
// known: coordinate descent (solver.IRLSCD, solver.GramCoordinateDescent)
// runs on any of them, the lasso being the case hᵢ = fᵢ|·|.
type CoordinateProxer interface {
	// Separable reports whether h is such a sum over the rows of a matrix
	// with p rows (false on a mismatch of sizes).
	Separable(p int) bool
	// CoordinateProx returns prox_{step·hᵢ}(x) = argmin_b ½(b − x)² +
	// step·hᵢ(b).
	CoordinateProx(i int, x, step float64) float64
	// CoordinateThreshold returns tᵢ with ∂hᵢ(0) = [−tᵢ, tᵢ]: a coordinate
	// stays at zero when its gradient is at most λtᵢ.
	CoordinateThreshold(i int) float64
}

// LambdaMaxer is implemented by penalties that are not norms but define
// the top of a generated λ grid from the loss's gradient g at zero (for a
// norm it is the dual norm of g).
type LambdaMaxer interface {
	// LambdaMax returns the top of the grid.
	LambdaMax(g mat.Matrix) float64
}

// ZeroLambdaer is implemented by penalties that are not norms but know the
// smallest λ at which zero is optimal, from the loss's gradient g there.
type ZeroLambdaer interface {
	// ZeroLambda returns that λ (+Inf when no λ makes zero optimal).
	ZeroLambda(g mat.Matrix) float64
}

// ZeroLambda returns the smallest λ at which Θ = 0 minimises f + λh for a
// loss whose gradient at zero is g (the dual norm h*(g) for a norm), and
// false when p knows none.
func ZeroLambda(p Penalty, g mat.Matrix) (float64, bool) {
	if z, ok := p.(ZeroLambdaer); ok {
		return z.ZeroLambda(g), true
	}
	return DualNorm(p, g)
}

// GridTop returns the top of a generated λ grid for a loss whose gradient
// at zero is g: LambdaMax for a penalty that defines it, else the dual
// norm; false when p knows neither.
func GridTop(p Penalty, g mat.Matrix) (float64, bool) {
	if l, ok := p.(LambdaMaxer); ok {
		return l.LambdaMax(g), true
	}
	return DualNorm(p, g)
}

// SupportClusters returns the clusters a relaxed refit frees in column v
// of a matrix with q columns (coordinates in none stay at zero): the
// piece's clusters of a piecewise-linear penalty, one cluster per nonzero
// of a separable one; false for any other penalty.
func SupportClusters(p Penalty, v []float64, q int) ([][]int, bool) {
	if pw, ok := p.(Piecewise); ok {
		return pw.Piece(v, q).Clusters, true
	}
	if c, ok := p.(CoordinateProxer); ok && c.Separable(len(v)) {
		var out [][]int
		for i, x := range v {
			if x != 0 {
				out = append(out, []int{i})
			}
		}
		return out, true
	}
	return nil, false
}
