package design

import (
	"math"

	"github.com/cardsparse/cardreg/internal/kernel"
)

// Column is one column of a design of n rows. It is dense when Dense is
// not nil (n values); otherwise it is non-zero only on Rows (increasing
// row indices), with values Vals there (nil: all one, a factor level's
// indicator). Scale multiplies the stored values (0 stands for 1). A
// Column shares its slices; its methods write none of them.
type Column struct {
	Dense []float64
	Rows  []int32
	Vals  []float64
	Scale float64
}

// scale returns the column's multiplier.
func (c Column) scale() float64 {
	if c.Scale == 0 {
		return 1
	}
	return c.Scale
}

// IsDense reports whether the column holds all n values.
func (c Column) IsDense() bool { return c.Dense != nil }

// NonZeros returns the number of stored values (n for a dense column).
func (c Column) NonZeros() int {
	if c.Dense != nil {
		return len(c.Dense)
	}
	return len(c.Rows)
}

// Dot returns Σᵢ xᵢuᵢ.
func (c Column) Dot(u []float64) float64 {
	var s float64
	switch {
	case c.Dense != nil:
		s = kernel.Dot(c.Dense, u)
	case c.Vals == nil:
		for _, i := range c.Rows {
			s += u[i]
		}
	default:
		s = sparseDot(c.Rows, c.Vals, u)
	}
	return s * c.scale()
}

// sparseDot returns Σₖ vals[k]·u[rows[k]], four sums apart so that the
// additions do not wait on each other.
func sparseDot(rows []int32, vals, u []float64) float64 {
	vals = vals[:len(rows)]
	var s0, s1, s2, s3 float64
	k := 0
	for ; k+4 <= len(rows); k += 4 {
		r, v := rows[k:k+4:k+4], vals[k:k+4:k+4]
		s0 += v[0] * u[r[0]]
		s1 += v[1] * u[r[1]]
		s2 += v[2] * u[r[2]]
		s3 += v[3] * u[r[3]]
	}
	for ; k < len(rows); k++ {
		s0 += vals[k] * u[rows[k]]
	}
	return (s0 + s2) + (s1 + s3)
}

// WeightedSq returns Σᵢ vᵢxᵢ².
func (c Column) WeightedSq(v []float64) float64 {
	var s float64
	switch {
	case c.Dense != nil:
		s = kernel.Dot3(c.Dense, c.Dense, v)
	case c.Vals == nil:
		for _, i := range c.Rows {
			s += v[i]
		}
	default:
		for k, i := range c.Rows {
			x := c.Vals[k]
			s += v[i] * x * x
		}
	}
	a := c.scale()
	return s * a * a
}

// Axpy adds a·x to y.
func (c Column) Axpy(a float64, y []float64) {
	a *= c.scale()
	switch {
	case c.Dense != nil:
		kernel.Axpy(a, c.Dense, y)
	case c.Vals == nil:
		for _, i := range c.Rows {
			y[i] += a
		}
	default:
		for k, i := range c.Rows {
			y[i] += a * c.Vals[k]
		}
	}
}

// AxpyMul adds a·v⊙x to y.
func (c Column) AxpyMul(a float64, v, y []float64) {
	a *= c.scale()
	switch {
	case c.Dense != nil:
		kernel.AxpyMul(a, v, c.Dense, y)
	case c.Vals == nil:
		for _, i := range c.Rows {
			y[i] += a * v[i]
		}
	default:
		vals := c.Vals[:len(c.Rows)]
		for k, i := range c.Rows {
			y[i] += a * v[i] * vals[k]
		}
	}
}

// Each calls f with every stored row and value (scale applied), in row
// order; for a dense column every row.
func (c Column) Each(f func(i int, x float64)) {
	a := c.scale()
	switch {
	case c.Dense != nil:
		for i, x := range c.Dense {
			f(i, a*x)
		}
	case c.Vals == nil:
		for _, i := range c.Rows {
			f(int(i), a)
		}
	default:
		for k, i := range c.Rows {
			f(int(i), a*c.Vals[k])
		}
	}
}

// Plain returns the values of a dense column without a scale, and
// whether it is one: a pass over them in a loop of the caller's own lets
// the compiler inline the loop's body, where Each's indirect call per
// value costs about as much as a setup pass's work (checks, hashes,
// moments).
func (c Column) Plain() ([]float64, bool) {
	return c.Dense, c.Dense != nil && c.Scale == 0
}

// Values writes the column's n values into dst (len n) and returns it.
func (c Column) Values(dst []float64) []float64 {
	if c.Dense == nil {
		clear(dst)
	}
	c.Each(func(i int, x float64) { dst[i] = x })
	return dst
}

// Sum returns Σᵢ xᵢ.
func (c Column) Sum() float64 {
	var s float64
	c.Each(func(_ int, x float64) { s += x })
	return s
}

// MaxAbs returns max |xᵢ| (NaN when a value is NaN).
func (c Column) MaxAbs() float64 {
	var m float64
	step := func(_ int, x float64) {
		if a := math.Abs(x); a > m || a != a {
			m = a
		}
	}
	if d, ok := c.Plain(); ok {
		for i, x := range d {
			step(i, x)
		}
	} else {
		c.Each(step)
	}
	return m
}

// Scaled returns the column multiplied by s.
func (c Column) Scaled(s float64) Column {
	c.Scale = c.scale() * s
	return c
}
