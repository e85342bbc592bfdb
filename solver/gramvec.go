package solver

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/cardsparse/cardreg/internal/kernel"
)

// gramVecMin is the smallest p for which mulGram calls kernel.MulVec.
// Below it the product costs little either way, and the small fits keep
// gonum's bits: proximal Newton on a penalty without a duality gap (the
// general penalty of a GLM) stops when a line search finds no decrease, and
// whether that happens before its stall rule depends on the last bits of the
// models' Lipschitz constants (estimator's TestGeneralPenaltyEveryFamily,
// gamma, p = 6, stalls with the kernel's summation order).
const gramVecMin = 64

// mulGram writes H·Θ into dst (sized automatically when empty; else it
// panics unless p×q), H = XᵀX of a loss in Gram form. A thin Θ (at most thinCols columns: FISTA's and
// Lanczos's vectors) is multiplied column by column by kernel.MulVec, a Dot
// per row of H, split over the cores for a large H: gonum's Dgemv runs on
// one core, and at p = 2000 the 32 MB of H stream from memory at every
// product (1.2–1.4 times faster in wall time at p = 500 and 1000 on
// two cores, both cores' bandwidth at 2000: go test ./internal/kernel -run X
// -bench MulVec, against gonum's one-core Dgemv). A wider Θ, or a small H (p below
// gramVecMin), goes to Mul.
func (ls *LeastSquares) mulGram(dst *mat.Dense, theta mat.Matrix) {
	p, q := theta.Dims()
	if dst.IsEmpty() {
		dst.ReuseAs(p, q)
	}
	if r, c := dst.Dims(); r != p || c != q {
		panic(mat.ErrShape)
	}
	if q > thinCols || p < gramVecMin {
		Mul(dst, ls.hd, theta)
		return
	}
	h := ls.hd.RawMatrix()
	out := dst.RawMatrix()
	if q == 1 && out.Stride == 1 {
		kernel.MulVec(out.Data, h.Data, p, p, h.Stride, ls.column(theta, 0))
		return
	}
	if len(ls.outBuf) != p {
		ls.outBuf = make([]float64, p)
	}
	col := ls.outBuf
	for j := 0; j < q; j++ {
		kernel.MulVec(col, h.Data, p, p, h.Stride, ls.column(theta, j))
		dst.SetCol(j, col)
	}
}

// column returns column j of m: a view of a contiguous column vector,
// else a copy in the loss's buffer.
func (ls *LeastSquares) column(m mat.Matrix, j int) []float64 {
	p, q := m.Dims()
	if d, ok := m.(*mat.Dense); ok && q == 1 {
		if raw := d.RawMatrix(); raw.Stride == 1 {
			return raw.Data[:p]
		}
	}
	if v, ok := m.(*mat.VecDense); ok {
		if raw := v.RawVector(); raw.Inc == 1 {
			return raw.Data[:p]
		}
	}
	if len(ls.colBuf) != p {
		ls.colBuf = make([]float64, p)
	}
	return mat.Col(ls.colBuf, j, m)
}

// fullView copies the upper triangle of h into its lower one, which a
// SymDense stores but never reads, and returns the full matrix as a Dense
// on the same storage: no second p×p copy (32 MB at p = 2000). Tiles of
// mirrorTile² keep both the rows read and the columns written in cache.
// Whoever changes h afterwards must change the view too.
func fullView(h *mat.SymDense) *mat.Dense {
	raw := h.RawSymmetric()
	p, s, d := raw.N, raw.Stride, raw.Data
	if raw.Uplo != blas.Upper {
		panic("solver: a SymDense not stored in its upper triangle")
	}
	for j0 := 0; j0 < p; j0 += mirrorTile {
		for i0 := j0; i0 < p; i0 += mirrorTile {
			for j := j0; j < min(j0+mirrorTile, p); j++ {
				row := d[j*s : j*s+p]
				for i := max(i0, j+1); i < min(i0+mirrorTile, p); i++ {
					d[i*s+j] = row[i]
				}
			}
		}
	}
	var full mat.Dense
	if p > 0 {
		full.SetRawMatrix(blas64.General{Rows: p, Cols: p, Stride: s, Data: d[:(p-1)*s+p]})
	}
	return &full
}

// mirrorTile is the tile size of fullView's copy.
const mirrorTile = 64
