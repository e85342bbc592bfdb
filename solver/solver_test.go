package solver

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/internal/reference"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// regression draws y = Xβ* + noise with β* holding a few distinct values.
func regression(seed uint64, n, p, q int) (*mat.Dense, *mat.Dense) {
	rng := rand.New(rand.NewPCG(seed, 99))
	x := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	beta := mat.NewDense(p, q, nil)
	vals := []float64{-2, -1, 1, 2}
	for i := 0; i < p; i++ {
		for j := 0; j < q; j++ {
			beta.Set(i, j, vals[rng.IntN(4)])
		}
	}
	y := mat.NewDense(n, q, nil)
	y.Mul(x, beta)
	for i := 0; i < n; i++ {
		for j := 0; j < q; j++ {
			y.Set(i, j, y.At(i, j)+rng.NormFloat64())
		}
	}
	return x, y
}

func TestLassoMatchesCoordinateDescent(t *testing.T) {
	for _, dims := range [][2]int{{80, 20}, {30, 60}} { // Gram form and X form
		x, y := regression(1, dims[0], dims[1], 1)
		loss := NewLeastSquares(DenseDesign{x}, y)
		lmax, ok := LambdaMax(loss, penalty.L1{})
		require.True(t, ok)
		for _, frac := range []float64{0.5, 0.1, 0.01} {
			lam := frac * lmax
			res, err := Minimize(Problem{loss, penalty.L1{}, lam}, nil, &Settings{Tol: 1e-12}, nil)
			require.NoError(t, err)
			require.True(t, res.Converged, "%v", res.Status)
			want := reference.LassoCD(x, mat.Col(nil, 0, y), lam, 1e-14)
			require.InDeltaSlice(t, want, mat.Col(nil, 0, res.Theta), 1e-6, "n,p=%v frac=%v", dims, frac)
		}
	}
}

func TestCardinalityGapAndADMM(t *testing.T) {
	x, y := regression(2, 60, 8, 2)
	loss := NewLeastSquares(DenseDesign{x}, y)
	nu := 0.9
	card := penalty.Cardinality{Nu: nu}
	gen, err := penalty.NewGeneral(penalty.AllPairs(8), 8, nu)
	require.NoError(t, err)
	lmax, _ := LambdaMax(loss, card)
	admm := &ADMM{}
	for _, frac := range []float64{0.3, 0.05, 0.01} {
		lam := frac * lmax
		fast, err := Minimize(Problem{loss, card, lam}, nil, &Settings{Tol: 1e-10}, nil)
		require.NoError(t, err)
		require.True(t, fast.Converged)
		require.LessOrEqual(t, fast.Gap, 1e-8)
		slow, err := Minimize(Problem{loss, gen, lam}, nil, &Settings{Tol: 1e-11, MaxIter: 200000}, admm)
		require.NoError(t, err)
		require.True(t, slow.Converged, "ADMM: %v after %d", slow.Status, slow.Iterations)
		require.True(t, mat.EqualApprox(fast.Theta, slow.Theta, 1e-6),
			"frac %v:\n%v\n%v", frac, mat.Formatted(fast.Theta.T()), mat.Formatted(slow.Theta.T()))
		// FISTA with General's inner prox agrees as well.
		viaProx, err := Minimize(Problem{loss, gen, lam}, nil, &Settings{Tol: 1e-12, MaxIter: 50000}, nil)
		require.NoError(t, err)
		require.True(t, mat.EqualApprox(fast.Theta, viaProx.Theta, 1e-5))
	}
}

func TestGroupedAgreesWithADMM(t *testing.T) {
	x, y := regression(3, 50, 9, 1)
	loss := NewLeastSquares(DenseDesign{x}, y)
	g := penalty.NewGrouped([]int{0, 0, 0, 1, 1, 1, 1, 2, 3}, 1.2)
	gen, err := penalty.NewGeneral(penalty.GroupedMatrix(g, 1), 9, 1.2)
	require.NoError(t, err)
	lmax, _ := LambdaMax(loss, g)
	lam := 0.05 * lmax
	fast, err := Minimize(Problem{loss, g, lam}, nil, &Settings{Tol: 1e-11}, nil)
	require.NoError(t, err)
	require.LessOrEqual(t, fast.Gap, 1e-8)
	slow, err := Minimize(Problem{loss, gen, lam}, nil, &Settings{Tol: 1e-11, MaxIter: 200000}, &ADMM{})
	require.NoError(t, err)
	require.True(t, mat.EqualApprox(fast.Theta, slow.Theta, 1e-6))
}

