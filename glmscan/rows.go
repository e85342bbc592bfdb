package glmscan

import (
	"cmp"
	"container/heap"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/datafit"
	"gonum.org/v1/gonum/mat"
)

// RowScanner scans rows read in passes (a file, or rows in memory): each
// scan is one pass.
type RowScanner struct {
	src   data.RowSource
	fam   datafit.Family
	p, k  int
	fold  func(i uint64) int
	seed  uint64
	shift []float64
	scans int
}

// NewRowScanner returns a scanner over src's rows of p predictors for
// family fam, row i (in the source's order) in fold fold(i) of k (fold nil:
// one fold). seed draws the sample.
func NewRowScanner(src data.RowSource, fam datafit.Family, p, k int, fold func(i uint64) int, seed uint64) *RowScanner {
	if fold == nil {
		k, fold = 1, func(uint64) int { return 0 }
	}
	return &RowScanner{src: src, fam: fam, p: p, k: k, fold: fold, seed: seed}
}

// Folds implements Scanner.
func (s *RowScanner) Folds() int { return s.k }

// Scans implements Scanner.
func (s *RowScanner) Scans() int { return s.scans }

// pass runs one pass, checking each row's width and fold.
func (s *RowScanner) pass(row func(i uint64, f int, x []float64, y, w, o float64) error) error {
	s.scans++
	var i uint64
	return s.src.Pass(func(x []float64, y, w, o float64) error {
		if len(x) != s.p {
			return fmt.Errorf("glmscan: row %d has %d predictors, want %d", i+1, len(x), s.p)
		}
		f := s.fold(i)
		if f < 0 || f >= s.k {
			return fmt.Errorf("glmscan: row %d is in fold %d, not one of 1…%d", i+1, f+1, s.k)
		}
		err := row(i, f, x, y, w, o)
		i++
		return err
	})
}

