package data

import "gonum.org/v1/gonum/mat"

// DenseExcept returns every column of t but column skip (none when skip
// is out of range), in order, as a matrix.
func (t *Table) DenseExcept(skip int) *mat.Dense {
	var cols []int
	for j := range t.cols {
		if j != skip {
			cols = append(cols, j)
		}
	}
	return t.Dense(cols)
}
