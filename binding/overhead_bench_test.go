package binding_test

import (
	"testing"

	"github.com/cardsparse/cardreg/binding"
	"github.com/cardsparse/cardreg/bounds"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// BenchmarkOverhead compares a 5000×500 cardinality fit through the
// binding with the same fit through estimator: the binding's checks and
// conversions are its overhead (issue: at most 1.1×).
func BenchmarkOverhead(b *testing.B) {
	const n, p, lambda = 5000, 500, 2000.0
	xr, _, y := rows(n, p, "gaussian", 1)
	b.Run("estimator", func(b *testing.B) {
		kind, _ := penalty.Lookup("cardinality")
		pen, _, _ := bounds.Build(kind, penalty.Inputs{P: p}, false)
		for b.Loop() {
			if _, err := estimator.Fit(estimator.NewRows(mat.NewDense(n, p, xr), y), pen, lambda, &estimator.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("binding", func(b *testing.B) {
		opts := mustJSON(map[string]any{"lambda": lambda})
		for b.Loop() {
			if _, err := binding.Fit(&binding.Input{X: xr, N: n, P: p, Y: y}, opts); err != nil {
				b.Fatal(err)
			}
		}
	})
}
