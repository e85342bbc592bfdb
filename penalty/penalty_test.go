package penalty

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/internal/reference"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// draw returns a random p×q matrix; with ties set, entries come from a small
// integer set so that columns have repeated and all-equal values.
func draw(rng *rand.Rand, p, q int, ties bool) *mat.Dense {
	m := mat.NewDense(p, q, nil)
	for i := 0; i < p; i++ {
		for j := 0; j < q; j++ {
			if ties {
				m.Set(i, j, float64(rng.IntN(3)-1))
			} else {
				m.Set(i, j, rng.NormFloat64()*2)
			}
		}
	}
	return m
}

func named() map[string]func(p int) Penalty {
	return map[string]func(p int) Penalty{
		"cardinality":    func(int) Penalty { return Cardinality{Nu: 0.7} },
		"cardinality-nu": func(int) Penalty { return Cardinality{Nu: 3} },
		"l1":             func(int) Penalty { return L1{Nu: 1.5} },
		"grouped":        func(p int) Penalty { return NewGrouped(labels(p), 0.9) },
		"grouped-unw": func(p int) Penalty {
			g := NewGrouped(labels(p), 1.3)
			g.Unweighted = true
			return g
		},
	}
}

func labels(p int) []int {
	l := make([]int, p)
	for i := range l {
		l[i] = (i * 7) % 3 // interleaved groups, some of size one for small p
	}
	return l
}

// explicitK returns K with h(v) = ‖Kv‖₁ for one column of a matrix with q
// columns, built from the explicit G and projector, independently of the
// sorted-form code.
func explicitK(t *testing.T, h Penalty, p, q int) *mat.Dense {
	switch h := h.(type) {
	case Cardinality:
		return reference.ExplicitCardinality(p, nuOrOne(h.Nu))
	case L1:
		k := mat.NewDense(p, p, nil)
		for i := 0; i < p; i++ {
			k.Set(i, i, nuOrOne(h.Nu))
		}
		return k
	case *Grouped:
		gen, err := NewGeneral(GroupedMatrix(h, q), p, nuOrOne(h.Nu))
		require.NoError(t, err)
		return gen.Stacked()
	}
	t.Fatalf("no explicit form for %T", h)
	return nil
}

func TestProxAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for name, mk := range named() {
		for _, p := range []int{1, 2, 3, 5, 7} {
			for trial := 0; trial < 12; trial++ {
				ties := trial%3 == 0
				q := 1 + trial%2
				theta := draw(rng, p, q, ties)
				if trial == 5 {
					theta.Apply(func(int, int, float64) float64 { return 1.25 }, theta) // all equal
				}
				tau := []float64{0.01, 0.3, 2}[trial%3]
				h := mk(p)
				var got mat.Dense
				h.Prox(&got, theta, tau)
				K := explicitK(t, h, p, q)
				for j := 0; j < q; j++ {
					want, gap, err := reference.ProxExplicit(K, mat.Col(nil, j, theta), tau)
					require.NoError(t, err)
					require.Less(t, gap, 1e-11)
					require.InDeltaSlice(t, want, mat.Col(nil, j, &got), 1e-6,
						"%s p=%d trial=%d col %d", name, p, trial, j)
				}
			}
		}
	}
}

// TestMoreau checks the optimality condition of the prox through the
// Moreau decomposition v = prox_{τh}(v) + τ·Proj_{h*≤1}(v/τ): the residual
// r = (v − x)/τ must lie in ∂h(x), i.e. h*(r) ≤ 1 and ⟨r, x⟩ = h(x).
func TestMoreau(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for name, mk := range named() {
		for _, p := range []int{2, 6, 31, 200} {
			for trial := 0; trial < 6; trial++ {
				theta := draw(rng, p, 3, trial%2 == 0)
				tau := math.Pow(10, float64(trial%4)-2)
				h := mk(p)
				var x, r mat.Dense
				h.Prox(&x, theta, tau)
				r.Sub(theta, &x)
				r.Scale(1/tau, &r)
				d := h.(DualNormer).DualNorm(&r)
				require.LessOrEqual(t, d, 1+1e-9, "%s p=%d: h*(r)", name, p)
				require.InDelta(t, h.Value(&x), mat.Dot(vec(&r), vec(&x)), 1e-9*math.Max(1, h.Value(&x)),
					"%s p=%d: <r,x> = h(x)", name, p)
			}
		}
	}
}

