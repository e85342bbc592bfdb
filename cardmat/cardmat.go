package cardmat

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Matrix is an M×P matrix stored column by column as distinct values and
// codes. Build it with Encode.
type Matrix struct {
	rows, cols int
	values     [][]float64 // sorted distinct values per column
	codes8     [][]uint8   // codes per column when it has ≤ 256 values
	codes16    [][]uint16  // codes per column beyond
}

var (
	_ solver.Design = (*Matrix)(nil)
	_ solver.Gramer = (*Matrix)(nil)
)

// Encode compresses a: the distinct values of every column and the code of
// every entry. It returns an error for an empty matrix or a NaN or infinite
// entry.
func Encode(a mat.Matrix) (*Matrix, error) {
	if a == nil {
		return nil, errors.New("cardmat: nil matrix")
	}
	r, c := a.Dims()
	if r == 0 || c == 0 {
		return nil, errors.New("cardmat: empty matrix")
	}
	m := &Matrix{rows: r, cols: c, values: make([][]float64, c), codes8: make([][]uint8, c), codes16: make([][]uint16, c)}
	col := make([]float64, r)
	for j := 0; j < c; j++ {
		mat.Col(col, j, a)
		for i, v := range col {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("cardmat: non-finite value %v at row %d, column %d", v, i+1, j+1)
			}
		}
		vals := slices.Clone(col)
		slices.Sort(vals)
		vals = slices.Compact(vals)
		if len(vals) > 1<<16 {
			return nil, fmt.Errorf("cardmat: column %d has %d distinct values, more than two-byte codes hold; store it dense", j+1, len(vals))
		}
		m.values[j] = vals
		if len(vals) <= 256 {
			codes := make([]uint8, r)
			for i, v := range col {
				k, _ := slices.BinarySearch(vals, v)
				codes[i] = uint8(k)
			}
			m.codes8[j] = codes
		} else {
			codes := make([]uint16, r)
			for i, v := range col {
				k, _ := slices.BinarySearch(vals, v)
				codes[i] = uint16(k)
			}
			m.codes16[j] = codes
		}
	}
	return m, nil
}

// Dims returns the shape.
func (m *Matrix) Dims() (int, int) { return m.rows, m.cols }

// code returns the code of entry (i, j).
func (m *Matrix) code(i, j int) int {
	if m.codes8[j] != nil {
		return int(m.codes8[j][i])
	}
	return int(m.codes16[j][i])
}

// At returns entry (i, j).
func (m *Matrix) At(i, j int) float64 { return m.values[j][m.code(i, j)] }

// Decode returns the dense matrix.
func (m *Matrix) Decode() *mat.Dense {
	out := mat.NewDense(m.rows, m.cols, nil)
	for i := 0; i < m.rows; i++ {
		row := out.RawRowView(i)
		for j := range row {
			row[j] = m.At(i, j)
		}
	}
	return out
}

// Distinct returns the number of distinct values of each column.
func (m *Matrix) Distinct() []int {
	out := make([]int, m.cols)
	for j, v := range m.values {
		out[j] = len(v)
	}
	return out
}

// Memory is the storage of a matrix in bytes under several layouts.
type Memory struct {
	// DenseFloat32 and DenseFloat64 are 4·M·P and 8·M·P.
	DenseFloat32, DenseFloat64 int
	// Stored is what Matrix stores: the distinct values as float64 plus one
	// byte per code (two for columns with more than 256 values).
	Stored int
	// Packed is the source paper's accounting: every code at ⌈log₂ m_j⌉
	// bits (at least one), summed over the matrix without rounding to whole
	// bytes, plus the distinct values as float32. It is fractional, like
	// the paper's table.
	Packed float64
}

// Memory returns the storage accounting.
func (m *Matrix) Memory() Memory {
	mem := Memory{DenseFloat32: 4 * m.rows * m.cols, DenseFloat64: 8 * m.rows * m.cols}
	for j, vals := range m.values {
		width := 1
		if m.codes16[j] != nil {
			width = 2
		}
		mem.Stored += 8*len(vals) + width*m.rows
		bits := max(1, int(math.Ceil(math.Log2(float64(len(vals))))))
		mem.Packed += float64(4*len(vals)) + float64(bits*m.rows)/8
	}
	return mem
}