func TestPolishAgreesWithPlainFISTA(t *testing.T) {
	x, y := regression(4, 100, 80, 1) // ill-conditioned, so that plain FISTA is slow
	loss := NewLeastSquares(DenseDesign{x}, y)
	for _, pen := range []penalty.Penalty{penalty.Cardinality{Nu: 1}, penalty.L1{}} {
		lmax, _ := LambdaMax(loss, pen)
		prob := Problem{loss, pen, 0.02 * lmax}
		pol, err := Minimize(prob, nil, &Settings{Tol: 1e-12}, nil)
		require.NoError(t, err)
		plain, err := Minimize(prob, nil, &Settings{Tol: 1e-9, MaxIter: 200000}, &FISTA{NoPolish: true})
		require.NoError(t, err)
		require.True(t, pol.Converged && plain.Converged)
		require.True(t, pol.Polished, "%T: the polish should certify", pen)
		require.Less(t, pol.Iterations, plain.Iterations)
		require.True(t, mat.EqualApprox(pol.Theta, plain.Theta, 1e-4))
		require.InDelta(t, plain.Objective, pol.Objective, 1e-8*plain.Objective)
		require.LessOrEqual(t, pol.Objective, plain.Objective*(1+1e-12))
	}
}

func TestLambdaMax(t *testing.T) {
	x, y := regression(5, 40, 6, 1)
	loss := NewLeastSquares(DenseDesign{x}, y)
	for _, pen := range []penalty.Penalty{penalty.Cardinality{Nu: 0.5}, penalty.L1{}, penalty.NewGrouped([]int{1, 1, 2, 2, 2, 3}, 1)} {
		lmax, ok := LambdaMax(loss, pen)
		require.True(t, ok)
		at, err := Minimize(Problem{loss, pen, lmax * (1 + 1e-9)}, nil, nil, nil)
		require.NoError(t, err)
		require.Zero(t, mat.Norm(at.Theta, 2), "%T at λ_max", pen)
		below, err := Minimize(Problem{loss, pen, lmax * 0.99}, nil, nil, nil)
		require.NoError(t, err)
		require.NotZero(t, mat.Norm(below.Theta, 2), "%T below λ_max", pen)
	}
	_, ok := LambdaMax(loss, penalty.Ridge{})
	require.False(t, ok)
}

func TestIterationCapIsReported(t *testing.T) {
	x, y := regression(6, 100, 40, 1)
	loss := NewLeastSquares(DenseDesign{x}, y)
	res, err := Minimize(Problem{loss, penalty.Cardinality{}, 1}, nil, &Settings{MaxIter: 3, Tol: 1e-14}, &FISTA{NoPolish: true})
	require.NoError(t, err)
	require.False(t, res.Converged)
	require.Equal(t, IterationLimit, res.Status)
	require.Equal(t, 3, res.Iterations)
	require.False(t, math.IsNaN(res.Gap), "the gap at the cap is still reported")
}

// noLipschitz hides the Lipschitz bound so that FISTA must backtrack.
type noLipschitz struct{ *LeastSquares }

func (noLipschitz) Lipschitz() float64 { return 0 }

func TestBacktracking(t *testing.T) {
	x, y := regression(7, 50, 10, 1)
	loss := NewLeastSquares(DenseDesign{x}, y)
	prob := Problem{loss, penalty.Cardinality{}, 5}
	a, err := Minimize(prob, nil, &Settings{Tol: 1e-11}, nil)
	require.NoError(t, err)
	prob.Loss = noLipschitz{loss}
	b, err := Minimize(prob, nil, &Settings{Tol: 1e-11}, &FISTA{NoPolish: true})
	require.NoError(t, err)
	require.True(t, b.Converged)
	require.True(t, mat.EqualApprox(a.Theta, b.Theta, 1e-6))
}

func TestWarmStartAndRidgeResidual(t *testing.T) {
	xh, yh := regression(8, 100, 80, 1) // ill-conditioned: many iterations cold
	hard := NewLeastSquares(DenseDesign{xh}, yh)
	lmax, _ := LambdaMax(hard, penalty.Cardinality{})
	prob := Problem{hard, penalty.Cardinality{}, 0.02 * lmax}
	set := &Settings{Tol: 1e-9, GapEvery: 1}
	cold, err := Minimize(prob, nil, set, &FISTA{NoPolish: true})
	require.NoError(t, err)
	same, err := Minimize(prob, cold.Theta, set, &FISTA{NoPolish: true})
	require.NoError(t, err)
	require.Equal(t, 1, same.Iterations, "a solution is certified at once")
	prob.Lambda = 0.019 * lmax
	// With polishing, a warm start from a neighbouring λ has nearly the
	// right cluster structure and is certified sooner than a cold start.
	warm, err := Minimize(prob, cold.Theta, set, nil)
	require.NoError(t, err)
	again, err := Minimize(prob, nil, set, nil)
	require.NoError(t, err)
	require.True(t, warm.Converged)
	require.Less(t, warm.Iterations, again.Iterations)

	x, y := regression(8, 70, 12, 1)
	loss := NewLeastSquares(DenseDesign{x}, y)

	// Ridge has no dual norm: the fixed-point residual stops it, and it
	// lands on the closed form (XᵀX + λI)⁻¹Xᵀy.
	res, err := Minimize(Problem{loss, penalty.Ridge{}, 3}, nil, &Settings{Tol: 1e-12}, nil)
	require.NoError(t, err)
	require.Equal(t, ResidualConverged, res.Status)
	require.True(t, math.IsNaN(res.Gap))
	var a mat.Dense
	a.Mul(x.T(), x)
	for i := 0; i < 12; i++ {
		a.Set(i, i, a.At(i, i)+3)
	}
	var want mat.Dense
	require.NoError(t, want.Solve(&a, loss.Cross()))
	require.True(t, mat.EqualApprox(&want, res.Theta, 1e-8))
}

