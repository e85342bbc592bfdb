package estimator

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// TestCompressTiming logs the wall time of a poisson path of 50 λ on a
// design like French motor claims' (600,000 rows, five factors of 6, 12,
// 11, 22 and 2 levels with skewed frequencies, one-hot coded: 48 columns,
// about 17,000 distinct rows), compressed, and of five consecutive λ
// (warm-started) on the rows as they are. It is a log, not a test: set
// CARDREG_TIMING=1 to run it.
func TestCompressTiming(t *testing.T) {
	if os.Getenv("CARDREG_TIMING") == "" {
		t.Skip("set CARDREG_TIMING=1 to time the compression")
	}
	levels := []int{6, 12, 11, 22, 2}
	n := 600_000
	rng := rand.New(rand.NewPCG(5, 6))
	p := 0
	for _, k := range levels {
		p += k - 1
	}
	x := mat.NewDense(n, p, nil)
	y, o := make([]float64, n), make([]float64, n)
	// Skewed level frequencies, as in the claims' regions and brands.
	for i := range n {
		col, eta := 0, -2.5
		for _, k := range levels {
			l := min(int(float64(k)*math.Pow(rng.Float64(), 5)), k-1)
			if l > 0 {
				x.Set(i, col+l-1, 1)
				eta += 0.05 * float64(l%5)
			}
			col += k - 1
		}
		o[i] = math.Log(0.1 + 0.9*rng.Float64()) // log exposure
		for s := rng.ExpFloat64(); s < math.Exp(eta+o[i]); s += rng.ExpFloat64() {
			y[i]++
		}
	}
	r := NewRows(x, y)
	r.Offset = o
	start := time.Now()
	c := compress(r, datafit.Poisson{}, nil, "")
	t.Logf("%d rows, %d columns: %d distinct, grouped in %v", n, p, len(c.counts), time.Since(start))
	for _, pen := range []penalty.Penalty{penalty.L1{}, penalty.Cardinality{}} {
		first, err := FitPath(r, pen, &PathOptions{Options: Options{Family: datafit.Poisson{}}, NLambda: 2})
		if err != nil {
			t.Fatal(err)
		}
		// The generated grid of 50 λ, given, so that glmnet's stopping
		// rules do not cut it short.
		grid, err := solver.Grid(first.Lambdas[0], 50, 0, n, p)
		if err != nil {
			t.Fatal(err)
		}
		po := &PathOptions{Options: Options{Family: datafit.Poisson{}}, Lambdas: grid}
		start = time.Now()
		if _, err := FitPath(r, pen, po); err != nil {
			t.Fatal(err)
		}
		t.Logf("%T: compressed, path of 50 λ in %v", pen, time.Since(start))
		off := *po
		rOff := *r
		rOff.noCompress = true
		for _, at := range []int{10, 30} {
			off.Lambdas = grid[at : at+5]
			start = time.Now()
			if _, err := FitPath(&rOff, pen, &off); err != nil {
				t.Fatal(err)
			}
			t.Logf("%T: rows as they are, λ %d…%d (5, the first cold) in %v", pen, at, at+4, time.Since(start))
		}
	}
}
