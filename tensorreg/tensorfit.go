package tensorreg

import (
	"fmt"

	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// TensorOptions configure a tensor fit.
type TensorOptions struct {
	estimator.Options
	// Mode selects the fibers of B the penalty acts on: 0 (the default)
	// penalises each column of the (P₁⋯P_L)×(Q₁⋯Q_M) unfolding, i.e. across
	// all predictors for each response entry; k ≥ 1 penalises the mode-k
	// fibers of B (modes 1…L are predictor modes, L+1…L+M response modes).
	Mode int
}

// TensorModel is a fitted tensor regression.
type TensorModel struct {
	*estimator.Model
	// B is the coefficient tensor, of shape P₁×…×P_L×Q₁×…×Q_M.
	B *Tensor
}

// FitTensor fits Y = ⟨X, B⟩_L + intercept + U for X of shape N×P₁×…×P_L
// and Y of shape N×Q₁×…×Q_M, minimising ‖Y − ⟨X, B⟩_L − intercept‖²_F +
// λ·h(B). The contracted product is the matrix product of the unfoldings
// X(N×P)·B(P×Q), so the fit is the multi-response fit of the vectorised
// problem, with the penalty placed on the fibers chosen by Mode.
func FitTensor(x, y *Tensor, pen penalty.Penalty, lambda float64, opts *TensorOptions) (*TensorModel, error) {
	if x == nil || y == nil || len(x.Shape) < 2 || len(y.Shape) < 1 {
		return nil, fmt.Errorf("tensorreg: X needs order ≥ 2 (N×P…) and Y order ≥ 1 (N…)")
	}
	if x.Shape[0] != y.Shape[0] {
		return nil, fmt.Errorf("tensorreg: X has %d observations and Y has %d", x.Shape[0], y.Shape[0])
	}
	var to TensorOptions
	if opts != nil {
		to = *opts
	}
	lead := len(x.Shape) - 1
	shape := append(append([]int(nil), x.Shape[1:]...), y.Shape[1:]...)
	if len(y.Shape) == 1 {
		shape = append(shape, 1)
	}
	hp, err := OnMode(pen, shape, lead, to.Mode)
	if err != nil {
		return nil, err
	}
	m, err := estimator.Fit(&estimator.Rows{X: solver.DenseDesign{X: x.Matrix(1)}, Y: y.Matrix(1)}, hp, lambda, &to.Options)
	if err != nil {
		return nil, err
	}
	b := NewTensor(shape, rowMajor(m.Coef))
	return &TensorModel{Model: m, B: b}, nil
}

// rowMajor returns a copy of the entries of m in row-major order.
func rowMajor(m *mat.Dense) []float64 {
	r, c := m.Dims()
	out := make([]float64, 0, r*c)
	for i := range r {
		out = append(out, m.RawRowView(i)[:c]...)
	}
	return out
}