func TestInvalidProblems(t *testing.T) {
	x, y := regression(9, 10, 3, 1)
	loss := NewLeastSquares(DenseDesign{x}, y)
	_, err := Minimize(Problem{loss, penalty.L1{}, -1}, nil, nil, nil)
	require.Error(t, err)
	_, err = Minimize(Problem{loss, penalty.L1{}, 1}, mat.NewDense(2, 1, nil), nil, nil)
	require.Error(t, err)
	_, err = Minimize(Problem{loss, penalty.L1{}, 1}, nil, nil, &ADMM{})
	require.ErrorContains(t, err, "explicit split")
	_, err = Minimize(Problem{Loss: loss}, nil, nil, nil)
	require.Error(t, err)
}

func TestGramAndLipschitz(t *testing.T) {
	for _, dims := range [][2]int{{300, 40}, {2000, 60}, {20, 50}} {
		x, _ := regression(10, dims[0], dims[1], 1)
		var split, direct mat.SymDense
		DenseDesign{x}.Gram(&split)
		direct.SymOuterK(1, x.T())
		require.True(t, mat.EqualApprox(&split, &direct, 1e-9), "Gram %v", dims)
		// The Lipschitz bound must be above 2λ_max and tight.
		var eig mat.EigenSym
		require.True(t, eig.Factorize(&direct, false))
		vals := eig.Values(nil)
		top := 2 * vals[len(vals)-1]
		loss := NewLeastSquares(DenseDesign{x}, mat.NewDense(dims[0], 1, nil))
		require.GreaterOrEqual(t, loss.Lipschitz(), top, "%v", dims)
		require.Less(t, loss.Lipschitz(), 1.05*top, "%v", dims)
	}
}

func TestCoordinateDescentMatchesReferenceAndFISTA(t *testing.T) {
	for _, dims := range [][3]int{{80, 20, 1}, {30, 60, 1}, {50, 10, 3}} {
		x, y := regression(11, dims[0], dims[1], dims[2])
		loss := NewLeastSquares(DenseDesign{x}, y)
		lmax, _ := LambdaMax(loss, penalty.L1{Nu: 2})
		for _, frac := range []float64{0.5, 0.05, 0.005} {
			prob := Problem{loss, penalty.L1{Nu: 2}, frac * lmax}
			cd, err := Minimize(prob, nil, &Settings{Tol: 1e-12}, CoordinateDescent{})
			require.NoError(t, err)
			require.True(t, cd.Converged, "%v %v", dims, frac)
			require.LessOrEqual(t, cd.Gap, 1e-12)
			fi, err := Minimize(prob, nil, &Settings{Tol: 1e-12}, nil)
			require.NoError(t, err)
			require.InDelta(t, fi.Objective, cd.Objective, 1e-9*fi.Objective)
			if dims[0] < 2*dims[1] {
				// p near or above n: at small λ the objective is flat along
				// near-null directions of X, and certified fits differ
				// there by more than 1e-6 (their objectives agree above).
				continue
			}
			require.True(t, mat.EqualApprox(cd.Theta, fi.Theta, 1e-6), "%v %v", dims, frac)
			if dims[2] == 1 {
				want := reference.LassoCD(x, mat.Col(nil, 0, y), 2*frac*lmax, 1e-14)
				require.InDeltaSlice(t, want, mat.Col(nil, 0, cd.Theta), 1e-6)
			}
		}
	}
	x, y := regression(12, 20, 4, 1)
	loss := NewLeastSquares(DenseDesign{x}, y)
	_, err := Minimize(Problem{loss, penalty.Cardinality{}, 1}, nil, nil, CoordinateDescent{})
	require.ErrorContains(t, err, "L1")
	res, err := Minimize(Problem{loss, penalty.L1{}, 0.01}, nil, &Settings{MaxIter: 1, Tol: 1e-15}, CoordinateDescent{})
	require.NoError(t, err)
	require.False(t, res.Converged)
	require.Equal(t, IterationLimit, res.Status)
}

