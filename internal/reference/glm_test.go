package reference

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// glmData returns n rows of p standard normal predictors with a response
// of family fam around η = 0.3 + 0.5x₀ − 0.4x₁ (+ offset), random positive
// weights and offsets of scale 0.3.
func glmData(rng *rand.Rand, fam string, n, p int) (x *mat.Dense, y, w, off []float64) {
	x = randDense(rng, n, p)
	y, w, off = make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		w[i] = 0.2 + 1.8*rng.Float64()
		off[i] = 0.3 * rng.NormFloat64()
		eta := off[i] + 0.3 + 0.5*x.At(i, 0) - 0.4*x.At(i, 1)
		switch fam {
		case "gaussian":
			y[i] = eta + 0.5*rng.NormFloat64()
		case "binomial":
			if rng.Float64() < 1/(1+math.Exp(-eta)) {
				y[i] = 1
			}
		case "poisson":
			// Knuth's method: small means only.
			l, k, q := math.Exp(-math.Exp(eta)), 0.0, rng.Float64()
			for q > l {
				k++
				q *= rng.Float64()
			}
			y[i] = k
		case "gamma":
			y[i] = math.Exp(eta) * rng.ExpFloat64() // shape 1
		}
	}
	return x, y, w, off
}

// TestGLMSolveGaussianClosedForm: at λ = 0 the gaussian problem with
// weights and an offset is weighted least squares of y − o on (1, X).
func TestGLMSolveGaussianClosedForm(t *testing.T) {
	rng := newRand(101)
	x, y, w, off := glmData(rng, "gaussian", 40, 3)
	res, err := GLMSolve(GLMProblem{Family: "gaussian", X: x, Y: y, Weights: w, Offset: off,
		K: mat.NewDense(3, 3, nil), Lambda: 0}, 100)
	require.NoError(t, err)
	z := mat.NewDense(40, 4, nil)
	zw := mat.NewDense(40, 4, nil)
	rhs := mat.NewVecDense(4, nil)
	for i := range 40 {
		row := []float64{1, x.At(i, 0), x.At(i, 1), x.At(i, 2)}
		z.SetRow(i, row)
		for c, v := range row {
			zw.Set(i, c, w[i]*v)
			rhs.SetVec(c, rhs.AtVec(c)+w[i]*v*(y[i]-off[i]))
		}
	}
	var gram mat.Dense
	gram.Mul(zw.T(), z)
	var sol mat.VecDense
	require.NoError(t, sol.SolveVec(&gram, rhs))
	require.InDelta(t, sol.AtVec(0), res.B0, 1e-9)
	for j := range 3 {
		require.InDelta(t, sol.AtVec(j+1), res.Beta[j], 1e-9)
	}
}

// TestGLMSolveGaussianLassoMatchesLassoCD: with K = I, no weights and no
// offset, the gaussian problem is the lasso with an intercept, which is
// LassoCD on the centred data.
func TestGLMSolveGaussianLassoMatchesLassoCD(t *testing.T) {
	rng := newRand(102)
	x, y, _, _ := glmData(rng, "gaussian", 50, 4)
	xc, yc := mat.DenseCopyOf(x), append([]float64(nil), y...)
	my := mean(y)
	for i := range yc {
		yc[i] -= my
	}
	for j := range 4 {
		col := mat.Col(nil, j, x)
		m := mean(col)
		for i := range col {
			col[i] -= m
		}
		xc.SetCol(j, col)
	}
	id := mat.NewDense(4, 4, nil)
	for j := range 4 {
		id.Set(j, j, 1)
	}
	for _, lambda := range []float64{0.5, 5, 30} {
		beta := LassoCD(xc, yc, lambda, 0)
		res, err := GLMSolve(GLMProblem{Family: "gaussian", X: x, Y: y, K: id, Lambda: lambda}, 20000)
		require.NoError(t, err, "λ = %g", lambda)
		for j := range 4 {
			require.InDelta(t, beta[j], res.Beta[j], 1e-9, "λ = %g, coefficient %d", lambda, j)
		}
		require.InDelta(t, GLMObjective(GLMProblem{Family: "gaussian", X: x, Y: y, K: id, Lambda: lambda}, res.B0, beta), res.Objective, 1e-9*res.Objective)
	}
}

// TestGLMSolveInterceptClosedForms: with the predictors held at 0 by a
// λ far above λ_max, the intercept has a closed form for each family with
// weights and (binomial aside, where it has none) an offset:
// gaussian Σw(y − o)/Σw, poisson log(Σwy/Σw e^o), gamma log(Σw y e^−o/Σw),
// binomial (no offset) the logit of Σwy/Σw.
func TestGLMSolveInterceptClosedForms(t *testing.T) {
	rng := newRand(103)
	for _, fam := range GLMFamilies {
		x, y, w, off := glmData(rng, fam, 60, 2)
		if fam == "binomial" {
			off = nil
		}
		o := func(i int) float64 {
			if off == nil {
				return 0
			}
			return off[i]
		}
		var sw, a, b float64
		for i := range y {
			sw += w[i]
			switch fam {
			case "gaussian", "binomial":
				a += w[i] * (y[i] - o(i))
			case "poisson":
				a += w[i] * y[i]
				b += w[i] * math.Exp(o(i))
			case "gamma":
				a += w[i] * y[i] * math.Exp(-o(i))
			}
		}
		var want float64
		switch fam {
		case "gaussian":
			want = a / sw
		case "binomial":
			want = math.Log(a / (sw - a))
		case "poisson":
			want = math.Log(a / b)
		case "gamma":
			want = math.Log(a / sw)
		}
		res, err := GLMSolve(GLMProblem{Family: fam, X: x, Y: y, Weights: w, Offset: off,
			K: mat.NewDense(2, 2, []float64{1, 0, 0, 1}), Lambda: 1e6}, 1000)
		require.NoError(t, err, fam)
		require.Equal(t, []float64{0, 0}, res.Z, fam)
		require.InDelta(t, 0, res.Beta[0], 1e-11, fam)
		require.InDelta(t, 0, res.Beta[1], 1e-11, fam)
		require.InDelta(t, want, res.B0, 1e-9, fam)
	}
}

