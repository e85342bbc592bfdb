package penalty

import (
	"math"
	"slices"
)

// Piece describes the linear piece of a piecewise-linear penalty that
// contains one column v: the coordinates are split into clusters that move
// together, one free value b_c per cluster, and coordinates in no cluster
// are fixed at zero. On the piece, h(Σ_c b_c 1_c) = Σ_c Slopes[c]·b_c, subject
// to the linear constraints Σ_c Constraints[r][c]·b_c = 0 (one per block whose
// kernel term sits at its kink, i.e. whose sum is zero). Solvers use it to
// finish a fit exactly once the structure has settled ("polishing").
type Piece struct {
	// Clusters holds the coordinates that share each free value.
	Clusters [][]int
	// Slopes holds the derivative of h along each cluster's indicator.
	Slopes []float64
	// Constraints holds one zero-sum row over the clusters per block whose
	// sum is at the kernel term's kink.
	Constraints [][]float64
}

// Piecewise is implemented by penalties that are piecewise linear, so that
// a solver can solve the problem restricted to the current piece exactly.
type Piecewise interface {
	// Piece returns the piece containing column v of a matrix with q
	// columns.
	Piece(v []float64, q int) Piece
}

// kinkTol decides when a block sum is treated as exactly zero: the prox
// sets means to zero exactly, up to the rounding of the sums involved.
const kinkTol = 1e-12

// AtKink reports whether a block whose entries sum to sum, and whose
// absolute values sum to abs, is treated as sitting at the kink of
// ν|Σ v|: the sum is zero up to its rounding (kinkTol relative to abs).
// Piece and the solvers that step along a piece decide it here.
func AtKink(sum, abs float64) bool {
	return sum == 0 || math.Abs(sum) <= kinkTol*math.Max(abs, 1e-300)
}

// blockPiece appends to pc the clusters of equal values within block rows
// (indices into v), with slopes weight·(n+1−2k) summed over each cluster's
// sorted positions plus ν·sign(sum)·size, or a zero-sum constraint when the
// block sum is zero.
func blockPiece(pc *Piece, v []float64, rows []int, weight, nu float64) {
	n := len(rows)
	idx := slices.Clone(rows)
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case v[a] > v[b]:
			return -1
		case v[a] < v[b]:
			return 1
		}
		return 0
	})
	var s, abs float64
	for _, i := range rows {
		s += v[i]
		abs += math.Abs(v[i])
	}
	atKink := AtKink(s, abs)
	first := len(pc.Clusters)
	for k := 0; k < n; {
		e := k + 1
		for e < n && v[idx[e]] == v[idx[k]] {
			e++
		}
		var slope float64
		for t := k; t < e; t++ {
			slope += weight * pairwiseWeight(n, t+1)
		}
		if !atKink {
			slope += nu * math.Copysign(1, s) * float64(e-k)
		}
		pc.Clusters = append(pc.Clusters, idx[k:e])
		pc.Slopes = append(pc.Slopes, slope)
		k = e
	}
	if atKink {
		row := make([]float64, len(pc.Clusters))
		for c := first; c < len(pc.Clusters); c++ {
			row[c] = float64(len(pc.Clusters[c]))
		}
		pc.Constraints = append(pc.Constraints, row)
	}
}

// Piece returns the clusters of equal values of v with their slopes.
func (c Cardinality) Piece(v []float64, _ int) Piece {
	var pc Piece
	blockPiece(&pc, v, seq(len(v)), 1, nuOrOne(c.Nu))
	pc.padConstraints()
	return pc
}

// Piece returns the clusters of equal values within each group of v.
func (g *Grouped) Piece(v []float64, q int) Piece {
	var pc Piece
	for k, rows := range g.groups {
		blockPiece(&pc, v, rows, g.Weight(k, q), nuOrOne(g.Nu))
	}
	pc.padConstraints()
	return pc
}

// Piece returns one cluster per nonzero entry of v, with slope ν·sign;
// zero entries stay fixed at zero.
func (l L1) Piece(v []float64, _ int) Piece {
	var pc Piece
	nu := nuOrOne(l.Nu)
	for i, x := range v {
		if x != 0 {
			pc.Clusters = append(pc.Clusters, []int{i})
			pc.Slopes = append(pc.Slopes, nu*math.Copysign(1, x))
		}
	}
	return pc
}

// padConstraints extends every constraint row to the final cluster count.
func (pc *Piece) padConstraints() {
	for r, row := range pc.Constraints {
		pc.Constraints[r] = append(row, make([]float64, len(pc.Clusters)-len(row))...)
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