// Ops counts the scalar operations of a product.
type Ops struct {
	Multiplications, Additions int
}

// DenseOps returns the counts of the dense product of an M×P and a P×N
// matrix: M·P·N multiplications and M·(P−1)·N additions.
func DenseOps(m, p, n int) Ops { return Ops{Multiplications: m * p * n, Additions: m * (p - 1) * n} }

// Mul writes m·b into dst (sized automatically when empty). It implements
// solver.Design.
func (m *Matrix) Mul(dst *mat.Dense, b mat.Matrix) { m.MulOps(dst, b) }

// MulOps is Mul that reports its operation counts: Σ_j m_j·N
// multiplications for the tables and M·P·N additions.
func (m *Matrix) MulOps(dst *mat.Dense, b mat.Matrix) Ops {
	br, n := b.Dims()
	if br != m.cols {
		panic(mat.ErrShape)
	}
	sizeDst(dst, m.rows, n)
	// The tables T_j = C_j ⊗ B_(j,:), all columns at once.
	tables := make([][]float64, m.cols)
	brow := make([]float64, n)
	var ops Ops
	for j, vals := range m.values {
		mat.Row(brow, j, b)
		table := make([]float64, len(vals)*n)
		for k, v := range vals {
			t := table[k*n : (k+1)*n]
			for c, x := range brow {
				t[c] = v * x
			}
		}
		tables[j] = table
		ops.Multiplications += len(vals) * n
	}
	// Pairs of columns with few value combinations share one table of
	// summed rows, T_jk[a·m_k + b] = T_j[a] + T_k[b], which halves the
	// accumulations for m_j·m_k·N extra additions.
	blocks := m.pairBlocks(tables, n, &ops)
	ops.Additions += m.rows * len(blocks) * n
	// Rows accumulate their table rows with the SIMD axpy kernel, split
	// over the cores.
	if n == 1 { // X·β: a sum of table entries per row, no vector calls
		out := dst.RawMatrix()
		for i := 0; i < m.rows; i++ {
			var s float64
			for _, bl := range blocks {
				s += bl.table[m.blockCode(bl, i)]
			}
			out.Data[i*out.Stride] = s
		}
		return ops
	}
	parallelRows(m.rows, m.rows*len(blocks)*n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out := blas64.Vector{N: n, Inc: 1, Data: dst.RawRowView(i)}
			for b, bl := range blocks {
				k := m.blockCode(bl, i)
				row := blas64.Vector{N: n, Inc: 1, Data: bl.table[k*n : (k+1)*n]}
				if b == 0 { // the first block initialises the row: no zeroing pass
					copy(out.Data, row.Data)
					continue
				}
				blas64.Axpy(1, row, out)
			}
		}
	})
	return ops
}

// block is one table of a product: column j alone (k < 0) or the pair j, k.
type block struct {
	j, k  int
	table []float64
}

// blockCode is the row of block bl's table that row i uses.
func (m *Matrix) blockCode(bl block, i int) int {
	k := m.code(i, bl.j)
	if bl.k >= 0 {
		k = k*len(m.values[bl.k]) + m.code(i, bl.k)
	}
	return k
}

// maxPairTable bounds the value combinations of a paired table.
const maxPairTable = 256

func (m *Matrix) pairBlocks(tables [][]float64, n int, ops *Ops) []block {
	var blocks []block
	for j := 0; j < m.cols; j++ {
		mj := len(m.values[j])
		if j+1 < m.cols {
			mk := len(m.values[j+1])
			if mj*mk <= maxPairTable && mj*mk*4 <= m.rows {
				pair := make([]float64, mj*mk*n)
				for a := 0; a < mj; a++ {
					ta := tables[j][a*n : (a+1)*n]
					for b := 0; b < mk; b++ {
						tb := tables[j+1][b*n : (b+1)*n]
						dst := pair[(a*mk+b)*n : (a*mk+b+1)*n]
						for c := range dst {
							dst[c] = ta[c] + tb[c]
						}
					}
				}
				ops.Additions += mj * mk * n
				blocks = append(blocks, block{j: j, k: j + 1, table: pair})
				j++
				continue
			}
		}
		blocks = append(blocks, block{j: j, k: -1, table: tables[j]})
	}
	return blocks
}

