package cardmat

import (
	"fmt"
	"math/bits"

	"gonum.org/v1/gonum/mat"
)

// Binary is a 0/1 matrix bit-packed both by rows and by columns, so that a
// product's entry is the popcount of a row of one factor AND a column of
// the other: 64 multiply-adds per instruction, exact integer counts.
type Binary struct {
	rows, cols int
	words      int      // 64-bit words per packed row (over the columns)
	rowBits    []uint64 // row i: rowBits[i*words : (i+1)*words]
	colWords   int      // words per packed column (over the rows)
	colBits    []uint64 // column j: colBits[j*colWords : (j+1)*colWords]
}

// EncodeBinary packs a matrix whose entries are all 0 or 1; anything else
// is an error naming the entry.
func EncodeBinary(a mat.Matrix) (*Binary, error) {
	r, c := a.Dims()
	b := &Binary{rows: r, cols: c, words: (c + 63) / 64, colWords: (r + 63) / 64}
	b.rowBits = make([]uint64, r*b.words)
	b.colBits = make([]uint64, c*b.colWords)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			switch v := a.At(i, j); v {
			case 0:
			case 1:
				b.rowBits[i*b.words+j/64] |= 1 << (j % 64)
				b.colBits[j*b.colWords+i/64] |= 1 << (i % 64)
			default:
				return nil, fmt.Errorf("cardmat: entry (%d, %d) is %v, not 0 or 1", i+1, j+1, v)
			}
		}
	}
	return b, nil
}

// Dims returns the shape.
func (b *Binary) Dims() (int, int) { return b.rows, b.cols }

// BinaryMul returns the integer product a·b of two packed 0/1 matrices
// (a.cols must equal b.rows), or its entries modulo 2 when mod2 is set (the
// product over GF(2)). Rows of the result are spread over the cores.
func BinaryMul(a, b *Binary, mod2 bool) *mat.Dense {
	if a.cols != b.rows {
		panic(mat.ErrShape)
	}
	out := mat.NewDense(a.rows, b.cols, nil)
	parallelRows(a.rows, a.rows*b.cols*a.words, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			ar := a.rowBits[i*a.words : (i+1)*a.words]
			row := out.RawRowView(i)
			for j := range row {
				bc := b.colBits[j*b.colWords : (j+1)*b.colWords]
				n := 0
				for w, x := range ar {
					n += bits.OnesCount64(x & bc[w])
				}
				if mod2 {
					n &= 1
				}
				row[j] = float64(n)
			}
		}
	})
	return out
}
