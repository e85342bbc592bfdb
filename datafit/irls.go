package datafit

import (
	"math"
	"slices"

	"github.com/cardsparse/cardreg/design"
	"github.com/cardsparse/cardreg/internal/kernel"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

var _ solver.Reweighter = (*Loss)(nil)

// IRLSDesign implements solver.Reweighter: the penalised columns, the
// free ones by rows (a copy), and the column statistics and copies among
// the columns for the factors f, each computed once per loss.
func (l *Loss) IRLSDesign(f []float64) solver.IRLSDesign {
	d := solver.IRLSDesign{Columns: l.xp, Intercept: l.intercept}
	if l.xu != nil {
		d.Free = mat.DenseCopyOf(l.xu.T())
	}
	d.Twin, d.TwinSign = l.copies(f)
	d.MaxAbs, d.OffCentre, _ = l.columnStats(nil)
	return d
}

// Point implements solver.Reweighter.
func (l *Loss) Point(theta mat.Matrix) (eta, free []float64) {
	l.evaluate(theta)
	return slices.Clone(l.eta), slices.Clone(l.free)
}

// Settle implements solver.Reweighter.
func (l *Loss) Settle(beta, eta, free []float64) { l.adopt(beta, eta, free) }

// Reweight implements solver.Reweighter from the family's derivatives,
// evaluated with the deviance (unit) and kept (rowCache): the profile of
// a certificate at the same point reads them again.
func (l *Loss) Reweight(eta, v, r []float64) float64 {
	f := l.constant
	c := l.unitsAt(eta)
	for i := range eta {
		v[i], r[i] = 0, 0
		if l.w[i] == 0 {
			continue
		}
		f += l.w[i] * c.dev[i]
		if d2 := NewtonCurvature(c.d1[i], c.d2[i]); d2 > 0 {
			v[i] = l.w[i] * d2 / 2
			r[i] = -c.d1[i] / d2
		}
	}
	return f
}

// copies returns twins(l.xp, hashes, f), computed once per factors.
func (l *Loss) copies(f []float64) ([]int, []float64) {
	if l.twin == nil || !slices.Equal(l.twinF, f) {
		_, _, h := l.columnStats(nil)
		l.twin, l.twinSign = twins(l.xp, h, f)
		l.twinF = slices.Clone(f)
	}
	return l.twin, l.twinSign
}

// columnStats returns, per penalised column, max|x| (a bound on any
// weighted mean of it), whether it is off centre: its mean beyond its
// standard deviation, so that without centring it is nearly parallel to
// the intercept (a temperature near 300 K varying by 2 K) and the sweeps
// crawl, and its absHash (twins' buckets). It computes them for the
// columns cols (nil: all) that it has not computed yet: once per loss and
// column, for the columns a fit uses (a one-λ fit's working set may hold
// a third of them), handed to the restrictions, read-only: a path
// restricts the loss at every λ.
func (l *Loss) columnStats(cols []int) ([]float64, []bool, []uint64) {
	p := len(l.xp)
	if l.maxAbs == nil {
		l.maxAbs, l.offCentre, l.hashes = make([]float64, p), make([]bool, p), make([]uint64, p)
		l.statsDone = make([]bool, p)
	}
	stat := func(j int) {
		if !l.statsDone[j] {
			l.hashes[j] = absHash(l.xp[j])
			// A sparse column is centred (lazily: solver.IRLSCD), as glmnet
			// centres every column: uncentred, its steps and the
			// intercept's would undo each other sweep after sweep.
			if l.offCentre[j] = !l.xp[j].IsDense() || offCentre(l.xp[j], len(l.y)); l.offCentre[j] {
				l.maxAbs[j] = l.top[j]
			}
			l.statsDone[j] = true
		}
	}
	if cols == nil {
		for j := range p {
			stat(j)
		}
	}
	for _, j := range cols {
		stat(j)
	}
	return l.maxAbs, l.offCentre, l.hashes
}

// offCentre reports whether column x (of n rows) has its mean beyond
// its standard deviation.
func offCentre(x design.Column, n int) bool {
	var s, sq float64
	if d, ok := x.Plain(); ok {
		s, sq = sum4(d), kernel.Dot(d, d)
	} else {
		x.Each(func(_ int, v float64) {
			s += v
			sq += v * v
		})
	}
	mean := s / float64(n)
	// Σx²/n − mean² loses digits only for a column far off centre, which
	// the test finds all the same.
	return mean*mean > sq/float64(n)-mean*mean
}

// sum4 returns Σ xᵢ, four partial sums at a time (one running sum waits
// for each addition).
func sum4(x []float64) float64 {
	var s [4]float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s[0] += x[i]
		s[1] += x[i+1]
		s[2] += x[i+2]
		s[3] += x[i+3]
	}
	for ; i < len(x); i++ {
		s[0] += x[i]
	}
	return (s[0] + s[1]) + (s[2] + s[3])
}

