package lsfit

import (
	"testing"

	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// The spec's performance setting: n = 5000, p = 500, Gaussian X, β* from
// {−2,−1,1,2}. λ for the lasso is 0.05·λ_max (bench/README.md); for the
// cardinality penalty 0.05·λ_fuse.
func benchData(b *testing.B) (solver.DenseDesign, *mat.Dense) {
	x, y, _ := simulate(1, 5000, 500, 1, 1)
	b.ResetTimer()
	return solver.DenseDesign{X: x}, y
}

func BenchmarkFitLassoOneLambda(b *testing.B) {
	d, y := benchData(b)
	b.StopTimer()
	pr, _ := prepare(d, y, nil)
	lmax, _ := solver.LambdaMax(pr.loss, penalty.L1{})
	b.StartTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Fit(d, y, penalty.L1{}, 0.05*lmax, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFitCardinalityOneLambda(b *testing.B) {
	d, y := benchData(b)
	b.StopTimer()
	pr, _ := prepare(d, y, nil)
	card := penalty.Cardinality{Nu: 1}
	lmax, _ := solver.LambdaMax(pr.loss, card)
	lam := 0.05 * pr.fusionLambda(card, lmax)
	opts := &fit.Options{Settings: solver.Settings{Tol: 1e-6}}
	b.StartTimer()
	for i := 0; i < b.N; i++ {
		m, err := Fit(d, y, card, lam, opts)
		if err != nil || !m.Converged {
			b.Fatal(err, m.Status)
		}
	}
}

func BenchmarkLassoPath100(b *testing.B) {
	d, y := benchData(b)
	for i := 0; i < b.N; i++ {
		if _, err := FitPath(d, y, penalty.L1{}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGram(b *testing.B) {
	d, _ := benchData(b)
	for i := 0; i < b.N; i++ {
		var h mat.SymDense
		d.Gram(&h)
	}
}

// Wide data (p ≫ n, no Gram form): a 20-λ cardinality path on 200×4000
// with β* from {−2,−1,1,2}, and the grouped penalty over 4 groups, both
// at gap 1e-6.
func BenchmarkCardinalityWidePath(b *testing.B) {
	x, y, _ := simulate(2, 200, 4000, 1, 1)
	d := solver.DenseDesign{X: x}
	labels := cyclic(4000, 4)
	opts := &fit.PathOptions{NLambda: 20, Options: fit.Options{Settings: solver.Settings{Tol: 1e-6}}}
	for _, c := range []struct {
		name string
		pen  penalty.Penalty
	}{{"cardinality", penalty.Cardinality{Nu: 1}}, {"grouped", penalty.NewGrouped(labels, 1)}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				path, err := FitPath(d, y, c.pen, opts)
				if err != nil {
					b.Fatal(err)
				}
				for _, m := range path.Models {
					if !m.Converged {
						b.Fatal(m.Status)
					}
				}
			}
		})
	}
}
