package matmulbase

import "gonum.org/v1/gonum/mat"

// DefaultStrassenCutoff is a reasonable cutoff for Strassen. It was chosen with
// BenchmarkStrassenCutoff (n×n operands with n = 512, 1000 and 1024, cutoffs
// 32 to 256) on a 2-core amd64 Xeon with Go 1.26. Run times were flat to
// within about 5% over that range; 128 was marginally the fastest at n = 512
// and n = 1000, and it keeps the recursion shallow, which limits padding,
// scratch space and the growth of rounding errors.
const DefaultStrassenCutoff = 128

// Strassen returns the product a·b computed with Strassen's recursion, which
// replaces the eight block products of a 2×2 block multiplication by seven.
//
// Operands of any shape are handled by padding once: with a m×n, b n×p and d
// the smallest number of halvings after which some dimension is at most
// cutoff, each dimension is rounded up to a multiple of 2^d and the operands
// are copied into zero-padded buffers. The recursion then has exactly d
// levels, every level has even dimensions, and each dimension grows by less
// than 2^d, which is less than a fraction 2/cutoff of it. Operands that need
// no padding are read in place. The leaves use a naive i, k, j loop, which
// reads rows of b contiguously. Cutoff values below 1 are treated as 1.
//
// All scratch space of the recursion is allocated once, up front. Strassen
// panics with mat.ErrShape if the number of columns of a differs from the
// number of rows of b, and, like mat.NewDense, with mat.ErrZeroLength if the
// result would be empty.
func Strassen(a, b *mat.Dense, cutoff int) *mat.Dense {
	c := product(a, b)
	av, bv, cv := rawView(a), rawView(b), rawView(c)
	d := strassenDepth(av.rows, av.cols, bv.cols, max(cutoff, 1))
	m, n, p := roundUp(av.rows, d), roundUp(av.cols, d), roundUp(bv.cols, d)
	pa, pb, pc := padded(av, m, n), padded(bv, n, p), padded(cv, m, p)
	strassen(pc, pa, pb, d, make([]float64, strassenScratch(m, n, p, d)))
	if pc.rows != cv.rows || pc.cols != cv.cols {
		cv.set(pc.topLeft(cv.rows, cv.cols))
	}
	return c
}

// strassenDepth returns the smallest d ≥ 0 such that some of m, n and p,
// divided by 2^d and rounded up, is at most cutoff. The cutoff must be
// positive.
func strassenDepth(m, n, p, cutoff int) int {
	d := 0
	for min(roundUp(m, d), roundUp(n, d), roundUp(p, d))>>d > cutoff {
		d++
	}
	return d
}

// roundUp returns x rounded up to a multiple of 2^d.
func roundUp(x, d int) int {
	return (x + 1<<d - 1) >> d << d
}

// padded returns v if it has the given shape, and otherwise a new zeroed
// contiguous view of that shape holding a copy of v in its top-left corner.
func padded(v view, rows, cols int) view {
	if v.rows == rows && v.cols == cols {
		return v
	}
	w := newView(rows, cols)
	w.topLeft(v.rows, v.cols).set(v)
	return w
}

// strassenScratch returns the scratch length needed by strassen for an
// m×n by n×p product with d levels; m, n and p must be multiples of 2^d.
func strassenScratch(m, n, p, d int) int {
	size := 0
	for ; d > 0; d-- {
		m, n, p = m/2, n/2, p/2
		size += m*n + n*p + m*p
	}
	return size
}

// Quadrant indices of a 2×2 block matrix.
const (
	q11 = iota
	q12
	q21
	q22
)

// operand is a quadrant x, or the sum x + s·y of two quadrants when y ≥ 0.
type operand struct {
	x, y int
	s    float64
}

// update adds s times a product to quadrant q of the result, or stores it
// there when set is true.
type update struct {
	q   int
	s   float64
	set bool
}

// strassenStep is one of the seven products of Strassen's scheme together
// with its contributions to the result.
type strassenStep struct {
	a, b operand
	c    []update
}

