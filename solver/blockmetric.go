package solver

import (
	"math"

	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// blockMetric is FISTA's step in a metric that is a multiple of the
// identity on each block of a penalty.Blocks: the proximal gradient step
// from y is
//
//	x⁺ = argmin_x ⟨∇f(y), x⟩ + (L/2)·Σ_b d_b‖x_b − y_b‖² + λh(x),
//
// whose prox is each block's own prox at step λ/(L·d_b) (h is separable
// over the blocks), with d_b = λ_max(X_bᵀX_b) the block's own curvature and
// L the Lipschitz constant of ∇f in that metric, 2λ_max(D^-½XᵀXD^-½) ≤ 2·(the
// number of blocks). One step 1/L for all rows is 1/(2λ_max(XᵀX)): with a
// numeric column beside a factor's dummies (‖x‖² ≈ n against a level's
// count), the levels moved by steps n/count times too short, and a
// 10⁴-level ordinal fit stopped at 20 000 iterations with a gap of 0.27.
type blockMetric struct {
	pen *penalty.Blocks
	d   []float64 // d_b of each row's block
	db  []float64 // d_b of each block
	L   float64
}

// metricScratch holds one FISTA run's buffers for blockMetric.step (the
// metric itself is shared by the fits of a path).
type metricScratch struct {
	taus []float64
	v    *mat.Dense
}

// blockMetricSpread is the ratio of the largest to the smallest block
// curvature d_b above which FISTA steps in the block metric; below, one
// step is nearly as long for every block and the plain step is kept.
const blockMetricSpread = 4

// newBlockMetric returns the block metric of p, or nil when p's penalty
// is not a penalty.Blocks of at least two blocks, its loss not a
// LeastSquares held by its rows, or the blocks' curvatures within
// blockMetricSpread. The loss keeps it for the next fit with the same
// penalty.
//
// Least squares in Gram form keeps the plain step: a factor of 256 levels
// or more is held by its non-zero entries without a Gram form (lsfit's
// factor layout), which is where the plain step cost 10⁴ iterations;
// below, an iteration costs p² and polishing ends the fit exactly, and the
// fits in Gram form (the family fits' dense Newton models, the bindings'
// small fits) stay as they were. A family fit's sparse Newton model
// (datafit's projectedDesign: 256 factor columns or more) has no Gram
// form and takes the metric, computed anew at each Newton step (a few
// per cent of a fit's time, measured on a 300-level Poisson fit).
func newBlockMetric(p Problem) *blockMetric {
	pen, ok := p.Penalty.(*penalty.Blocks)
	ls, ok2 := p.Loss.(*LeastSquares)
	if !ok || !ok2 || len(pen.Blocks()) < 2 || ls.gramer != nil || ls.h != nil {
		return nil
	}
	if ls.metricPen != pen {
		ls.metric, ls.metricPen = computeBlockMetric(ls, pen), pen
	}
	return ls.metric
}

// computeBlockMetric is newBlockMetric's computation: 2 + 40 products per
// block (Lanczos) and 40 for L.
func computeBlockMetric(ls *LeastSquares, pen *penalty.Blocks) *blockMetric {
	rows, _ := ls.Dims()
	blocks := pen.Blocks()
	m := &blockMetric{pen: pen, d: make([]float64, rows), db: make([]float64, len(blocks))}
	var top float64
	for k, blk := range blocks {
		m.db[k] = blockCurvature(ls, blk.Rows)
		top = math.Max(top, m.db[k])
	}
	if !(top > 0) || math.IsInf(top, 0) {
		return nil
	}
	low := math.Inf(1)
	for k, blk := range blocks {
		// A block without curvature (columns that are zero after
		// centring) takes any step; a floor keeps its step finite.
		m.db[k] = math.Max(m.db[k], 1e-9*top)
		low = math.Min(low, m.db[k])
		for _, i := range blk.Rows {
			m.d[i] = m.db[k]
		}
	}
	if top < blockMetricSpread*low {
		return nil
	}
	m.L = 2 * 1.01 * topEigen(rows, func(w *mat.Dense, v *mat.VecDense) {
		u := mat.NewVecDense(rows, nil)
		for i := 0; i < rows; i++ {
			u.SetVec(i, v.AtVec(i)/math.Sqrt(m.d[i]))
		}
		ls.apply(w, u)
		for i := 0; i < rows; i++ {
			w.Set(i, 0, w.At(i, 0)/math.Sqrt(m.d[i]))
		}
	})
	if !(m.L > 0) || math.IsInf(m.L, 0) {
		return nil
	}
	return m
}

// blockCurvature returns λ_max(X_bᵀX_b) for the columns rows of the loss's
// design, by Lanczos on the block's coordinates.
func blockCurvature(ls *LeastSquares, rows []int) float64 {
	p, _ := ls.Dims()
	return topEigen(len(rows), func(w *mat.Dense, v *mat.VecDense) {
		u := mat.NewVecDense(p, nil)
		for t, i := range rows {
			u.SetVec(i, v.AtVec(t))
		}
		var full mat.Dense
		ls.apply(&full, u)
		if w.IsEmpty() {
			w.ReuseAs(len(rows), 1)
		}
		for t, i := range rows {
			w.Set(t, 0, full.At(i, 0))
		}
	})
}

// step writes into dst the proximal gradient step from y with gradient
// grad at λ in the metric, using the buffers of sc.
func (m *blockMetric) step(dst, y, grad *mat.Dense, lambda float64, sc *metricScratch) {
	rows, cols := y.Dims()
	if sc.v == nil {
		sc.v, sc.taus = mat.NewDense(rows, cols, nil), make([]float64, len(m.db))
	}
	for i := 0; i < rows; i++ {
		h := 1 / (m.L * m.d[i])
		for j := 0; j < cols; j++ {
			sc.v.Set(i, j, y.At(i, j)-h*grad.At(i, j))
		}
	}
	for k, d := range m.db {
		sc.taus[k] = lambda / (m.L * d)
	}
	m.pen.ProxBlocks(dst, sc.v, sc.taus)
}

// inner returns ⟨a, D·b⟩, the metric's inner product, for FISTA's restart
// test.
func (m *blockMetric) inner(a, b *mat.Dense) float64 {
	rows, cols := a.Dims()
	var s float64
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			s += a.At(i, j) * m.d[i] * b.At(i, j)
		}
	}
	return s
}
