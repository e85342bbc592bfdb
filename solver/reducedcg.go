package solver

import (
	"math"

	"github.com/cardsparse/cardreg/internal/kernel"
	"gonum.org/v1/gonum/mat"
)

// denseReducedMax is the most clusters whose reduced normal equations
// Polish forms as a dense matrix and factorises: DᵀXᵀXD is nc×nc, and
// forming it from the rows costs n·nc² operations, so a factor with 10⁴
// levels (as many clusters early on a path) would take 800 MB and hours.
// Above it Polish solves by conjugate gradients, with O(n + p + nc) memory
// and two products with X per iteration. A variable so that tests can
// exercise both solves on small problems.
var denseReducedMax = 400

// denseReducedWork is the most operations n·nc² Polish spends forming the
// reduced normal equations from the rows (without a Gram form): 400
// clusters of a 10⁴-level factor on 1.6·10⁴ rows took 2.6·10⁹, about a
// second per polish, 60% of a cross-validation's time, where conjugate
// gradients take a few products with X.
const denseReducedWork = 2e8

// reducedCGTol is the relative residual at which the conjugate-gradient
// reduced solve stops, and reducedCGAccept the largest it accepts: a
// polished point is only kept if its own duality gap is small, so an
// inexact solve costs a wasted try, never a wrong answer.
const (
	reducedCGTol    = 1e-14
	reducedCGAccept = 1e-9
)

// reducedCG solves DᵀXᵀXD b = rhs (no constraints) by conjugate gradients
// with the Jacobi preconditioner diag(DᵀXᵀXD) (M. R. Hestenes and E.
// Stiefel, "Methods of conjugate gradients for solving linear systems",
// J. Res. NBS 49(6), 1952). For one-hot factor columns XᵀX is a diagonal
// plus a few rank-one terms (the centring, the numeric predictors), which
// the preconditioned iteration resolves in a few steps per rank. It
// reports false when the residual does not fall below reducedCGAccept of
// the right-hand side within the iteration cap.
func (ls *LeastSquares) reducedCG(clusters [][]int, rhs []float64) ([]float64, bool) {
	nc := len(clusters)
	diag := ls.reducedDiag(clusters)
	for c, d := range diag {
		if !(d > 0) {
			return nil, false // an all-zero cluster column: singular
		}
		diag[c] = 1 / d
	}
	b := make([]float64, nc)
	r := append([]float64(nil), rhs...)
	z := make([]float64, nc)
	for c := range z {
		z[c] = diag[c] * r[c]
	}
	dir := append([]float64(nil), z...)
	ad := make([]float64, nc)
	rz := kernel.Dot(r, z)
	norm0 := math.Sqrt(kernel.Dot(rhs, rhs))
	if norm0 == 0 {
		return b, true
	}
	op := ls.reducedOperator(clusters)
	res := 1.0
	for it := 0; it < min(nc, 1000)+10; it++ {
		op(ad, dir)
		dad := kernel.Dot(dir, ad)
		if !(dad > 0) {
			break
		}
		alpha := rz / dad
		kernel.Axpy(alpha, dir, b)
		kernel.Axpy(-alpha, ad, r)
		if res = math.Sqrt(kernel.Dot(r, r)) / norm0; res <= reducedCGTol {
			break
		}
		for c := range z {
			z[c] = diag[c] * r[c]
		}
		next := kernel.Dot(r, z)
		beta := next / rz
		rz = next
		for c := range dir {
			dir[c] = z[c] + beta*dir[c]
		}
	}
	return b, res <= reducedCGAccept
}

// reducedOperator returns the map b ↦ DᵀXᵀXD b, applied without forming
// DᵀXᵀXD: through the Gram matrix when the loss has formed one, else
// through two products with the design.
func (ls *LeastSquares) reducedOperator(clusters [][]int) func(dst, b []float64) {
	p, _ := ls.Dims()
	u := mat.NewDense(p, 1, nil)
	var xu, hu mat.Dense
	return func(dst, b []float64) {
		ud := u.RawMatrix().Data
		clear(ud)
		for c, cl := range clusters {
			for _, k := range cl {
				ud[k] = b[c]
			}
		}
		if ls.h != nil {
			ls.mulGram(&hu, u)
		} else {
			ls.x.Mul(&xu, u)
			ls.x.MulTrans(&hu, &xu)
		}
		for c, cl := range clusters {
			var s float64
			for _, k := range cl {
				s += hu.At(k, 0)
			}
			dst[c] = s
		}
	}
}

// reducedDiag returns the diagonal of DᵀXᵀXD, ‖X·1_c‖² for each cluster
// c: from the Gram matrix when formed, else from the rows or columns of a
// dense design in O(np) with O(nc) memory, or (any other design) 1 for
// every cluster, the identity preconditioner.
func (ls *LeastSquares) reducedDiag(clusters [][]int) []float64 {
	nc := len(clusters)
	diag := make([]float64, nc)
	switch d := ls.x.(type) {
	case DenseDesign:
		if ls.h == nil {
			// One pass over the rows: each row's cluster sums.
			n, _ := d.X.Dims()
			for i := 0; i < n; i++ {
				row := d.X.RawRowView(i)
				for c, cl := range clusters {
					var s float64
					for _, k := range cl {
						s += row[k]
					}
					diag[c] += s * s
				}
			}
			return diag
		}
	case ColumnDesign:
		if ls.h == nil {
			_, n := d.XT.Dims()
			sum := make([]float64, n)
			for c, cl := range clusters {
				clear(sum)
				for _, k := range cl {
					kernel.Axpy(1, d.XT.RawRowView(k), sum)
				}
				diag[c] = kernel.Dot(sum, sum)
			}
			return diag
		}
	}
	if ls.h == nil {
		for c := range diag {
			diag[c] = 1
		}
		return diag
	}
	for c, cl := range clusters {
		var s float64
		for _, k := range cl {
			row := ls.hd.RawRowView(k)
			for _, l := range cl {
				s += row[l]
			}
		}
		diag[c] = s
	}
	return diag
}
