package datafit

import (
	"math"

	"github.com/cardsparse/cardreg/design"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// dims returns the shape of d's predictors (X or Design).
func (d *Data) dims() (n, p int) {
	if d.Design != nil {
		return d.Design.Dims()
	}
	return d.X.Dims()
}

// penalisedColumns returns the columns cols of d's predictors as the loss
// holds them, and each one's largest magnitude (NaN or +Inf when it holds
// a value that is not finite): a Design's columns as they are (shared),
// a dense X's copied, those non-zero on at most solver.SparseMaxDensity of
// the rows held sparse (a factor's dummy columns: their products cost
// O(nnz)).
func (d *Data) penalisedColumns(cols []int) ([]design.Column, []float64) {
	out, top := make([]design.Column, len(cols)), make([]float64, len(cols))
	if d.Design != nil {
		for a, j := range cols {
			out[a] = d.Design.Col(j)
			top[a] = out[a].MaxAbs()
		}
		return out, top
	}
	vals, top := design.ColumnsOf(d.X, cols)
	for a, v := range vals {
		out[a] = design.SparseIfFew(v, solver.SparseMaxDensity)
	}
	return out, top
}

// freeColumns returns the listed columns of d's predictors (−1 is a column
// of ones) as a dense n×k matrix.
func (d *Data) freeColumns(cols []int) *mat.Dense {
	if d.Design == nil {
		return columns(d.X, cols)
	}
	n, _ := d.Design.Dims()
	out := mat.NewDense(n, len(cols), nil)
	v := make([]float64, n)
	for a, j := range cols {
		if j < 0 {
			for i := range v {
				v[i] = 1
			}
		} else {
			d.Design.Col(j).Values(v)
		}
		out.SetCol(a, v)
	}
	return out
}

// designRowCheck finds the first value of a Design that is not finite, in
// the rows' order, and returns its row and column (−1, −1: none).
func designRowCheck(m *design.Matrix) (int, int) {
	row, col := -1, -1
	for j, c := range m.Columns() {
		c.Each(func(i int, x float64) {
			if (math.IsNaN(x) || math.IsInf(x, 0)) && (row < 0 || i < row) {
				row, col = i, j
			}
		})
	}
	return row, col
}

// eachRow calls f with each row i < n of the columns cols as a scratch
// slice (valid during the call): O(n·len(cols)) time, O(len(cols)) memory.
func eachRow(cols []design.Column, n int, f func(i int, x []float64)) {
	x := make([]float64, len(cols))
	next := make([]int, len(cols)) // each sparse column's next stored row
	for i := range n {
		for a, c := range cols {
			x[a] = rowValue(c, i, &next[a])
		}
		f(i, x)
	}
}

// rowValue returns column c's value at row i, rows visited in increasing
// order with k the sparse column's cursor.
func rowValue(c design.Column, i int, k *int) float64 {
	s := c.Scale
	if s == 0 {
		s = 1
	}
	if c.IsDense() {
		return s * c.Dense[i]
	}
	if *k < len(c.Rows) && int(c.Rows[*k]) == i {
		v := 1.0
		if c.Vals != nil {
			v = c.Vals[*k]
		}
		*k++
		return s * v
	}
	return 0
}
