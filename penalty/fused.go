package penalty

// Fused is implemented by the penalties that are, on each column v of a
// p×q matrix, a sum over blocks B of rows of
//
//	w_B·Σ_{i<j ∈ B} |v_i − v_j| + ν·|Σ_{i∈B} v_i|:
//
// Cardinality (one block of all rows, w = 1) and Grouped (its groups, w_k
// its weights). Solvers that move one cluster of equal values at a time
// (solver.ClusterCD) read the penalty through this form.
type Fused interface {
	// FusedBlocks returns the blocks of rows of a p×q matrix, each block's
	// weight w_B, and ν. The caller must not modify the blocks.
	FusedBlocks(p, q int) (blocks [][]int, weights []float64, nu float64)
}

var (
	_ Fused = Cardinality{}
	_ Fused = (*Grouped)(nil)
)

// FusedBlocks returns one block of all p rows with weight 1, and ν.
func (c Cardinality) FusedBlocks(p, _ int) ([][]int, []float64, float64) {
	return [][]int{seq(p)}, []float64{1}, nuOrOne(c.Nu)
}

// FusedBlocks returns the groups, their weights for q columns, and ν. It
// panics if p is not the penalty's number of rows.
func (g *Grouped) FusedBlocks(p, q int) ([][]int, []float64, float64) {
	if p != g.p {
		panic("penalty: grouped penalty applied to a matrix with the wrong number of rows")
	}
	w := make([]float64, len(g.groups))
	for k := range w {
		w[k] = g.Weight(k, q)
	}
	return g.groups, w, nuOrOne(g.Nu)
}
