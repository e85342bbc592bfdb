package cardmat

import (
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// The speed ratios are how many of Mul's table additions take the time of
// one of gonum's dense multiply-adds, read off the crossovers measured on
// the reference machine (2 cores; bench/README.md, "Crossover"): 2 while
// the output fits in cache, 1.25 beyond largeOutput entries, where both
// products are bound by writing the output.
const (
	speedRatioSmall = 2.0
	speedRatioLarge = 1.25
	largeOutput     = 1 << 20
)

// Choice is the outcome of Choose: whether the compressed product is
// expected to beat gonum's dense product, and the estimates behind it.
type Choice struct {
	// Compressed is true when Mul on the compressed form is expected to be
	// faster than mat.Dense.Mul.
	Compressed bool
	// DenseWork is the dense product's multiply-adds: gonum skips the zero
	// entries of the left factor, so it is (nonzero entries)·N.
	DenseWork float64
	// CompressedWork is Mul's additions and multiplications (Ops) for the
	// given N.
	CompressedWork float64
}

// Choose estimates, for the product of m with a P×n matrix, whether the
// compressed form pays: Mul's operation count weighted by a measured
// per-operation speed ratio, against the dense multiply-adds. Encoding is
// not counted: it is paid once per matrix.
func (m *Matrix) Choose(n int) Choice {
	ops := m.mulOps(n)
	work := float64(ops.Additions + ops.Multiplications)
	ratio := speedRatioSmall
	if m.rows*n > largeOutput {
		ratio = speedRatioLarge
	}
	dense := float64(m.nonzeros) * float64(n)
	return Choice{Compressed: ratio*work < dense, DenseWork: dense, CompressedWork: work}
}

var (
	_ solver.Design = (*Auto)(nil)
	_ solver.Gramer = (*Auto)(nil)
)

// Auto holds a matrix both dense and compressed and multiplies with
// whichever Choose prefers for the shape at hand; the results agree to
// rounding. It implements solver.Design and solver.Gramer, and selects
// rows for cross-validation. Xᵀ·R and XᵀX always use the dense form: the
// compressed ones replace multiply-adds by as many additions, which gonum's
// kernels do faster.
type Auto struct {
	dense      *mat.Dense
	compressed *Matrix
}

// NewAuto encodes a and keeps a dense copy.
func NewAuto(a mat.Matrix) (*Auto, error) {
	c, err := Encode(a)
	if err != nil {
		return nil, err
	}
	return &Auto{dense: mat.DenseCopyOf(a), compressed: c}, nil
}

// Dims returns the shape.
func (a *Auto) Dims() (int, int) { return a.dense.Dims() }

// Compressed returns the compressed form.
func (a *Auto) Compressed() *Matrix { return a.compressed }

// Mul writes a·b into dst (sized automatically when empty).
func (a *Auto) Mul(dst *mat.Dense, b mat.Matrix) {
	if _, n := b.Dims(); a.compressed.Choose(n).Compressed {
		a.compressed.Mul(dst, b)
		return
	}
	dst.Mul(a.dense, b)
}

// MulTrans writes aᵀ·r into dst (sized automatically when empty).
func (a *Auto) MulTrans(dst *mat.Dense, r mat.Matrix) { dst.Mul(a.dense.T(), r) }

// Gram writes aᵀa into dst with gonum's symmetric rank-k update. It
// implements solver.Gramer.
func (a *Auto) Gram(dst *mat.SymDense) {
	_, c := a.dense.Dims()
	if dst.IsEmpty() {
		dst.ReuseAsSym(c)
	}
	dst.SymOuterK(1, a.dense.T())
}

// SelectRows returns the rows given, in order, in both forms, for
// cross-validation folds.
func (a *Auto) SelectRows(rows []int) solver.Design {
	_, c := a.dense.Dims()
	d := mat.NewDense(len(rows), c, nil)
	for t, i := range rows {
		d.SetRow(t, a.dense.RawRowView(i))
	}
	return &Auto{dense: d, compressed: a.compressed.SelectRows(rows).(*Matrix)}
}
