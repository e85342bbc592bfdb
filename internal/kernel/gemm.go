package kernel

import (
	"runtime"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// mc is the number of rows of op(A) packed at a time: an mc×kc block of A
// (144 KiB) and the kc×n panels of B stay in L2 while micro-panels stream
// through L1.
const mc = 72

// gemmParallelWork is the number of multiply-adds from which Gemm spreads
// the row blocks of C over the cores.
const gemmParallelWork = 1 << 22

// Gemm computes C = op(A)·op(B) + beta·C for the m×n matrix C (row-major,
// stride ldc), where op(A) is m×k and op(B) is k×n: with tA false A is the
// m×k row-major matrix a (stride lda), with tA true A is k×m and op(A) = Aᵀ;
// likewise B is k×n, or n×k when tB is set. beta 0 overwrites C (a NaN in
// C does not survive), as in BLAS. C must not overlap A or B.
func Gemm(tA, tB bool, m, n, k int, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if badGemm(tA, tB, m, n, k, a, lda, b, ldb, c, ldc) {
		panic("kernel: bad dimensions")
	}
	scaleRows(c, m, n, ldc, beta)
	if m == 0 || n == 0 || k == 0 {
		return
	}
	g := gemmSlab{tA: tA, a: a, lda: lda, m: m, n: n, c: c, ldc: ldc, blocks: (m + mc - 1) / mc}
	workers := 1
	if m*n*k >= gemmParallelWork {
		workers = min(runtime.GOMAXPROCS(0), g.blocks)
	}
	np := (n + nr - 1) / nr * nr
	g.pb = getBuf(min(kc, k) * np)
	defer putBuf(g.pb)
	for k0 := 0; k0 < k; k0 += kc {
		g.k0, g.kk = k0, min(kc, k-k0)
		if tB {
			packT(g.pb, b[k0:], g.kk, n, ldb, nr)
		} else {
			pack(g.pb, b[k0*ldb:], g.kk, n, 0, ldb, nr)
		}
		g.spread(workers)
	}
}

// badGemm reports whether Gemm's arguments are inconsistent: a negative
// dimension, a stride shorter than its row, or a slice too short for its
// matrix.
func badGemm(tA, tB bool, m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) bool {
	ra, ca := stored(tA, m, k)
	rb, cb := stored(tB, k, n)
	return m < 0 || n < 0 || k < 0 || ldc < max(n, 1) || lda < max(ca, 1) || ldb < max(cb, 1) ||
		short(c, m, n, ldc) || short(a, ra, ca, lda) || short(b, rb, cb, ldb)
}

// gemmSlab is one k slab of Gemm: rows k0 to k0+kk of op(B), packed in pb,
// times the matching columns of op(A), added to C by row blocks of mc.
type gemmSlab struct {
	tA     bool
	a      []float64
	lda    int
	m, n   int
	c      []float64
	ldc    int
	blocks int // row blocks of C
	pb     []float64
	k0, kk int
}

// spread runs the row blocks on workers goroutines (inline for one).
func (g *gemmSlab) spread(workers int) {
	if workers == 1 {
		g.run(0, 1)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.run(w, workers)
		}()
	}
	wg.Wait()
}

// run packs and multiplies the row blocks first, first+step, … of the slab.
func (g *gemmSlab) run(first, step int) {
	pa := getBuf(g.kk * mc)
	defer putBuf(pa)
	for blk := first; blk < g.blocks; blk += step {
		i0 := blk * mc
		mm := min(mc, g.m-i0)
		if g.tA {
			pack(pa, g.a[g.k0*g.lda+i0:], g.kk, mm, 0, g.lda, mr)
		} else {
			packT(pa, g.a[i0*g.lda+g.k0:], g.kk, mm, g.lda, mr)
		}
		gemmBlock(pa, g.pb, g.kk, mm, g.n, g.c[i0*g.ldc:], g.ldc)
	}
}

