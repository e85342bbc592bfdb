package solver

import (
	"math"
	"runtime"
	"sync"

	"github.com/cardsparse/cardreg/internal/kernel"
	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Design is a linear map X: ℝ^p → ℝ^n applied to the columns of a matrix.
// Dense matrices, Gram forms and compressed matrices implement it, so one
// solver runs on all of them.
type Design interface {
	// Dims returns n and p.
	Dims() (n, p int)
	// Mul writes X·B (n×q) into dst, sized automatically when empty.
	Mul(dst *mat.Dense, b mat.Matrix)
	// MulTrans writes Xᵀ·R (p×q) into dst, sized automatically when empty.
	MulTrans(dst *mat.Dense, r mat.Matrix)
}

// RowSelector is a design that can restrict itself to a subset of its rows,
// which cross-validation, mini-batches and validation splits need on a
// design that is not dense (cardmat.Matrix implements it).
type RowSelector interface {
	Design
	// SelectRows returns the design made of the given rows, in order.
	SelectRows(rows []int) Design
}

// Gramer is a design that computes XᵀX directly, faster than p products.
type Gramer interface {
	// Gram writes XᵀX into dst, sized automatically when empty.
	Gram(dst *mat.SymDense)
}

// DenseDesign is a Design backed by a dense n×p matrix.
type DenseDesign struct {
	// X is the n×p design matrix; it is not copied.
	X *mat.Dense
}

var (
	_ Design = DenseDesign{}
	_ Gramer = DenseDesign{}
)

// Dims returns the shape of X.
func (d DenseDesign) Dims() (n, p int) { return d.X.Dims() }

// Mul writes X·B into dst.
func (d DenseDesign) Mul(dst *mat.Dense, b mat.Matrix) { Mul(dst, d.X, b) }

// MulTrans writes Xᵀ·R into dst.
func (d DenseDesign) MulTrans(dst *mat.Dense, r mat.Matrix) { Mul(dst, d.X.T(), r) }

// Gram writes XᵀX into dst.
func (d DenseDesign) Gram(dst *mat.SymDense) { gram(dst, d.X) }

// ColumnDesign is a Design stored by columns: XT is p×n, its row k the
// column k of X. Coordinate descent sweeps it without transposing, which
// suits designs rebuilt at every step (the weighted models of proximal
// Newton).
type ColumnDesign struct {
	// XT is Xᵀ; it is not copied.
	XT *mat.Dense
}

var (
	_ Design = ColumnDesign{}
	_ Gramer = ColumnDesign{}
)

// Dims returns the shape of X.
func (d ColumnDesign) Dims() (n, p int) {
	p, n = d.XT.Dims()
	return n, p
}

// Mul writes X·B into dst.
func (d ColumnDesign) Mul(dst *mat.Dense, b mat.Matrix) { Mul(dst, d.XT.T(), b) }

// MulTrans writes Xᵀ·R into dst.
func (d ColumnDesign) MulTrans(dst *mat.Dense, r mat.Matrix) { Mul(dst, d.XT, r) }

// Gram writes XᵀX into dst.
func (d ColumnDesign) Gram(dst *mat.SymDense) { gram(dst, mat.DenseCopyOf(d.XT.T())) }

// LeastSquares is the loss f(Θ) = ‖Y − XΘ‖²_F on the source paper's scale
// (no 1/(2n)). It is a DualLoss and a Polisher.
//
// When n ≥ p and the design is a Gramer, it works in Gram form: it keeps
// H = XᵀX (formed on first use), C = XᵀY and ‖Y‖², so that f and
// ∇f = 2(HΘ − C) cost O(p²q) instead of O(npq). A LeastSquares is not safe
// for concurrent use.
type LeastSquares struct {
	x      Design
	y      *mat.Dense
	c      *mat.Dense    // XᵀY
	yy     float64       // ‖Y‖²_F
	gramer Gramer        // set when the Gram form is to be used
	h      *mat.SymDense // XᵀX in Gram form once computed, else nil
	hd     *mat.Dense    // the same, stored in full (h's storage): gemm beats symm for few columns
	lip    float64
	work   mat.Dense
	xt     blas64.General // the columns of a dense x, once asked for
	rowBuf []float64      // evalRows' θ and gradient
	colBuf []float64      // mulGram's column of Θ
	outBuf []float64      // mulGram's column of HΘ

	chol    *mat.Cholesky // last reduced factor, for the clusters in cholKey
	cholKey string

	// metric is FISTA's block metric for the penalty metricPen, computed
	// once for all the fits of a path (it does not depend on λ).
	metric    *blockMetric
	metricPen *penalty.Blocks
}

var (
	_ DualLoss = (*LeastSquares)(nil)
	_ Polisher = (*LeastSquares)(nil)
)

// GramLimit is the largest number of columns for which a Gram form
// (the p×p matrix) is used.
const GramLimit = 5000

// NewLeastSquares returns the loss for design x and responses y (n×q). It
// panics if the row counts differ.
func NewLeastSquares(x Design, y mat.Matrix) *LeastSquares {
	n, p := x.Dims()
	if r, _ := y.Dims(); r != n {
		panic(mat.ErrShape)
	}
	ls := &LeastSquares{x: x, y: mat.DenseCopyOf(y)}
	ls.c = &mat.Dense{}
	x.MulTrans(ls.c, ls.y)
	ls.yy = sqNorm(ls.y)
	if g, ok := x.(Gramer); ok && n >= p && p <= GramLimit {
		ls.gramer = g
	}
	return ls
}

// NewGramLeastSquares returns the loss ‖Y − XΘ‖²_F known only by its
// sufficient statistics: H = XᵀX (p×p), C = XᵀY (p×q) and ‖Y‖²_F, as a
// weighted or streamed source gives them (package suffstat: the centred
// co-moments). It works in Gram form throughout; nothing needs the rows.
// It panics if the shapes of h and c differ or yy is negative.
func NewGramLeastSquares(h *mat.SymDense, c *mat.Dense, yy float64) *LeastSquares {
	p, _ := c.Dims()
	if h.SymmetricDim() != p || yy < 0 {
		panic(mat.ErrShape)
	}
	hc := mat.NewSymDense(p, nil)
	hc.CopySym(h)
	return &LeastSquares{c: mat.DenseCopyOf(c), yy: yy, h: hc, hd: fullView(hc)}
}

// gram returns XᵀX, computed on first use, or nil when the loss works on X
// directly. Methods that never need it (coordinate descent) never pay for it.
func (ls *LeastSquares) gram() *mat.SymDense {
	if ls.h == nil && ls.gramer != nil {
		ls.h = &mat.SymDense{}
		ls.gramer.Gram(ls.h)
		ls.hd = fullView(ls.h)
	}
	return ls.h
}

// Dims returns p and q.
func (ls *LeastSquares) Dims() (p, q int) { return ls.c.Dims() }

// Gram returns XᵀX when the loss is in Gram form, else nil. The caller must
// not modify it.
func (ls *LeastSquares) Gram() *mat.SymDense { return ls.gram() }

// Cross returns XᵀY. The caller must not modify it.
func (ls *LeastSquares) Cross() *mat.Dense { return ls.c }

// Eval returns ‖Y − XΘ‖²_F and writes the gradient 2Xᵀ(XΘ − Y) into grad
// when it is not nil.
func (ls *LeastSquares) Eval(grad *mat.Dense, theta mat.Matrix) float64 {
	if ls.gram() != nil {
		// f = ‖Y‖² − 2⟨Θ, C⟩ + ⟨Θ, HΘ⟩.
		ht := &ls.work
		ls.mulGram(ht, theta)
		f := ls.yy - 2*frob(theta, ls.c) + frob(theta, ht)
		if grad != nil {
			grad.Sub(ht, ls.c)
			grad.Scale(2, grad)
		}
		return math.Max(f, 0)
	}
	if f, ok := ls.evalRows(grad, theta); ok {
		return f
	}
	var r mat.Dense
	ls.x.Mul(&r, theta)
	r.Sub(&r, ls.y)
	if grad != nil {
		ls.x.MulTrans(grad, &r)
		grad.Scale(2, grad)
	}
	return sqNorm(&r)
}

// evalRows evaluates f and its gradient for one response column on a
// dense design in one pass over X's rows: the residual of row i, then the
// row's contribution to Xᵀr while the row is still in cache. X is read
// from memory once instead of twice, which is what a product of this size
// costs (200×20000 is 32 MB). It reports false when it does not apply.
func (ls *LeastSquares) evalRows(grad *mat.Dense, theta mat.Matrix) (float64, bool) {
	d, ok := ls.x.(DenseDesign)
	p, q := theta.Dims()
	if !ok || grad == nil || q != 1 {
		return 0, false
	}
	raw := d.X.RawMatrix()
	workers := 1
	if raw.Rows*p >= parallelRows {
		workers = min(runtime.GOMAXPROCS(0), raw.Rows)
	}
	if len(ls.rowBuf) != (1+workers)*p {
		ls.rowBuf = make([]float64, (1+workers)*p)
	}
	th := ls.rowBuf[:p]
	mat.Col(th, 0, theta)
	parts := make([]float64, workers)
	share := func(w int) {
		g := ls.rowBuf[(1+w)*p : (2+w)*p]
		clear(g)
		for i := w * raw.Rows / workers; i < (w+1)*raw.Rows/workers; i++ {
			row := raw.Data[i*raw.Stride : i*raw.Stride+p]
			r := kernel.Dot(row, th) - ls.y.At(i, 0)
			parts[w] += r * r
			kernel.Axpy(2*r, row, g)
		}
	}
	if workers == 1 {
		share(0)
	} else {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				share(w)
			}()
		}
		wg.Wait()
	}
	g := ls.rowBuf[p : 2*p]
	var f float64
	for w := range workers {
		f += parts[w]
		if w > 0 {
			kernel.Axpy(1, ls.rowBuf[(1+w)*p:(2+w)*p], g)
		}
	}
	if grad.IsEmpty() {
		grad.ReuseAs(p, 1)
	}
	grad.SetCol(0, g)
	return f, true
}

