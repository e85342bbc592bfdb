package cardmat

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// Binary is a 0/1 matrix bit-packed by rows (64 entries per word), and, on
// first use as the right factor of an integer product, by columns too.
type Binary struct {
	rows, cols int
	words      int      // 64-bit words per packed row (over the columns)
	rowBits    []uint64 // row i: rowBits[i*words : (i+1)*words]

	colOnce  sync.Once
	colWords int      // words per packed column (over the rows)
	colBits  []uint64 // column j: colBits[j*colWords : (j+1)*colWords]
}

// newBinary returns an all-zero r×c matrix.
func newBinary(r, c int) *Binary {
	w := (c + 63) / 64
	return &Binary{rows: r, cols: c, words: w, rowBits: make([]uint64, r*w)}
}

// EncodeBinary packs a matrix whose entries are all 0 or 1; anything else
// is an error naming the entry.
func EncodeBinary(a mat.Matrix) (*Binary, error) {
	if a == nil {
		return nil, errors.New("cardmat: nil matrix")
	}
	r, c := a.Dims()
	b := newBinary(r, c)
	var buf []float64
	for i := 0; i < r; i++ {
		row := rowOf(a, i, &buf)
		packed := b.rowBits[i*b.words : (i+1)*b.words]
		for w := range packed {
			word, bad := packWord(row[w*64 : min(len(row), (w+1)*64)])
			if bad >= 0 {
				j := w*64 + bad
				return nil, fmt.Errorf("cardmat: entry (%d, %d) is %v, not 0 or 1", i+1, j+1, row[j])
			}
			packed[w] = word
		}
	}
	return b, nil
}

// rowOf returns row i of a: a view for a *mat.Dense, else a copy in *buf.
func rowOf(a mat.Matrix, i int, buf *[]float64) []float64 {
	if d, ok := a.(*mat.Dense); ok {
		return d.RawRowView(i)
	}
	_, c := a.Dims()
	if len(*buf) != c {
		*buf = make([]float64, c)
	}
	return mat.Row(*buf, i, a)
}

// packWord packs up to 64 entries, the first in the lowest bit; bad is the
// index of the first entry that is not 0 or 1, or −1. The loop has no
// data-dependent branch: bit 61 of a float64 is set for 1 and clear for
// ±0, and v·(v−1) is zero exactly for 0 and 1 (NaN and ±Inf included).
func packWord(x []float64) (word uint64, bad int) {
	var off float64
	for t, v := range x {
		word |= (math.Float64bits(v) >> 61 & 1) << t
		off += math.Abs(v * (v - 1))
	}
	if off == 0 {
		return word, -1
	}
	for t, v := range x {
		if v != 0 && v != 1 {
			return 0, t
		}
	}
	return word, -1 // not reached: off ≠ 0 means an entry is neither
}

// Dims returns the shape.
func (b *Binary) Dims() (int, int) { return b.rows, b.cols }

// At returns entry (i, j), 0 or 1.
func (b *Binary) At(i, j int) float64 {
	if uint(i) >= uint(b.rows) || uint(j) >= uint(b.cols) {
		panic(mat.ErrIndexOutOfRange)
	}
	return float64(b.rowBits[i*b.words+j/64] >> (j % 64) & 1)
}

// T returns the transpose without copying, as a mat.Matrix.
func (b *Binary) T() mat.Matrix { return mat.Transpose{Matrix: b} }

// Dense returns the matrix as float64 zeros and ones.
func (b *Binary) Dense() *mat.Dense {
	out := mat.NewDense(b.rows, b.cols, nil)
	for i := 0; i < b.rows; i++ {
		row := out.RawRowView(i)
		packed := b.rowBits[i*b.words : (i+1)*b.words]
		for j := range row {
			row[j] = float64(packed[j/64] >> (j % 64) & 1)
		}
	}
	return out
}

// packColumns builds the column packing from the row packing, once.
func (b *Binary) packColumns() {
	b.colOnce.Do(func() {
		b.colWords = (b.rows + 63) / 64
		b.colBits = make([]uint64, b.cols*b.colWords)
		for i := 0; i < b.rows; i++ {
			packed := b.rowBits[i*b.words : (i+1)*b.words]
			for w, x := range packed {
				for x != 0 {
					j := w*64 + bits.TrailingZeros64(x)
					b.colBits[j*b.colWords+i/64] |= 1 << (i % 64)
					x &= x - 1
				}
			}
		}
	})
}

// PopcountMul returns the integer product a·b of two packed 0/1 matrices
// (a.cols must equal b.rows). Entry (i, j) is the popcount of row i of a
// AND column j of b: 64 multiply-adds per instruction, exact. Rows of the
// result are spread over the cores. MulMod2 is the product over GF(2).
func PopcountMul(a, b *Binary) *mat.Dense {
	if a.cols != b.rows {
		panic(mat.ErrShape)
	}
	b.packColumns()
	out := mat.NewDense(a.rows, b.cols, nil)
	parallelRows((a.rows+1)/2, a.rows*b.cols*a.words, func(lo, hi int) {
		for i := 2 * lo; i < min(2*hi, a.rows); i += 2 {
			popcountRows(out, a, b, i)
		}
	})
	return out
}

