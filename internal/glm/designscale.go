package glm

import (
	"math"

	"github.com/cardsparse/cardreg/design"
	"gonum.org/v1/gonum/mat"
)

// designScales returns each column's weighted population standard
// deviation, the formula of scales (columnScales) column by column: a
// sparse column's rows outside its stored ones hold 0, counted at once,
// so the pass costs O(nnz) and nothing is densified.
func designScales(m *design.Matrix, w []float64) []float64 {
	n, p := m.Dims()
	sc := newScales(p)
	weight := func(i int) float64 {
		if w == nil {
			return 1
		}
		return w[i]
	}
	for i := range n {
		sc.wtop = math.Max(sc.wtop, weight(i))
	}
	for j, c := range m.Columns() {
		sc.top[j] = c.MaxAbs()
	}
	sc.startMeans()
	for i := range n {
		sc.sw += weight(i) / sc.wtop
	}
	for j, c := range m.Columns() {
		e := sc.exp[j]
		var sum, stored, sq float64
		c.Each(func(i int, x float64) { sum += weight(i) / sc.wtop * math.Ldexp(x, -e) })
		mean := sum / sc.sw
		c.Each(func(i int, x float64) {
			d := math.Ldexp(x, -e) - mean
			sq += weight(i) / sc.wtop * d * d
			stored += weight(i) / sc.wtop
		})
		if !c.IsDense() {
			sq += mean * mean * math.Max(sc.sw-stored, 0)
		}
		sc.mean[j], sc.ss[j] = mean, sq
	}
	return sc.sd()
}

// standardized returns m with column j divided by sd[j] (the storage
// shared: the scale is implicit).
func standardized(m *design.Matrix, sd []float64) *design.Matrix {
	inv := make([]float64, len(sd))
	for j, s := range sd {
		inv[j] = 1 / s
	}
	out, _ := m.Scaled(inv) // one scale per column by construction
	return out
}

// zeroColumn returns an n×1 matrix of zeros (the null model's design).
func zeroColumn(n int) *mat.Dense { return mat.NewDense(n, 1, nil) }
