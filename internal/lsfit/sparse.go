package lsfit

import (
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
)

// sparseMaxDensity is the largest share of non-zero entries at which a
// dense design with factor blocks is held by its non-zero entries: a
// factor with K levels fills 1/K of its dummy columns.
const sparseMaxDensity = 1.0 / 16

// sparseMinCols is the fewest columns for which that is worth a pass:
// below, the dense products are as fast and the dense-only methods
// (coordinate descent, ClusterCD, the row-wise gradient) stay available.
const sparseMinCols = 256

// factorLayout returns the design a fit with the penalty pen works on: a
// dense design with factor blocks (penalty.NominalBlock, OrdinalBlock),
// at least sparseMinCols columns and at most sparseMaxDensity of its
// entries non-zero as a solver.SparseDesign, so that the centring is
// applied in the products (scaledDesign) rather than filling an n×p copy,
// and every product costs O(nnz) instead of O(np): with a factor of 10⁴
// levels, a gradient costs n operations per factor instead of 10⁴·n.
// Standardised fits keep the dense design (their scales need it), as does
// every other design.
func factorLayout(x solver.Design, pen penalty.Penalty, opts *Options) solver.Design {
	dd, ok := x.(solver.DenseDesign)
	if !ok || !hasFactorBlocks(pen) || opts != nil && opts.Standardize {
		return x
	}
	if _, p := dd.X.Dims(); p < sparseMinCols {
		return x
	}
	if s := solver.SparseOf(dd.X, sparseMaxDensity); s != nil {
		return s
	}
	return x
}

// hasFactorBlocks reports whether pen is a block penalty with a nominal or
// an ordinal factor block.
func hasFactorBlocks(pen penalty.Penalty) bool {
	b, ok := pen.(*penalty.Blocks)
	if !ok {
		return false
	}
	for _, blk := range b.Blocks() {
		if blk.Type == penalty.NominalBlock || blk.Type == penalty.OrdinalBlock {
			return true
		}
	}
	return false
}