// popcountRows writes rows i and i+1 (when there is one) of the integer
// product, two rows by two columns at a time so that each loaded word
// serves two popcounts.
func popcountRows(out *mat.Dense, a, b *Binary, i int) {
	w := a.words
	r0 := a.rowBits[i*w : (i+1)*w]
	r1 := r0
	if i+1 < a.rows {
		r1 = a.rowBits[(i+1)*w : (i+2)*w]
	}
	o0 := out.RawRowView(i)
	o1 := o0
	if i+1 < a.rows {
		o1 = out.RawRowView(i + 1)
	}
	col := func(j int) []uint64 { return b.colBits[j*b.colWords : j*b.colWords+w] }
	j := 0
	for ; j+1 < b.cols; j += 2 {
		c0, c1 := col(j), col(j+1)
		var n00, n01, n10, n11 int
		for k, x := range r0 {
			y := r1[k]
			n00 += bits.OnesCount64(x & c0[k])
			n01 += bits.OnesCount64(x & c1[k])
			n10 += bits.OnesCount64(y & c0[k])
			n11 += bits.OnesCount64(y & c1[k])
		}
		o0[j], o0[j+1] = float64(n00), float64(n01)
		o1[j], o1[j+1] = float64(n10), float64(n11)
	}
	if j < b.cols {
		c0 := col(j)
		var n0, n1 int
		for k, x := range r0 {
			n0 += bits.OnesCount64(x & c0[k])
			n1 += bits.OnesCount64(r1[k] & c0[k])
		}
		o0[j], o1[j] = float64(n0), float64(n1)
	}
}

// stripBits is the number of columns of a whose rows of b are combined in
// one table: 2^8 = 256 table rows, the limit of Mul's paired tables.
const stripBits = 8

// tablesPerPass is the number of eight-column tables a row of the product
// XORs in one pass over its words.
const tablesPerPass = 4

// MulMod2 returns a·b over GF(2), packed. It is the source paper's table
// method on binary data: row i of the product is the sum of the rows k of b
// with a[i, k] = 1; grouping the columns of a by eight, each group's table
// holds the 256 sums (XORs) of its rows of b, so a row of the product XORs
// one table row per group. This is the method of the Four Russians (M4RM).
// Four tables are applied per pass over a row; rows of the result are
// spread over the cores, each building its own tables.
func MulMod2(a, b *Binary) *Binary {
	if a.cols != b.rows {
		panic(mat.ErrShape)
	}
	out := newBinary(a.rows, b.cols)
	w := b.words
	const group = tablesPerPass * stripBits
	full := a.cols / group * group // columns covered by whole groups
	parallelRows(a.rows, a.rows*a.cols*w/stripBits, func(lo, hi int) {
		tables := make([][]uint64, tablesPerPass)
		for t := range tables {
			tables[t] = make([]uint64, (1<<stripBits)*w)
		}
		for s := 0; s < full; s += group {
			for t, table := range tables {
				b.xorTable(table, s+t*stripBits, stripBits)
			}
			for i := lo; i < hi; i++ {
				x := a.bitsAt(i, s, group)
				xorFour(out.rowBits[i*w:(i+1)*w],
					tables[0][(x&0xff)*w:], tables[1][(x>>8&0xff)*w:],
					tables[2][(x>>16&0xff)*w:], tables[3][(x>>24)*w:])
			}
		}
		for s := full; s < a.cols; s += stripBits { // the last columns: one table at a time
			k := min(stripBits, a.cols-s)
			b.xorTable(tables[0], s, k)
			for i := lo; i < hi; i++ {
				x := a.bitsAt(i, s, k)
				xorInto(out.rowBits[i*w:(i+1)*w], tables[0][x*w:(x+1)*w])
			}
		}
	})
	return out
}

// xorTable fills table row x (x < 2^k) with the XOR of the rows s+t of b
// for the bits t set in x: each row is an earlier row XOR one row of b.
func (b *Binary) xorTable(table []uint64, s, k int) {
	w := b.words
	clear(table[:w])
	for x := 1; x < 1<<k; x++ {
		low := bits.TrailingZeros(uint(x))
		prev := table[(x&^(1<<low))*w:]
		row := b.rowBits[(s+low)*w : (s+low+1)*w]
		dst := table[x*w : (x+1)*w]
		prev = prev[:len(dst)]
		for c := range dst {
			dst[c] = prev[c] ^ row[c]
		}
	}
}

// bitsAt returns the k ≤ 64 bits of row i from column s on, column s in the
// lowest bit.
func (b *Binary) bitsAt(i, s, k int) int {
	row := b.rowBits[i*b.words : (i+1)*b.words]
	x := row[s/64] >> (s % 64)
	if s%64+k > 64 {
		x |= row[s/64+1] << (64 - s%64)
	}
	return int(x & (1<<k - 1))
}

func xorInto(dst, x []uint64) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] ^= x[i]
	}
}

// xorFour XORs the first len(dst) words of a, b, c and d into dst.
func xorFour(dst, a, b, c, d []uint64) {
	n := len(dst)
	a, b, c, d = a[:n], b[:n], c[:n], d[:n]
	for i := range dst {
		dst[i] ^= a[i] ^ b[i] ^ c[i] ^ d[i]
	}
}
