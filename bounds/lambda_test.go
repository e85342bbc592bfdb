package bounds

import (
	"math"
	"testing"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// The expected values were computed independently from the paper's
// formulas with Python's math module (plain arithmetic, ν = ν_min, C = 1):
//
//	L=len(p)-2; P=sum(p[l+1]*p[l]); M=max(per-layer M); nu=1/(1-M); s=M+1/nu
//	cLip=2*a**L*sqrt(L)*x*((2/L)*s)**L; Rp=cLip*s
//	core=a**(2L)*x**2*(sqrt(2)/L)**(2L-1)*sqrt(log(2P))*log(2n)/sqrt(n)
//	lam=C*(M+1)*core; lam_l1=lam_card=C*core
func TestNetworkLambda(t *testing.T) {
	a, err := NetworkLambda(Network{Widths: []int{64, 40, 1}, ALip: 1, N: 1797, XNorm: 6.2, Penalty: Cardinality})
	require.NoError(t, err)
	require.Equal(t, 1, a.L)
	require.Equal(t, 2600, a.P)
	require.Equal(t, []float64{0.05, 0}, a.LayerM)
	require.InDelta(t, 1.05263157895, a.NuMin, 1e-10)
	require.InDelta(t, 24.8, a.CLip, 1e-10)
	require.InDelta(t, 24.8, a.RPrime, 1e-10)
	require.InDelta(t, 32.2467119116, a.Lambda, 1e-9)
	require.InDelta(t, 30.7111542015, a.LambdaL1, 1e-9)
	require.InDelta(t, 30.7111542015, a.LambdaCardinality, 1e-9)

	b, err := NetworkLambda(Network{Widths: []int{16, 30, 20, 26}, ALip: 1, N: 20000, XNorm: 3.5, Penalty: CardinalityWeighted})
	require.NoError(t, err)
	require.Equal(t, 2, b.L)
	require.Equal(t, 1600, b.P)
	require.InDelta(t, 0.00408248290464, b.MG, 1e-13)
	require.InDelta(t, 1.00409921789, b.NuMin, 1e-10)
	require.InDelta(t, 9.89949493661, b.CLip, 1e-9)
	require.InDelta(t, 0.925709241305, b.Lambda, 1e-11)
	require.InDelta(t, 0.92194541491, b.LambdaL1, 1e-10)

	lasso, err := NetworkLambda(Network{Widths: []int{64, 40, 1}, ALip: 1, N: 1797, XNorm: 6.2, Penalty: Lasso})
	require.NoError(t, err)
	require.Zero(t, lasso.MG)
	require.Equal(t, 1.0, lasso.NuMin)
	require.InDelta(t, a.LambdaL1, lasso.Lambda, 1e-12, "G = 0: Theorem 1 is the ℓ1 corollary")

	_, err = NetworkLambda(Network{Widths: []int{5, 2, 1}, ALip: 1, N: 10, XNorm: 1, Penalty: Cardinality})
	require.ErrorContains(t, err, "M_G")
	_, err = NetworkLambda(Network{Widths: []int{5, 1}, ALip: 1, N: 10, XNorm: 1})
	require.Error(t, err)
}

// TestRegressionLambda on a hand example: diag(XᵀX) = (7, 15, 7), so
// s = 2·15/5 = 6; λ_t = 2·2·√30·√(2 ln 60); M_A = 2/3, 1/ν = 1/3.
func TestRegressionLambda(t *testing.T) {
	x := mat.NewDense(5, 3, []float64{1, 0, 2, -1, 3, 0, 2, 1, -1, 0, -2, 1, 1, 1, 1})
	rc, err := RegressionLambda(x, 1, 2, 0.05, AllPairs(3, 1), 3)
	require.NoError(t, err)
	require.InDelta(t, 6, rc.S, 1e-12)
	want := 4 * math.Sqrt(30) * math.Sqrt(2*math.Log(60))
	require.InDelta(t, want, rc.LambdaT, 1e-10)
	require.InDelta(t, 62.6942643288, rc.LambdaT, 1e-9)
	require.InDelta(t, 2.0/3, rc.Equivalence, 1e-12)
	require.InDelta(t, 41.7961762192, rc.Lambda, 1e-9)
	_, err = RegressionLambda(x, 1, 2, 1.5, 0, 1)
	require.Error(t, err)
}

// TestEffectiveNoiseOrthonormal: for an orthonormal design and the ℓ1
// penalty, 2h*(XᵀU) = 2σ max|Z_i| over p independent standard normals,
// whose (1 − t)-quantile is 2σΦ⁻¹((1 + (1 − t)^{1/p})/2). The estimate
// must agree within its sampling error, and sit below the union bound λ_t.
func TestEffectiveNoiseOrthonormal(t *testing.T) {
	const n, p, sigma, tt, draws = 40, 6, 1.5, 0.1, 20000
	x := mat.NewDense(n, p, nil)
	for j := 0; j < p; j++ {
		x.Set(j, j, 1) // orthonormal columns
	}
	est, err := EffectiveNoise(x, 1, sigma, tt, penalty.L1{}, draws, 3)
	require.NoError(t, err)
	z := distuv.UnitNormal.Quantile((1 + math.Pow(1-tt, 1.0/p)) / 2)
	exact := 2 * sigma * z
	// Sampling error of a quantile: √(t(1−t)/draws)/density; the density of
	// 2σ max|Z| at the quantile is p(2Φ−1)^{p−1}·2φ(z)/(2σ).
	density := p * math.Pow(2*distuv.UnitNormal.CDF(z)-1, p-1) * 2 * distuv.UnitNormal.Prob(z) / (2 * sigma)
	se := math.Sqrt(tt*(1-tt)/draws) / density
	require.InDelta(t, exact, est, 4*se, "exact %v, estimate %v, se %v", exact, est, se)
	rc, err := RegressionLambda(x, 1, sigma, tt, 0, 1)
	require.NoError(t, err)
	require.Less(t, est, rc.LambdaT, "the union bound is an upper bound")
	again, err := EffectiveNoise(x, 1, sigma, tt, penalty.L1{}, draws, 3)
	require.NoError(t, err)
	require.Equal(t, est, again, "same seed, same number")
	_, err = EffectiveNoise(x, 1, sigma, tt, penalty.Ridge{}, 10, 1)
	require.Error(t, err)
}

// TestGroupedNetworkAndLayers: the grouped per-layer M_l equals the LP
// value of the explicit block matrix, and KernelOfLayers takes the maximum.
func TestGroupedNetworkAndLayers(t *testing.T) {
	labels := [][]int{{0, 0, 1, 1, 1}, {0, 1, 1}, {0}}
	nc, err := NetworkLambda(Network{Widths: []int{4, 5, 3, 1}, ALip: 1, N: 50, XNorm: 2, Penalty: GroupedCardinality, Groups: labels})
	require.NoError(t, err)
	var layers []*mat.Dense
	for l, lab := range labels {
		g := penalty.NewGrouped(lab, 1)
		cols := []int{4, 5, 3}[l]
		layers = append(layers, penalty.GroupedMatrix(g, cols))
	}
	k, err := KernelOfLayers(layers)
	require.NoError(t, err)
	require.True(t, k.Exact)
	require.InDelta(t, k.Upper, nc.MG, 1e-9)
	// By hand: layer 0 groups of 2 and 3 rows over 4 columns:
	// max(2/(2√8), 2/(3√12)); layer 1 a group of 2 over 5 columns: 2/(2√10).
	want := math.Max(math.Max(2/(2*math.Sqrt(8)), 2/(3*math.Sqrt(12))), 2/(2*math.Sqrt(10)))
	require.InDelta(t, want, nc.MG, 1e-12)
	_, err = NetworkLambda(Network{Widths: []int{4, 5, 3, 1}, ALip: 1, N: 50, XNorm: 2, Penalty: GroupedCardinality, Groups: labels[:2]})
	require.Error(t, err)
}