// parallelRows is the size n·p from which evalRows splits the rows over
// the cores.
const parallelRows = 1 << 20

// valueCheap returns ‖Y − XΘ‖²_F without forming XᵀX: from the rows when
// the Gram matrix has not been formed yet, else from it.
func (ls *LeastSquares) valueCheap(theta mat.Matrix) float64 {
	if ls.h != nil || ls.x == nil {
		return ls.Eval(nil, theta)
	}
	var r mat.Dense
	ls.x.Mul(&r, theta)
	r.Sub(&r, ls.y)
	return sqNorm(&r)
}

// Lipschitz returns an upper bound on 2λ_max(XᵀX): the largest Ritz value
// of a Lanczos run, plus its residual bound, inflated by 1%. It is computed
// once.
func (ls *LeastSquares) Lipschitz() float64 {
	if ls.lip == 0 {
		p, _ := ls.Dims()
		ls.lip = 2 * 1.01 * topEigen(p, ls.apply)
	}
	return ls.lip
}

// lanczosTol is the residual bound, relative to the largest Ritz value, at
// which topEigen stops. A Lipschitz bound only sets a step (FISTA's,
// ClusterCD's): 2% too large costs about 1% more iterations, while the
// spectra of data with many predictors (n = 5000, p = 500 to 2000 from
// bench/gendata) have no gap at the top, so that a residual of 1e-6 took
// all 40 products with XᵀX, as many as the fit's own iterations. There the
// sum top + residual was above the converged value from the fourth step on,
// and 2% is reached after 10 to 20 steps. The loose bound is taken only
// after lanczosMinSteps steps: earlier, the top Ritz value may still
// approximate another eigenvalue, and top + residual may be below λ_max (a
// Poisson fit with p = 3 then diverged, internal/glm's
// TestRelaxSeparableEveryRoute); a problem with fewer predictors runs to
// the exact value.
const (
	lanczosTol      = 0.02
	lanczosMinSteps = 10
)

