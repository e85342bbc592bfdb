package penalty

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// Grouped is the grouped cardinality penalty, G = ⊕_k w_k A_k block diagonal
// over a partition of the rows into groups B_k. On each column v,
//
//	h(v) = Σ_k [ w_k Σ_{i<j ∈ B_k} |v_i − v_j| + ν·|B_k|·|mean_{B_k}(v)| ],
//
// since Π_G repeats group means. The weight is w_k = √P_k with
// P_k = |B_k|·q the number of parameters of group k in a p×q matrix, or
// w_k = 1 when Unweighted is set. A group of one row is penalised by ν|v_i|
// alone. Build it with NewGrouped: a zero Grouped has no groups and panics on
// use.
type Grouped struct {
	// Nu is the weight ν > 0 of the kernel term. If zero, 1 is used; a
	// negative or NaN ν makes every method panic.
	Nu float64
	// Unweighted sets every block weight w_k to 1 instead of √P_k.
	Unweighted bool

	groups [][]int
	p      int
}

var (
	_ Penalty         = (*Grouped)(nil)
	_ DualNormer      = (*Grouped)(nil)
	_ KernelProjector = (*Grouped)(nil)
	_ Piecewise       = (*Grouped)(nil)
)

// NewGrouped returns the grouped penalty for rows labelled by labels: rows
// with equal labels form one group, and groups are numbered in order of first
// appearance. The penalty applies to matrices with len(labels) rows.
func NewGrouped(labels []int, nu float64) *Grouped {
	idx := map[int]int{}
	var groups [][]int
	for i, l := range labels {
		k, ok := idx[l]
		if !ok {
			k = len(groups)
			idx[l] = k
			groups = append(groups, nil)
		}
		groups[k] = append(groups[k], i)
	}
	return &Grouped{Nu: nu, groups: groups, p: len(labels)}
}

// Groups returns the row indices of each group, in order of first
// appearance. The caller must not modify them.
func (g *Grouped) Groups() [][]int { return g.groups }

// Value returns h(Θ).
func (g *Grouped) Value(theta mat.Matrix) float64 { g.check(theta); return valueCols(g, theta) }

// Prox writes prox_{τh}(Θ) into dst, exactly, group by group (DESIGN §3).
func (g *Grouped) Prox(dst *mat.Dense, theta mat.Matrix, tau float64) {
	g.check(theta)
	proxCols(g, dst, theta, tau)
}

// DualNorm returns h*(g): the maximum over columns and groups of
// max(pairwise dual / w_k, |group mean|/ν).
func (g *Grouped) DualNorm(m mat.Matrix) float64 { g.check(m); return dualCols(g, m) }

// ProjectKernel writes Π_G Θ into dst: entries replaced by their group means.
func (g *Grouped) ProjectKernel(dst *mat.Dense, theta mat.Matrix) {
	g.check(theta)
	projectGroupMeans(dst, theta, g.groups)
}

// Weight returns the block weight w_k of group k for a matrix with q
// columns.
func (g *Grouped) Weight(k, q int) float64 {
	if g.Unweighted {
		return 1
	}
	return math.Sqrt(float64(len(g.groups[k]) * q))
}

func (g *Grouped) check(m mat.Matrix) {
	if r, _ := m.Dims(); r != g.p {
		panic("penalty: grouped penalty applied to a matrix with the wrong number of rows")
	}
}

// each calls fn with a gathered copy of v's entries in group k.
func (g *Grouped) each(v []float64, fn func(k int, block []float64)) {
	buf := make([]float64, 0, len(v))
	for k, rows := range g.groups {
		block := buf[:len(rows)]
		for t, i := range rows {
			block[t] = v[i]
		}
		fn(k, block)
		for t, i := range rows {
			v[i] = block[t]
		}
	}
}

func (g *Grouped) colValue(v []float64, q int) float64 {
	var s float64
	nu := nuOrOne(g.Nu)
	w := getWorkspace(len(v))
	defer putWorkspace(w)
	g.each(v, func(k int, b []float64) {
		s += g.Weight(k, q)*pairwiseValue(b, w) + nu*math.Abs(sum(b))
	})
	return s
}

func (g *Grouped) colProx(v []float64, tau float64, q int, w *workspace) {
	nu := nuOrOne(g.Nu)
	g.each(v, func(k int, b []float64) { fullProx(b, tau, g.Weight(k, q), nu, w) })
}

func (g *Grouped) colDual(v []float64, q int, w *workspace) float64 {
	var m float64
	nu := nuOrOne(g.Nu)
	g.each(v, func(k int, b []float64) { m = math.Max(m, fullDual(b, g.Weight(k, q), nu, w)) })
	return m
}

// Validate refuses a negative, NaN or infinite ν.
func (g *Grouped) Validate() error { return checkNu("grouped", g.Nu) }
