package suffstat

import "fmt"

// WeightSummary follows the weights of rows as they are added, relative to
// the largest so far (so that no weight, 1e308 included, overflows), to
// tell whether they leave an effective sample at all.
type WeightSummary struct {
	// Max is the largest weight and MaxRow its row (from 0).
	Max    float64
	MaxRow int64
	rows   int64
	rest   float64 // Σ w/Max over the rows but MaxRow
	sumSq  float64 // Σ (w/Max)²
}

// Add adds the weight w ≥ 0 of the next row.
func (s *WeightSummary) Add(w float64) {
	defer func() { s.rows++ }()
	if w == 0 {
		return
	}
	if w > s.Max {
		r := s.Max / w
		if s.Max > 0 {
			s.rest = (s.rest + 1) * r
		}
		s.sumSq = s.sumSq*r*r + 1
		s.Max, s.MaxRow = w, s.rows
		return
	}
	r := w / s.Max
	s.rest += r
	s.sumSq += r * r
}

// Effective returns Kish's effective sample size (Σw)²/Σw²: the number of
// rows of equal weight that would carry as much information (0 when every
// weight is 0).
func (s *WeightSummary) Effective() float64 {
	if s.sumSq == 0 {
		return 0
	}
	sum := s.rest + 1
	return sum / s.sumSq * sum
}

// MinEffective is the effective sample size below which weights are
// refused: under 2, one row outweighs all the others together and a fit
// rests on that single observation.
const MinEffective = 2

// Check returns an error when the weights leave an effective sample of
// fewer than MinEffective rows (unless there are so few rows), naming
// the heaviest weight; the caller names its place (MaxRow), which a
// caller wrapping the error with the row or line would name twice.
func (s *WeightSummary) Check() error {
	if e := s.Effective(); s.rows >= MinEffective && e < MinEffective && s.sumSq > 0 {
		return fmt.Errorf("the weight %.3g outweighs all the others together (they sum to %.3g): the effective sample is %.3g rows (Kish's (Σw)²/Σw²), under %d: a fit would rest on that one observation", s.Max, s.rest*s.Max, e, MinEffective)
	}
	return nil
}