// parallelRows runs fn over [0, rows) split across the cores when the work
// is large enough to pay for the goroutines.
func parallelRows(rows, work int, fn func(lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	if work < 1<<18 || workers == 1 || rows < 2 {
		fn(0, rows)
		return
	}
	var wg sync.WaitGroup
	step := (rows + workers - 1) / workers
	for lo := 0; lo < rows; lo += step {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			fn(lo, hi)
		}(lo, min(lo+step, rows))
	}
	wg.Wait()
}

// MulTrans writes mᵀ·r into dst (sized automatically when empty). It
// implements solver.Design.
func (m *Matrix) MulTrans(dst *mat.Dense, r mat.Matrix) { m.MulTransOps(dst, r) }

// MulTransOps is MulTrans that reports its operation counts: M·N additions
// per column to sum the rows of r by code, and m_j·N multiplications.
func (m *Matrix) MulTransOps(dst *mat.Dense, r mat.Matrix) Ops {
	rr, n := r.Dims()
	if rr != m.rows {
		panic(mat.ErrShape)
	}
	sizeDst(dst, m.cols, n)
	rd := mat.DenseCopyOf(r)
	var ops Ops
	for j := 0; j < m.cols; j++ {
		vals := m.values[j]
		sums := make([]float64, len(vals)*n)
		for i := 0; i < m.rows; i++ {
			k := m.code(i, j)
			s := sums[k*n : (k+1)*n]
			for c, x := range rd.RawRowView(i) {
				s[c] += x
			}
		}
		ops.Additions += m.rows * n
		out := dst.RawRowView(j)
		for c := range out {
			out[c] = 0
		}
		for k, v := range vals {
			for c, s := range sums[k*n : (k+1)*n] {
				out[c] += v * s
			}
		}
		ops.Multiplications += len(vals) * n
	}
	return ops
}

// Gram writes mᵀm into dst: for each pair of columns, the contingency
// counts of their codes weight the products of their values, so the work
// is M additions and m_j·m_k multiplications per pair, exact for integer
// data. It implements solver.Gramer.
func (m *Matrix) Gram(dst *mat.SymDense) {
	if dst.IsEmpty() {
		dst.ReuseAsSym(m.cols)
	}
	for j := 0; j < m.cols; j++ {
		for k := j; k < m.cols; k++ {
			vj, vk := m.values[j], m.values[k]
			counts := make([]int, len(vj)*len(vk))
			for i := 0; i < m.rows; i++ {
				counts[m.code(i, j)*len(vk)+m.code(i, k)]++
			}
			var s float64
			for a, x := range vj {
				for b, y := range vk {
					if c := counts[a*len(vk)+b]; c != 0 {
						s += float64(c) * x * y
					}
				}
			}
			dst.SetSym(j, k, s)
		}
	}
}

// SelectRows returns the matrix of the given rows, in order, sharing the
// value tables: cross-validation folds stay compressed.
func (m *Matrix) SelectRows(rows []int) solver.Design {
	out := &Matrix{rows: len(rows), cols: m.cols, values: m.values, codes8: make([][]uint8, m.cols), codes16: make([][]uint16, m.cols)}
	for j := 0; j < m.cols; j++ {
		if m.codes8[j] != nil {
			c := make([]uint8, len(rows))
			for t, i := range rows {
				c[t] = m.codes8[j][i]
			}
			out.codes8[j] = c
		} else {
			c := make([]uint16, len(rows))
			for t, i := range rows {
				c[t] = m.codes16[j][i]
			}
			out.codes16[j] = c
		}
	}
	return out
}

func sizeDst(dst *mat.Dense, r, c int) {
	if dst.IsEmpty() {
		dst.ReuseAs(r, c)
		return
	}
	if rr, cc := dst.Dims(); rr != r || cc != c {
		panic(mat.ErrShape)
	}
}
