package solver

import (
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/cardsparse/cardreg/internal/kernel"
)

// gramBlock is the tile size of the blocked Gram product.
const gramBlock = 64

// kernelMinWork is the smallest n·p² for which gram calls internal/kernel.
// The kernel was still 1.4 times faster than gonum's syrk at 20×8 (n·p² =
// 1280; internal/kernel BenchmarkGram); the cut-off only keeps the tiniest
// products off its padded buffers.
const kernelMinWork = 1 << 10

// gram writes XᵀX into dst. Small products use gonum's syrk. Large ones
// transpose X once (so that both factors of each tile are row-major and the
// tile is a dot-product gemm, C_IJ = Xtᵢ·Xtⱼᵀ) and spread the tiles of the
// upper triangle over the cores: gonum's syrk runs on one core and its
// rank-1 updates stream the whole p×p result through the cache for every
// row of X. On 5000×500 this is about twice as fast as syrk
// (BenchmarkGram).
//
// When the CPU has AVX2 and FMA, products of at least kernelMinWork
// multiply-adds go to internal/kernel instead (packed panels and an
// assembly micro-kernel: 4 to 8 times faster than the gonum paths at
// 5000×500 and 100000×100, BenchmarkGram).
func gram(dst *mat.SymDense, x *mat.Dense) {
	n, p := x.Dims()
	if kernel.Accelerated() && n*p*p >= kernelMinWork {
		*dst = *mat.NewSymDense(p, nil)
		kernel.SymRankK(dst, x)
		return
	}
	if n*p*p < 1<<22 || p < 2*gramBlock {
		dst.SymOuterK(1, x.T())
		return
	}
	xt := transpose(x) // p×n
	full := make([]float64, p*p)
	type tile struct{ i0, j0 int }
	tiles := make(chan tile)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range tiles {
				i1, j1 := min(t.i0+gramBlock, p), min(t.j0+gramBlock, p)
				a := blas64.General{Rows: i1 - t.i0, Cols: n, Stride: xt.Stride, Data: xt.Data[t.i0*xt.Stride:]}
				b := blas64.General{Rows: j1 - t.j0, Cols: n, Stride: xt.Stride, Data: xt.Data[t.j0*xt.Stride:]}
				c := blas64.General{Rows: i1 - t.i0, Cols: j1 - t.j0, Stride: p, Data: full[t.i0*p+t.j0:]}
				blas64.Gemm(blas.NoTrans, blas.Trans, 1, a, b, 0, c)
			}
		}()
	}
	for i0 := 0; i0 < p; i0 += gramBlock {
		for j0 := i0; j0 < p; j0 += gramBlock {
			tiles <- tile{i0, j0}
		}
	}
	close(tiles)
	wg.Wait()
	// The diagonal tiles are full squares, so the upper triangle is complete.
	*dst = *mat.NewSymDense(p, full)
}

// transpose returns xᵀ, copied tile by tile so that both the reads and the
// writes stay in cache (twice as fast as an element-wise copy on 5000×500).
func transpose(x *mat.Dense) blas64.General {
	n, p := x.Dims()
	raw := x.RawMatrix()
	out := make([]float64, p*n)
	const tile = 32
	for i0 := 0; i0 < n; i0 += tile {
		for j0 := 0; j0 < p; j0 += tile {
			for i := i0; i < min(i0+tile, n); i++ {
				row := raw.Data[i*raw.Stride : i*raw.Stride+p]
				for j := j0; j < min(j0+tile, p); j++ {
					out[j*n+i] = row[j]
				}
			}
		}
	}
	return blas64.General{Rows: p, Cols: n, Stride: n, Data: out}
}
