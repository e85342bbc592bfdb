package tensorreg

import (
	"fmt"

	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// fiberPenalty applies a penalty to the mode-k fibers of the coefficient
// tensor B instead of to the columns of its P×Q unfolding: Θ is folded into
// B, unfolded along mode k, penalised column by column and folded back.
// Permuting entries preserves the Frobenius geometry, so the prox and the
// dual norm carry over unchanged.
type fiberPenalty struct {
	inner penalty.Penalty
	shape []int // B's shape, P₁…P_L Q₁…Q_M
	lead  int   // L, the number of predictor modes
	mode  int
}

func (f fiberPenalty) unfold(theta mat.Matrix) *mat.Dense {
	d := mat.DenseCopyOf(theta)
	return Unfold(NewTensor(f.shape, d.RawMatrix().Data), f.mode)
}

func (f fiberPenalty) fold(dst *mat.Dense, u *mat.Dense) {
	t := Fold(u, f.mode, f.shape)
	m := t.Matrix(f.lead)
	if dst.IsEmpty() {
		r, c := m.Dims()
		dst.ReuseAs(r, c)
	}
	dst.Copy(m)
}

func (f fiberPenalty) Value(theta mat.Matrix) float64 { return f.inner.Value(f.unfold(theta)) }

func (f fiberPenalty) Prox(dst *mat.Dense, theta mat.Matrix, tau float64) {
	u := f.unfold(theta)
	f.inner.Prox(u, u, tau)
	f.fold(dst, u)
}

// DualNorm is only reachable through the fiberDual wrapper.
func (f fiberPenalty) dual(g mat.Matrix) float64 {
	return f.inner.(penalty.DualNormer).DualNorm(f.unfold(g))
}

type fiberDual struct{ fiberPenalty }

func (f fiberDual) DualNorm(g mat.Matrix) float64 { return f.dual(g) }

// OnMode returns pen applied to the mode-k fibers (k counts from 1) of a
// coefficient tensor of the given shape P₁×…×P_L×Q₁×…×Q_M seen as its
// (P₁⋯P_L)×(Q₁⋯Q_M) unfolding, with lead = L. Mode 0 returns pen itself,
// acting on the columns of that unfolding. The result has a dual norm when
// pen does.
func OnMode(pen penalty.Penalty, shape []int, lead, k int) (penalty.Penalty, error) {
	if k == 0 {
		return pen, nil
	}
	if k < 0 || k > len(shape) {
		return nil, fmt.Errorf("tensorreg: mode %d outside 1…%d", k, len(shape))
	}
	f := fiberPenalty{inner: pen, shape: append([]int(nil), shape...), lead: lead, mode: k - 1}
	if _, ok := pen.(penalty.DualNormer); ok {
		return fiberDual{f}, nil
	}
	return f, nil
}