// strassenSteps lists Strassen's seven products M1, …, M7 in order. Each
// quadrant of the result is stored by the first step that touches it and
// accumulated by the later ones:
//
//	C11 = M1 + M4 − M5 + M7,  C12 = M3 + M5,
//	C21 = M2 + M4,            C22 = M1 − M2 + M3 + M6.
var strassenSteps = [7]strassenStep{
	{operand{q11, q22, 1}, operand{q11, q22, 1}, []update{{q11, 1, true}, {q22, 1, true}}},
	{operand{q21, q22, 1}, operand{q11, -1, 0}, []update{{q21, 1, true}, {q22, -1, false}}},
	{operand{q11, -1, 0}, operand{q12, q22, -1}, []update{{q12, 1, true}, {q22, 1, false}}},
	{operand{q22, -1, 0}, operand{q21, q11, -1}, []update{{q11, 1, false}, {q21, 1, false}}},
	{operand{q11, q12, 1}, operand{q22, -1, 0}, []update{{q11, -1, false}, {q12, 1, false}}},
	{operand{q21, q11, -1}, operand{q11, q12, 1}, []update{{q22, 1, false}}},
	{operand{q12, q22, -1}, operand{q21, q22, 1}, []update{{q11, 1, false}}},
}

// strassen sets c = a·b using d levels of Strassen's recursion above naive
// leaves. All dimensions must be multiples of 2^d, and scratch must hold at
// least strassenScratch of them.
func strassen(c, a, b view, d int, scratch []float64) {
	if d == 0 {
		naiveIKJ(c, a, b)
		return
	}
	m, n, p := a.rows/2, a.cols/2, b.cols/2
	ta, scratch := take(scratch, m, n)
	tb, scratch := take(scratch, n, p)
	mk, scratch := take(scratch, m, p)
	aq, bq, cq := a.quadrants(), b.quadrants(), c.quadrants()
	for _, st := range strassenSteps {
		strassen(mk, st.a.eval(aq, ta), st.b.eval(bq, tb), d-1, scratch)
		for _, u := range st.c {
			if u.set {
				cq[u.q].set(mk)
			} else {
				cq[u.q].acc(mk, u.s)
			}
		}
	}
}

// take carves a contiguous rows×cols view off the front of buf and returns
// it with the rest of buf.
func take(buf []float64, rows, cols int) (view, []float64) {
	n := rows * cols
	return view{data: buf[:n], rows: rows, cols: cols, stride: cols}, buf[n:]
}

// quadrants returns the four quadrants of v, which must have even dimensions,
// indexed by q11, q12, q21 and q22.
func (v view) quadrants() [4]view {
	r, c := v.rows/2, v.cols/2
	at := func(i, j int) view {
		return view{data: v.data[i*v.stride+j:], rows: r, cols: c, stride: v.stride}
	}
	return [4]view{at(0, 0), at(0, c), at(r, 0), at(r, c)}
}

// eval returns the value of o over the quadrants q, using tmp to hold a sum.
func (o operand) eval(q [4]view, tmp view) view {
	if o.y < 0 {
		return q[o.x]
	}
	tmp.sum(q[o.x], q[o.y], o.s)
	return tmp
}

// set copies x into v.
func (v view) set(x view) {
	for i := 0; i < v.rows; i++ {
		copy(v.row(i), x.row(i))
	}
}

// sum sets v = x + s·y.
func (v view) sum(x, y view, s float64) {
	for i := 0; i < v.rows; i++ {
		vi, xi, yi := v.row(i), x.row(i), y.row(i)
		for j := range vi {
			vi[j] = xi[j] + s*yi[j]
		}
	}
}

// acc adds s·x to v.
func (v view) acc(x view, s float64) {
	for i := 0; i < v.rows; i++ {
		vi, xi := v.row(i), x.row(i)
		for j := range vi {
			vi[j] += s * xi[j]
		}
	}
}
