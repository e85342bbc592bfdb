package suffstat

import (
	"fmt"
	"math"

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
// co-moments as one matrix product) and merged, which is faster than n
// calls of Add and as accurate.
func (m *Moments) AddRows(z mat.Matrix, w []float64) {
	n, d := z.Dims()
	if d != m.d || w != nil && len(w) != n {
		panic(fmt.Sprintf("suffstat: %d×%d rows (%d weights) for %d variables", n, d, len(w), m.d))
	}
	if n == 0 {
		return
	}
	chunk := New(d)
	chunk.N = int64(n)
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
		for j := range d {
			chunk.Mean[j] += wi * z.At(i, j)
		}
	}
	if chunk.W == 0 {
		m.N += chunk.N
		return
	}
	for j := range chunk.Mean {
		chunk.Mean[j] /= chunk.W
	}
	// Rows centred and scaled by √w: C = ZcᵀZc.
	zc := mat.NewDense(n, d, nil)
	for i := range n {
		s := math.Sqrt(weight(i))
		row := zc.RawRowView(i)
		for j := range d {
			row[j] = s * (z.At(i, j) - chunk.Mean[j])
		}
	}
	c := mat.NewDense(d, d, chunk.C)
	c.Mul(zc.T(), zc)
	m.Merge(chunk)
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
