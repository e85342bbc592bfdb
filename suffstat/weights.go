package suffstat

import (
	"fmt"
	"math"
)

// WeightSummary follows the weights of rows as they are added, relative to
// the largest so far (so that no weight, 1e308 included, overflows), to
// tell whether one of them leaves the others numerically nothing.
type WeightSummary struct {
	// Max is the largest weight and MaxRow its row (from 0).
	Max    float64
	MaxRow int64
	rows   int64
	rest   float64 // Σ w/Max over the rows but MaxRow
}

// Add adds the weight w ≥ 0 of the next row.
func (s *WeightSummary) Add(w float64) {
	defer func() { s.rows++ }()
	if w == 0 {
		return
	}
	if w > s.Max {
		if s.Max > 0 {
			s.rest = (s.rest + 1) * (s.Max / w)
		}
		s.Max, s.MaxRow = w, s.rows
		return
	}
	s.rest += w / s.Max
}

// Total reports whether any weight is positive.
func (s *WeightSummary) Total() bool { return s.Max > 0 }

// Rest returns the sum of the weights other than the largest (at most
// float64's largest number).
func (s *WeightSummary) Rest() float64 {
	return math.Min(s.rest*s.Max, math.MaxFloat64)
}

// Dominated reports whether the weights other than the largest sum to
// less than its rounding (Σ others < Max·2⁻⁵²): adding them to it changes
// nothing, and a fit rests on that one row. Frequency weights (one row of
// 1000 among ones, aggregated counts) are far from it.
func (s *WeightSummary) Dominated() bool {
	return s.rows >= 2 && s.Max > 0 && s.rest < 0x1p-52
}

// Check returns an error when the weights are Dominated, naming the
// heaviest weight; the caller names its place (MaxRow), which a caller
// wrapping the error with the row or line would name twice.
func (s *WeightSummary) Check() error {
	if s.Dominated() {
		return fmt.Errorf("the weight %.3g outweighs all the others together: they sum to %.3g, below its rounding (%.3g·2⁻⁵²), so adding them changes nothing and a fit would rest on that one row", s.Max, s.Rest(), s.Max)
	}
	return nil
}

// WeightScale puts weights on a common power-of-two scale so that only
// their ratios matter: the scaled weight is w·2^-Exp(), exact, and stays
// below 2^MaxWeightExp whatever the weights (1e-30, 1e20 or 1e308). The
// scale is taken from the first positive weight and moves up when a
// weight is more than 2^MaxWeightExp times it; the statistics added
// before must then be rescaled (Moments.ScaleExp), which leaves their
// means unchanged. Weights far below the largest are scaled as they are
// and count for as little as they weigh (at most 2^-1074 times it, 0).
type WeightScale struct {
	exp int
	set bool
}

// Scale returns w ≥ 0 (finite) on the scale and shift ≤ 0: when shift is
// not 0 the scale has just moved, and the statistics added so far must
// be multiplied by 2^shift (Moments.ScaleExp) before the scaled w is
// added to them.
func (s *WeightScale) Scale(w float64) (scaled float64, shift int) {
	if w == 0 {
		return 0, 0
	}
	_, e := math.Frexp(w)
	switch {
	case !s.set:
		s.exp, s.set = e, true
	case e-s.exp > MaxWeightExp:
		shift, s.exp = s.exp-e, e
	}
	return math.Ldexp(w, -s.exp), shift
}

// Exp returns the scale's binary exponent: a weight is its scaled value
// times 2^Exp().
func (s *WeightScale) Exp() int { return s.exp }

// LogWeightSummary is WeightSummary for weights given by their logarithms,
// which may lie beyond float64's range (e^800): it tells whether the
// largest outweighs all the others together by the same rule, Σ others <
// Max·2⁻⁵². The datafit package checks with it the rows' curvatures at
// the intercept-only fit (w·y·e^−o for gamma, w·e^o for Poisson).
type LogWeightSummary struct {
	// LogMax is the logarithm of the largest weight, MaxRow its row.
	LogMax float64
	MaxRow int64
	rows   int64
	rest   float64 // Σ e^(a − LogMax) over the rows but MaxRow
	any    bool
}

// AddLog adds the next row's weight e^a (a = −Inf for a weight of 0).
func (s *LogWeightSummary) AddLog(a float64) {
	defer func() { s.rows++ }()
	switch {
	case math.IsInf(a, -1):
	case !s.any:
		s.LogMax, s.MaxRow, s.any = a, s.rows, true
	case a > s.LogMax:
		s.rest = (s.rest + 1) * math.Exp(s.LogMax-a)
		s.LogMax, s.MaxRow = a, s.rows
	default:
		s.rest += math.Exp(a - s.LogMax)
	}
}

// Dominated reports WeightSummary.Dominated's condition: Σ others <
// e^LogMax·2⁻⁵² over at least two rows.
func (s *LogWeightSummary) Dominated() bool {
	return s.rows >= 2 && s.any && s.rest < 0x1p-52
}

// Ratio returns Σ others / the largest.
func (s *LogWeightSummary) Ratio() float64 { return s.rest }
