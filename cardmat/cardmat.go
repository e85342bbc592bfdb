package cardmat

import (
	"gonum.org/v1/gonum/floats"
	"math"
	"runtime"
	"sync"

	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// Matrix is an M×P matrix stored column by column as distinct values and
// codes. Build it with Encode.
type Matrix struct {
	rows, cols int
	values     [][]float64 // sorted distinct values per column
	codes8     [][]uint8   // codes per column when it has ≤ 256 values
	codes16    [][]uint16  // codes per column beyond
	nonzeros   int         // entries that are not zero

	planOnce sync.Once  // the product's blocks depend on the matrix alone
	plan     blockPlan  // blocks of columns sharing a table
	blockRow [][]uint16 // per block, the table row of every matrix row
}

var (
	_ solver.Design = (*Matrix)(nil)
	_ solver.Gramer = (*Matrix)(nil)
)

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

// Gram writes mᵀm into dst (sized automatically when empty): for each
// pair of columns whose value combinations number at most M, the
// contingency counts of their codes (M increments, m_j·m_k counters)
// weight the products of their values (at most 2·m_j·m_k
// multiplications), exact for integer data; other pairs take the dot
// product of the decoded columns. It implements solver.Gramer.
func (m *Matrix) Gram(dst *mat.SymDense) {
	if dst.IsEmpty() {
		dst.ReuseAsSym(m.cols)
	}
	if dst.SymmetricDim() != m.cols {
		panic(mat.ErrShape)
	}
	var counts []int
	var cj, ck []float64
	for j := 0; j < m.cols; j++ {
		for k := j; k < m.cols; k++ {
			vj, vk := m.values[j], m.values[k]
			if len(vj)*len(vk) > m.rows {
				cj, ck = m.decodeColumn(cj, j), m.decodeColumn(ck, k)
				dst.SetSym(j, k, floats.Dot(cj, ck))
				continue
			}
			counts = m.contingency(counts, j, k)
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

// decodeColumn returns column j, reusing buf.
func (m *Matrix) decodeColumn(buf []float64, j int) []float64 {
	if cap(buf) < m.rows {
		buf = make([]float64, m.rows)
	}
	buf = buf[:m.rows]
	for i := range buf {
		buf[i] = m.values[j][m.code(i, j)]
	}
	return buf
}

// contingency returns, reusing buf, the counts of the code pairs of
// columns j and k, code a of j and b of k at a·m_k + b.
func (m *Matrix) contingency(buf []int, j, k int) []int {
	mk := len(m.values[k])
	size := len(m.values[j]) * mk
	if cap(buf) < size {
		buf = make([]int, size)
	}
	counts := buf[:size]
	clear(counts)
	cj, ck := m.codes8[j], m.codes8[k]
	if cj == nil || ck == nil {
		for i := 0; i < m.rows; i++ {
			counts[m.code(i, j)*mk+m.code(i, k)]++
		}
		return counts
	}
	ck = ck[:len(cj)]
	for i, a := range cj {
		counts[int(a)*mk+int(ck[i])]++
	}
	return counts
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
	out.nonzeros = out.countNonzeros()
	return out
}
