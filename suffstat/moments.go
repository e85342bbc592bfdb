package suffstat

import (
	"fmt"
	"math"

	"github.com/cardsparse/cardreg/internal/kernel"
	"gonum.org/v1/gonum/mat"
)

// Moments are the weighted means and centred co-moments of d variables.
// The zero value is not usable; call New.
type Moments struct {
	d int
	// W is the total weight Σw of the rows added.
	W float64
	// N counts the rows added (with any weight, zero included).
	N int64
	// Mean holds the d weighted means.
	Mean []float64
	// C is the d×d co-moment matrix Σ w (z − mean)(z − mean)ᵀ, row-major;
	// only its upper triangle is kept up to date by Add and Merge (see
	// Sym).
	C []float64
}

// New returns empty statistics of d variables.
func New(d int) *Moments {
	if d < 1 {
		panic(fmt.Sprintf("suffstat: %d variables", d))
	}
	return &Moments{d: d, Mean: make([]float64, d), C: make([]float64, d*d)}
}

// Dim returns the number of variables.
func (m *Moments) Dim() int { return m.d }

// Add adds one row z with weight w ≥ 0 (West's update: with δ = z − z̄,
// z̄ += (w/W')δ and C += w·(W/W')·δδᵀ, W' = W + w). It panics if len(z)
// is not Dim() or w is negative or not finite.
func (m *Moments) Add(z []float64, w float64) {
	if len(z) != m.d {
		panic(fmt.Sprintf("suffstat: row of %d values for %d variables", len(z), m.d))
	}
	if !(w >= 0) || math.IsInf(w, 0) {
		panic(fmt.Sprintf("suffstat: weight %v", w))
	}
	m.N++
	if w == 0 {
		return
	}
	wNew := m.W + w
	f := w * m.W / wNew
	delta := make([]float64, m.d)
	for i, v := range z {
		delta[i] = v - m.Mean[i]
		m.Mean[i] += w / wNew * delta[i]
	}
	m.W = wNew
	if f == 0 {
		return
	}
	for i := range m.d {
		fi := f * delta[i]
		row := m.C[i*m.d:]
		for j := i; j < m.d; j++ {
			row[j] += fi * delta[j]
		}
	}
}

// AddRows adds the rows of z (n×d) with weights w (nil: all 1). The chunk
// is summarised by two passes (its weighted mean, then its centred
// co-moments as one Gram product) and merged, which is faster than n
// calls of Add and as accurate.
func (m *Moments) AddRows(z mat.Matrix, w []float64) {
	n, d := z.Dims()
	if d != m.d || w != nil && len(w) != n {
		panic(fmt.Sprintf("suffstat: %d×%d rows (%d weights) for %d variables", n, d, len(w), m.d))
	}
	data := make([]float64, n*d)
	for i := range n {
		for j := range d {
			data[i*d+j] = z.At(i, j)
		}
	}
	m.addBlock(data, n, w, New(d))
}

// addBlock adds the n rows held row-major in data (overwritten) with
// weights w (nil: all 1), summarised in chunk (same variables; its
// previous contents are replaced).
func (m *Moments) addBlock(data []float64, n int, w []float64, chunk *Moments) {
	if n == 0 {
		return
	}
	d := m.d
	chunk.W, chunk.N = 0, int64(n)
	clear(chunk.Mean) // C's upper triangle is overwritten below, the rest stays 0
	weight := func(i int) float64 {
		if w == nil {
			return 1
		}
		if !(w[i] >= 0) || math.IsInf(w[i], 0) {
			panic(fmt.Sprintf("suffstat: weight %v", w[i]))
		}
		return w[i]
	}
	for i := range n {
		wi := weight(i)
		chunk.W += wi
		for j, v := range data[i*d : i*d+d] {
			chunk.Mean[j] += wi * v
		}
	}
	if chunk.W == 0 {
		m.N += chunk.N
		return
	}
	for j := range chunk.Mean {
		chunk.Mean[j] /= chunk.W
	}
	// Rows centred and scaled by √w: C = ZcᵀZc (upper triangle).
	for i := range n {
		s := math.Sqrt(weight(i))
		row := data[i*d : i*d+d]
		for j := range row {
			row[j] = s * (row[j] - chunk.Mean[j])
		}
	}
	kernel.Gram(chunk.C, d, data, n, d, d)
	m.Merge(chunk)
}

// Chunk adds rows to a Moments a block at a time: Add copies the row into a
// buffer, and a full buffer is added as AddRows adds it, on a goroutine of
// the Chunk's own, while the next block fills; blocks are added in order,
// so the statistics are those of AddRows on the same blocks, and several
// times faster to get than by Moments.Add row by row. The statistics are
// complete after Flush, which waits; m must not be used before it.
type Chunk struct {
	m    *Moments
	tmp  *Moments // a block's statistics before they are merged
	size int
	cur  block
	jobs chan block // full blocks for the worker
	pool chan block // emptied blocks back from it
	idle chan struct{}
}

