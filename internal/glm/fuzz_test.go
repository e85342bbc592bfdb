package glm

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// FuzzFit builds small data sets of every family from arbitrary bytes
// (any float64, weights and offsets included) and fits them: an error or
// a finite model, never a panic, NaN or Inf.
func FuzzFit(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, uint8(0))
	f.Add([]byte("0123456789abcdefghijklmnopqrstuvwxyz0123456789"), uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, kind uint8) {
		const n, p = 6, 2
		val := func(i int) float64 {
			if 8*(i+1) > len(b) {
				return float64(i%5) - 2
			}
			return math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
		}
		x := mat.NewDense(n, p, nil)
		y, w, o := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range n {
			x.Set(i, 0, val(i))
			x.Set(i, 1, val(i+n))
			y[i], w[i], o[i] = val(i+2*n), val(i+3*n), val(i+4*n)
		}
		fams := []datafit.Family{datafit.Gaussian{}, datafit.Binomial{}, datafit.Poisson{}}
		fam := fams[int(kind)%3]
		if _, ok := fam.(datafit.Binomial); ok {
			for i := range y {
				y[i] = float64(int(math.Abs(y[i])) % 2)
			}
		}
		// Few iterations: the target looks for panics and non-finite
		// results; convergence on degenerate scales is another matter.
		opts := &fit.Options{Family: fam}
		opts.Settings.MaxIter = 200
		rows := &Rows{X: x, Y: y, Weights: w, Offset: o}
		if kind&4 != 0 {
			rows.Offset = nil
		}
		if kind&8 != 0 {
			rows.Weights = nil
		}
		m, err := Fit(rows, penalty.Cardinality{Nu: 1}, math.Abs(val(5*n)), opts)
		if err != nil {
			return
		}
		for _, c := range append(coef(m), m.Intercept[0], m.Objective) {
			if math.IsNaN(c) || math.IsInf(c, 0) {
				t.Fatalf("non-finite result %v from an accepted fit", coef(m))
			}
		}
	})
}