// topEigen estimates the largest eigenvalue of the symmetric positive
// semi-definite p×p operator apply (XᵀX, or a scaled or restricted XᵀX) by Lanczos with full
// reorthogonalisation (Golub and Van Loan, Matrix Computations, §10.1): the
// largest Ritz value converges from below much faster than power iteration.
// Adding the residual |β_k s_k| of its Ritz vector bounds the distance to
// some eigenvalue, which is the largest one unless the start vector is
// (numerically) orthogonal to its eigenvector; that, and the 1% margin in
// Lipschitz, make it a bound in practice rather than a proof.
func topEigen(p int, apply func(w *mat.Dense, v *mat.VecDense)) float64 {
	steps := min(p, 40)
	q := make([]*mat.VecDense, 0, steps+1)
	v := mat.NewVecDense(p, nil)
	for i := 0; i < p; i++ {
		v.SetVec(i, 1+float64(i%7)/7) // deterministic start
	}
	v.ScaleVec(1/mat.Norm(v, 2), v)
	q = append(q, v)
	alpha := make([]float64, 0, steps)
	beta := make([]float64, 0, steps)
	var w mat.Dense
	var est float64
	for k := 0; k < steps; k++ {
		apply(&w, q[k])
		wv := mat.NewVecDense(p, mat.Col(nil, 0, &w))
		a := mat.Dot(wv, q[k])
		alpha = append(alpha, a)
		for pass := 0; pass < 2; pass++ { // full reorthogonalisation, twice
			for _, qi := range q {
				wv.AddScaledVec(wv, -mat.Dot(wv, qi), qi)
			}
		}
		b := mat.Norm(wv, 2)
		top, resid := ritzTop(alpha, beta, b)
		loose := k+1 >= lanczosMinSteps && resid <= lanczosTol*top
		if k > 0 && (loose || resid <= 1e-6*top || b <= 1e-12*top) {
			return top + resid
		}
		est = top + resid
		if b == 0 {
			break
		}
		beta = append(beta, b)
		wv.ScaleVec(1/b, wv)
		q = append(q, wv)
	}
	return est
}

