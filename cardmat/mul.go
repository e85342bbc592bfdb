package cardmat

import (
	"gonum.org/v1/gonum/mat"
)

// Mul writes m·b into dst (sized automatically when empty). It implements
// solver.Design.
func (m *Matrix) Mul(dst *mat.Dense, b mat.Matrix) { m.MulOps(dst, b) }

// MulOps is Mul that reports its operation counts: Σ_j m_j·N
// multiplications for the tables and about M·P·N/2 additions (adjacent
// columns with few value combinations share one table of summed rows).
// Each output row is the sum of one table row per block.
func (m *Matrix) MulOps(dst *mat.Dense, b mat.Matrix) Ops {
	br, n := b.Dims()
	if br != m.cols {
		panic(mat.ErrShape)
	}
	sizeDst(dst, m.rows, n)
	bd := denseOf(b)
	plan := m.planBlocks()
	tables := m.buildTables(plan, n, func(j int) []float64 { return m.valueTable(j, bd.RawRowView(j)) })
	ops := Ops{Additions: plan.pairAdditions(n) + m.rows*len(plan)*n}
	for _, vals := range m.values {
		ops.Multiplications += len(vals) * n
	}
	m.accumulate(dst, plan, tables)
	return ops
}

// accumulate writes into dst, row by row, the sum over blocks of the table
// row selected by the row's codes; rows are spread over the cores.
func (m *Matrix) accumulate(dst *mat.Dense, plan blockPlan, tables [][]float64) {
	_, n := dst.Dims()
	codes := m.blockCodes(plan)
	out := dst.RawMatrix()
	if n == 1 { // X·β: a sum of table entries per row
		for i := 0; i < m.rows; i++ {
			var s float64
			for bl := range plan {
				s += tables[bl][codes[bl][i]]
			}
			out.Data[i*out.Stride] = s
		}
		return
	}
	parallelRows(m.rows, m.rows*len(plan)*n, func(lo, hi int) {
		rows := make([][]float64, len(plan))
		for i := lo; i < hi; i++ {
			for bl := range plan {
				k := int(codes[bl][i])
				rows[bl] = tables[bl][k*n : (k+1)*n]
			}
			sumRows(out.Data[i*out.Stride:i*out.Stride+n], rows)
		}
	})
}

// blockPlan lists the blocks of a product: column j alone (k < 0, mk = 1)
// or the pair j, k sharing one table of mj·mk rows.
type blockPlan []struct{ j, k, mj, mk int }

// maxPairTable bounds the value combinations of a paired table.
const maxPairTable = 256

// planBlocks pairs adjacent columns whose value combinations are few
// against the rows.
func (m *Matrix) planBlocks() blockPlan {
	var plan blockPlan
	for j := 0; j < m.cols; j++ {
		mj := len(m.values[j])
		if j+1 < m.cols {
			mk := len(m.values[j+1])
			if mj*mk <= maxPairTable && mj*mk*4 <= m.rows {
				plan = append(plan, struct{ j, k, mj, mk int }{j, j + 1, mj, mk})
				j++
				continue
			}
		}
		plan = append(plan, struct{ j, k, mj, mk int }{j, -1, mj, 1})
	}
	return plan
}

// pairAdditions counts the additions that build the paired tables:
// m_j·m_k·N per pair.
func (p blockPlan) pairAdditions(n int) int {
	s := 0
	for _, bl := range p {
		if bl.k >= 0 {
			s += bl.mj * bl.mk * n
		}
	}
	return s
}

// blockCodes returns per block the table row of every matrix row.
func (m *Matrix) blockCodes(plan blockPlan) [][]uint16 {
	out := make([][]uint16, len(plan))
	for b, bl := range plan {
		c := make([]uint16, m.rows)
		for i := range c {
			k := m.code(i, bl.j)
			if bl.k >= 0 {
				k = k*len(m.values[bl.k]) + m.code(i, bl.k)
			}
			c[i] = uint16(k)
		}
		out[b] = c
	}
	return out
}

// buildTables returns the table of every block, with n entries per table
// row: single(j) for a column alone, and for a pair the sums
// single(j)[a] + single(k)[c] in row a·m_k + c.
func (m *Matrix) buildTables(plan blockPlan, n int, single func(j int) []float64) [][]float64 {
	tables := make([][]float64, len(plan))
	for p, bl := range plan {
		tj := single(bl.j)
		if bl.k < 0 {
			tables[p] = tj
			continue
		}
		tk := single(bl.k)
		pair := make([]float64, bl.mj*bl.mk*n)
		for a := 0; a < bl.mj; a++ {
			ta := tj[a*n : (a+1)*n]
			for c := 0; c < bl.mk; c++ {
				tc := tk[c*n : (c+1)*n]
				dst := pair[(a*bl.mk+c)*n : (a*bl.mk+c+1)*n]
				for x := range dst {
					dst[x] = ta[x] + tc[x]
				}
			}
		}
		tables[p] = pair
	}
	return tables
}

// valueTable returns C_j ⊗ row: row k is values[j][k]·row.
func (m *Matrix) valueTable(j int, row []float64) []float64 {
	w := len(row)
	table := make([]float64, len(m.values[j])*w)
	for k, v := range m.values[j] {
		t := table[k*w : (k+1)*w]
		for c, x := range row {
			t[c] = v * x
		}
	}
	return table
}

// denseOf returns b as a *mat.Dense, copying only when it is not one.
func denseOf(b mat.Matrix) *mat.Dense {
	if d, ok := b.(*mat.Dense); ok {
		return d
	}
	return mat.DenseCopyOf(b)
}

// sumRows writes the elementwise sum of rows into out; every row has
// len(out) entries and there is at least one row.
func sumRows(out []float64, rows [][]float64) {
	copy(out, rows[0])
	for _, r := range rows[1:] {
		addTo(out, r)
	}
}
