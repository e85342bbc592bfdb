package matmulbase

import (
	"errors"
	"fmt"
	"math/bits"

	"gonum.org/v1/gonum/mat"
)

// DefaultFourRussiansK is the default strip width k for FourRussians.
const DefaultFourRussiansK = 8

// maxFourRussiansK is the largest strip width accepted by FourRussians; its
// tables hold 2^k rows.
const maxFourRussiansK = 16

// Bits is a dense 0/1 matrix over GF(2), stored by rows with 64 entries per
// uint64 word. Entry (i, j) is bit j%64 of word j/64 of row i, and the unused
// high bits of the last word of each row are always zero. A Bits is created
// by PackBits or returned by FourRussians.
type Bits struct {
	rows, cols int
	stride     int // Words per row.
	data       []uint64
}

// newBits returns a zero r×c Bits.
func newBits(r, c int) *Bits {
	stride := (c + 63) / 64
	return &Bits{rows: r, cols: c, stride: stride, data: make([]uint64, r*stride)}
}

// Dims returns the number of rows and columns of the matrix.
func (b *Bits) Dims() (r, c int) {
	return b.rows, b.cols
}

// row returns the words of row i.
func (b *Bits) row(i int) []uint64 {
	return b.data[i*b.stride : (i+1)*b.stride]
}

// strip returns the kk ≤ 64 bits of row i in columns start, …, start+kk−1,
// with column start in the lowest bit.
func (b *Bits) strip(i, start, kk int) int {
	r := b.row(i)
	w, off := start/64, uint(start%64)
	v := r[w] >> off
	if off+uint(kk) > 64 {
		v |= r[w+1] << (64 - off)
	}
	return int(v & (1<<uint(kk) - 1))
}

// PackBits returns a bit-packed copy of a, whose entries must all be 0 or 1.
// It returns an error naming the 1-based row and column of the first entry
// in row-major order that is neither 0 nor 1 (NaN included), or an error if
// a has no entries.
func PackBits(a mat.Matrix) (*Bits, error) {
	p, err := packBits(a)
	if err != nil {
		return nil, fmt.Errorf("matmulbase: PackBits: %w", err)
	}
	return p, nil
}

// packBits implements PackBits with an unprefixed error.
func packBits(a mat.Matrix) (*Bits, error) {
	r, c := a.Dims()
	if r == 0 || c == 0 {
		return nil, errors.New("empty matrix")
	}
	p := newBits(r, c)
	for i := 0; i < r; i++ {
		row := p.row(i)
		for j := 0; j < c; j++ {
			switch v := a.At(i, j); v {
			case 0:
			case 1:
				row[j/64] |= 1 << uint(j%64)
			default:
				return nil, fmt.Errorf("row %d, column %d: entry %v is not 0 or 1", i+1, j+1, v)
			}
		}
	}
	return p, nil
}

// Dense returns the matrix as a *mat.Dense with entries 0 and 1. Like
// mat.NewDense, it panics with mat.ErrZeroLength if the matrix is empty.
func (b *Bits) Dense() *mat.Dense {
	d := mat.NewDense(b.rows, b.cols, nil)
	raw := d.RawMatrix()
	for i := 0; i < b.rows; i++ {
		row, out := b.row(i), raw.Data[i*raw.Stride:i*raw.Stride+b.cols]
		for j := range out {
			out[j] = float64(row[j/64] >> uint(j%64) & 1)
		}
	}
	return d
}

// FourRussians returns the product a·b over GF(2), that is the integer
// product reduced mod 2, computed with the method of the Four Russians
// (M4RM). The columns of a are split into strips of k bits (the last strip
// may be narrower). For each strip, a table of all 2^k XOR-combinations of
// the corresponding k rows of b is built in Gray-code order, so that each
// entry costs a single row XOR; then each row of the result XORs in the
// table entry selected by the k bits of the row of a in that strip.
//
// FourRussians panics with mat.ErrShape if the number of columns of a differs
// from the number of rows of b, and panics if k is outside [1, 16].
func FourRussians(a, b *Bits, k int) *Bits {
	if a.cols != b.rows {
		panic(mat.ErrShape)
	}
	if k < 1 || k > maxFourRussiansK {
		panic(fmt.Sprintf("matmulbase: FourRussians: k = %d outside [1, %d]", k, maxFourRussiansK))
	}
	c := newBits(a.rows, b.cols)
	table := make([]uint64, (1<<uint(k))*b.stride)
	for start := 0; start < a.cols; start += k {
		kk := min(k, a.cols-start)
		grayTable(table, b, start, kk)
		xorStrip(c, a, table, start, kk)
	}
	return c
}

// grayTable fills the first 2^kk rows of table, each b.stride words long, so
// that row g is the XOR of the rows start+t of b over the bits t set in g.
// Rows are produced in Gray-code order, each from its predecessor by one XOR.
func grayTable(table []uint64, b *Bits, start, kk int) {
	w := b.stride
	clear(table[:w])
	for i := 1; i < 1<<uint(kk); i++ {
		g, prev := i^(i>>1), (i-1)^((i-1)>>1)
		src := b.row(start + bits.TrailingZeros(uint(i)))
		dst, old := table[g*w:(g+1)*w], table[prev*w:(prev+1)*w]
		for j := range dst {
			dst[j] = old[j] ^ src[j]
		}
	}
}

// xorStrip XORs into each row i of c the table row selected by the bits of
// row i of a in columns start, …, start+kk−1.
func xorStrip(c, a *Bits, table []uint64, start, kk int) {
	w := c.stride
	for i := 0; i < c.rows; i++ {
		g := a.strip(i, start, kk)
		if g == 0 {
			continue
		}
		dst, src := c.row(i), table[g*w:(g+1)*w]
		for j := range dst {
			dst[j] ^= src[j]
		}
	}
}

// FourRussiansDense packs a and b with PackBits, multiplies them over GF(2)
// with FourRussians and DefaultFourRussiansK, and returns the unpacked
// product. It returns an error if an operand has an entry that is not 0 or 1,
// and panics with mat.ErrShape if the number of columns of a differs from the
// number of rows of b.
func FourRussiansDense(a, b *mat.Dense) (*mat.Dense, error) {
	_, n := a.Dims()
	if r, _ := b.Dims(); n != r {
		panic(mat.ErrShape)
	}
	pa, err := packBits(a)
	if err != nil {
		return nil, fmt.Errorf("matmulbase: FourRussiansDense: a: %w", err)
	}
	pb, err := packBits(b)
	if err != nil {
		return nil, fmt.Errorf("matmulbase: FourRussiansDense: b: %w", err)
	}
	return FourRussians(pa, pb, DefaultFourRussiansK).Dense(), nil
}