// block is a buffer of rows and their weights.
type block struct {
	rows, w []float64
}

// DefaultBlock is a good block size for a Chunk: large enough for the
// Gram kernel, small enough to stay in cache for tens of variables.
const DefaultBlock = 256

// NewChunk returns a Chunk adding to m in blocks of size rows.
func NewChunk(m *Moments, size int) *Chunk {
	if size < 1 {
		panic(fmt.Sprintf("suffstat: blocks of %d rows", size))
	}
	return &Chunk{m: m, tmp: New(m.d), size: size, cur: newBlock(size, m.d)}
}

func newBlock(size, d int) block {
	return block{rows: make([]float64, 0, size*d), w: make([]float64, 0, size)}
}

// Add buffers the row z with weight w ≥ 0 (it panics as Moments.Add does).
func (c *Chunk) Add(z []float64, w float64) {
	if len(z) != c.m.d {
		panic(fmt.Sprintf("suffstat: row of %d values for %d variables", len(z), c.m.d))
	}
	if !(w >= 0) || math.IsInf(w, 0) {
		panic(fmt.Sprintf("suffstat: weight %v", w))
	}
	c.cur.rows = append(c.cur.rows, z...)
	c.cur.w = append(c.cur.w, w)
	if len(c.cur.w) == c.size {
		c.hand()
	}
}

// hand gives the full current block to the worker and takes an empty one.
func (c *Chunk) hand() {
	if c.jobs == nil {
		c.jobs, c.pool, c.idle = make(chan block, 2), make(chan block, 3), make(chan struct{})
		c.pool <- newBlock(c.size, c.m.d)
		c.pool <- newBlock(c.size, c.m.d)
		go func(jobs <-chan block, pool chan<- block, idle chan<- struct{}) {
			for b := range jobs {
				c.m.addBlock(b.rows, len(b.w), b.w, c.tmp)
				pool <- block{rows: b.rows[:0], w: b.w[:0]}
			}
			close(idle)
		}(c.jobs, c.pool, c.idle)
	}
	c.jobs <- c.cur
	c.cur = <-c.pool
}

// Close stops the Chunk without adding the rows still buffered (after an
// error, when the statistics will not be used): its goroutine ends.
func (c *Chunk) Close() {
	c.wait()
	c.cur.rows, c.cur.w = c.cur.rows[:0], c.cur.w[:0]
}

// Flush adds the buffered rows and waits until every block is added.
func (c *Chunk) Flush() {
	c.wait()
	c.m.addBlock(c.cur.rows, len(c.cur.w), c.cur.w, c.tmp)
	c.cur.rows, c.cur.w = c.cur.rows[:0], c.cur.w[:0]
}

// wait lets the worker add the blocks handed to it and end.
func (c *Chunk) wait() {
	if c.jobs != nil {
		close(c.jobs)
		<-c.idle
		c.jobs, c.pool, c.idle = nil, nil, nil
	}
}

// Merge adds the statistics of o (the same variables) to m: the result is
// that of all rows of both, in any order (Chan, Golub and LeVeque's
// update). It panics if the dimensions differ.
func (m *Moments) Merge(o *Moments) {
	if o.d != m.d {
		panic(fmt.Sprintf("suffstat: merging %d variables into %d", o.d, m.d))
	}
	m.N += o.N
	if o.W == 0 {
		return
	}
	if m.W == 0 {
		m.W = o.W
		copy(m.Mean, o.Mean)
		copy(m.C, o.C)
		return
	}
	w := m.W + o.W
	f := m.W * o.W / w
	delta := make([]float64, m.d)
	for i := range delta {
		delta[i] = o.Mean[i] - m.Mean[i]
		m.Mean[i] += o.W / w * delta[i]
	}
	for i := range m.d {
		fi := f * delta[i]
		row, orow := m.C[i*m.d:], o.C[i*m.d:]
		for j := i; j < m.d; j++ {
			row[j] += orow[j] + fi*delta[j]
		}
	}
	m.W = w
}

// Clone returns a copy of m.
func (m *Moments) Clone() *Moments {
	c := New(m.d)
	c.Merge(m)
	c.N = m.N
	return c
}

// Sym returns the co-moment matrix as a symmetric matrix (a copy).
func (m *Moments) Sym() *mat.SymDense {
	s := mat.NewSymDense(m.d, nil)
	for i := range m.d {
		for j := i; j < m.d; j++ {
			s.SetSym(i, j, m.C[i*m.d+j])
		}
	}
	return s
}

