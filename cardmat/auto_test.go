package cardmat

import (
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestChooseFollowsMeasuredCrossovers: the decisions agree with the
// crossovers measured in bench/README.md.
func TestChooseFollowsMeasuredCrossovers(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 1))
	uniform := func(r, c, k int) *Matrix {
		a := mat.NewDense(r, c, nil)
		a.Apply(func(_, _ int, _ float64) float64 { return float64(1 + rng.IntN(k)) }, a)
		m, err := Encode(a)
		require.NoError(t, err)
		return m
	}
	for _, c := range []struct {
		name       string
		m          *Matrix
		n          int
		compressed bool
	}{
		{"letter-like 20000×16 k=10, n=1024", uniform(20000, 16, 10), 1024, true},
		{"binary 10800×20, n=256", uniform(10800, 20, 2), 256, true},
		{"512×80 k=2", uniform(512, 80, 2), 512, true},
		{"512×80 k=8", uniform(512, 80, 8), 512, false},
		{"512×80 k=512", uniform(512, 80, 512), 512, false},
		{"2000×40 k=20", uniform(2000, 40, 20), 2000, false},
	} {
		ch := c.m.Choose(c.n)
		require.Equal(t, c.compressed, ch.Compressed, "%s: %+v", c.name, ch)
	}
	// A sparse 0/1 matrix: gonum skips the zeros, so the dense product wins.
	adj := mat.NewDense(200, 200, nil)
	adj.Apply(func(_, _ int, _ float64) float64 {
		if rng.Float64() < 0.05 {
			return 1
		}
		return 0
	}, adj)
	m, err := Encode(adj)
	require.NoError(t, err)
	nnz := 0
	for _, v := range adj.RawMatrix().Data {
		if v != 0 {
			nnz++
		}
	}
	require.Equal(t, float64(nnz*200), m.Choose(200).DenseWork)
	require.False(t, m.Choose(200).Compressed)
	rows := []int{3, 1, 4, 1, 5, 9, 2, 6}
	sub := m.SelectRows(rows).(*Matrix)
	want := 0
	for _, i := range rows {
		for _, v := range adj.RawRowView(i) {
			if v != 0 {
				want++
			}
		}
	}
	require.Equal(t, want, sub.nonzeros)
}

// TestAutoEqualsDense: both branches of Auto give gonum's product, and a
// fit on Auto equals the fit on the dense design.
func TestAutoEqualsDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 1))
	x := integerMatrix(rng, 3000, 6, 3)
	a, err := NewAuto(x)
	require.NoError(t, err)
	for _, n := range []int{1, 600} {
		b := integerMatrix(rng, 6, n, 9)
		var got, want mat.Dense
		a.Mul(&got, b)
		want.Mul(x, b)
		require.True(t, mat.Equal(&want, &got), "n=%d (compressed: %v)", n, a.Compressed().Choose(n).Compressed)
	}
	y := mat.NewDense(3000, 1, nil)
	for i := 0; i < 3000; i++ {
		y.Set(i, 0, x.At(i, 0)-x.At(i, 1)+0.5*rng.NormFloat64())
	}
	opts := &estimator.Options{Settings: solver.Settings{Tol: 1e-12}}
	dense, err := estimator.Fit(&estimator.Rows{X: solver.DenseDesign{X: x}, Y: y}, penalty.Cardinality{Nu: 1}, 50, opts)
	require.NoError(t, err)
	auto, err := estimator.Fit(&estimator.Rows{X: a, Y: y}, penalty.Cardinality{Nu: 1}, 50, opts)
	require.NoError(t, err)
	require.True(t, mat.EqualApprox(dense.Coef, auto.Coef, 1e-8))
	_, err = NewAuto(&mat.Dense{})
	require.Error(t, err)
}