// First implements Scanner: one pass checks every row (datafit.CheckRow,
// then the weights and the columns' scales as a streamed fit does),
// sums the totals and keeps the m rows of smallest seeded hash (a uniform
// sample without replacement).
func (s *RowScanner) First(m int) (*Totals, *Sample, error) {
	t := NewTotals(s.k, s.p)
	smp := &sampleHeap{}
	rc := datafit.NewRowChecker(s.fam, s.p)
	err := s.pass(func(i uint64, f int, x []float64, y, w, o float64) error {
		if err := rc.Add(int(i), x, y, w, o); err != nil {
			return err
		}
		if s.shift == nil {
			s.shift = append([]float64(nil), x...)
		}
		t.add(f, s.shift, x, y, w, o, OffsetPower(s.fam))
		h := mix(i ^ s.seed*0x9e3779b97f4a7c15)
		if smp.Len() < m {
			heap.Push(smp, sampled{h, i, f, append([]float64(nil), x...), y, w, o})
		} else if m > 0 && h < (*smp)[0].hash {
			(*smp)[0] = sampled{h, i, f, append([]float64(nil), x...), y, w, o}
			heap.Fix(smp, 0)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if s.shift == nil {
		return nil, nil, errors.New("glmscan: no rows")
	}
	if err := rc.Check(); err != nil {
		return nil, nil, err
	}
	t.Shift = s.shift
	return t, smp.sample(), nil
}

// add adds one row to fold f's totals, a being OffsetPower.
func (t *Totals) add(f int, shift, x []float64, y, w, o, a float64) {
	e := math.Exp(a * o)
	if a != 1 {
		y *= math.Exp((a - 1) * o)
	}
	t.N[f]++
	t.W[f] += w
	t.WY[f] += w * y
	t.WE[f] += w * e
	if o != 0 {
		t.Offset = true
	}
	wxy, wxe := t.WXY[f], t.WXE[f]
	p := len(x)
	xx := t.XX[f]
	xx[0] += w
	for j, v := range x {
		d := v - shift[j]
		wxy[j] += w * d * y
		wxe[j] += w * d * e
		xx[j+1] += w * d
		row := xx[(j+1)*(p+1):]
		for k := j; k < p; k++ {
			row[k+1] += w * d * (x[k] - shift[k])
		}
	}
}

// Sym returns fold f's XX as a symmetric matrix (its upper triangle).
func (t *Totals) Sym(f int) *mat.SymDense {
	d := len(t.Shift) + 1
	m := mat.NewSymDense(d, nil)
	for a := range d {
		for b := a; b < d; b++ {
			m.SetSym(a, b, t.XX[f][a*d+b])
		}
	}
	return m
}

// scanBlock is how many rows a scan evaluates together (one matrix
// product per block for the linear predictors, one for the gradients).
const scanBlock = 256

// Scan implements Scanner: one pass, rows in blocks.
func (s *RowScanner) Scan(req *Request) (*Sums, error) {
	if err := CheckRequest(req, s.p, s.k); err != nil {
		return nil, err
	}
	a := newAccumulator(s.fam, req, s.p)
	err := s.pass(func(_ uint64, f int, x []float64, y, w, o float64) error {
		a.add(f, x, y, w, o)
		if a.rows == scanBlock {
			a.flush()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	a.flush()
	return a.sums(), nil
}

// accumulator sums a request's aggregates over blocks of rows.
type accumulator struct {
	fam     datafit.Family
	req     *Request
	p, rows int
	coef    *mat.Dense // M×(p+1): each point's (b₀, β)
	x       *mat.Dense // the block's rows (1, x), scanBlock×(p+1)
	y, w, o []float64
	f       []int
	eta, r  *mat.Dense // scanBlock×M
	grad    *mat.Dense // M×(p+1)
	tmp     *mat.Dense
	out     *Sums
}

func newAccumulator(fam datafit.Family, req *Request, p int) *accumulator {
	m := len(req.Points)
	a := &accumulator{fam: fam, req: req, p: p, coef: mat.NewDense(max(m, 1), p+1, nil),
		x: mat.NewDense(scanBlock, p+1, nil), y: make([]float64, scanBlock), w: make([]float64, scanBlock),
		o: make([]float64, scanBlock), f: make([]int, scanBlock),
		eta: mat.NewDense(scanBlock, max(m, 1), nil), r: mat.NewDense(scanBlock, max(m, 1), nil),
		grad: mat.NewDense(max(m, 1), p+1, nil), tmp: mat.NewDense(max(m, 1), p+1, nil),
		out: &Sums{Grad: make([][]float64, m), Dev: make([]float64, m), Dual: make([]float64, m), Score: make([]float64, m)}}
	for k, pt := range req.Points {
		row := a.coef.RawRowView(k)
		row[0] = pt.B0
		copy(row[1:], pt.Beta)
	}
	return a
}

func (a *accumulator) add(f int, x []float64, y, w, o float64) {
	row := a.x.RawRowView(a.rows)
	row[0] = 1
	copy(row[1:], x)
	a.y[a.rows], a.w[a.rows], a.o[a.rows], a.f[a.rows] = y, w, o, f
	a.rows++
}

// flush evaluates the block's rows.
func (a *accumulator) flush() {
	if a.rows == 0 || len(a.req.Points) == 0 {
		a.rows = 0
		return
	}
	n := a.rows
	x := a.x.Slice(0, n, 0, a.p+1)
	eta := a.eta.Slice(0, n, 0, len(a.req.Points)).(*mat.Dense)
	r := a.r.Slice(0, n, 0, len(a.req.Points)).(*mat.Dense)
	eta.Mul(x, a.coef.T())
	for i := range n {
		er, rr := eta.RawRowView(i), r.RawRowView(i)
		for k := range a.req.Points {
			rr[k] = a.point(k, i, er[k]+a.o[i])
		}
	}
	a.tmp.Mul(r.T(), x)
	a.grad.Add(a.grad, a.tmp)
	a.rows = 0
}

// point adds block row i at linear predictor e to point k's sums and
// returns its weighted derivative for the gradient (0 when the row is not
// one of the point's training rows).
func (a *accumulator) point(k, i int, e float64) float64 {
	pt := &a.req.Points[k]
	y, w := a.y[i], a.w[i]
	switch {
	case w == 0:
		return 0
	case a.f[i] == pt.Holdout:
		a.out.Score[k] += w * a.req.Score(y, e)
		return 0
	case pt.Dual != nil:
		d1, _ := a.fam.Derivs(y, e)
		al := pt.Dual.Alpha
		v := d1 - al[0]
		for j, xj := range a.x.RawRowView(i)[1:] {
			v -= al[j+1] * xj
		}
		a.out.Dual[k] += w * (a.o[i]*v - a.fam.Conjugate(y, v))
		return 0
	}
	d1, _ := a.fam.Derivs(y, e)
	a.out.Dev[k] += w * a.fam.Deviance(y, e)
	return w * d1
}

func (a *accumulator) sums() *Sums {
	for k, pt := range a.req.Points {
		if pt.Dual == nil {
			a.out.Grad[k] = mat.Row(nil, k, a.grad)
		}
	}
	return a.out
}

// sampled is one row of the sample with its hash.
type sampled struct {
	hash    uint64
	i       uint64
	f       int
	x       []float64
	y, w, o float64
}

// sampleHeap keeps the rows of smallest hash, the largest on top.
type sampleHeap []sampled

func (h sampleHeap) Len() int           { return len(h) }
func (h sampleHeap) Less(a, b int) bool { return h[a].hash > h[b].hash }
func (h sampleHeap) Swap(a, b int)      { h[a], h[b] = h[b], h[a] }
func (h *sampleHeap) Push(v any)        { *h = append(*h, v.(sampled)) }
func (h *sampleHeap) Pop() any {
	old := *h
	v := old[len(old)-1]
	*h = old[:len(old)-1]
	return v
}

// sample returns the rows kept, in the source's order.
func (h sampleHeap) sample() *Sample {
	rows := append(sampleHeap(nil), h...)
	slices.SortFunc(rows, func(a, b sampled) int { return cmp.Compare(a.i, b.i) })
	s := &Sample{}
	for _, r := range rows {
		s.X = append(s.X, r.x)
		s.Y, s.W, s.O, s.Fold = append(s.Y, r.y), append(s.W, r.w), append(s.O, r.o), append(s.Fold, r.f)
	}
	return s
}

// mix is SplitMix64's finaliser.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