// TestScreeningIsSafe: at a large λ most coordinates are screened out, and
// the solution still matches FISTA and the reference exactly where it is
// zero.
func TestScreeningIsSafe(t *testing.T) {
	x, y := regression(13, 100, 300, 1)
	loss := NewLeastSquares(DenseDesign{x}, y)
	lmax, _ := LambdaMax(loss, penalty.L1{})
	for _, frac := range []float64{0.7, 0.3, 0.1} {
		prob := Problem{loss, penalty.L1{}, frac * lmax}
		cd, err := Minimize(prob, nil, &Settings{Tol: 1e-12}, CoordinateDescent{})
		require.NoError(t, err)
		want := reference.LassoCD(x, mat.Col(nil, 0, y), frac*lmax, 1e-14)
		got := mat.Col(nil, 0, cd.Theta)
		for k := range want {
			require.InDelta(t, want[k], got[k], 1e-6, "coordinate %d at %v·λmax", k, frac)
			if want[k] != 0 {
				require.NotZero(t, got[k], "a nonzero coordinate was screened out")
			}
		}
	}
}

// TestADMMReusesFactorAcrossLambda: the Cholesky factor of 2H + ρKᵀK is
// computed once for a loss, penalty and ρ, and reused along a λ path.
func TestADMMReusesFactorAcrossLambda(t *testing.T) {
	x, y := regression(14, 40, 5, 1)
	loss := NewLeastSquares(DenseDesign{x}, y)
	gen, err := penalty.NewGeneral(penalty.AllPairs(5), 5, 1)
	require.NoError(t, err)
	m := &ADMM{}
	_, err = Minimize(Problem{loss, gen, 3}, nil, nil, m)
	require.NoError(t, err)
	k, rho := m.k, m.cacheRho
	res, err := Minimize(Problem{loss, gen, 1}, nil, &Settings{Tol: 1e-9, MaxIter: 100000}, m)
	require.NoError(t, err)
	require.True(t, res.Converged)
	require.Same(t, k, m.k, "factor and K reused for a new λ")
	require.Equal(t, rho, m.cacheRho)
	other, err := penalty.NewGeneral(penalty.AllPairs(5), 5, 2)
	require.NoError(t, err)
	_, err = Minimize(Problem{loss, other, 1}, nil, nil, m)
	require.NoError(t, err)
	require.NotSame(t, k, m.k, "a new penalty refactorises")
}

func TestLambdaZeroUsesResidual(t *testing.T) {
	x, y := regression(15, 50, 6, 1)
	loss := NewLeastSquares(DenseDesign{x}, y)
	res, err := Minimize(Problem{loss, penalty.L1{}, 0}, nil, &Settings{Tol: 1e-12}, nil)
	require.NoError(t, err)
	require.Equal(t, ResidualConverged, res.Status)
	var want mat.Dense
	require.NoError(t, want.Solve(x, y))
	require.True(t, mat.EqualApprox(&want, res.Theta, 1e-8))
	_, err = Minimize(Problem{loss, penalty.L1{}, 0}, nil, nil, CoordinateDescent{})
	require.ErrorContains(t, err, "λ > 0")
}

// The certified gap bounds the true suboptimality, whichever dual point
// (the residual, or the extrapolation of the last residuals) gave it:
// P(θ) − P* ≤ gap·P(θ), P* from tight fits of two other algorithms.
func TestCoordinateDescentGapBoundsSuboptimality(t *testing.T) {
	// {40, 1500}: the working set starts at 64 coordinates and grows.
	for seed, dims := range [][2]int{{60, 200}, {100, 100}, {200, 50}, {40, 1500}} {
		x, y := regression(uint64(30+seed), dims[0], dims[1], 1)
		loss := NewLeastSquares(DenseDesign{x}, y)
		lmax, _ := LambdaMax(loss, penalty.L1{})
		for _, frac := range []float64{0.2, 0.02} {
			prob := Problem{loss, penalty.L1{}, frac * lmax}
			best := prob.Objective(mat.NewDense(dims[1], 1, reference.LassoCD(x, mat.Col(nil, 0, y), frac*lmax, 1e-15)))
			fi, err := Minimize(prob, nil, &Settings{Tol: 1e-14, MaxIter: 200000}, nil)
			require.NoError(t, err)
			best = math.Min(best, prob.Objective(fi.Theta))
			for _, tol := range []float64{1e-4, 1e-6, 1e-8} {
				cd, err := Minimize(prob, nil, &Settings{Tol: tol}, CoordinateDescent{})
				require.NoError(t, err)
				require.True(t, cd.Converged)
				obj := prob.Objective(cd.Theta)
				require.LessOrEqual(t, (obj-best)/obj, cd.Gap+1e-13, "%v %v tol %v", dims, frac, tol)
			}
		}
	}
}
