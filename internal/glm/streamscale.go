package glm

import (
	"math"
)

// standardize computes the columns' weighted population standard
// deviations from the source (three passes: the magnitudes and the
// largest weight, the means, the spreads; the arithmetic of columnScales,
// so a streamed fit scales as the same rows in memory) and makes the fit
// read the rows scaled by them. A constant column keeps scale 1.
func (s *streamFit) standardize() error {
	top := make([]float64, s.p)
	wtop := 0.0
	err := s.src.Pass(func(x []float64, _, w, _ float64) error {
		if len(x) != s.p {
			return nil // the row check names the width
		}
		for j, v := range x {
			top[j] = math.Max(top[j], math.Abs(v))
		}
		wtop = math.Max(wtop, w)
		return nil
	})
	if err != nil {
		return err
	}
	if !(wtop > 0) {
		wtop = 1
	}
	exp := make([]int, s.p)
	for j, t := range top {
		_, exp[j] = math.Frexp(t)
	}
	var sw float64
	mean := make([]float64, s.p)
	err = s.src.Pass(func(x []float64, _, w, _ float64) error {
		if len(x) != s.p {
			return nil
		}
		sw += w / wtop
		for j, v := range x {
			mean[j] += w / wtop * math.Ldexp(v, -exp[j])
		}
		return nil
	})
	if err != nil {
		return err
	}
	for j := range mean {
		mean[j] /= sw
	}
	ss := make([]float64, s.p)
	err = s.src.Pass(func(x []float64, _, w, _ float64) error {
		if len(x) != s.p {
			return nil
		}
		for j, v := range x {
			d := math.Ldexp(v, -exp[j]) - mean[j]
			ss[j] += w / wtop * d * d
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.passes += 3
	s.sd = make([]float64, s.p)
	for j := range s.sd {
		sd := math.Sqrt(ss[j] / sw)
		if !(sd > 1e-12*math.Abs(mean[j])) {
			s.sd[j] = 1
			continue
		}
		s.sd[j] = math.Ldexp(sd, exp[j])
	}
	s.src = &scaledSource{src: s.src, sd: s.sd, buf: make([]float64, s.p)}
	return nil
}

// scaledSource is a source's rows with each predictor divided by its
// scale.
type scaledSource struct {
	src RowSource
	sd  []float64
	buf []float64
}

func (c *scaledSource) Pass(row func(x []float64, y, w, o float64) error) error {
	return c.src.Pass(func(x []float64, y, w, o float64) error {
		if len(x) != len(c.sd) {
			return row(x, y, w, o) // the row check names the width
		}
		for j, v := range x {
			c.buf[j] = v / c.sd[j]
		}
		return row(c.buf, y, w, o)
	})
}
