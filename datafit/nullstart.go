package datafit

import "math"

// NullStart accumulates, row by row, where the intercept-only fit of a
// family starts: for a family with a closed-form intercept-only fit
// (nullTermer: the log-link families but negbin) its exact minimiser,
//
//	b₀ = log Σw·e^num(y, o) − log Σw·e^den(o),
//
// for example Poisson's log Σwy − log Σw·e^o (setting the intercept's
// derivative Σw(e^(o+b₀) − y) to 0), and for the others the link of the
// weighted mean response less the weighted mean offset, the mean taken
// in logarithms when no response is negative. Sums run in logarithms
// (log-sum-exp), so that responses near 1e300, offsets of ±709 and weights
// of any finite size neither overflow nor underflow: Newton from 0 takes
// steps of about 1 per unit of log scale there (700 for a Poisson offset
// of 700, 690 for a gamma response of 1e300), where its iteration cap
// stopped it. The zero value is not usable: start from NewNullStart.
type NullStart struct {
	fam Family
	// lw is log Σw, ly log Σw·y (over y > 0) or log Σw·e^num, lo
	// log Σw·e^den.
	lw, ly, lo logSum
	// wsum, wo and wy are Σw, Σw·o and Σw·y (gaussian, and the offsets'
	// mean); negative says some y < 0.
	wsum, wo, wy float64
	negative     bool
}

// nullTermer is implemented by the families whose intercept-only fit is
// b₀ = log Σw·e^num − log Σw·e^den.
type nullTermer interface {
	// nullTerms returns num(y, o) and den(o) (num −Inf for a term that
	// is 0).
	nullTerms(y, o float64) (num, den float64)
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
	if t, ok := s.fam.(nullTermer); ok {
		num, den := t.nullTerms(y, o)
		if !math.IsInf(num, -1) {
			s.ly.add(lw + num)
		}
		s.lo.add(lw + den)
		return
	}
	switch {
	case y > 0:
		s.ly.add(lw + math.Log(y))
	case y < 0:
		s.negative = true
	}
}

// Value returns the start, 0 when no finite one is known (no row with
// weight, every count 0, a single binomial class).
func (s *NullStart) Value() float64 {
	var b float64
	if _, ok := s.fam.(nullTermer); ok {
		b = s.ly.log() - s.lo.log()
	} else if s.negative {
		b = s.fam.Eta(s.wy/s.wsum) - s.wo/s.wsum
	} else {
		b = s.fam.Eta(math.Exp(s.ly.log()-s.lw.log())) - s.wo/s.wsum
	}
	if finite(b) {
		return b
	}
	return 0
}

// nullTerms returns log y and o: b₀ = log Σwy − log Σw·e^o.
func (Poisson) nullTerms(y, o float64) (float64, float64) { return math.Log(y), o }

// nullTerms returns log y − o and 0: b₀ = log Σw·y·e^−o − log Σw.
func (Gamma) nullTerms(y, o float64) (float64, float64) { return math.Log(y) - o, 0 }

// nullTerms returns log y + (1−P)o and (2−P)o: the intercept's derivative
// Σw·μ^(1−P)(μ − y) is 0 where e^b₀·Σw·e^((2−P)o) = Σw·y·e^((1−P)o).
func (t Tweedie) nullTerms(y, o float64) (float64, float64) {
	return math.Log(y) + (1-t.P)*o, (2 - t.P) * o
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
