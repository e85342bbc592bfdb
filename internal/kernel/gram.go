package kernel

import (
	"math"
	"runtime"
	"sync"
	"unsafe"

	"gonum.org/v1/gonum/mat"
)

// mr×nr is the register block of C; kc is the depth of a packed slab of X.
const (
	mr = 6
	nr = 8
	kc = 256
)

// UseAsm selects the assembly micro-kernel when the CPU supports it. Tests
// set it to false to exercise the portable Go micro-kernel.
var UseAsm = true

// UseAVX512 selects the AVX-512 kernels, where UseAsm would run the AVX2
// ones, when the CPU supports them. They give the same values bit for bit;
// tests set it to false to exercise the AVX2 kernels.
var UseAVX512 = true

// Accelerated reports whether Gram runs the assembly micro-kernel.
func Accelerated() bool { return UseAsm && hasAsm }

// SymRankK writes XᵀX into dst, which is resized to p×p if it is empty
// (dst.IsEmpty) and must otherwise be p×p, where X is n×p.
func SymRankK(dst *mat.SymDense, x *mat.Dense) {
	n, p := x.Dims()
	if dst.IsEmpty() {
		*dst = *mat.NewSymDense(p, nil)
	}
	if dst.SymmetricDim() != p {
		panic("kernel: dimension mismatch")
	}
	raw := x.RawMatrix()
	d := dst.RawSymmetric()
	Gram(d.Data, d.Stride, raw.Data, n, p, raw.Stride)
}

// Gram writes the upper triangle of XᵀX into dst (row-major, stride ldc), for
// the n×p row-major matrix x with stride ldx. The strict lower triangle of
// dst is not touched.
func Gram(dst []float64, ldc int, x []float64, n, p, ldx int) {
	if p == 0 {
		return
	}
	if ldc < p || ldx < p || len(dst) < (p-1)*ldc+p || (n > 0 && len(x) < (n-1)*ldx+p) {
		panic("kernel: bad dimensions")
	}
	pp := (p + 23) / 24 * 24 // a multiple of mr and nr
	workers := runtime.GOMAXPROCS(0)
	// Each worker needs at least a few slabs to amortise its private p×p.
	if w := n * p / (4 * kc * 24); w < workers {
		workers = max(w, 1)
	}
	parts := make([][]float64, workers)
	for w := range parts {
		parts[w] = getBuf(pp * pp)
		clear(parts[w])
	}
	rows := gramRows
	if UseAsm && hasAsm && avx512() {
		rows = gramRows8
	}
	if workers == 1 {
		rows(parts[0], pp, x, n, p, ldx)
	} else {
		var wg sync.WaitGroup
		for w := range workers {
			lo, hi := n*w/workers, n*(w+1)/workers
			wg.Add(1)
			go func() {
				defer wg.Done()
				rows(parts[w], pp, x[min(lo*ldx, len(x)):], hi-lo, p, ldx)
			}()
		}
		wg.Wait()
	}
	for i := range p {
		row := dst[i*ldc+i : i*ldc+p]
		copy(row, parts[0][i*pp+i:i*pp+p])
		for _, q := range parts[1:] {
			for j, v := range q[i*pp+i : i*pp+p] {
				row[j] += v
			}
		}
	}
	for _, q := range parts {
		putBuf(q)
	}
}

// bufs recycles the packing and partial-product buffers between calls.
var bufs sync.Pool

// getBuf returns a buffer of length n with arbitrary contents.
func getBuf(n int) []float64 {
	if b, ok := bufs.Get().(*[]float64); ok && cap(*b) >= n {
		return (*b)[:n]
	}
	return make([]float64, n)
}

// putBuf hands b back to getBuf.
func putBuf(b []float64) { bufs.Put(&b) }

// gramRows adds the upper block triangle of XᵀX to c (pp×pp, stride pp; pp
// a multiple of 24 ≥ p) for the n×p matrix x, slab by slab of kc rows.
func gramRows(c []float64, pp int, x []float64, n, p, ldx int) {
	pa := getBuf(min(kc, n) * pp) // panels of mr columns, k×mr each
	pb := getBuf(min(kc, n) * pp) // panels of nr columns, k×nr each
	defer putBuf(pa)
	defer putBuf(pb)
	for k0 := 0; k0 < n; k0 += kc {
		k := min(kc, n-k0)
		pack(pa, x[k0*ldx:], k, p, pp, ldx, mr)
		pack(pb, x[k0*ldx:], k, p, pp, ldx, nr)
		// Column blocks of C of 96 columns: their B panels (kc×96) stay in
		// L2 while the A micro-panels stream through L1.
		// Only panels that hold a column below p are visited.
		const nc = 96
		for j0 := 0; j0 < p; j0 += nc {
			j1 := min(j0+nc, p)
			for i := 0; i < j1; i += mr {
				a := pa[i*k:]
				for j := max(j0, i/nr*nr); j < j1; j += nr {
					kern6x8(k, a, pb[j*k:], c[i*pp+j:], pp)
				}
			}
		}
	}
}

