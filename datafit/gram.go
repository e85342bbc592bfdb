package datafit

import (
	"math"

	"github.com/cardsparse/cardreg/design"
	"github.com/cardsparse/cardreg/internal/kernel"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// gramDesign is projectedDesign with its Gram form X̃ᵀX̃ =
// X_PᵀS²X_P − (X_PᵀSQ)(QᵀSX_P), Q the orthonormal basis, computed from
// the columns as they are held: the sparse ones' products row by row
// through the loss's row index (rowIndex), so a factor's block costs
// O(n) (a cross-tabulation of two factors, a grouped sum with a numeric
// column) instead of the O(n·m²) of a dense Gram matrix and the n·m of
// the dense model. The Newton models of a tall design with factors or
// sparse columns use it (Loss.gramModel).
type gramDesign struct {
	projectedDesign
}

var (
	_ solver.Design = (*gramDesign)(nil)
	_ solver.Gramer = (*gramDesign)(nil)
)

// rowIndex holds the sparse penalised columns and the dense ones non-zero
// on at most a quarter of the rows, by rows (compressed sparse rows): row
// i's entries are col[start[i]:start[i+1]] with values val (scale
// applied); dense lists the other columns.
type rowIndex struct {
	start []int
	col   []int32
	val   []float64
	dense []int // the dense penalised columns
}

// rows returns the loss's row index, built on first use.
func (l *Loss) rows() *rowIndex {
	if l.byRow != nil {
		return l.byRow
	}
	n := len(l.y)
	ri := &rowIndex{start: make([]int, n+1)}
	byRow := make([]bool, len(l.xp))
	for a, c := range l.xp {
		// A dense column with few non-zeros (a factor's common level) is
		// indexed too: its pairs cost its non-zeros, not n.
		if byRow[a] = !c.IsDense() || nonZeros(c.Dense) <= n/4; !byRow[a] {
			ri.dense = append(ri.dense, a)
			continue
		}
		c.Each(func(i int, x float64) {
			if x != 0 {
				ri.start[i+1]++
			}
		})
	}
	for i := range n {
		ri.start[i+1] += ri.start[i]
	}
	ri.col, ri.val = make([]int32, ri.start[n]), make([]float64, ri.start[n])
	next := append([]int(nil), ri.start[:n]...)
	for a, c := range l.xp {
		if byRow[a] {
			c.Each(func(i int, x float64) {
				if x != 0 {
					ri.col[next[i]], ri.val[next[i]] = int32(a), x
					next[i]++
				}
			})
		}
	}
	l.byRow = ri
	return ri
}

// nonZeros counts the non-zero values of x.
func nonZeros(x []float64) int {
	k := 0
	for _, v := range x {
		if v != 0 {
			k++
		}
	}
	return k
}

// gramModel reports whether the Newton model should be the Gram form of
// the projected design: some penalised columns are sparse, the design is
// tall (n ≥ 4m) and m² fits (solver's Gram limit).
func (l *Loss) gramModel() bool {
	m, n := len(l.xp), len(l.y)
	return n >= 4*m && m <= solver.GramLimit && l.sparseColumns()
}

// Gram writes X̃ᵀX̃ into dst, sized automatically when empty.
func (d *gramDesign) Gram(dst *mat.SymDense) {
	l := d.l
	m := len(l.xp)
	if dst.IsEmpty() {
		dst.ReuseAsSym(m)
	}
	g := mat.NewDense(m, m, nil) // the upper triangle is summed, then mirrored
	w := make([]float64, len(d.s))
	for i, s := range d.s {
		w[i] = s * s
	}
	ri := l.rows()
	denseGram(g, l.xp, ri.dense, w)
	sparseGram(g, l.xp, ri, w)
	// Less the basis's share: (X_PᵀSQ)(QᵀSX_P).
	sq := make([]float64, len(d.s))
	proj := make([][]float64, len(d.basis))
	for k, q := range d.basis {
		for i := range sq {
			sq[i] = d.s[i] * q[i]
		}
		proj[k] = make([]float64, m)
		for a, c := range l.xp {
			proj[k][a] = c.Dot(sq)
		}
	}
	for a := range m {
		for b := a; b < m; b++ {
			v := g.At(a, b) + g.At(b, a)
			if a == b {
				v = g.At(a, a)
			}
			for _, p := range proj {
				v -= p[a] * p[b]
			}
			dst.SetSym(a, b, v)
		}
	}
}

// denseGram adds Σᵢ wᵢxᵢₐxᵢᵦ of the dense columns' pairs into g.
func denseGram(g *mat.Dense, xp []design.Column, dense []int, w []float64) {
	for k, a := range dense {
		for _, b := range dense[k:] {
			g.Set(a, b, g.At(a, b)+weightedDot(xp[a], xp[b], w))
		}
	}
}

// weightedDot returns Σᵢ wᵢxᵢyᵢ of two dense columns (scales applied).
func weightedDot(x, y design.Column, w []float64) float64 {
	sx, sy := x.Scale, y.Scale
	if sx == 0 {
		sx = 1
	}
	if sy == 0 {
		sy = 1
	}
	return kernel.Dot3(x.Dense, y.Dense, w) * sx * sy
}

// sparseGram adds into g the pairs with a sparse column: row by row, each
// stored entry with the row's other stored entries after it and with the
// dense columns.
func sparseGram(g *mat.Dense, xp []design.Column, ri *rowIndex, w []float64) {
	m := len(xp)
	raw := g.RawMatrix()
	dv := make([]float64, len(ri.dense))
	scale := make([]float64, len(ri.dense))
	for k, a := range ri.dense {
		if scale[k] = xp[a].Scale; scale[k] == 0 {
			scale[k] = 1
		}
	}
	for i := range len(ri.start) - 1 {
		lo, hi := ri.start[i], ri.start[i+1]
		if lo == hi || w[i] == 0 {
			continue
		}
		for k, a := range ri.dense {
			dv[k] = scale[k] * xp[a].Dense[i]
		}
		for e := lo; e < hi; e++ {
			a, x := int(ri.col[e]), w[i]*ri.val[e]
			row := raw.Data[a*raw.Stride : a*raw.Stride+m]
			for f := e; f < hi; f++ {
				row[ri.col[f]] += x * ri.val[f]
			}
			for k, b := range ri.dense {
				row[b] += x * dv[k]
			}
		}
	}
}

// sparseColumns reports whether some penalised column is held sparse.
func (l *Loss) sparseColumns() bool {
	for _, c := range l.xp {
		if !c.IsDense() {
			return true
		}
	}
	return false
}

// projectedLipschitz returns λ_max(X̃ᵀX̃), X̃ = √W·X_P with its columns
// weighted-centred when there is an intercept, by power iteration on the
// products of the projected design: with sparse columns the dense X̃
// would cost n·m memory (7.6 GB for an rcv1-sized design).
func (l *Loss) projectedLipschitz() float64 {
	n := len(l.y)
	d := &projectedDesign{l: l, s: make([]float64, n)}
	var norm float64
	for i, w := range l.w {
		d.s[i] = math.Sqrt(w)
		norm += w
	}
	if l.intercept && norm > 0 {
		q := make([]float64, n)
		for i, s := range d.s {
			q[i] = s / math.Sqrt(norm)
		}
		d.basis = [][]float64{q}
	}
	return solver.NewLeastSquares(d, mat.NewDense(n, 1, nil)).Lipschitz()
}
