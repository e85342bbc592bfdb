package deepreg

import "gonum.org/v1/gonum/mat"

// SetInputs records the names of the input columns of x and, when
// standardize, standardises each column of x in place (ColumnScale,
// Standardize), recording its centre and scale for Inputs.
func (s *Saved) SetInputs(x *mat.Dense, names []string, standardize bool) {
	s.Names = append(s.Names, names...)
	if !standardize {
		return
	}
	n, p := x.Dims()
	col := make([]float64, n)
	for j := range p {
		mat.Col(col, j, x)
		c, sc := ColumnScale(col)
		Standardize(col, c, sc)
		x.SetCol(j, col)
		s.Center, s.Scale = append(s.Center, c), append(s.Scale, sc)
	}
}