// gramRows8 is gramRows with the AVX-512 blocking: blocks of C of 8 rows
// and up to 24 columns, both taken from one packing in panels of 8 columns.
// Every entry of C is formed as gramRows forms it (the same bits).
func gramRows8(c []float64, pp int, x []float64, n, p, ldx int) {
	buf := getBuf(min(kc, n)*pp + 8)
	defer putBuf(buf)
	pb := align64(buf)
	for k0 := 0; k0 < n; k0 += kc {
		k := min(kc, n-k0)
		pack(pb, x[k0*ldx:], k, p, pp, ldx, nr)
		// The micro-kernels prefetch the next slab of X, line by line.
		pf, last := addr(pb), addr(pb)
		if k1 := k0 + kc; k1 < n {
			pf, last = addr(x[k1*ldx:]), addr(x[(min(k1+kc, n)-1)*ldx+p-1:])
		}
		// As in gramRows, column blocks of 96 (a multiple of 24).
		const nc = 96
		for j0 := 0; j0 < p; j0 += nc {
			j1 := min(j0+nc, p)
			for i := 0; i < j1; i += 8 {
				a := pb[i*k:]
				for j := max(j0, i); j < j1; {
					w := blockWidth(j, j1)
					kern8x(w, k, a, pb[j*k:], c[i*pp+j:], pp, 8*k, pf)
					pf = min(pf+uintptr(128*(k/4)), last)
					j += w
				}
			}
		}
	}
}

// blockWidth returns the width of the block of C from column j (a multiple
// of 8) in a row of blocks ending at j1: to the next multiple of 24, and at
// the end whole 8s and, when at most 4 columns are left, one 4 (at p = 100
// an 8-wide last block wasted 7 % of the multiply-adds).
func blockWidth(j, j1 int) int {
	r := j1 - j
	w := min(24-j%24, (r+7)/8*8)
	if w >= r && r%8 != 0 && r%8 <= 4 {
		w = max(r/8*8, 4)
	}
	return w
}

// addr is the address of v[0], for a prefetch.
func addr(v []float64) uintptr { return uintptr(unsafe.Pointer(&v[0])) }

// align64 returns b from its first element on a 64-byte boundary (b has
// 8 spare values), so that ZMM loads of a panel do not straddle cache lines.
func align64(b []float64) []float64 {
	off := int(uintptr(unsafe.Pointer(&b[0])) % 64 / 8)
	return b[(8-off)%8:]
}

// pack copies the k×p slab x into panels of w columns (w is mr or nr):
// panel q holds x[l][q*w+r] at q*w*k + l*w + r, zero for columns at or
// beyond p. Only the panels that hold a column below p are written. X is
// read row by row; the full panels are filled by unrolled moves (a copy call
// per 6 or 8 doubles cost as much as the multiply-adds at p = 100).
func pack(dst, x []float64, k, p, pp, ldx, w int) {
	full := p / w
	if w == 8 && full > 0 && k > 0 && UseAsm && hasAsm {
		// The whole panels by the assembly, the last one below.
		pack8Asm(k, full, x[:(k-1)*ldx+full*8], ldx, dst[:(full-1)*8*k+k*8])
		if full*8 < p {
			packPart(dst[full*8*k:], x, k, p, ldx, full*8)
		}
		return
	}
	for l := range k {
		row := x[l*ldx : l*ldx+p]
		off := l * w
		if w == 8 {
			for q := range full {
				s := row[q*8 : q*8+8 : q*8+8]
				d := dst[off : off+8 : off+8]
				d[0], d[1], d[2], d[3] = s[0], s[1], s[2], s[3]
				d[4], d[5], d[6], d[7] = s[4], s[5], s[6], s[7]
				off += 8 * k
			}
		} else if w == 6 {
			for q := range full {
				s := row[q*6 : q*6+6 : q*6+6]
				d := dst[off : off+6 : off+6]
				d[0], d[1], d[2], d[3], d[4], d[5] = s[0], s[1], s[2], s[3], s[4], s[5]
				off += 6 * k
			}
		} else {
			for q := range full {
				copy(dst[off:off+w], row[q*w:q*w+w])
				off += w * k
			}
		}
		if full*w < p {
			d := dst[off : off+w]
			clear(d)
			copy(d, row[full*w:])
		}
	}
}

// packPart copies columns j0 to p−1 (fewer than 8) of the k×p slab x into
// the 8-wide panel dst, the columns beyond p zero.
func packPart(dst, x []float64, k, p, ldx, j0 int) {
	for l := range k {
		d := dst[l*8 : l*8+8]
		clear(d)
		copy(d, x[l*ldx+j0:l*ldx+p])
	}
}

// kern6x8Go is the portable micro-kernel: it adds Σ_l a[l*6+i]·b[l*8+j] to
// c[i*ldc+j] for i < 6, j < 8, l < k, each sum an FMA chain over l from
// zero added to c at the end, as every assembly micro-kernel forms it (the
// same bits on every path).
func kern6x8Go(k int, a, b, c []float64, ldc int) {
	var acc [mr][nr]float64
	a, b = a[:k*mr], b[:k*nr]
	for l := range k {
		al := a[l*mr : l*mr+mr : l*mr+mr]
		bl := b[l*nr : l*nr+nr : l*nr+nr]
		for i, ai := range al {
			r := &acc[i]
			r[0] = math.FMA(ai, bl[0], r[0])
			r[1] = math.FMA(ai, bl[1], r[1])
			r[2] = math.FMA(ai, bl[2], r[2])
			r[3] = math.FMA(ai, bl[3], r[3])
			r[4] = math.FMA(ai, bl[4], r[4])
			r[5] = math.FMA(ai, bl[5], r[5])
			r[6] = math.FMA(ai, bl[6], r[6])
			r[7] = math.FMA(ai, bl[7], r[7])
		}
	}
	for i := range mr {
		row := c[i*ldc : i*ldc+nr]
		for j := range row {
			row[j] += acc[i][j]
		}
	}
}
