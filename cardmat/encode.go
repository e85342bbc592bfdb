package cardmat

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// maxDistinct is the most distinct values a column may hold: two-byte codes.
const maxDistinct = 1 << 16

// Encode compresses a: the distinct values of every column and the code of
// every entry. It returns an error for an empty matrix, a NaN or infinite
// entry, or a column with more than 65536 distinct values. Negative zero is
// stored as zero. The work is linear in the entries (one hash lookup each)
// plus a sort of the distinct values per column.
func Encode(a mat.Matrix) (*Matrix, error) { return encode(a, false) }

// encode is Encode; rowWise says that a is the transpose of the user's
// matrix, so that errors name rows and columns the user's way.
func encode(a mat.Matrix, rowWise bool) (*Matrix, error) {
	if a == nil {
		return nil, errors.New("cardmat: nil matrix")
	}
	r, c := a.Dims()
	if r == 0 || c == 0 {
		return nil, errors.New("cardmat: empty matrix")
	}
	m := &Matrix{rows: r, cols: c, values: make([][]float64, c), codes8: make([][]uint8, c), codes16: make([][]uint16, c)}
	col := make([]float64, r)
	codes := make([]uint16, r)
	h := valueHash{rowWise: rowWise}
	for j := 0; j < c; j++ {
		mat.Col(col, j, a)
		vals, err := h.codeColumn(col, codes, j)
		if err != nil {
			return nil, err
		}
		m.values[j] = vals
		if len(vals) <= 256 {
			c8 := make([]uint8, r)
			for i, k := range codes {
				c8[i] = uint8(k)
			}
			m.codes8[j] = c8
		} else {
			m.codes16[j] = slices.Clone(codes)
		}
	}
	m.nonzeros = m.countNonzeros()
	return m, nil
}

// valueHash maps float64 values to codes in order of first appearance by
// open addressing on their bits; it is reused across columns.
type valueHash struct {
	rowWise bool // errors swap rows and columns
	keys    []uint64
	codes   []int32 // -1 marks an empty slot
	vals    []float64
}

// reset empties the table, sized for about n distinct values.
func (h *valueHash) reset(n int) {
	size := 64
	for size < 2*n {
		size *= 2
	}
	if len(h.keys) != size {
		h.keys = make([]uint64, size)
		h.codes = make([]int32, size)
	}
	for i := range h.codes {
		h.codes[i] = -1
	}
	h.vals = h.vals[:0]
}

// lookup returns the code of v, adding it when new.
func (h *valueHash) lookup(v float64) int {
	key := math.Float64bits(v)
	mask := uint64(len(h.keys) - 1)
	for s := (key * 0x9E3779B97F4A7C15) >> 32 & mask; ; s = (s + 1) & mask {
		switch h.codes[s] {
		case -1:
			h.keys[s], h.codes[s] = key, int32(len(h.vals))
			h.vals = append(h.vals, v)
			return len(h.vals) - 1
		default:
			if h.keys[s] == key {
				return int(h.codes[s])
			}
		}
	}
}

// codeColumn writes the code of every entry of col into codes and returns
// the sorted distinct values; codes index them.
// j is the column's index, for errors.
func (h *valueHash) codeColumn(col []float64, codes []uint16, j int) ([]float64, error) {
	if vals, ok := smallIntegerCodes(col, codes); ok {
		return vals, nil
	}
	h.reset(64)
	for i, v := range col {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			if h.rowWise {
				i, j = j, i
			}
			return nil, fmt.Errorf("cardmat: non-finite value %v at row %d, column %d", v, i+1, j+1)
		}
		if v == 0 {
			v = 0 // one zero: -0 and +0 share a code
		}
		k := h.lookup(v)
		if k >= maxDistinct {
			what := "column"
			if h.rowWise {
				what = "row"
			}
			return nil, fmt.Errorf("cardmat: %s %d has more than %d distinct values, more than two-byte codes hold; store it dense", what, j+1, maxDistinct)
		}
		codes[i] = uint16(k)
		if 2*len(h.vals) > len(h.keys) {
			h.grow()
		}
	}
	// Sort the values and renumber the codes in sorted order.
	order := make([]int, len(h.vals))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(x, y int) int { return compareFloat(h.vals[x], h.vals[y]) })
	rank := make([]uint16, len(order))
	vals := make([]float64, len(order))
	for pos, k := range order {
		rank[k] = uint16(pos)
		vals[pos] = h.vals[k]
	}
	for i, k := range codes {
		codes[i] = rank[k]
	}
	return vals, nil
}

// grow doubles the table and reinserts the values in code order.
func (h *valueHash) grow() {
	vals := slices.Clone(h.vals)
	h.keys, h.codes = nil, nil
	h.reset(len(vals))
	for _, v := range vals {
		h.lookup(v)
	}
}

func compareFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// countNonzeros counts the entries that are not zero.
func (m *Matrix) countNonzeros() int {
	n := 0
	for j, vals := range m.values {
		z, ok := slices.BinarySearch(vals, 0)
		if !ok {
			n += m.rows
			continue
		}
		for i := 0; i < m.rows; i++ {
			if m.code(i, j) != z {
				n++
			}
		}
	}
	return n
}

// smallIntegers bounds the direct path of smallIntegerCodes.
const smallIntegers = 4096

// smallIntegerCodes codes a column whose entries are all integers in
// [0, 4096) (counts, pixel intensities, dummy variables) by direct
// indexing, without hashing; ok is false for any other column.
func smallIntegerCodes(col []float64, codes []uint16) (vals []float64, ok bool) {
	var seen [smallIntegers]bool
	hi := 0
	for _, v := range col {
		if !(v >= 0 && v < smallIntegers) || v != math.Trunc(v) {
			return nil, false
		}
		k := int(v)
		seen[k] = true
		hi = max(hi, k)
	}
	var rank [smallIntegers]uint16
	for k := 0; k <= hi; k++ {
		if seen[k] {
			rank[k] = uint16(len(vals))
			vals = append(vals, float64(k))
		}
	}
	for i, v := range col {
		codes[i] = rank[int(v)]
	}
	return vals, true
}