// apply writes XᵀX·v into w.
func (ls *LeastSquares) apply(w *mat.Dense, v *mat.VecDense) {
	vm := mat.NewDense(v.Len(), 1, v.RawVector().Data)
	if ls.gram() != nil {
		ls.mulGram(w, vm)
		return
	}
	var xv mat.Dense
	ls.x.Mul(&xv, vm)
	ls.x.MulTrans(w, &xv)
}

// ritzTop returns the largest eigenvalue of the Lanczos tridiagonal matrix
// (diagonal alpha, off-diagonal beta) and the residual bound b·|last entry
// of its eigenvector|.
func ritzTop(alpha, beta []float64, b float64) (float64, float64) {
	k := len(alpha)
	t := mat.NewSymDense(k, nil)
	for i := 0; i < k; i++ {
		t.SetSym(i, i, alpha[i])
		if i+1 < k {
			t.SetSym(i, i+1, beta[i])
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(t, true) {
		return alpha[0], math.Inf(1)
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	top := k - 1 // eigenvalues ascend
	return vals[top], math.Abs(b * vecs.At(k-1, top))
}

// Dual returns ⟨θ, Y⟩ − ‖θ‖²/4 at θ = 2sR, R = Y − XΘ, computed from
// ⟨R, Y⟩ = ‖Y‖² − ⟨Θ, XᵀY⟩ and ‖R‖² = fval without another product.
func (ls *LeastSquares) Dual(theta mat.Matrix, fval, s float64) float64 {
	return lsDual(ls.yy-frob(theta, ls.c), fval, s)
}

// lsDual returns the least-squares dual objective ⟨θ, Y⟩ − ‖θ‖²/4 at the
// dual point θ = 2s·U, 2s⟨U, Y⟩ − s²‖U‖², from uy = ⟨U, Y⟩ and uu = ‖U‖²
// (DESIGN §3). Every least-squares certificate evaluates it here.
func lsDual(uy, uu, s float64) float64 {
	return 2*s*uy - s*s*uu
}

// GapFloor returns 1e-14·‖Y‖²: the gap is a difference of terms of size
// ‖Y‖², and its rounding error was measured at about 12 machine epsilons
// of ‖Y‖² on noiseless fits; 1e-14 is about 45.
func (ls *LeastSquares) GapFloor() float64 { return gapFloorRatio * ls.yy }

// gapFloorRatio is the least-squares gap floor relative to ‖Y‖².
const gapFloorRatio = 1e-14

// Polish solves, column by column, min_b ‖y_j − X D b‖² + λ·slopesᵀb subject
// to the piece's constraints, where D holds the cluster indicators, and
// writes Θ = D b into dst. The reduced normal equations are
// DᵀXᵀXD b = Dᵀc_j − (λ/2)·slopes, with one Lagrange multiplier per
// constraint: formed and factorised up to denseReducedMax clusters, solved
// by conjugate gradients without forming it above (reducedCG), and not
// solved (false) above it with constraints.
func (ls *LeastSquares) Polish(dst *mat.Dense, pieces []penalty.Piece, lambda float64) bool {
	p, q := ls.Dims()
	if r, c := dst.Dims(); r != p || c != q || len(pieces) != q {
		panic(mat.ErrShape)
	}
	dst.Zero()
	for j, pc := range pieces {
		nc := len(pc.Clusters)
		if nc == 0 {
			continue
		}
		b, ok := ls.reducedSolve(pc, j, lambda)
		if !ok {
			return false
		}
		for c, cl := range pc.Clusters {
			for _, i := range cl {
				dst.Set(i, j, b[c])
			}
		}
	}
	return true
}

func (ls *LeastSquares) reducedSolve(pc penalty.Piece, j int, lambda float64) ([]float64, bool) {
	nc := len(pc.Clusters)
	rhs := mat.NewVecDense(nc+len(pc.Constraints), nil)
	for a, cl := range pc.Clusters {
		var ca float64
		for _, i := range cl {
			ca += ls.c.At(i, j)
		}
		rhs.SetVec(a, ca-lambda/2*pc.Slopes[a])
	}
	if ls.reducedByCG(nc, len(pc.Constraints) > 0) {
		if len(pc.Constraints) > 0 {
			// No dense KKT system of this size; FISTA goes on unpolished.
			return nil, false
		}
		b, ok := ls.reducedCG(pc.Clusters, rhs.RawVector().Data)
		return finiteOrNil(b, ok)
	}
	var sol mat.VecDense
	if len(pc.Constraints) == 0 {
		ch, ok := ls.reducedCholesky(pc.Clusters)
		if !ok || ch.SolveVecTo(&sol, rhs) != nil {
			return nil, false
		}
	} else if !ls.solveKKT(&sol, pc, rhs) {
		return nil, false
	}
	b := make([]float64, nc)
	for a := range b {
		b[a] = sol.AtVec(a)
	}
	return finiteOrNil(b, true)
}

// reducedByCG reports whether Polish solves the reduced normal equations
// of nc clusters by conjugate gradients: above denseReducedMax clusters,
// and, for a piece without constraints (which conjugate gradients do not
// take), when forming them from the rows (no Gram form) would cost more
// than denseReducedWork operations n·nc².
func (ls *LeastSquares) reducedByCG(nc int, constrained bool) bool {
	if nc > denseReducedMax {
		return true
	}
	if constrained || ls.gram() != nil {
		return false
	}
	n, _ := ls.x.Dims()
	return float64(n)*float64(nc)*float64(nc) > denseReducedWork
}

// finiteOrNil returns b and ok, or nil and false when b has a value that
// is not finite.
func finiteOrNil(b []float64, ok bool) ([]float64, bool) {
	if !ok {
		return nil, false
	}
	for _, v := range b {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, false
		}
	}
	return b, true
}

// reducedCholesky factorises DᵀXᵀXD, reusing the last factor when the
// clusters are the same: along a λ path the structure often repeats while
// only the slopes change.
func (ls *LeastSquares) reducedCholesky(clusters [][]int) (*mat.Cholesky, bool) {
	key := clusterKey(clusters)
	if ls.cholKey == key && ls.chol != nil {
		return ls.chol, true
	}
	ch := &mat.Cholesky{}
	if !ch.Factorize(ls.reducedHessian(clusters)) {
		return nil, false
	}
	ls.chol, ls.cholKey = ch, key
	return ch, true
}

// solveKKT solves the reduced normal equations with one Lagrange multiplier
// per zero-sum constraint, [DᵀHD Cᵀ; C 0], by LU.
func (ls *LeastSquares) solveKKT(sol *mat.VecDense, pc penalty.Piece, rhs *mat.VecDense) bool {
	nc, nk := len(pc.Clusters), len(pc.Constraints)
	red := ls.reducedHessian(pc.Clusters)
	kkt := mat.NewDense(nc+nk, nc+nk, nil)
	for a := 0; a < nc; a++ {
		for b := 0; b < nc; b++ {
			kkt.Set(a, b, red.At(a, b))
		}
	}
	for r, row := range pc.Constraints {
		for a, v := range row {
			kkt.Set(nc+r, a, v)
			kkt.Set(a, nc+r, v)
		}
	}
	return sol.SolveVec(kkt, rhs) == nil
}

func clusterKey(clusters [][]int) string {
	var b []byte
	put := func(i int) { b = append(b, byte(i), byte(i>>8), byte(i>>16), byte(i>>24)) }
	for _, cl := range clusters { // length-prefixed, so unambiguous
		put(len(cl))
		for _, i := range cl {
			put(i)
		}
	}
	return string(b)
}

// reducedHessian returns DᵀXᵀXD for the cluster indicator matrix D.
func (ls *LeastSquares) reducedHessian(clusters [][]int) *mat.SymDense {
	nc := len(clusters)
	out := mat.NewSymDense(nc, nil)
	if ls.gram() != nil {
		p := ls.h.SymmetricDim()
		hd := mat.NewDense(p, nc, nil) // H·D, by summing columns of H
		for i := 0; i < p; i++ {
			row := ls.hd.RawRowView(i)
			for c, cl := range clusters {
				var s float64
				for _, k := range cl {
					s += row[k]
				}
				hd.Set(i, c, s)
			}
		}
		for a := 0; a < nc; a++ {
			for b := a; b < nc; b++ {
				var s float64
				for _, i := range clusters[a] {
					s += hd.At(i, b)
				}
				out.SetSym(a, b, s)
			}
		}
		return out
	}
	var xd mat.Dense
	clusterColumns(&xd, ls.x, clusters)
	out.SymOuterK(1, xd.T())
	return out
}

// clusterColumns writes into dst the n×m matrix XD whose column c is the
// sum of X's columns in clusters[c]: O(np) by summing within the rows of a
// dense X, else the product with the indicator matrix D.
func clusterColumns(dst *mat.Dense, x Design, clusters [][]int) {
	n, p := x.Dims()
	if d, ok := x.(DenseDesign); ok {
		dst.Reset()
		dst.ReuseAs(n, len(clusters))
		for i := 0; i < n; i++ {
			row, out := d.X.RawRowView(i), dst.RawRowView(i)
			for c, cl := range clusters {
				var s float64
				for _, k := range cl {
					s += row[k]
				}
				out[c] = s
			}
		}
		return
	}
	ind := mat.NewDense(p, len(clusters), nil)
	for c, cl := range clusters {
		for _, k := range cl {
			ind.Set(k, c, 1)
		}
	}
	x.Mul(dst, ind)
}

// frob returns the Frobenius inner product ⟨a, b⟩.
func frob(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	var s float64
	for j := 0; j < c; j++ {
		for i := 0; i < r; i++ {
			s += a.At(i, j) * b.At(i, j)
		}
	}
	return s
}

func sqNorm(m mat.Matrix) float64 { n := frobNorm(m); return n * n }

// frobNorm returns ‖m‖_F: for a contiguous dense matrix by one dot
// product, when its square is safely inside float64's range, else by
// mat.Norm's scaled sum (which never overflows, at several times the
// cost: a tenth of a FISTA iteration on wide data).
func frobNorm(m mat.Matrix) float64 {
	if d, ok := m.(*mat.Dense); ok && !d.IsEmpty() {
		raw := d.RawMatrix()
		if raw.Stride == raw.Cols {
			data := raw.Data[:raw.Rows*raw.Cols]
			if s := kernel.Dot(data, data); s > 1e-280 && s < 1e280 {
				return math.Sqrt(s)
			}
		}
	}
	return mat.Norm(m, 2)
}
