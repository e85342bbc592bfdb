package glm

import (
	"math"
)

// scales computes the columns' weighted population standard deviations in
// three passes over the rows — the magnitudes and the largest weight, the
// means, the spreads — each column scaled by the power of two of its
// largest magnitude so that neither products nor squares leave float64's
// range, the weights by the largest one. A column constant to 1e-12 of
// its mean keeps scale 1. It is the one formula of in-memory and streamed
// standardisation (columnScales, streamFit.standardize).
type scales struct {
	top, mean, ss []float64
	exp           []int
	wtop, sw      float64
}

func newScales(p int) *scales {
	return &scales{top: make([]float64, p), mean: make([]float64, p), ss: make([]float64, p), exp: make([]int, p)}
}

// magnitudes is the first pass's row.
func (s *scales) magnitudes(x []float64, w float64) {
	for j, v := range x {
		s.top[j] = math.Max(s.top[j], math.Abs(v))
	}
	s.wtop = math.Max(s.wtop, w)
}

// startMeans ends the first pass.
func (s *scales) startMeans() {
	if !(s.wtop > 0) {
		s.wtop = 1
	}
	for j, t := range s.top {
		_, s.exp[j] = math.Frexp(t)
	}
}

// means is the second pass's row.
func (s *scales) means(x []float64, w float64) {
	s.sw += w / s.wtop
	for j, v := range x {
		s.mean[j] += w / s.wtop * math.Ldexp(v, -s.exp[j])
	}
}

// startSpreads ends the second pass.
func (s *scales) startSpreads() {
	for j := range s.mean {
		s.mean[j] /= s.sw
	}
}

// spreads is the third pass's row.
func (s *scales) spreads(x []float64, w float64) {
	for j, v := range x {
		d := math.Ldexp(v, -s.exp[j]) - s.mean[j]
		s.ss[j] += w / s.wtop * d * d
	}
}

// sd ends the third pass with the scales.
func (s *scales) sd() []float64 {
	out := make([]float64, len(s.ss))
	for j := range out {
		sd := math.Sqrt(s.ss[j] / s.sw)
		if !(sd > 1e-12*math.Abs(s.mean[j])) {
			out[j] = 1
			continue
		}
		out[j] = math.Ldexp(sd, s.exp[j])
	}
	return out
}

// standardize computes the columns' scales from the source (three
// passes) and makes the fit read the rows scaled by them, so a streamed
// fit scales as the same rows in memory.
func (s *streamFit) standardize() error {
	sc := newScales(s.p)
	for _, pass := range []struct {
		row func([]float64, float64)
		end func()
	}{{sc.magnitudes, sc.startMeans}, {sc.means, sc.startSpreads}, {sc.spreads, func() {}}} {
		err := s.src.Pass(func(x []float64, _, w, _ float64) error {
			if len(x) == s.p { // the row check names another width
				pass.row(x, w)
			}
			return nil
		})
		if err != nil {
			return err
		}
		pass.end()
	}
	s.passes += 3
	s.sd = sc.sd()
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