// Scale multiplies every weight by c > 0: W and the co-moments scale by c,
// the means do not change. Normalising weights to sum to n is Scale(N/W).
// It panics if c is not finite and positive.
func (m *Moments) Scale(c float64) {
	if !(c > 0) || math.IsInf(c, 0) {
		panic(fmt.Sprintf("suffstat: scale %v", c))
	}
	m.W *= c
	for i := range m.C {
		m.C[i] *= c
	}
}

// ScaleExp multiplies every weight by 2^k, exactly (but for statistics
// that leave float64's normal range: they round, to 0 at worst): W and
// the co-moments scale by 2^k, the means do not change. It is how
// statistics follow a WeightScale that moved.
func (m *Moments) ScaleExp(k int) {
	m.W = math.Ldexp(m.W, k)
	for i := range m.C {
		m.C[i] = math.Ldexp(m.C[i], k)
	}
}

// MaxWeightExp bounds the weights whose statistics stay exact when added
// as they are: a weight is 0 or has a binary exponent within
// ±MaxWeightExp (about 5e-20 to 2e19). Beyond, products of a weight and a
// square leave float64's range (1e-320 is subnormal: its products keep a
// few bits, and the total weight of a few rows rescaled to sum n
// overflows) and the statistics are silently wrong. Weights of any
// magnitude are put within it by a WeightScale (only their ratios matter).
const MaxWeightExp = 64

// ValidWeight returns an error when w is negative or not finite: no
// scale makes it a weight.
func ValidWeight(w float64) error {
	switch {
	case math.IsNaN(w) || math.IsInf(w, 0):
		return fmt.Errorf("weight %v is not finite", w)
	case w < 0:
		return fmt.Errorf("weight %v is negative", w)
	}
	return nil
}

// CheckWeight returns an error saying why w cannot be added as it is
// (without a WeightScale): negative, not finite (ValidWeight), or
// non-zero outside [2^-MaxWeightExp, 2^MaxWeightExp].
func CheckWeight(w float64) error {
	if err := ValidWeight(w); err != nil || w == 0 {
		return err
	}
	lo, hi := math.Ldexp(1, -MaxWeightExp), math.Ldexp(1, MaxWeightExp)
	switch {
	case w > hi:
		return fmt.Errorf("weight %v is above %.3g: weights are held exactly within [%.3g, %.3g]; if all the weights are that large, divide them all by one factor (only their ratios matter); a single weight that far above the others outweighs them all, and a fit would rest on that one row", w, hi, lo, hi)
	case w < lo:
		return fmt.Errorf("weight %v is below %.3g: weights are held exactly within [%.3g, %.3g]; if all the weights are that small, multiply them all by one factor (only their ratios matter); a single weight that far below the others counts for nothing: make it 0", w, lo, lo, hi)
	}
	return nil
}

// Check returns an error when a statistic left float64's range: values
// near 1e154 or beyond have squares that overflow. It names the first
// variable (from 0) whose mean or co-moments are not finite.
func (m *Moments) Check() error {
	if math.IsInf(m.W, 0) || math.IsNaN(m.W) {
		return fmt.Errorf("suffstat: the total weight %v is beyond float64", m.W)
	}
	for i := range m.d {
		if v := m.Mean[i]; math.IsInf(v, 0) || math.IsNaN(v) {
			return &RangeError{Var: i, What: "mean", Value: v}
		}
		for j := i; j < m.d; j++ {
			if v := m.C[i*m.d+j]; math.IsInf(v, 0) || math.IsNaN(v) {
				return &RangeError{Var: i, What: "sum of squares", Value: v}
			}
		}
	}
	return nil
}

// RangeError is a statistic of one variable beyond float64.
type RangeError struct {
	// Var is the variable, from 0.
	Var int
	// What names the statistic: "mean" or "sum of squares".
	What string
	// Value is what it became (±Inf or NaN).
	Value float64
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("suffstat: variable %d: the weighted %s is %v, beyond float64 (values near 1e154 or larger square past 1e308)", e.Var+1, e.What, e.Value)
}

// CheckMagnitude returns an error when m, the largest magnitude of a
// variable, is so small that its squares times the weight w fall below
// float64's normal range (2^-1022, about 2.2e-308): their statistics lose
// their digits and a varying column at 1e-200 looks constant. w is the
// largest weight as the statistics hold it (on a WeightScale: near 1):
// rows far lighter count for little, whatever their rounding. (Squares
// that overflow show in Check.)
func CheckMagnitude(m, w float64) error {
	if m == 0 || math.IsInf(m, 0) || !(w > 0) {
		return nil
	}
	_, em := math.Frexp(m)
	_, ew := math.Frexp(w)
	if 2*(em-1)+(ew-1) >= -1022 {
		return nil
	}
	return fmt.Errorf("largest magnitude %.3g is so small that its squares (times the largest weight as held, %.3g) fall below float64's normal range, where the statistics would lose it", m, w)
}