// stored returns the shape of a matrix stored as r×c, or as c×r when
// transposed: the shape of op(X) from X's, and X's from op(X)'s.
func stored(trans bool, r, c int) (int, int) {
	if trans {
		return c, r
	}
	return r, c
}

// short reports whether a row-major r×c matrix with stride ld does not fit
// in x.
func short(x []float64, r, c, ld int) bool {
	return r > 0 && c > 0 && len(x) < (r-1)*ld+c
}

// scaleRows sets C to beta·C (to zero when beta is 0).
func scaleRows(c []float64, m, n, ldc int, beta float64) {
	if beta == 1 {
		return
	}
	for i := range m {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}

// gemmBlock adds the product of the packed panels pa (mm rows of op(A), panels
// of mr) and pb (n columns of op(B), panels of nr), of depth k, to the
// mm×n block c. Tiles on the edges go through a full tile on the stack.
func gemmBlock(pa, pb []float64, k, mm, n int, c []float64, ldc int) {
	var tile [mr * nr]float64
	for i := 0; i < mm; i += mr {
		a := pa[i*k:]
		for j := 0; j < n; j += nr {
			b := pb[j*k:]
			if i+mr <= mm && j+nr <= n {
				kern6x8(k, a, b, c[i*ldc+j:], ldc)
				continue
			}
			clear(tile[:])
			kern6x8(k, a, b, tile[:], nr)
			for r := range min(mr, mm-i) {
				row := c[(i+r)*ldc+j : (i+r)*ldc+min(j+nr, n)]
				for s := range row {
					row[s] += tile[r*nr+s]
				}
			}
		}
	}
}

// packT copies the k columns of the rows×k matrix x (stride ldx), that is
// the k×rows slab xᵀ, into panels of w rows, as pack does for a slab stored
// k-major: panel q holds x[q*w+r][l] at q*w*k + l*w + r, zero for rows at
// or beyond rows.
func packT(dst, x []float64, k, rows, ldx, w int) {
	panels := (rows + w - 1) / w
	for q := range panels {
		d := dst[q*w*k : (q+1)*w*k]
		for r := range w {
			i := q*w + r
			if i >= rows {
				for l := range k {
					d[l*w+r] = 0
				}
				continue
			}
			src := x[i*ldx : i*ldx+k]
			for l, v := range src {
				d[l*w+r] = v
			}
		}
	}
}

// Mul sets dst to op(a)·op(b), op transposing when ta or tb is set; dst is
// resized when it is empty (dst.IsEmpty) and must otherwise have the
// product's shape. dst may share its storage with a or b (the product is
// then formed apart and copied). It panics when the shapes do not match.
func Mul(dst *mat.Dense, a *mat.Dense, ta bool, b *mat.Dense, tb bool) {
	r, c := a.Dims()
	ar, ac := stored(ta, r, c)
	r, c = b.Dims()
	br, bc := stored(tb, r, c)
	if ac != br {
		panic(mat.ErrShape)
	}
	if dst.IsEmpty() {
		*dst = *mat.NewDense(ar, bc, nil)
	}
	if r, c := dst.Dims(); r != ar || c != bc {
		panic(mat.ErrShape)
	}
	ra, rb, rc := a.RawMatrix(), b.RawMatrix(), dst.RawMatrix()
	if sameArray(rc.Data, ra.Data) || sameArray(rc.Data, rb.Data) {
		tmp := mat.NewDense(ar, bc, nil)
		Mul(tmp, a, ta, b, tb)
		dst.Copy(tmp)
		return
	}
	Gemm(ta, tb, ar, bc, ac, ra.Data, ra.Stride, rb.Data, rb.Stride, 0, rc.Data, rc.Stride)
}

// sameArray reports whether x and y are views of one backing array (their
// capacities end at the same element).
func sameArray(x, y []float64) bool {
	return cap(x) > 0 && cap(y) > 0 && &x[:cap(x)][cap(x)-1] == &y[:cap(y)][cap(y)-1]
}
