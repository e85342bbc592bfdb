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
