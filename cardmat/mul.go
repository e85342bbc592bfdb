package cardmat

import (
	"github.com/cardsparse/cardreg/internal/densemat"
	"github.com/cardsparse/cardreg/internal/kernel"
	"gonum.org/v1/gonum/mat"
)

// Mul writes m·b into dst (sized automatically when empty). It implements
// solver.Design.
func (m *Matrix) Mul(dst *mat.Dense, b mat.Matrix) { m.MulOps(dst, b) }

// MulOps is Mul that reports its operation counts: Σ_j m_j·N
// multiplications for the tables, and M·N additions per block after the
// first (which is copied), a block being a run of adjacent columns whose
// value combinations (at most 256) share one table of summed rows, as in
// the method of the Four Russians: eight binary columns, or two of up to
// 16 values, per block. The table building adds its own additions.
// Each output row is the sum of one table row per block.
func (m *Matrix) MulOps(dst *mat.Dense, b mat.Matrix) Ops {
	br, n := b.Dims()
	if br != m.cols {
		panic(mat.ErrShape)
	}
	densemat.Size(dst, m.rows, n)
	bd := densemat.Of(b)
	plan, codes := m.blocks()
	var scratch arena
	defer scratch.release()
	tables := m.buildTables(&scratch, plan, n, func(j int) []float64 { return m.valueTable(&scratch, j, bd.RawRowView(j)) })
	m.accumulate(dst, plan, codes, tables)
	return m.mulOps(n)
}

// mulOps is the operation count of Mul for n output columns.
func (m *Matrix) mulOps(n int) Ops {
	plan, _ := m.blocks()
	ops := Ops{Additions: plan.additions(m.rows, n)}
	for _, vals := range m.values {
		ops.Multiplications += len(vals) * n
	}
	return ops
}

// blocks returns the product's blocks and every row's table row in each,
// computed once per matrix.
func (m *Matrix) blocks() (blockPlan, [][]uint16) {
	m.planOnce.Do(func() {
		m.plan = m.planBlocks()
		m.blockRow = m.blockCodes(m.plan)
	})
	return m.plan, m.blockRow
}

// accumulate writes into dst, row by row, the sum over blocks of the table
// row selected by the row's codes; rows are spread over the cores.
func (m *Matrix) accumulate(dst *mat.Dense, plan blockPlan, codes [][]uint16, tables [][]float64) {
	_, n := dst.Dims()
	out := dst.RawMatrix()
	if n == 1 { // X·β: a sum of table entries per row, block by block
		col := make([]float64, m.rows)
		for bl, t := range tables {
			c := codes[bl][:len(col)]
			if bl == 0 {
				for i, k := range c {
					col[i] = t[k]
				}
				continue
			}
			for i, k := range c {
				col[i] += t[k]
			}
		}
		dst.SetCol(0, col)
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

// block is a run of adjacent columns [j, j+len(m)) sharing one table whose
// rows are indexed by the mixed-radix code of the block's columns; m holds
// their numbers of distinct values.
type block struct {
	j int
	m []int
}

// blockPlan lists the blocks of a product.
type blockPlan []block

// maxBlockTable bounds the value combinations of a block's table: a block
// of eight binary columns, two columns of 16 values. The tables then hold
// 256 rows per block.
const maxBlockTable = 256

// planBlocks groups adjacent columns while their value combinations stay
// within maxBlockTable and a quarter of the rows (a table larger than that
// costs more to build than it saves).
func (m *Matrix) planBlocks() blockPlan {
	var plan blockPlan
	limit := min(maxBlockTable, max(1, m.rows/4))
	for j := 0; j < m.cols; {
		bl := block{j: j, m: []int{len(m.values[j])}}
		size := bl.m[0]
		for k := j + 1; k < m.cols && size*len(m.values[k]) <= limit; k++ {
			size *= len(m.values[k])
			bl.m = append(bl.m, len(m.values[k]))
		}
		plan = append(plan, bl)
		j += len(bl.m)
	}
	return plan
}

// additions counts the additions of a product with n output columns and
// the given rows: building the block tables (adding column t of a block to
// the table of its first t−1 columns costs one row of n additions per row
// of the new table), then one table row per output row and block after
// the first, which is copied.
func (p blockPlan) additions(rows, n int) int {
	s := rows * (len(p) - 1) * n
	for _, bl := range p {
		rows := bl.m[0]
		for _, x := range bl.m[1:] {
			rows *= x
			s += rows * n
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
			k := 0
			for t, x := range bl.m {
				k = k*x + m.code(i, bl.j+t)
			}
			c[i] = uint16(k)
		}
		out[b] = c
	}
	return out
}

// buildTables returns the table of every block, with n entries per table
// row: single(j) for a column alone; for a block, the row of code
// (c_1, …, c_g) is Σ_t single(j+t)[c_t], built one column at a time.
func (m *Matrix) buildTables(scratch *arena, plan blockPlan, n int, single func(j int) []float64) [][]float64 {
	tables := make([][]float64, len(plan))
	for p, bl := range plan {
		table := single(bl.j)
		rows := bl.m[0]
		for t, x := range bl.m[1:] {
			next := scratch.take(rows * x * n)
			tc := single(bl.j + 1 + t)
			for a := 0; a < rows; a++ {
				ta := table[a*n : (a+1)*n]
				for c := 0; c < x; c++ {
					addRows(next[(a*x+c)*n:(a*x+c+1)*n], ta, tc[c*n:(c+1)*n])
				}
			}
			table, rows = next, rows*x
		}
		tables[p] = table
	}
	return tables
}

// addRows writes a + b into dst elementwise.
func addRows(dst, a, b []float64) {
	a, b = a[:len(dst)], b[:len(dst)]
	for x := range dst {
		dst[x] = a[x] + b[x]
	}
}

// valueTable returns C_j ⊗ row: row k is values[j][k]·row.
func (m *Matrix) valueTable(scratch *arena, j int, row []float64) []float64 {
	w := len(row)
	table := scratch.take(len(m.values[j]) * w)
	for k, v := range m.values[j] {
		t := table[k*w : (k+1)*w]
		for c, x := range row {
			t[c] = v * x
		}
	}
	return table
}

// sumRows writes the elementwise sum of rows into out; every row has
// len(out) entries and there is at least one row.
func sumRows(out []float64, rows [][]float64) {
	if len(rows) < 4 {
		copy(out, rows[0])
		for _, r := range rows[1:] {
			addTo(out, r)
		}
		return
	}
	// Four rows per pass over out (one store per entry instead of four).
	kernel.Sum4(false, rows[0], rows[1], rows[2], rows[3], out)
	rest := rows[4:]
	for ; len(rest) >= 4; rest = rest[4:] {
		kernel.Sum4(true, rest[0], rest[1], rest[2], rest[3], out)
	}
	for _, r := range rest {
		addTo(out, r)
	}
}