// twins returns, per column of xp, the index of the first earlier column
// equal to it or to its negation with the same factor in f, or −1, and
// the sign.
func twins(xp []design.Column, hashes []uint64, f []float64) ([]int, []float64) {
	out, sign := make([]int, len(xp)), make([]float64, len(xp))
	seen := map[uint64][]int{}
	for j, x := range xp {
		out[j] = -1
		key := hashes[j]
		for _, k := range seen[key] {
			if f[k] != f[j] {
				continue
			}
			if s := sameColumnUpToSign(xp[k], x); s != 0 {
				out[j], sign[j] = k, s
				break
			}
		}
		if out[j] < 0 {
			seen[key] = append(seen[key], j)
		}
	}
	return out, sign
}

// twinBits is how many low bits of the mantissa the hash of absHash
// ignores, so that columns equal but for the rounding of a scaling
// (standardised multiples of one column) share a bucket.
const twinBits = 20

// twinUlps is how far, in units of the last place, two copies' entries
// may differ: the rounding of standardisation (each column's scale is
// rounded apart; 6 ulps seen).
const twinUlps = 64

// absHash hashes the rows and magnitudes of x's non-zero entries, but
// for the magnitudes' last twinBits bits (FNV-1a over the rounded bit
// patterns, a word at a time: a byte-wise hash.Hash cost a third of a
// logistic path's time): a column's hash is the same dense or sparse.
func absHash(x design.Column) uint64 {
	h := uint64(14695981039346656037)
	step := func(i int, v float64) {
		if v == 0 {
			return
		}
		h ^= uint64(i)
		h *= 1099511628211
		h ^= (math.Float64bits(math.Abs(v)) + 1<<(twinBits-1)) >> twinBits // rounded
		h *= 1099511628211
	}
	if d, ok := x.Plain(); ok {
		for i, v := range d {
			step(i, v)
		}
	} else {
		x.Each(step)
	}
	return h
}

// sameColumnUpToSign is sameUpToSign of two columns (materialised: the
// hashes make a comparison rare).
func sameColumnUpToSign(x, y design.Column) float64 {
	if x.IsDense() && y.IsDense() && x.Scale == 0 && y.Scale == 0 {
		return sameUpToSign(x.Dense, y.Dense)
	}
	n := len(x.Dense)
	if n == 0 {
		n = len(y.Dense)
	}
	if n == 0 {
		n = int(max(lastRow(x), lastRow(y))) + 1
	}
	return sameUpToSign(x.Values(make([]float64, n)), y.Values(make([]float64, n)))
}

// lastRow returns a sparse column's last stored row (−1: none).
func lastRow(c design.Column) int32 {
	if len(c.Rows) == 0 {
		return -1
	}
	return c.Rows[len(c.Rows)-1]
}

// sameUpToSign returns 1 when y = x, −1 when y = −x (and not x), each
// entry within twinUlps units of the last place, else 0.
func sameUpToSign(x, y []float64) float64 {
	for _, s := range []float64{1, -1} {
		same := true
		for i, v := range x {
			if math.Abs(y[i]-s*v) > twinUlps*ulp(v) {
				same = false
				break
			}
		}
		if same {
			return s
		}
	}
	return 0
}

// ulp returns the spacing of float64 values at v.
func ulp(v float64) float64 {
	v = math.Abs(v)
	return math.Nextafter(v, math.Inf(1)) - v
}
