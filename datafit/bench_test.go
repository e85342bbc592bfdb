package datafit

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkUnits times one pass of the family over 10⁵ rows (unitsAt at a
// new linear predictor), per family; ns/row is its cost per row.
func BenchmarkUnits(b *testing.B) {
	const n = 100000
	r := rand.New(rand.NewPCG(1, 1))
	eta := make([][]float64, 2)
	for k := range eta {
		eta[k] = make([]float64, n)
		for i := range eta[k] {
			eta[k][i] = 2 * r.NormFloat64()
		}
	}
	for _, f := range []Family{Binomial{}, Poisson{}, Gamma{}} {
		y := make([]float64, n)
		for i := range y {
			y[i] = float64(r.IntN(2))
			if _, ok := f.(Gamma); ok {
				y[i] = 1 + r.Float64()
			}
		}
		l := &Loss{fam: f, y: y, w: make([]float64, n), yConst: make([]float64, n)}
		for i := range y {
			l.w[i], l.yConst[i] = 1, unitConst(f, y[i])
		}
		b.Run(fmt.Sprint(f.Name()), func(b *testing.B) {
			k := 0
			for b.Loop() {
				l.unitsAt(eta[k]) // alternate, so that the cache never holds it
				k = 1 - k
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/row")
		})
	}
}
