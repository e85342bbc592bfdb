package glm

import "gonum.org/v1/gonum/mat"

// ColumnScales returns the scales Standardize divides the columns of x by:
// each column's weighted population standard deviation (weights w, nil:
// all 1; their scale does not matter), 1 for a column constant to 1e-12 of
// its mean (scales: the one formula). Callers that standardise only some
// columns (the numeric predictors beside factors) take theirs from here.
func ColumnScales(x *mat.Dense, w []float64) []float64 { return columnScales(x, w) }
