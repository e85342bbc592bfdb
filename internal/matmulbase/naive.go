package matmulbase

import "gonum.org/v1/gonum/mat"

// view is a row-major window into a float64 slice with a row stride.
type view struct {
	data               []float64
	rows, cols, stride int
}

// rawView returns a view of the backing data of m.
func rawView(m *mat.Dense) view {
	r := m.RawMatrix()
	return view{data: r.Data, rows: r.Rows, cols: r.Cols, stride: r.Stride}
}

// newView returns a zeroed contiguous view with the given shape.
func newView(rows, cols int) view {
	return view{data: make([]float64, rows*cols), rows: rows, cols: cols, stride: cols}
}

// row returns row i of v.
func (v view) row(i int) []float64 {
	return v.data[i*v.stride : i*v.stride+v.cols]
}

// topLeft returns the leading rows×cols block of v.
func (v view) topLeft(rows, cols int) view {
	return view{data: v.data, rows: rows, cols: cols, stride: v.stride}
}

// product checks that a·b is defined and returns a zeroed result for it.
// It panics with mat.ErrShape if the inner dimensions differ.
func product(a, b *mat.Dense) *mat.Dense {
	m, n := a.Dims()
	bn, p := b.Dims()
	if n != bn {
		panic(mat.ErrShape)
	}
	return mat.NewDense(m, p, nil)
}

// Naive returns the product a·b computed with the textbook triple loop in
// i, j, k order, accumulating each output entry as a running sum of
// a[i,k]·b[k,j] over k. It panics with mat.ErrShape if the number of columns
// of a differs from the number of rows of b, and, like mat.NewDense, with
// mat.ErrZeroLength if the result would be empty.
func Naive(a, b *mat.Dense) *mat.Dense {
	c := product(a, b)
	naiveIJK(rawView(c), rawView(a), rawView(b))
	return c
}

// naiveIJK sets c = a·b with the loop order i, j, k.
func naiveIJK(c, a, b view) {
	for i := 0; i < c.rows; i++ {
		ai, ci := a.row(i), c.row(i)
		for j := range ci {
			var s float64
			for k, aik := range ai {
				s += aik * b.data[k*b.stride+j]
			}
			ci[j] = s
		}
	}
}

// naiveIKJ sets c = a·b with the loop order i, k, j, which walks rows of b
// and c contiguously in the innermost loop.
func naiveIKJ(c, a, b view) {
	for i := 0; i < c.rows; i++ {
		ci := c.row(i)
		clear(ci)
		for k, aik := range a.row(i) {
			bk := b.row(k)
			ci := ci[:len(bk)]
			for j, bkj := range bk {
				ci[j] += aik * bkj
			}
		}
	}
}