// TestGLMSolveOffsetIsUnpenalisedShift: an offset c·x₀ with x₀
// unpenalised (a zero column of K) shifts x₀'s coefficient by −c and
// changes nothing else, on every family with weights and a penalty on
// the other predictors.
func TestGLMSolveOffsetIsUnpenalisedShift(t *testing.T) {
	rng := newRand(104)
	const c = 0.7
	k := mat.NewDense(3, 3, []float64{
		0, 1, -1,
		0, 1, 0,
		0, 0, 2,
	})
	for _, fam := range GLMFamilies {
		x, y, w, _ := glmData(rng, fam, 60, 3)
		off := make([]float64, 60)
		for i := range off {
			off[i] = c * x.At(i, 0)
		}
		pr := GLMProblem{Family: fam, X: x, Y: y, Weights: w, K: k, Lambda: 3}
		plain, err := GLMSolve(pr, 20000)
		require.NoError(t, err, fam)
		pr.Offset = off
		shifted, err := GLMSolve(pr, 20000)
		require.NoError(t, err, fam)
		require.InDelta(t, plain.Objective, shifted.Objective, 1e-9*plain.Objective, fam)
		require.InDelta(t, plain.B0, shifted.B0, 1e-8, fam)
		require.InDelta(t, plain.Beta[0]-c, shifted.Beta[0], 1e-8, fam)
		for j := 1; j < 3; j++ {
			require.InDelta(t, plain.Beta[j], shifted.Beta[j], 1e-8, "%s coefficient %d", fam, j)
		}
	}
}

// TestGLMSolveOptimality: at the solution of every family with weights
// and an offset, the gradient of the deviance g (in β) is −Kᵀv for a
// v ∈ λ∂‖Kβ‖₁, here v = λ·sign(z) on z's non-zeros; on its zeros the
// dual ρu of the ADMM is in [−λ, λ] by construction, so the check is on
// the intercept's gradient and on the non-zero rows through the
// deviance's directional derivative along β: ⟨g, β⟩ = −λ‖Kβ‖₁.
func TestGLMSolveOptimality(t *testing.T) {
	rng := newRand(105)
	k := mat.NewDense(4, 3, []float64{
		1, -1, 0,
		0, 1, -1,
		1, 0, 0,
		0, 0, 1.5,
	})
	for _, fam := range GLMFamilies {
		x, y, w, off := glmData(rng, fam, 80, 3)
		pr := GLMProblem{Family: fam, X: x, Y: y, Weights: w, Offset: off, K: k, Lambda: 4}
		res, err := GLMSolve(pr, 20000)
		require.NoError(t, err, fam)
		a := newGLMADMM(pr)
		a.rho = 0
		theta := append([]float64{res.B0}, res.Beta...)
		g := make([]float64, 4)
		a.smooth(theta, g, nil)
		require.InDelta(t, 0, g[0], 1e-9, "%s intercept", fam)
		var gb, pen float64
		for j := range 3 {
			gb += g[j+1] * res.Beta[j]
		}
		for _, v := range a.kb(theta) {
			pen += math.Abs(v)
		}
		require.InDelta(t, -4*pen, gb, 1e-8*math.Max(1, pen), fam)
		// The objective is minimal along random directions.
		for range 20 {
			d := randVec(rng, 3, 1e-4)
			b := sub(res.Beta, d)
			require.GreaterOrEqual(t, GLMObjective(pr, res.B0, b), res.Objective-1e-10*res.Objective, fam)
		}
	}
}

// TestGLMSolveReportsNonConvergence: an iteration cap too small for the
// tolerance is an error wrapping ErrNotConverged, with the last iterate.
func TestGLMSolveReportsNonConvergence(t *testing.T) {
	rng := newRand(106)
	x, y, w, off := glmData(rng, "poisson", 40, 3)
	res, err := GLMSolve(GLMProblem{Family: "poisson", X: x, Y: y, Weights: w, Offset: off,
		K: ExplicitCardinality(3, 1), Lambda: 2}, 2)
	require.True(t, errors.Is(err, ErrNotConverged), "%v", err)
	require.False(t, res.Converged)
	require.Len(t, res.Beta, 3)
	require.Panics(t, func() { GLMSolve(GLMProblem{Family: "tweedie", X: x, Y: y, K: ExplicitCardinality(3, 1)}, 1) })
}
