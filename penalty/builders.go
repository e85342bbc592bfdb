package penalty

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// AllPairs returns the all-pairs difference matrix A of size C(n,2)×n: one
// row e_i − e_j for each pair i < j, in lexicographic order. It is meant for
// users and tests; the Cardinality penalty never builds it. For n < 2 it
// returns nil, the matrix with no rows.
func AllPairs(n int) *mat.Dense {
	m := n * (n - 1) / 2
	if m == 0 {
		return nil
	}
	a := mat.NewDense(m, n, nil)
	r := 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			a.Set(r, i, 1)
			a.Set(r, j, -1)
			r++
		}
	}
	return a
}

// GroupedMatrix returns the explicit block matrix ⊕_k w_k A_k of g for
// matrices with q columns: the rows of A_k act on the rows of group k. It is
// nil when no group has two or more rows.
func GroupedMatrix(g *Grouped, q int) *mat.Dense {
	m := 0
	for _, rows := range g.groups {
		m += len(rows) * (len(rows) - 1) / 2
	}
	if m == 0 {
		return nil
	}
	a := mat.NewDense(m, g.p, nil)
	r := 0
	for k, rows := range g.groups {
		w := g.Weight(k, q)
		for s := range rows {
			for t := s + 1; t < len(rows); t++ {
				a.Set(r, rows[s], w)
				a.Set(r, rows[t], -w)
				r++
			}
		}
	}
	return a
}

// Zero returns the m×n zero matrix G = 0 of the lasso case (m ≥ 1).
func Zero(m, n int) *mat.Dense { return mat.NewDense(m, n, nil) }

// KernelProjection returns Π_G = I − G⁺G, the orthogonal projector onto
// ker G, from the eigendecomposition of GᵀG: eigenvectors whose eigenvalues
// are at most tol·(largest eigenvalue) span the kernel. A nil G (no rows)
// gives the identity of size n.
func KernelProjection(g *mat.Dense, n int) *mat.SymDense {
	if g == nil {
		pi := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			pi.SetSym(i, i, 1)
		}
		return pi
	}
	var gtg mat.SymDense
	gtg.SymOuterK(1, g.T())
	pi, _ := kernelFromGram(&gtg)
	return pi
}

// kernelFromGram returns the projector onto the kernel of GᵀG (which is
// ker G) and the largest eigenvalue of GᵀG, from one eigendecomposition.
func kernelFromGram(gtg *mat.SymDense) (*mat.SymDense, float64) {
	n := gtg.SymmetricDim()
	pi := mat.NewSymDense(n, nil)
	var eig mat.EigenSym
	if !eig.Factorize(gtg, true) {
		panic("penalty: eigendecomposition of GᵀG failed")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	top := 0.0
	for _, v := range vals {
		top = math.Max(top, v)
	}
	tol := 1e-10 * top // relative: G's units must not change its kernel
	for k, v := range vals {
		if v > tol {
			continue
		}
		col := mat.Col(nil, k, &vecs)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				pi.SetSym(i, j, pi.At(i, j)+col[i]*col[j])
			}
		}
	}
	return pi, top
}
