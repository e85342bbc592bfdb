package reference

import "gonum.org/v1/gonum/mat"

// ExplicitCardinality returns the dense (n(n-1)/2+1)×n matrix K = [A; nu·1ᵀ],
// where A has one row e_i − e_j for every pair i < j, the pairs taken in
// lexicographic order (0,1), (0,2), …, (0,n-1), (1,2), …, and the last row has
// every entry equal to nu. Hence ‖Kx‖₁ = Σ_{i<j} |x_i − x_j| + |nu|·|Σ_i x_i|.
// For n = 1 the matrix A has no rows and K is the 1×1 matrix [nu].
// ExplicitCardinality panics if n < 1.
func ExplicitCardinality(n int, nu float64) *mat.Dense {
	if n < 1 {
		panic("reference: ExplicitCardinality needs n >= 1")
	}
	m := n*(n-1)/2 + 1
	k := mat.NewDense(m, n, nil)
	row := 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			k.Set(row, i, 1)
			k.Set(row, j, -1)
			row++
		}
	}
	for j := 0; j < n; j++ {
		k.Set(m-1, j, nu)
	}
	return k
}
