package tensorreg

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Tensor is a dense real array of any order, stored in row-major order: the
// last index varies fastest.
type Tensor struct {
	// Shape holds the dimensions, outermost first.
	Shape []int
	// Data holds the entries in row-major order.
	Data []float64
}

// NewTensor returns a tensor of the given shape backed by data, or by new
// zeroed storage when data is nil. It panics if len(data) does not match the
// shape or a dimension is not positive.
func NewTensor(shape []int, data []float64) *Tensor {
	n := size(shape)
	if data == nil {
		data = make([]float64, n)
	}
	if len(data) != n {
		panic(fmt.Sprintf("tensorreg: %d values for shape %v", len(data), shape))
	}
	return &Tensor{Shape: append([]int(nil), shape...), Data: data}
}

func size(shape []int) int {
	n := 1
	for _, d := range shape {
		if d <= 0 {
			panic(fmt.Sprintf("tensorreg: non-positive dimension in shape %v", shape))
		}
		n *= d
	}
	return n
}

// offset returns the position of idx in Data.
func (t *Tensor) offset(idx []int) int {
	if len(idx) != len(t.Shape) {
		panic("tensorreg: wrong number of indices")
	}
	o := 0
	for k, i := range idx {
		if i < 0 || i >= t.Shape[k] {
			panic("tensorreg: index out of range")
		}
		o = o*t.Shape[k] + i
	}
	return o
}

// At returns the entry at idx.
func (t *Tensor) At(idx ...int) float64 { return t.Data[t.offset(idx)] }

// Set sets the entry at idx.
func (t *Tensor) Set(v float64, idx ...int) { t.Data[t.offset(idx)] = v }

// Matrix returns the tensor seen as a matrix whose rows enumerate the first
// lead modes and whose columns enumerate the rest, both in row-major order.
// It shares the tensor's storage. For X of shape N×P₁×…×P_L, Matrix(1) is
// the N×(P₁⋯P_L) design of the vectorised problem.
func (t *Tensor) Matrix(lead int) *mat.Dense {
	r := size(t.Shape[:lead])
	return mat.NewDense(r, len(t.Data)/r, t.Data)
}

// Unfold returns the mode-n unfolding T_(n) (n counts from 0): row i holds
// the entries with index i in mode n, and the columns enumerate the other
// indices in row-major order. Its columns are the mode-n fibers.
func Unfold(t *Tensor, n int) *mat.Dense {
	before := size(t.Shape[:n])
	dim := t.Shape[n]
	after := len(t.Data) / (before * dim)
	out := mat.NewDense(dim, before*after, nil)
	for b := 0; b < before; b++ {
		for i := 0; i < dim; i++ {
			row := t.Data[(b*dim+i)*after : (b*dim+i+1)*after]
			for a, v := range row {
				out.Set(i, b*after+a, v)
			}
		}
	}
	return out
}

// Fold is the inverse of Unfold: it returns the tensor of the given shape
// whose mode-n unfolding is m.
func Fold(m *mat.Dense, n int, shape []int) *Tensor {
	t := NewTensor(shape, nil)
	before := size(shape[:n])
	dim := shape[n]
	after := len(t.Data) / (before * dim)
	if r, c := m.Dims(); r != dim || c != before*after {
		panic(mat.ErrShape)
	}
	for b := 0; b < before; b++ {
		for i := 0; i < dim; i++ {
			row := t.Data[(b*dim+i)*after : (b*dim+i+1)*after]
			for a := range row {
				row[a] = m.At(i, b*after+a)
			}
		}
	}
	return t
}

// ModeProduct returns the mode-n product T ×_n M for an J×I_n matrix M: the
// tensor whose mode-n unfolding is M·T_(n).
func ModeProduct(t *Tensor, m *mat.Dense, n int) *Tensor {
	var prod mat.Dense
	prod.Mul(m, Unfold(t, n))
	shape := append([]int(nil), t.Shape...)
	shape[n], _ = m.Dims()
	return Fold(&prod, n, shape)
}

// Contract returns the contracted product ⟨X, B⟩_L: the sum over the last L
// modes of x against the first L modes of b, which must match. For X of
// shape N×P₁×…×P_L and B of shape P₁×…×P_L×Q₁×…×Q_M it has shape
// N×Q₁×…×Q_M.
func Contract(x, b *Tensor, l int) *Tensor {
	lead := len(x.Shape) - l
	for k := 0; k < l; k++ {
		if x.Shape[lead+k] != b.Shape[k] {
			panic(fmt.Sprintf("tensorreg: cannot contract shapes %v and %v over %d modes", x.Shape, b.Shape, l))
		}
	}
	var prod mat.Dense
	prod.Mul(x.Matrix(lead), b.Matrix(l))
	shape := append(append([]int(nil), x.Shape[:lead]...), b.Shape[l:]...)
	if len(shape) == 0 {
		shape = []int{1}
	}
	return NewTensor(shape, prod.RawMatrix().Data)
}
