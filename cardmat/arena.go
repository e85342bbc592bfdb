package cardmat

import "sync"

// arena hands out scratch slices for the tables of one product from pooled
// chunks, so that products repeated in a loop (a solver, a training run)
// do not allocate their tables afresh. Slices are not zeroed.
type arena struct {
	chunks [][]float64
	cur    []float64
}

// chunkPool holds released chunks.
var chunkPool sync.Pool

// minChunk is the smallest chunk taken from the pool, in float64s.
const minChunk = 1 << 16

// take returns a slice of n float64s with unspecified contents.
func (a *arena) take(n int) []float64 {
	if len(a.cur) < n {
		size := max(n, minChunk)
		var c []float64
		if p, ok := chunkPool.Get().(*[]float64); ok && cap(*p) >= size {
			c = (*p)[:cap(*p)]
		} else {
			c = make([]float64, size)
		}
		a.chunks = append(a.chunks, c)
		a.cur = c
	}
	s := a.cur[:n:n]
	a.cur = a.cur[n:]
	return s
}

// release returns the chunks to the pool; slices taken must not be used
// after.
func (a *arena) release() {
	for _, c := range a.chunks {
		chunkPool.Put(&c)
	}
	a.chunks, a.cur = nil, nil
}
