package penalty

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// With G = 0 the general penalty is ν‖·‖₁ and ‖K‖² = ν²; with ν > 1 a step
// based on ν instead of ν² is too long and the inner solver must still
// converge to soft-thresholding.
func TestGeneralLargeNuMatchesL1(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, nu := range []float64{2, 3} {
		gen, err := NewGeneral(Zero(2, 5), 5, nu)
		require.NoError(t, err)
		theta := draw(rng, 5, 2, false)
		var a, b mat.Dense
		L1{Nu: nu}.Prox(&a, theta, 0.3)
		gap := gen.ProxGap(&b, theta, 0.3)
		require.Less(t, gap, 1e-11)
		require.True(t, mat.EqualApprox(&a, &b, 1e-8), "ν=%v\n%v\n%v", nu, mat.Formatted(&a), mat.Formatted(&b))
	}
}

// The gap ProxGap reports must bound the true suboptimality of the prox
// objective ½‖x − v‖² + τh(x), known exactly from the sorted-form prox.
func TestGeneralProxGapIsHonest(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	p, tau := 7, 0.4
	gen, err := NewGeneral(AllPairs(p), p, 0.8)
	require.NoError(t, err)
	gen.Tol = 1e-3
	fast := Cardinality{Nu: 0.8}
	for trial := 0; trial < 10; trial++ {
		theta := draw(rng, p, 1, false)
		obj := func(x *mat.Dense) float64 {
			var d mat.Dense
			d.Sub(x, theta)
			n := mat.Norm(&d, 2)
			return 0.5*n*n + tau*gen.Value(x)
		}
		var a, b mat.Dense
		fast.Prox(&a, theta, tau)
		gap := gen.ProxGap(&b, theta, tau)
		ob := obj(&b)
		v := mat.Norm(theta, 2)
		require.LessOrEqual(t, ob-obj(&a), gap*math.Max(ob, v*v/2)+1e-12, "trial %d", trial)
	}
}

// The kernel of G does not depend on G's units: G·1e-6 (a matrix read from
// a file in other units) has the kernel of G. An absolute eigenvalue
// threshold used to call everything the kernel.
func TestKernelIsScaleFree(t *testing.T) {
	for _, c := range []float64{1e-6, 1e-150, 1e150} {
		var g mat.Dense
		g.Scale(c, AllPairs(4))
		require.True(t, mat.EqualApprox(KernelProjection(AllPairs(4), 4), KernelProjection(&g, 4), 1e-12), "G×%g", c)
	}
}
