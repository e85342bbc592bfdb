package lsfit

import (
	"math"

	"github.com/cardsparse/cardreg/internal/kernel"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// scaledDesign is the design (X − 1·meanᵀ)·diag(1/scale) without forming
// it, so that structured designs (Gram forms, compressed matrices) keep their
// structure; mean or scale may be nil.
type scaledDesign struct {
	x     solver.Design
	mean  []float64
	scale []float64
}

var _ solver.Design = (*scaledDesign)(nil)

func (d *scaledDesign) Dims() (int, int) { return d.x.Dims() }

// Mul writes (X − 1mᵀ)S⁻¹B = X(S⁻¹B) − 1·(mᵀS⁻¹B).
func (d *scaledDesign) Mul(dst *mat.Dense, b mat.Matrix) {
	sb := mat.DenseCopyOf(b)
	p, q := sb.Dims()
	if d.scale != nil {
		for i := 0; i < p; i++ {
			for j := 0; j < q; j++ {
				sb.Set(i, j, sb.At(i, j)/d.scale[i])
			}
		}
	}
	d.x.Mul(dst, sb)
	if d.mean == nil {
		return
	}
	n, _ := dst.Dims()
	for j := 0; j < q; j++ {
		var s float64
		for i := 0; i < p; i++ {
			s += d.mean[i] * sb.At(i, j)
		}
		for i := 0; i < n; i++ {
			dst.Set(i, j, dst.At(i, j)-s)
		}
	}
}

// MulTrans writes S⁻¹(X − 1mᵀ)ᵀR = S⁻¹(XᵀR − m·(1ᵀR)).
func (d *scaledDesign) MulTrans(dst *mat.Dense, r mat.Matrix) {
	d.x.MulTrans(dst, r)
	p, q := dst.Dims()
	n, _ := r.Dims()
	for j := 0; j < q; j++ {
		var colSum float64
		if d.mean != nil {
			for i := 0; i < n; i++ {
				colSum += r.At(i, j)
			}
		}
		for i := 0; i < p; i++ {
			v := dst.At(i, j)
			if d.mean != nil {
				v -= d.mean[i] * colSum
			}
			if d.scale != nil {
				v /= d.scale[i]
			}
			dst.Set(i, j, v)
		}
	}
}

// gram writes S⁻¹(XᵀX − n·mmᵀ)S⁻¹ when the inner design has a Gram form.
// The identity (X − 1mᵀ)ᵀ(X − 1mᵀ) = XᵀX − n·mmᵀ holds only because m is the
// vector of column means, which columnMoments guarantees.
func (d *scaledDesign) gram(dst *mat.SymDense, g solver.Gramer) {
	g.Gram(dst)
	n, p := d.x.Dims()
	for i := 0; i < p; i++ {
		for j := i; j < p; j++ {
			v := dst.At(i, j)
			if d.mean != nil {
				v -= float64(n) * d.mean[i] * d.mean[j]
			}
			if d.scale != nil {
				v /= d.scale[i] * d.scale[j]
			}
			dst.SetSym(i, j, v)
		}
	}
}

// gramDesign adds the Gram capability to a scaledDesign whose inner design
// has it.
type gramDesign struct {
	*scaledDesign
	g solver.Gramer
}

func (d gramDesign) Gram(dst *mat.SymDense) { d.gram(dst, d.g) }

// columnMoments returns the column means of X and, when scale is set, the
// population standard deviations √(Σ(x − x̄)²/n), the convention of glmnet.
// A constant column gets scale 1, so that it is left as it is.
func columnMoments(x solver.Design, scale bool) (mean, sd []float64) {
	n, p := x.Dims()
	ones := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i++ {
		ones.Set(i, 0, 1)
	}
	var s mat.Dense
	x.MulTrans(&s, ones)
	mean = make([]float64, p)
	for i := range mean {
		mean[i] = s.At(i, 0) / float64(n)
	}
	if !scale {
		return mean, nil
	}
	sd = make([]float64, p)
	size := make([]float64, p) // each column's own scale
	if dd, ok := x.(solver.DenseDesign); ok {
		for i := 0; i < n; i++ {
			for j, v := range dd.X.RawRowView(i)[:p] {
				d := v - mean[j]
				sd[j] += d * d
				size[j] = math.Max(size[j], math.Abs(v))
			}
		}
		for j := range sd {
			sd[j] = math.Sqrt(sd[j] / float64(n))
		}
	} else {
		// Diagonal of XᵀX from one product per column would cost p
		// products; the Gram form gives it at once.
		g := x.(solver.Gramer) // prepare checked it
		var h mat.SymDense
		g.Gram(&h)
		for j := 0; j < p; j++ {
			sd[j] = math.Sqrt(math.Max(h.At(j, j)/float64(n)-mean[j]*mean[j], 0))
			size[j] = math.Sqrt(h.At(j, j) / float64(n)) // root mean square
		}
	}
	for j, v := range sd {
		if NegligibleSpread(v, size[j]) {
			sd[j] = 1
		}
	}
	return mean, sd
}

// constancyRatio is the spread, relative to a column's own magnitude,
// below which the column counts as constant: rounding in its mean leaves
// a spread of about 1e-16 of its magnitude on a truly constant column,
// while any column of real values varies far more, at any scale.
const constancyRatio = 1e-12

// NegligibleSpread reports whether a column with standard deviation sd and
// magnitude size (its largest absolute value, or root mean square) is
// constant as far as float64 can tell: sd at most 1e-12 of size. It is the
// one rule of constancy (IsConstant, fit.Options.Standardize, and statistics
// that no longer have the rows).
func NegligibleSpread(sd, size float64) bool { return !(sd > constancyRatio*size) }

// IsConstant reports whether a column is constant relative to its own
// scale (the rule fit.Options.Standardize uses: a spread below 1e-12 of its
// magnitude): a column × 1e-12 is not constant, a column of one value is,
// whatever its magnitude.
func IsConstant(col []float64) bool {
	if len(col) == 0 {
		return true
	}
	return constantColumns(mat.NewDense(len(col), 1, col), nil)[0]
}

// constantColumns reports, for each column of x, whether it is constant
// (IsConstant), reading x row by row. size holds each column's largest
// magnitude, or is nil to have it computed.
func constantColumns(x *mat.Dense, size []float64) []bool {
	n, p := x.Dims()
	if size == nil {
		size = columnMaxAbs(x)
	}
	// Scale first, so that neither the sum nor the squares overflow or
	// underflow at extreme magnitudes.
	inv := make([]float64, p)
	for j, s := range size {
		if s > 0 {
			inv[j] = 1 / s
		}
	}
	mean := make([]float64, p)
	for i := range n {
		for j, v := range x.RawRowView(i)[:p] {
			mean[j] += v * inv[j]
		}
	}
	ss := make([]float64, p)
	for j := range mean {
		mean[j] /= float64(n)
	}
	for i := range n {
		for j, v := range x.RawRowView(i)[:p] {
			d := v*inv[j] - mean[j]
			ss[j] += d * d
		}
	}
	out := make([]bool, p)
	for j := range out {
		out[j] = size[j] == 0 || NegligibleSpread(math.Sqrt(ss[j]/float64(n)), 1)
	}
	return out
}

// columnMaxAbsFinite is columnMaxAbs, and whether every entry of x is
// finite, from the same pass: the magnitudes are compared as the bits of
// |v|, which order finite non-negative doubles as their values and put
// +Inf and every NaN above them (a float comparison would let a NaN pass).
func columnMaxAbsFinite(x *mat.Dense) ([]float64, bool) {
	n, p := x.Dims()
	top := make([]uint64, p)
	for i := range n {
		row := x.RawRowView(i)[:p]
		top := top[:len(row)]
		for j, v := range row {
			if b := math.Float64bits(v) &^ signBit; b > top[j] {
				top[j] = b
			}
		}
	}
	out := make([]float64, p)
	ok := true
	for j, b := range top {
		out[j] = math.Float64frombits(b)
		ok = ok && b < infBits
	}
	return out, ok
}

// signBit and infBits are the sign bit of a float64 and the bits of +Inf.
const (
	signBit = 1 << 63
	infBits = 0x7FF0000000000000
)

// columnMaxAbs returns the largest magnitude of each column of x, reading
// it row by row.
func columnMaxAbs(x *mat.Dense) []float64 {
	n, p := x.Dims()
	out := make([]float64, p)
	for i := range n {
		for j, v := range x.RawRowView(i)[:p] {
			if a := math.Abs(v); a > out[j] {
				out[j] = a
			}
		}
	}
	return out
}

// transformColumns returns the centred (mean, when not nil) and scaled (sd,
// when not nil) x as a solver.ColumnDesign, written tile by tile so that
// the reads of x's rows and the writes of its columns both stay in cache.
func transformColumns(x *mat.Dense, mean, sd []float64) solver.ColumnDesign {
	n, p := x.Dims()
	shift := mean
	if shift == nil {
		shift = make([]float64, p)
	}
	out := mat.NewDense(p, n, nil)
	raw, dst := x.RawMatrix(), out.RawMatrix().Data
	const tile = 32
	for i0 := 0; i0 < n; i0 += tile {
		for j0 := 0; j0 < p; j0 += tile {
			j1 := min(j0+tile, p)
			for i := i0; i < min(i0+tile, n); i++ {
				row := raw.Data[i*raw.Stride+j0 : i*raw.Stride+j1]
				if sd == nil { // no division in the common case
					for j, v := range row {
						dst[(j0+j)*n+i] = v - shift[j0+j]
					}
					continue
				}
				for j, v := range row {
					dst[(j0+j)*n+i] = (v - shift[j0+j]) / sd[j0+j]
				}
			}
		}
	}
	return solver.ColumnDesign{XT: out}
}

// transform returns the design the solver sees: centred when intercept,
// scaled when sd != nil. Dense designs are materialised, which keeps the
// fast dense Gram product.
func transform(x solver.Design, mean, sd []float64) solver.Design {
	if mean == nil && sd == nil {
		return x
	}
	if dd, ok := x.(solver.DenseDesign); ok {
		n, p := dd.X.Dims()
		out := mat.NewDense(n, p, nil)
		shift := mean
		if shift == nil {
			shift = make([]float64, p)
		}
		for i := range n {
			row, src := out.RawRowView(i), dd.X.RawRowView(i)[:p]
			if sd == nil {
				for j, v := range src {
					row[j] = v - shift[j]
				}
				continue
			}
			for j, v := range src {
				row[j] = (v - shift[j]) / sd[j]
			}
		}
		return solver.DenseDesign{X: out}
	}
	sdes := &scaledDesign{x: x, mean: mean, scale: sd}
	if g, ok := x.(solver.Gramer); ok {
		return gramDesign{sdes, g}
	}
	return sdes
}

// mulDesign writes x·b into dst (n×q, allocated): for a dense design and one
// column, by kernel.MulVec, a Dot per row with the rows split over the
// cores (gonum's Dgemv is one core and slower: the fitted values of a
// 5000×2000 fit stream 80 MB); else through the design's own Mul.
func mulDesign(dst *mat.Dense, x solver.Design, b *mat.Dense) {
	dd, ok := x.(solver.DenseDesign)
	_, q := b.Dims()
	if !ok || q != 1 {
		x.Mul(dst, b)
		return
	}
	raw := dd.X.RawMatrix()
	out := dst.RawMatrix()
	col := mat.Col(nil, 0, b)
	if out.Stride == 1 {
		kernel.MulVec(out.Data, raw.Data, raw.Rows, raw.Cols, raw.Stride, col)
		return
	}
	y := make([]float64, raw.Rows)
	kernel.MulVec(y, raw.Data, raw.Rows, raw.Cols, raw.Stride, col)
	dst.SetCol(0, y)
}