func vec(m *mat.Dense) *mat.VecDense {
	r, c := m.Dims()
	v := mat.NewVecDense(r*c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			v.SetVec(i*c+j, m.At(i, j))
		}
	}
	return v
}

func TestNormAxioms(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for name, mk := range named() {
		for _, p := range []int{1, 2, 9, 40} {
			h := mk(p)
			for trial := 0; trial < 20; trial++ {
				a, b := draw(rng, p, 2, trial%4 == 0), draw(rng, p, 2, false)
				var s mat.Dense
				s.Add(a, b)
				require.LessOrEqual(t, h.Value(&s), h.Value(a)+h.Value(b)+1e-9, "%s triangle", name)
				c := rng.NormFloat64() * 3
				s.Scale(c, a)
				require.InDelta(t, math.Abs(c)*h.Value(a), h.Value(&s), 1e-9*(1+h.Value(&s)), "%s homogeneity", name)
				require.Positive(t, h.Value(a)+h.Value(b), "%s definiteness", name)
			}
			require.Zero(t, h.Value(mat.NewDense(p, 2, nil)), "%s h(0)", name)
		}
	}
}

func TestValueMatchesExplicitG(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for name, mk := range named() {
		for _, p := range []int{1, 2, 5, 12} {
			h := mk(p)
			theta := draw(rng, p, 2, p == 5)
			K := explicitK(t, h, p, 2)
			var kt mat.Dense
			kt.Mul(K, theta)
			require.InDelta(t, l1(&kt), h.Value(theta), 1e-9*(1+l1(&kt)), name)
		}
	}
}

func TestDualNormAgainstLP(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for name, mk := range named() {
		for _, p := range []int{1, 2, 4, 7} {
			h := mk(p)
			K := explicitK(t, h, p, 1)
			for trial := 0; trial < 5; trial++ {
				g := draw(rng, p, 1, trial == 0)
				want, err := reference.DualNormLP(K, mat.Col(nil, 0, g))
				require.NoError(t, err)
				require.InDelta(t, want, h.(DualNormer).DualNorm(g), 1e-8*(1+want), "%s p=%d", name, p)
			}
		}
	}
}

func TestGeneralMatchesFastPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	cases := []struct {
		name string
		g    func(p int) *mat.Dense
		nu   float64
		fast func(p int) Penalty
	}{
		{"A", AllPairs, 0.8, func(int) Penalty { return Cardinality{Nu: 0.8} }},
		{"zero", func(p int) *mat.Dense { return Zero(3, p) }, 1, func(int) Penalty { return L1{} }},
		{"grouped", func(p int) *mat.Dense { return GroupedMatrix(NewGrouped(labels(p), 1.1), 2) }, 1.1,
			func(p int) Penalty { return NewGrouped(labels(p), 1.1) }},
	}
	for _, c := range cases {
		for _, p := range []int{2, 3, 6} {
			gen, err := NewGeneral(c.g(p), p, c.nu)
			require.NoError(t, err)
			fast := c.fast(p)
			theta := draw(rng, p, 2, p == 3)
			require.InDelta(t, fast.Value(theta), gen.Value(theta), 1e-9, "%s value", c.name)
			for _, tau := range []float64{0.05, 0.4} {
				var a, b mat.Dense
				fast.Prox(&a, theta, tau)
				gap := gen.ProxGap(&b, theta, tau)
				require.Less(t, gap, 1e-11, "%s p=%d inner gap", c.name, p)
				require.True(t, mat.EqualApprox(&a, &b, 1e-6), "%s p=%d tau=%v\n%v\n%v", c.name, p, tau, mat.Formatted(&a), mat.Formatted(&b))
			}
			var pa, pb mat.Dense
			fast.(KernelProjector).ProjectKernel(&pa, theta)
			gen.ProjectKernel(&pb, theta)
			require.True(t, mat.EqualApprox(&pa, &pb, 1e-9), "%s projector", c.name)
		}
	}
}

