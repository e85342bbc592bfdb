package datafit

import (
	"math"
	"testing"
)

// TestNullStartExact: for the log link the start is the intercept-only
// fit itself, the intercept's derivative 0, at scales where plain sums
// overflow (responses 1e300, offsets ±700, weights 1e300).
func TestNullStartExact(t *testing.T) {
	for _, c := range []struct {
		fam           Family
		scale, off, w float64
	}{
		{Poisson{}, 1, 0, 1}, {Poisson{}, 1e12, 700, 1e300}, {Poisson{}, 1, -700, 1e-300},
		{Gamma{}, 1, 0, 1}, {Gamma{}, 1e300, 0, 1e300}, {Gamma{}, 1e-300, -700, 1}, {Gamma{}, 1e300, 700, 1},
	} {
		s := NewNullStart(c.fam)
		n := 50
		y, o, w := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range n {
			y[i] = c.scale * float64(1+i%7)
			o[i] = c.off + 0.3*math.Sin(float64(i))
			w[i] = c.w * (1 + float64(i%3))
			s.Add(y[i], w[i], o[i])
		}
		b := s.Value()
		// The derivative Σw·∂d/∂η at η = o + b, relative to Σw|∂d/∂η|.
		var g, a float64
		for i := range n {
			d1, _ := c.fam.Derivs(y[i], o[i]+b)
			g += w[i] / c.w * d1
			a += w[i] / c.w * math.Abs(d1)
		}
		if !(math.Abs(g) <= 1e-12*a) || b == 0 {
			t.Errorf("%s scale %g offset %g weight %g: b₀ %v, derivative %v of %v", c.fam.Name(), c.scale, c.off, c.w, b, g, a)
		}
	}
}
