package kernel

import (
	"runtime"
	"sync"
)

// gemvParallel is the size m·n from which MulVec splits the rows over the
// cores. Below it (a 500×500 Gram matrix, 2 MB, stays in cache and takes
// about 40 µs) starting the goroutines costs more CPU time than the second
// core saves; above it the product streams the matrix from memory and both
// cores' bandwidth shortens the wall time.
const gemvParallel = 1 << 18

// MulVec writes a·x into y for the m×n row-major matrix a with stride lda:
// y[i] = Dot(a[i*lda:i*lda+n], x), each row summed by Dot, so that the
// result is the same bit for bit whatever the number of workers. From
// m·n ≥ 2¹⁸ the rows are split into runtime.GOMAXPROCS contiguous shares,
// one goroutine each. It panics if y is shorter than m, x shorter than n,
// lda < n or a too short.
func MulVec(y, a []float64, m, n, lda int, x []float64) {
	if m == 0 {
		return
	}
	if len(y) < m || len(x) < n || lda < n || len(a) < (m-1)*lda+n {
		panic("kernel: bad dimensions")
	}
	workers := 1
	if m*n >= gemvParallel {
		workers = min(runtime.GOMAXPROCS(0), m)
	}
	if workers == 1 {
		mulVecRows(y, a, 0, m, n, lda, x)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := m*w/workers, m*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			mulVecRows(y, a, lo, hi, n, lda, x)
		}()
	}
	wg.Wait()
}

// mulVecRows writes rows lo to hi of a·x into y.
func mulVecRows(y, a []float64, lo, hi, n, lda int, x []float64) {
	x = x[:n]
	for i := lo; i < hi; i++ {
		y[i] = Dot(a[i*lda:i*lda+n], x)
	}
}
