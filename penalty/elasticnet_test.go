package penalty

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// minimize1 returns the minimum of a convex function of one variable on
// [lo, hi] by golden-section search, to the rounding of its argument.
func minimize1(f func(float64) float64, lo, hi float64) (arg, val float64) {
	g := (math.Sqrt(5) - 1) / 2
	a, b := lo, hi
	for range 200 {
		c, d := b-g*(b-a), a+g*(b-a)
		if f(c) < f(d) {
			b = d
		} else {
			a = c
		}
	}
	x := (a + b) / 2
	return x, f(x)
}

// The elastic net's prox, per coordinate and as a matrix, is the minimiser
// of ½(b − x)² + τfᵢ[(1 − α)/2·b² + α|b|], found here by golden section.
func TestElasticNetProxIsTheMinimiser(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, alpha := range []float64{0, 0.2, 0.5, 1} {
		e := ElasticNet{Alpha: alpha, Factors: []float64{0.5, 1, 2.5}}
		for range 50 {
			i, x, tau := r.IntN(3), 4*r.NormFloat64(), 2*r.Float64()
			f := e.Factors[i]
			obj := func(b float64) float64 {
				return 0.5*(b-x)*(b-x) + tau*f*((1-alpha)/2*b*b+alpha*math.Abs(b))
			}
			want, _ := minimize1(obj, -10, 10)
			require.InDelta(t, want, e.CoordinateProx(i, x, tau), 1e-6, "α %v i %d x %v τ %v", alpha, i, x, tau)
		}
		theta := mat.NewDense(3, 2, []float64{1, -2, 0.3, 4, -0.1, 2})
		var got mat.Dense
		e.Prox(&got, theta, 0.7)
		for i := range 3 {
			for j := range 2 {
				require.Equal(t, e.CoordinateProx(i, theta.At(i, j), 0.7), got.At(i, j))
			}
		}
	}
}

// The conjugate is sup_b ub − fᵢ[(1 − α)/2·b² + α|b|], computed here by
// golden section, and +Inf at α = 1 beyond the ℓ∞ ball; ConjugateZero is
// where it starts to grow.
func TestElasticNetConjugateIsTheSupremum(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, alpha := range []float64{0, 0.3, 0.9} {
		e := ElasticNet{Alpha: alpha, Factors: []float64{0.5, 2}}
		for range 40 {
			u := mat.NewDense(2, 1, []float64{3 * r.NormFloat64(), 3 * r.NormFloat64()})
			var want float64
			for i := range 2 {
				f, ui := e.Factors[i], u.At(i, 0)
				_, v := minimize1(func(b float64) float64 {
					return -(ui*b - f*((1-alpha)/2*b*b+alpha*math.Abs(b)))
				}, -1e4, 1e4)
				want += -v
			}
			require.InDelta(t, want, e.Conjugate(u), 1e-6*(1+want), "α %v u %v", alpha, u.RawMatrix().Data)
			if z := e.ConjugateZero(u); z > 0 && !math.IsInf(z, 1) {
				var s mat.Dense
				s.Scale(1/z, u)
				require.InDelta(t, 0, e.Conjugate(&s), 1e-12)
				s.Scale(1.01/z, u)
				require.Greater(t, e.Conjugate(&s), 0.0)
			}
		}
	}
	lasso := ElasticNet{Alpha: 1}
	require.True(t, math.IsInf(lasso.Conjugate(mat.NewDense(1, 1, []float64{1.5})), 1))
	require.Zero(t, lasso.Conjugate(mat.NewDense(1, 1, []float64{0.5})))
}

// α = 1 is the weighted lasso; λ_max is max|gᵢ|/(αfᵢ), with α = 0.001
// for ridge (glmnet's top of a ridge grid); ZeroLambda is +Inf for ridge.
func TestElasticNetLassoCaseAndLambdaMax(t *testing.T) {
	f := []float64{0.5, 1, 2}
	theta := mat.NewDense(3, 1, []float64{1, -2, 0.5})
	var a, b mat.Dense
	ElasticNet{Alpha: 1, Factors: f}.Prox(&a, theta, 0.8)
	WeightedL1{Factors: f}.Prox(&b, theta, 0.8)
	require.True(t, mat.Equal(&a, &b))
	require.Equal(t, WeightedL1{Factors: f}.Value(theta), ElasticNet{Alpha: 1, Factors: f}.Value(theta))
	require.InDelta(t, (0.5*1+1*4+2*0.25)/2, ElasticNet{Alpha: 0, Factors: f}.Value(theta), 1e-15) // Σ fᵢθᵢ²/2
	g := mat.NewDense(3, 1, []float64{1, -3, 4})
	require.InDelta(t, 3/0.5, ElasticNet{Alpha: 0.5, Factors: f}.LambdaMax(g), 1e-15)
	require.InDelta(t, 3/1e-3, ElasticNet{Alpha: 0, Factors: f}.LambdaMax(g), 1e-9)
	require.True(t, math.IsInf(ElasticNet{Alpha: 0}.ZeroLambda(g), 1))
	lm, ok := GridTop(ElasticNet{Alpha: 0.5, Factors: f}, g)
	require.True(t, ok)
	require.InDelta(t, 6, lm, 1e-15)
}

func TestElasticNetValidate(t *testing.T) {
	for _, e := range []ElasticNet{{Alpha: -0.1}, {Alpha: 1.5}, {Alpha: math.NaN()}, {Alpha: 0.5, Factors: []float64{1, 0}}, {Alpha: 0.5, Factors: []float64{math.Inf(1)}}} {
		require.Error(t, e.Validate(), "%+v", e)
	}
	require.NoError(t, ElasticNet{Alpha: 0}.Validate())
	k, ok := Lookup("elasticnet")
	require.True(t, ok)
	require.True(t, k.Alpha)
	pen, err := k.NewFor(Inputs{P: 3, Alpha: 0.3})
	require.NoError(t, err)
	require.Equal(t, ElasticNet{Alpha: 0.3}, pen)
	_, err = k.NewFor(Inputs{P: 3, Alpha: 2})
	require.Error(t, err)
}