func TestBuilders(t *testing.T) {
	a := AllPairs(4)
	r, c := a.Dims()
	require.Equal(t, []int{6, 4}, []int{r, c})
	for i := 0; i < r; i++ {
		row := a.RawRowView(i)
		require.Zero(t, floats.Sum(row))
		require.Equal(t, 2.0, floats.Norm(row, 1))
	}
	require.Nil(t, AllPairs(1))
	// Π_A repeats the mean; M_A-style identity A⁺ = Aᵀ/n means AᵀA = nI − 11ᵀ.
	var ata mat.Dense
	ata.Mul(a.T(), a)
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			want := -1.0
			if i == j {
				want = 3
			}
			require.Equal(t, want, ata.At(i, j))
		}
	}
	pi := KernelProjection(a, 4)
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			require.InDelta(t, 0.25, pi.At(i, j), 1e-12)
		}
	}
	g := NewGrouped([]int{5, 9, 5, 5, 9, 2}, 1)
	require.Equal(t, [][]int{{0, 2, 3}, {1, 4}, {5}}, g.Groups())
	gm := GroupedMatrix(g, 2)
	r, _ = gm.Dims()
	require.Equal(t, 3+1, r)
	require.InDelta(t, math.Sqrt(6), gm.At(0, 0), 1e-15)
}

// TestPieceSlopes checks that the slopes of a piece are the directional
// derivatives of h along each cluster's indicator.
func TestPieceSlopes(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for name, mk := range named() {
		p := 9
		h := mk(p)
		for trial := 0; trial < 10; trial++ {
			theta := draw(rng, p, 2, true)
			if name == "l1" {
				theta.Set(0, 0, 0)
			}
			// Make sure no block sums to zero except by design below.
			theta.Set(1, 0, theta.At(1, 0)+0.37)
			v := mat.Col(nil, 0, theta)
			pc := h.(Piecewise).Piece(v, 2)
			seen := map[int]bool{}
			for c, cl := range pc.Clusters {
				for _, i := range cl {
					require.False(t, seen[i])
					seen[i] = true
					require.Equal(t, v[cl[0]], v[i], "cluster holds equal values")
				}
				const eps = 1e-7
				moved := mat.DenseCopyOf(theta)
				for _, i := range cl {
					moved.Set(i, 0, v[i]+eps)
				}
				d := (h.Value(moved) - h.Value(theta)) / eps
				if len(pc.Constraints) == 0 {
					require.InDelta(t, pc.Slopes[c], d, 1e-5, "%s cluster %d", name, c)
				}
			}
			for i := range v {
				if !seen[i] {
					require.Zero(t, v[i], "%s: only zeros are left out", name)
				}
			}
		}
	}
	pc := Cardinality{}.Piece([]float64{2, -2, 1, -1}, 1)
	require.Len(t, pc.Constraints, 1, "a zero-sum column sits at the kernel kink")
	require.Equal(t, []float64{1, 1, 1, 1}, pc.Constraints[0])
}

func TestProxEdgeCases(t *testing.T) {
	for name, mk := range named() {
		h := mk(3)
		theta := mat.NewDense(3, 1, []float64{1, -2, 0.5})
		var x mat.Dense
		h.Prox(&x, theta, 0)
		require.True(t, mat.Equal(theta, &x), "%s: τ=0 is the identity", name)
		h.Prox(&x, theta, 1e6)
		require.Zero(t, mat.Norm(&x, 2), "%s: huge τ gives zero", name)
		in := mat.DenseCopyOf(theta)
		h.Prox(in, in, 0.3)
		var out mat.Dense
		h.Prox(&out, theta, 0.3)
		require.True(t, mat.Equal(in, &out), "%s: in-place prox", name)
		require.Panics(t, func() { h.Prox(&x, theta, -1) })
	}
}

func TestPairwiseExactClusters(t *testing.T) {
	// Ties pool to bit-identical values; the mean is preserved.
	v := []float64{3, 3, 1, 0, 0, -4}
	w := newWorkspace(len(v))
	m := floats.Sum(v)
	pairwiseProx(v, 0.6, w)
	require.InDelta(t, m, floats.Sum(v), 1e-12)
	require.Equal(t, v[0], v[1])
	require.Equal(t, v[3], v[4])
}
