package datafit

import "math"

// NullStart accumulates, row by row, where the intercept-only fit of a
// family starts: for the log link (Poisson, gamma) its exact minimiser,
//
//	Poisson: b₀ = log Σwy − log Σw·e^o,   gamma: b₀ = log Σw·y·e^−o − log Σw,
//
// (setting the intercept's derivative Σw(e^(o+b₀) − y) or Σw(1 − y·e^−(o+b₀))
// to 0), and for the others the link of the weighted mean response less
// the weighted mean offset. Sums run in logarithms (log-sum-exp), so that
// responses near 1e300, offsets of ±709 and weights of any finite size
// neither overflow nor underflow: Newton from 0 takes steps of about 1 per
// unit of log scale there (700 for a Poisson offset of 700, 690 for a
// gamma response of 1e300), where its iteration cap stopped it. The zero
// value is not usable: start from NewNullStart.
type NullStart struct {
	fam Family
	// lw is log Σw, ly log Σw·y (binomial, Poisson) or log Σw·y·e^−o
	// (gamma), lo log Σw·e^o (Poisson).
	lw, ly, lo logSum
	// wsum, wo and wy are Σw, Σw·o and Σw·y (gaussian, and the offsets' mean).
	wsum, wo, wy float64
}

// NewNullStart returns an empty accumulator for family fam.
func NewNullStart(fam Family) *NullStart { return &NullStart{fam: fam} }

// Add records a row's response y, weight w ≥ 0 and offset o (the linear
// predictor's fixed part).
func (s *NullStart) Add(y, w, o float64) {
	if !(w > 0) {
		return
	}
	lw := math.Log(w)
	s.lw.add(lw)
	s.wsum += w
	s.wo += w * o
	s.wy += w * y
	switch s.fam.(type) {
	case Poisson:
		s.lo.add(lw + o)
		if y > 0 {
			s.ly.add(lw + math.Log(y))
		}
	case Gamma:
		s.ly.add(lw + math.Log(y) - o)
	case Binomial:
		if y > 0 {
			s.ly.add(lw + math.Log(y))
		}
	}
}

// Value returns the start, 0 when no finite one is known (no row with
// weight, every count 0, a single binomial class).
func (s *NullStart) Value() float64 {
	var b float64
	switch s.fam.(type) {
	case Poisson:
		b = s.ly.log() - s.lo.log()
	case Gamma:
		b = s.ly.log() - s.lw.log()
	case Binomial:
		b = s.fam.Eta(math.Exp(s.ly.log()-s.lw.log())) - s.wo/s.wsum
	default:
		b = s.fam.Eta(s.wy/s.wsum) - s.wo/s.wsum
	}
	if finite(b) {
		return b
	}
	return 0
}

// logSum is log Σ e^a over the values a added, kept as a running maximum m
// and Σ e^(a−m), so that no term overflows.
type logSum struct {
	m, s float64
	any  bool
}

func (l *logSum) add(a float64) {
	switch {
	case !l.any:
		l.m, l.s, l.any = a, 1, true
	case a > l.m:
		l.s = l.s*math.Exp(l.m-a) + 1
		l.m = a
	default:
		l.s += math.Exp(a - l.m)
	}
}

// log returns log Σ e^a, −Inf for no value.
func (l *logSum) log() float64 {
	if !l.any {
		return math.Inf(-1)
	}
	return l.m + math.Log(l.s)
}
