package solver

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// The blocked, multi-core Gram product is only used when n·p² ≥ 2²² and
// p ≥ 128; p = 150 is not a multiple of the tile size, so the last partial
// tile row and column are exercised.
func TestBlockedGramPartialTiles(t *testing.T) {
	x, _ := regression(21, 200, 150, 1)
	n, p := x.Dims()
	require.GreaterOrEqual(t, n*p*p, 1<<22)
	var got, want mat.SymDense
	gram(&got, x)
	want.SymOuterK(1, x.T())
	for i := 0; i < p; i++ {
		for j := i; j < p; j++ {
			require.InDelta(t, want.At(i, j), got.At(i, j), 1e-9*(1+math.Abs(want.At(i, j))), "(%d,%d)", i, j)
		}
	}
}

// Dual must be ⟨θ, Y⟩ − ‖θ‖²/4 at θ = 2s(Y − XΘ), for any s, in both the
// Gram form (n ≥ p) and the plain form (n < p).
func TestDualMatchesDefinition(t *testing.T) {
	for _, dims := range [][2]int{{40, 6}, {10, 25}} {
		x, y := regression(22, dims[0], dims[1], 2)
		ls := NewLeastSquares(DenseDesign{x}, y)
		theta := mat.NewDense(dims[1], 2, nil)
		for i := 0; i < dims[1]; i++ {
			theta.Set(i, 0, 0.1*float64(i%3))
			theta.Set(i, 1, -0.2*float64(i%2))
		}
		var r mat.Dense
		r.Mul(x, theta)
		r.Sub(y, &r)
		fval := ls.Eval(nil, theta)
		for _, s := range []float64{1, 0.37} {
			var th mat.Dense
			th.Scale(2*s, &r)
			want := frob(&th, y) - sqNorm(&th)/4
			require.InDelta(t, want, ls.Dual(theta, fval, s), 1e-9*math.Abs(want), "dims %v s=%v", dims, s)
		}
	}
}

// Result.Gap is the relative duality gap (obj − D)/obj with the dual point
// scaled into the feasible set, recomputed here from first principles.
func TestReportedGapDefinition(t *testing.T) {
	x, y := regression(23, 60, 10, 1)
	ls := NewLeastSquares(DenseDesign{x}, y)
	pen := penalty.Cardinality{Nu: 0.7}
	lmax, _ := LambdaMax(ls, pen)
	lam := 0.05 * lmax
	res, err := Minimize(Problem{ls, pen, lam}, nil, &Settings{MaxIter: 7, GapEvery: 1, Tol: 1e-14}, &FISTA{NoPolish: true})
	require.NoError(t, err)
	th := res.Theta
	var r, grad mat.Dense
	r.Mul(x, th)
	r.Sub(y, &r)
	grad.Mul(x.T(), &r)
	grad.Scale(-2, &grad)
	obj := sqNorm(&r) + lam*pen.Value(th)
	d := pen.DualNorm(&grad)
	s := math.Min(1, lam/d)
	var dual mat.Dense
	dual.Scale(2*s, &r)
	dv := frob(&dual, y) - sqNorm(&dual)/4
	want := (obj - dv) / obj
	require.Greater(t, want, 1e-6, "the capped run must not have converged")
	require.InDelta(t, obj, res.Objective, 1e-9*obj)
	require.InDelta(t, want, res.Gap, 1e-9*want)
}

// Changing Rho on a reused ADMM must refactorise: the run must be identical
// to one with a fresh ADMM with that Rho.
func TestADMMRhoChangeIsHonoured(t *testing.T) {
	x, y := regression(24, 50, 6, 1)
	ls := NewLeastSquares(DenseDesign{x}, y)
	gen, err := penalty.NewGeneral(penalty.AllPairs(6), 6, 1)
	require.NoError(t, err)
	lmax, _ := LambdaMax(ls, penalty.Cardinality{Nu: 1})
	prob := Problem{ls, gen, 0.1 * lmax}
	set := &Settings{Tol: 1e-9, MaxIter: 100000}
	reused := &ADMM{Rho: 0.5}
	_, err = Minimize(prob, nil, set, reused)
	require.NoError(t, err)
	reused.Rho = 20
	a, err := Minimize(prob, nil, set, reused)
	require.NoError(t, err)
	b, err := Minimize(prob, nil, set, &ADMM{Rho: 20})
	require.NoError(t, err)
	require.Equal(t, b.Iterations, a.Iterations)
	require.True(t, mat.Equal(a.Theta, b.Theta))
}

