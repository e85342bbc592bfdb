package solver

import (
	"math"
	"slices"

	"github.com/cardsparse/cardreg/internal/kernel"
	"github.com/cardsparse/cardreg/internal/radix"
	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// clusterState is ClusterCD's view of Θ: per response column, the
// residual and, per block of the penalty, the clusters of equal values.
type clusterState struct {
	xt      blas64.General // p×n: row k is column k of X
	n       int
	blocks  [][]int
	weights []float64
	nu      float64
	lambda  float64
	cols    []*clusterCol
	pairs   []radix.Pair // sort buffers
	spare   []radix.Pair
	mark    []int // rows of the cluster being built, by stamp
	stamp   int
	res     []float64 // residual's buffer
}

// clusterCol is one response column: y, its residual y − Xθ, and its
// blocks' clusters. label maps a row to its cluster in the last rebuild, so
// that a cluster found again keeps its X1_C.
type clusterCol struct {
	y, r   []float64
	blocks []clusterBlock
	label  []*cluster
}

// clusterBlock holds the clusters of one block in decreasing order of
// value, with the block's weight, size and sum.
type clusterBlock struct {
	w, size, sum float64
	list         []*cluster
}

// cluster is a set of rows sharing the value c. xs = X1_C (a row of xt,
// not to be written, when the cluster has one row and owned is false), a =
// ‖xs‖², above = the number of rows in clusters of larger value in the
// block, pos = the index in the block's list, edits = how many times xs
// was updated from an earlier cluster's rather than summed afresh.
type cluster struct {
	rows   []int
	c      float64
	size   float64
	xs     []float64
	a      float64
	above  float64
	pos    int
	edits  int
	owned  bool
	merged bool
}

// maxEdits bounds the rounding a cluster's X1_C accumulates through
// incremental updates before it is summed afresh.
const maxEdits = 32

func newClusterState(xt blas64.General, y *mat.Dense, blocks [][]int, weights []float64, nu, lambda float64) *clusterState {
	n, q := y.Dims()
	st := &clusterState{xt: xt, n: n, blocks: blocks, weights: weights, nu: nu, lambda: lambda, mark: make([]int, xt.Rows)}
	for j := 0; j < q; j++ {
		c := &clusterCol{y: mat.Col(nil, j, y), r: make([]float64, n), label: make([]*cluster, xt.Rows)}
		c.blocks = make([]clusterBlock, len(blocks))
		for b, rows := range blocks {
			c.blocks[b] = clusterBlock{w: weights[b], size: float64(len(rows))}
		}
		st.cols = append(st.cols, c)
	}
	return st
}

func (st *clusterState) row(k int) []float64 {
	return st.xt.Data[k*st.xt.Stride : k*st.xt.Stride+st.n]
}

// rebuild reads the clusters of every block off theta and recomputes the
// residuals.
func (st *clusterState) rebuild(theta *mat.Dense) {
	for j, col := range st.cols {
		copy(col.r, col.y)
		for b, rows := range st.blocks {
			blk := &col.blocks[b]
			for _, cl := range blk.list {
				for _, i := range cl.rows {
					col.label[i] = cl
				}
			}
			st.rebuildBlock(col, blk, rows, theta, j)
		}
	}
}

func (st *clusterState) rebuildBlock(col *clusterCol, blk *clusterBlock, rows []int, theta *mat.Dense, j int) {
	ps := st.pairs[:0]
	for _, i := range rows {
		ps = append(ps, radix.Pair{V: theta.At(i, j), I: i})
	}
	st.pairs = ps
	if len(st.spare) < len(ps) {
		st.spare = make([]radix.Pair, len(ps))
	}
	ps = radix.SortDesc(ps, st.spare)
	blk.list, blk.sum = blk.list[:0], 0
	var above float64
	for k := 0; k < len(ps); {
		e := k + 1
		for e < len(ps) && ps[e].V == ps[k].V {
			e++
		}
		cl := st.cluster(col, ps[k:e])
		cl.above, cl.pos = above, len(blk.list)
		blk.list = append(blk.list, cl)
		above += cl.size
		blk.sum += cl.c * cl.size
		if cl.c != 0 {
			kernel.Axpy(-cl.c, cl.xs, col.r)
		}
		k = e
	}
}

// cluster returns the cluster of the rows in ps (one value). Its X1_C is
// the previous cluster's when that had exactly these rows, else updated
// from the previous cluster of its first row when fewer rows differ than
// it has, else summed afresh.
func (st *clusterState) cluster(col *clusterCol, ps []radix.Pair) *cluster {
	cl := &cluster{c: ps[0].V, size: float64(len(ps))}
	old := col.label[ps[0].I]
	st.stamp++
	kept := 0
	for _, p := range ps {
		st.mark[p.I] = st.stamp
		if old != nil && col.label[p.I] == old {
			kept++
		}
	}
	if old != nil && kept == len(old.rows) && kept == len(ps) {
		cl.rows, cl.xs, cl.a, cl.owned, cl.edits = old.rows, old.xs, old.a, old.owned, old.edits
		return cl
	}
	cl.rows = make([]int, len(ps))
	for t, p := range ps {
		cl.rows[t] = p.I
	}
	changed := len(ps) - kept + len(old.rowsOrNil()) - kept
	switch {
	case len(ps) == 1:
		cl.xs = st.row(ps[0].I)
	case old != nil && old.edits < maxEdits && changed < len(ps):
		cl.xs, cl.owned, cl.edits = slices.Clone(old.xs), true, old.edits+1
		for _, p := range ps {
			if col.label[p.I] != old {
				kernel.Axpy(1, st.row(p.I), cl.xs)
			}
		}
		for _, i := range old.rows {
			if st.mark[i] != st.stamp {
				kernel.Axpy(-1, st.row(i), cl.xs)
			}
		}
	default:
		cl.xs, cl.owned = make([]float64, st.n), true
		for _, p := range ps {
			kernel.Axpy(1, st.row(p.I), cl.xs)
		}
	}
	cl.a = kernel.Dot(cl.xs, cl.xs)
	return cl
}

// rowsOrNil returns the cluster's rows, nil for a nil cluster.
func (cl *cluster) rowsOrNil() []int {
	if cl == nil {
		return nil
	}
	return cl.rows
}

// towards moves theta along the segment to cand, cand being the
// minimiser of the objective on the affine extension of theta's piece (its
// clusters, their order and the signs of the block sums), as far as the
// piece reaches: just short of the first point where two clusters of a
// block meet or a block's nonzero sum reaches zero. On the piece the
// objective is a convex quadratic decreasing towards cand, so the step
// lowers it. It reports whether theta moved.
func (st *clusterState) towards(theta, cand *mat.Dense) bool {
	t := 1.0
	for j, col := range st.cols {
		for b, rows := range st.blocks {
			blk := &col.blocks[b]
			for k := 1; k < len(blk.list); k++ {
				up, cl := blk.list[k-1], blk.list[k]
				closing := (cand.At(cl.rows[0], j) - cl.c) - (cand.At(up.rows[0], j) - up.c)
				if closing > 0 {
					t = math.Min(t, (up.c-cl.c)/closing)
				}
			}
			// The block sum as the piece was read (penalty.Piece): at its
			// kink it stays there by cand's constraint.
			var s0, abs, s1 float64
			for _, i := range rows {
				s0 += theta.At(i, j)
				abs += math.Abs(theta.At(i, j))
				s1 += cand.At(i, j)
			}
			if !penalty.AtKink(s0, abs) && (s1 == 0 || (s1 < 0) != (s0 < 0)) {
				t = math.Min(t, s0/(s0-s1))
			}
		}
	}
	t *= 1 - 1e-9
	if !(t > 0) || len(st.cols[0].blocks[0].list) == 0 {
		return false
	}
	for j, col := range st.cols {
		for b := range col.blocks {
			for _, cl := range col.blocks[b].list {
				z := cl.c + t*(cand.At(cl.rows[0], j)-cl.c)
				for _, i := range cl.rows {
					theta.Set(i, j, z)
				}
			}
		}
	}
	return true
}

// residual returns the residuals of every column, one after the other,
// in a buffer of st's that the next call overwrites.
func (st *clusterState) residual() []float64 {
	st.res = st.res[:0]
	for _, col := range st.cols {
		st.res = append(st.res, col.r...)
	}
	return st.res
}

// write copies the clusters' values into theta.
func (st *clusterState) write(theta *mat.Dense) {
	for j, col := range st.cols {
		for b := range col.blocks {
			for _, cl := range col.blocks[b].list {
				for _, i := range cl.rows {
					theta.Set(i, j, cl.c)
				}
			}
		}
	}
}

// sweep updates every cluster once and returns the largest decrease of the
// quadratic term, a·Δ².
func (st *clusterState) sweep() float64 {
	var big float64
	var todo []*cluster
	for _, col := range st.cols {
		for b := range col.blocks {
			blk := &col.blocks[b]
			todo = append(todo[:0], blk.list...)
			for _, cl := range todo {
				if !cl.merged {
					big = math.Max(big, st.update(col, blk, cl))
				}
			}
		}
	}
	return big
}

// update moves cluster cl of blk to the minimiser of the objective along
// its indicator, the other clusters fixed, and returns a·Δ².
func (st *clusterState) update(col *clusterCol, blk *clusterBlock, cl *cluster) float64 {
	w := walk{
		cl: cl, blk: blk, lambda: st.lambda, nu: st.nu,
		b: kernel.Dot(cl.xs, col.r) + cl.a*cl.c,
	}
	other := blk.sum - cl.size*cl.c
	w.z0 = -other / cl.size
	w.kink = penalty.AtKink(blk.sum, math.Abs(cl.size*cl.c)+math.Abs(other))
	for _, dir := range [2]float64{1, -1} {
		z, at, passed, moved := w.run(dir)
		if !moved {
			continue
		}
		delta := z - cl.c
		kernel.Axpy(-delta, cl.xs, col.r)
		blk.sum += cl.size * delta
		blk.move(cl, dir, passed, z, at)
		return cl.a * delta * delta
	}
	return 0
}

// walk is the one-dimensional problem of a cluster of size m with value z,
//
//	a z² − 2b z + λ·( w m Σ_j m_j |z − c_j| + ν |m z + S'| ),
//
// over the other clusters j of its block (S' their sum); its kinks are the
// c_j and z0 = −S'/m. kink says the cluster sits on z0.
type walk struct {
	cl         *cluster
	blk        *clusterBlock
	lambda, nu float64
	b, z0      float64
	kink       bool
}

// run walks in direction dir (+1 up, −1 down) from the cluster's value and
// returns the minimiser z, the cluster whose value z is (nil if none), the
// number of clusters passed (at included), and whether z differs from the
// current value. It works in t = dir·z, where the slope
//
//	E(t) = 2a t − 2 dir·b + λ m (w(behind − ahead) + ν σ)
//
// increases; behind and ahead count the rows of other clusters on either
// side of t, and σ = ±1 is the sign of dir·(m z + S').
func (w *walk) run(dir float64) (z float64, at *cluster, passed int, moved bool) {
	cl, blk := w.cl, w.blk
	a, m := cl.a, cl.size
	ahead, behind := cl.above, blk.size-cl.above-m
	if dir < 0 {
		ahead, behind = behind, ahead
	}
	sigma := 1.0
	if !w.kink && dir*blk.sum < 0 {
		sigma = -1
	}
	slope := func() float64 { return -2*dir*w.b + w.lambda*m*(blk.w*(behind-ahead)+w.nu*sigma) }
	t := dir * cl.c
	if 2*a*t+slope() >= 0 {
		return cl.c, nil, 0, false
	}
	next := cl.pos - int(dir)
	for {
		tc, tk := math.Inf(1), math.Inf(1)
		if next >= 0 && next < len(blk.list) {
			tc = dir * blk.list[next].c
		}
		if sigma < 0 {
			tk = math.Max(dir*w.z0, t)
		}
		hi := math.Min(tc, tk)
		if a > 0 {
			if ts := -slope() / (2 * a); ts < hi {
				if ts <= t {
					return dir * t, at, passed, at != nil || passed > 0
				}
				return dir * ts, nil, passed, true
			}
		}
		if math.IsInf(hi, 1) {
			return dir * t, at, passed, at != nil || passed > 0
		}
		at = nil
		if tc == hi {
			at = blk.list[next]
			ahead -= at.size
			behind += at.size
			passed++
			next -= int(dir)
		}
		if tk == hi {
			sigma = 1
		}
		t = hi
		if 2*a*t+slope() >= 0 {
			return dir * t, at, passed, true
		}
	}
}

// move places cl, now at value z after passing `passed` clusters in
// direction dir, in the block's order, merging it into at when z is at's
// value.
func (blk *clusterBlock) move(cl *cluster, dir float64, passed int, z float64, at *cluster) {
	if at != nil {
		passed-- // at absorbs cl; the clusters between are passed
	}
	step := -int(dir)
	var sizes float64
	for k := 1; k <= passed; k++ {
		o := blk.list[cl.pos+k*step]
		o.above += dir * cl.size
		sizes += o.size
	}
	cl.above -= dir * sizes
	// Rotate cl to its new index.
	from, to := cl.pos, cl.pos+passed*step
	for k := from; k != to; k += step {
		blk.list[k] = blk.list[k+step]
		blk.list[k].pos = k
	}
	blk.list[to], cl.pos, cl.c = cl, to, z
	if at == nil {
		return
	}
	if dir < 0 {
		at.above -= cl.size
	}
	at.absorb(cl)
	blk.list = slices.Delete(blk.list, cl.pos, cl.pos+1)
	for k := cl.pos; k < len(blk.list); k++ {
		blk.list[k].pos = k
	}
}

// absorb merges o into cl (same value).
func (cl *cluster) absorb(o *cluster) {
	switch {
	case cl.owned:
		kernel.Axpy(1, o.xs, cl.xs)
	case o.owned:
		kernel.Axpy(1, cl.xs, o.xs)
		cl.xs, cl.owned = o.xs, true
	default:
		xs := make([]float64, len(cl.xs))
		copy(xs, cl.xs)
		kernel.Axpy(1, o.xs, xs)
		cl.xs, cl.owned = xs, true
	}
	cl.a = kernel.Dot(cl.xs, cl.xs)
	cl.edits = max(cl.edits, o.edits) + 1
	cl.rows = append(cl.rows, o.rows...)
	cl.size += o.size
	o.merged = true
}
