package lsfit

import (
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
)

// factorLayout returns the design a fit with the penalty pen works on: a
// dense design with factor blocks (penalty.NominalBlock, OrdinalBlock),
// at least solver.SparseMinColumns columns and at most solver.SparseMaxDensity of its
// entries non-zero as a solver.SparseDesign, so that the centring is
// applied in the products (scaledDesign) rather than filling an n×p copy,
// and every product costs O(nnz) instead of O(np): with a factor of 10⁴
// levels, a gradient costs n operations per factor instead of 10⁴·n.
// Standardised fits keep the dense design (their scales need it), as does
// every other design.
func factorLayout(x solver.Design, pen penalty.Penalty, opts *fit.Options) solver.Design {
	dd, ok := x.(solver.DenseDesign)
	if !ok || !hasFactorBlocks(pen) || opts != nil && opts.Standardize {
		return x
	}
	if _, p := dd.X.Dims(); p < solver.SparseMinColumns {
		return x
	}
	if s := solver.SparseOf(dd.X, solver.SparseMaxDensity); s != nil {
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