// Polish with a zero-sum (kernel kink) constraint of unequal cluster sizes
// must return the constrained minimiser: the block sum is zero and the
// answer matches the one-dimensional closed form.
func TestPolishZeroSumConstraint(t *testing.T) {
	x, y := regression(25, 40, 6, 1)
	ls := NewLeastSquares(DenseDesign{x}, y)
	v := []float64{2, 2, -1, -1, -1, -1} // sum 0, clusters of size 2 and 4
	pc := penalty.Cardinality{}.Piece(v, 1)
	require.Len(t, pc.Constraints, 1)
	lam := 3.0
	dst := mat.NewDense(6, 1, nil)
	require.True(t, ls.Polish(dst, []penalty.Piece{pc}, lam))
	require.InDelta(t, 0, mat.Sum(dst), 1e-9, "the block sum must stay zero")
	// On the constraint, b = t·(2, −1) per cluster: θ = t·d with d = (2,2,−1,−1,−1,−1).
	dvec := mat.NewVecDense(6, []float64{2, 2, -1, -1, -1, -1})
	var xd mat.VecDense
	xd.MulVec(x, dvec)
	slope := 2*pc.Slopes[0] - pc.Slopes[1]
	tt := (mat.Dot(&xd, mat.NewVecDense(40, mat.Col(nil, 0, y))) - lam/2*slope) / mat.Dot(&xd, &xd)
	for i := 0; i < 6; i++ {
		require.InDelta(t, tt*dvec.AtVec(i), dst.At(i, 0), 1e-9)
	}
}

// TestGapNearExactFit: noiseless data and a tiny λ make the objective ~1e-9
// of ‖Y‖², below what the gap's evaluation can resolve relative to the
// objective (it stalled at 1.3e-7–3.4e-7 for 20000 iterations on some of
// these seeds). The methods must stop at the floor, say so, and be right.
func TestGapNearExactFit(t *testing.T) {
	floors := 0
	for seed := uint64(1); seed <= 4; seed++ {
		rng := rand.New(rand.NewPCG(seed, 3))
		x := mat.NewDense(300, 10, nil)
		for i := 0; i < 300; i++ {
			for j := 0; j < 10; j++ {
				x.Set(i, j, rng.NormFloat64())
			}
		}
		beta := mat.NewDense(10, 1, nil)
		for j := 0; j < 10; j++ {
			beta.Set(j, 0, float64(100*rng.IntN(3)))
		}
		var y mat.Dense
		y.Mul(x, beta)
		ls := NewLeastSquares(DenseDesign{x}, &y)
		for _, m := range []struct {
			pen    penalty.Penalty
			method Method
		}{{penalty.Cardinality{}, &FISTA{}}, {penalty.L1{}, &FISTA{}}, {penalty.L1{}, CoordinateDescent{}}} {
			res, err := Minimize(Problem{ls, m.pen, 1e-4}, nil, nil, m.method)
			require.NoError(t, err)
			require.True(t, res.Converged, "seed %d %T %T: %v, gap %v after %d", seed, m.pen, m.method, res.Status, res.Gap, res.Iterations)
			require.Less(t, res.Iterations, 2000)
			require.True(t, mat.EqualApprox(beta, res.Theta, 1e-4))
			if res.Status == GapFloor {
				floors++
				require.Greater(t, res.Gap, 1e-7, "the floor status is only for gaps above Tol")
			}
		}
	}
	require.Positive(t, floors, "these seeds exercise the floor")
}

// The reduced design XD of a dense X, summed within its rows, equals the
// product with the cluster indicator matrix (the path of other designs).
func TestClusterColumnsMatchProduct(t *testing.T) {
	x, _ := regression(26, 7, 30, 1)
	clusters := [][]int{{0, 5, 29}, {3}, {1, 2, 4, 6, 7, 8}, {28, 10}}
	var got, want mat.Dense
	clusterColumns(&got, DenseDesign{x}, clusters)
	clusterColumns(&want, ColumnDesign{XT: mat.DenseCopyOf(x.T())}, clusters)
	require.Equal(t, 4, got.RawMatrix().Cols)
	require.True(t, mat.EqualApprox(&got, &want, 1e-12))
	for c, cl := range clusters {
		var s float64
		for _, k := range cl {
			s += x.At(2, k)
		}
		require.InDelta(t, s, got.At(2, c), 1e-12)
	}
}
