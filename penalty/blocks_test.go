package penalty

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/cardsparse/cardreg/internal/reference"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// randBlock returns a block of type typ on rows 0…n−1 (a factor then has
// n+1 levels) with random weights, or nil weights when plain is set.
func randBlock(rng *rand.Rand, typ BlockType, n int, plain bool) Block {
	b := Block{Type: typ, Rows: seq(n)}
	wt := func() float64 { return 0.2 + 2*rng.Float64() }
	switch typ {
	case LassoBlock:
		if !plain {
			b.Weights = make([]float64, n)
			for i := range b.Weights {
				b.Weights[i] = wt()
			}
		}
	case CardinalityBlock:
		b.Nu = 0.3 + rng.Float64()
	case NominalBlock:
		if !plain {
			k := n + 1
			b.Weights = make([]float64, k*k)
			for i := 0; i < k; i++ {
				for j := i + 1; j < k; j++ {
					b.Weights[i*k+j] = wt()
					b.Weights[j*k+i] = b.Weights[i*k+j]
				}
			}
		}
	case OrdinalBlock:
		b.Ref = rng.IntN(n + 1)
		if !plain {
			b.Weights = make([]float64, n)
			for i := range b.Weights {
				b.Weights[i] = wt()
			}
		}
	}
	return b
}

// explicitBlockK returns K with h_b(x) = ‖Kx‖₁ on the block's own n
// coordinates, written from the block's formula without the package's
// code: one row per term of the sum.
func explicitBlockK(b Block) *mat.Dense {
	n := len(b.Rows)
	var rows [][]float64
	unit := func(i int, s float64) []float64 { r := make([]float64, n); r[i] = s; return r }
	switch b.Type {
	case LassoBlock:
		for i := 0; i < n; i++ {
			f := 1.0
			if b.Weights != nil {
				f = b.Weights[i]
			}
			rows = append(rows, unit(i, f))
		}
	case CardinalityBlock:
		return reference.ExplicitCardinality(n, nuOrOne(b.Nu))
	case NominalBlock:
		k := n + 1
		w := func(i, j int) float64 {
			if b.Weights == nil {
				return 1
			}
			return b.Weights[i*k+j]
		}
		for j := 1; j < k; j++ {
			rows = append(rows, unit(j-1, w(0, j)))
			for l := j + 1; l < k; l++ {
				r := unit(j-1, w(j, l))
				r[l-1] = -w(j, l)
				rows = append(rows, r)
			}
		}
	case OrdinalBlock:
		node := func(l int) int {
			if l < b.Ref {
				return l
			}
			return l - 1
		}
		for e := 0; e < n; e++ {
			w := 1.0
			if b.Weights != nil {
				w = b.Weights[e]
			}
			r := make([]float64, n)
			if e != b.Ref {
				r[node(e)] = -w
			}
			if e+1 != b.Ref {
				r[node(e+1)] = w
			}
			rows = append(rows, r)
		}
	}
	k := mat.NewDense(len(rows), n, nil)
	for i, r := range rows {
		k.SetRow(i, r)
	}
	return k
}

func l1Kx(k *mat.Dense, x []float64) float64 {
	var y mat.VecDense
	y.MulVec(k, mat.NewVecDense(len(x), x))
	var s float64
	for i := 0; i < y.Len(); i++ {
		s += math.Abs(y.AtVec(i))
	}
	return s
}

// randColumn returns a column of length n at the given scale; with ties its
// entries come from a few values, some of them 0.
func randColumn(rng *rand.Rand, n int, scale float64, ties bool) []float64 {
	v := make([]float64, n)
	for i := range v {
		if ties {
			v[i] = scale * float64(rng.IntN(4)-1)
		} else {
			v[i] = scale * rng.NormFloat64()
		}
	}
	return v
}

func colMatrix(v []float64) *mat.Dense { return mat.NewDense(len(v), 1, append([]float64(nil), v...)) }

var blockTypes = []BlockType{LassoBlock, CardinalityBlock, NominalBlock, OrdinalBlock}

// Every block's prox must match the prox of ‖Kx‖₁ with the explicit K
// computed by internal/reference: the reference's dual point u certifies our
// x through the gap P(x) − D(u) ≥ ½‖x − x*‖², which must be at rounding
// level.
func TestBlocksProxAgainstExplicit(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	var worstGap, worstDiff float64
	for _, typ := range blockTypes {
		for n := 1; n <= 7; n++ {
			for trial := 0; trial < 12; trial++ {
				blk := randBlock(rng, typ, n, trial%4 == 0)
				h, err := NewBlocks(n, []Block{blk})
				require.NoError(t, err)
				scale := []float64{0.1, 1, 10}[trial%3]
				v := randColumn(rng, n, scale, trial%2 == 1)
				tau := scale * (0.05 + rng.Float64())
				var dst mat.Dense
				h.Prox(&dst, colMatrix(v), tau)
				x := mat.Col(nil, 0, &dst)

				k := explicitBlockK(blk)
				xr, _, _, err := reference.ProxExplicitWithDual(k, v, tau)
				require.NoError(t, err)
				// P(x) − D(u) with D(u) = ½‖v‖² − ½‖v − Kᵀu‖², v − Kᵀu = xr.
				var px, dv float64
				for i := range v {
					px += 0.5 * (x[i] - v[i]) * (x[i] - v[i])
					dv += 0.5*v[i]*v[i] - 0.5*xr[i]*xr[i]
				}
				px += tau * l1Kx(k, x)
				gap := (px - dv) / math.Max(1, px)
				worstGap = math.Max(worstGap, gap)
				for i := range x {
					d := math.Abs(x[i]-xr[i]) / math.Max(1, scale)
					worstDiff = math.Max(worstDiff, d)
				}
				require.Less(t, gap, 1e-11, "%v n=%d trial %d v=%v τ=%v\nours %v\nref  %v", typ, n, trial, v, tau, x, xr)
				require.InDeltaSlice(t, xr, x, 1e-7*math.Max(1, scale), "%v n=%d trial %d", typ, n, trial)
			}
		}
	}
	t.Logf("worst relative gap %.3g, worst |x − x_ref|/max(1,scale) %.3g", worstGap, worstDiff)
}

// The unweighted nominal prox (all-pairs prox, then soft-thresholding) and
// the graph method with every weight 1 are two exact algorithms for the same
// prox; they must agree to rounding.
func TestEqualNominalMatchesGraph(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	var worst float64
	for n := 1; n <= 40; n++ {
		k := n + 1
		ones := make([]float64, k*k)
		for i := range ones {
			ones[i] = 1
		}
		plain, err := NewBlocks(n, []Block{{Type: NominalBlock, Rows: seq(n)}})
		require.NoError(t, err)
		graph, err := NewBlocks(n, []Block{{Type: NominalBlock, Rows: seq(n), Weights: ones}})
		require.NoError(t, err)
		for trial := 0; trial < 6; trial++ {
			v := randColumn(rng, n, []float64{0.1, 1, 10}[trial%3], trial%2 == 1)
			tau := 0.05 + 0.5*rng.Float64()
			var a, b mat.Dense
			plain.Prox(&a, colMatrix(v), tau)
			graph.Prox(&b, colMatrix(v), tau)
			for i := 0; i < n; i++ {
				worst = math.Max(worst, math.Abs(a.At(i, 0)-b.At(i, 0)))
			}
			require.True(t, mat.EqualApprox(&a, &b, 1e-12), "n=%d\n%v\n%v", n, mat.Formatted(a.T()), mat.Formatted(b.T()))
			require.InDelta(t, plain.DualNorm(colMatrix(v)), graph.DualNorm(colMatrix(v)), 1e-12*(1+plain.DualNorm(colMatrix(v))))
		}
	}
	t.Logf("worst |all-pairs+soft − graph| %.3g", worst)
}

// h*(g) must equal the LP value min{‖u‖_∞ : Kᵀu = g} with the explicit K,
// bound ⟨g, x⟩/h(x) from above for random x, and, for weighted nominal
// blocks, equal the brute-force max over sets |g(S)|/w(∂S).
func TestBlocksDualNorm(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	var worst float64
	for _, typ := range blockTypes {
		for n := 1; n <= 7; n++ {
			for trial := 0; trial < 6; trial++ {
				blk := randBlock(rng, typ, n, trial%3 == 0)
				h, err := NewBlocks(n, []Block{blk})
				require.NoError(t, err)
				g := randColumn(rng, n, []float64{0.1, 1, 10}[trial%3], trial%2 == 1)
				got := h.DualNorm(colMatrix(g))
				k := explicitBlockK(blk)
				want, err := reference.DualNormLP(k, g)
				require.NoError(t, err)
				worst = math.Max(worst, math.Abs(got-want)/math.Max(1, want))
				require.InDelta(t, want, got, 1e-9*math.Max(1, want), "%v n=%d trial %d g=%v", typ, n, trial, g)
				for r := 0; r < 20; r++ {
					x := randColumn(rng, n, 1, r%2 == 0)
					hx := h.Value(colMatrix(x))
					require.InDelta(t, l1Kx(k, x), hx, 1e-12*(1+hx))
					if hx > 0 {
						require.LessOrEqual(t, mat.Dot(mat.NewVecDense(n, g), mat.NewVecDense(n, x))/hx, got*(1+1e-12)+1e-300)
					}
				}
				if typ == NominalBlock && blk.Weights != nil {
					require.InDelta(t, bruteCutRatio(blk, g), got, 1e-12*math.Max(1, got))
				}
			}
		}
	}
	t.Logf("worst relative |h* − LP| %.3g", worst)
}

// bruteCutRatio is max over non-empty S ⊆ {1…K−1} of |g(S)|/w(∂S).
func bruteCutRatio(b Block, g []float64) float64 {
	n := len(g)
	k := n + 1
	var best float64
	for mask := 1; mask < 1<<n; mask++ {
		in := func(l int) bool { return l > 0 && mask&(1<<(l-1)) != 0 }
		var gs, cut float64
		for l := 1; l < k; l++ {
			if !in(l) {
				continue
			}
			gs += g[l-1]
			for m := 0; m < k; m++ {
				if !in(m) {
					cut += b.Weights[l*k+m]
				}
			}
		}
		best = math.Max(best, math.Abs(gs)/cut)
	}
	return best
}

// h must be linear along each cluster of Piece with the stated slope, on
// random piecewise-constant columns of a matrix made of all four types.
func TestBlocksPiece(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	for trial := 0; trial < 40; trial++ {
		var blocks []Block
		p := 0
		for _, typ := range blockTypes {
			n := 1 + rng.IntN(6)
			b := randBlock(rng, typ, n, trial%3 == 0)
			for i := range b.Rows {
				b.Rows[i] += p
			}
			p += n
			blocks = append(blocks, b)
		}
		h, err := NewBlocks(p, blocks)
		require.NoError(t, err)
		v := randColumn(rng, p, 1, true)
		pc := h.Piece(v, 1)
		require.Len(t, pc.Slopes, len(pc.Clusters))
		h0 := h.Value(colMatrix(v))
		const eps = 1e-6
		inCard := make([]bool, p)
		for _, i := range blocks[1].Rows {
			inCard[i] = true
		}
		for c, cl := range pc.Clusters {
			for _, i := range cl {
				require.Equal(t, v[cl[0]], v[i])
			}
			if inCard[cl[0]] && len(pc.Constraints) > 0 {
				// A kinked cardinality block's slope leaves out ν|Σ|, which a
				// move along one cluster alone changes (its constraint forbids
				// that move).
				continue
			}
			for _, s := range []float64{eps, -eps} {
				x := append([]float64(nil), v...)
				for _, i := range cl {
					x[i] += s
				}
				d := (h.Value(colMatrix(x)) - h0) / s
				require.InDelta(t, pc.Slopes[c], d, 1e-6, "trial %d cluster %d %v v=%v", trial, c, cl, v)
			}
		}
		// Every non-zero coordinate of a factor or lasso block is in a
		// cluster; zeros are not.
		covered := make([]bool, p)
		for _, cl := range pc.Clusters {
			for _, i := range cl {
				covered[i] = true
			}
		}
		for _, b := range blocks {
			if b.Type == CardinalityBlock {
				continue
			}
			for _, i := range b.Rows {
				require.Equal(t, v[i] != 0, covered[i], "row %d of %v", i, b.Type)
			}
		}
	}
}

// A matrix with several columns: Value sums the columns, Prox acts per
// column and DualNorm is the largest column's.
func TestBlocksColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(49, 50))
	blocks := []Block{
		randBlock(rng, NominalBlock, 3, false),
		randBlock(rng, OrdinalBlock, 4, false),
		randBlock(rng, LassoBlock, 2, false),
	}
	for i := range blocks[1].Rows {
		blocks[1].Rows[i] += 3
	}
	blocks[2].Rows = []int{7, 8}
	h, err := NewBlocks(9, blocks)
	require.NoError(t, err)
	theta := draw(rng, 9, 3, false)
	var dst mat.Dense
	h.Prox(&dst, theta, 0.4)
	var sumV, maxD float64
	for j := 0; j < 3; j++ {
		col := colMatrix(mat.Col(nil, j, theta))
		sumV += h.Value(col)
		maxD = math.Max(maxD, h.DualNorm(col))
		var one mat.Dense
		h.Prox(&one, col, 0.4)
		require.Equal(t, mat.Col(nil, 0, &one), mat.Col(nil, j, &dst))
	}
	require.InDelta(t, sumV, h.Value(theta), 1e-12*sumV)
	require.Equal(t, maxD, h.DualNorm(theta))
	// dst may alias theta.
	h.Prox(theta, theta, 0.4)
	require.True(t, mat.Equal(theta, &dst))
}

func TestNewBlocksErrors(t *testing.T) {
	ok := func(b ...Block) []Block { return b }
	for name, c := range map[string]struct {
		p      int
		blocks []Block
		msg    string
	}{
		"gap":          {3, ok(Block{Type: LassoBlock, Rows: []int{0, 2}}), "row 1 is in no block"},
		"overlap":      {2, ok(Block{Type: LassoBlock, Rows: []int{0, 1}}, Block{Type: LassoBlock, Rows: []int{1}}), "row 1 is in both"},
		"outside":      {1, ok(Block{Type: LassoBlock, Rows: []int{0, 1}}), "outside"},
		"one level":    {1, ok(Block{Type: LassoBlock, Rows: []int{0}}, Block{Type: NominalBlock}), "block 1 (nominal) has no rows"},
		"ref":          {2, ok(Block{Type: OrdinalBlock, Rows: []int{0, 1}, Ref: 3}), "reference position 3"},
		"negative ref": {2, ok(Block{Type: OrdinalBlock, Rows: []int{0, 1}, Ref: -1}), "reference position -1"},
		"chain len":    {2, ok(Block{Type: OrdinalBlock, Rows: []int{0, 1}, Weights: []float64{1}}), "1 edge weights"},
		"chain nan":    {2, ok(Block{Type: OrdinalBlock, Rows: []int{0, 1}, Weights: []float64{1, math.NaN()}}), "edge weight 1 is NaN"},
		"lasso zero":   {2, ok(Block{Type: LassoBlock, Rows: []int{0, 1}, Weights: []float64{1, 0}}), "block 0 (lasso) weight 1 is 0"},
		"lasso inf":    {1, ok(Block{Type: LassoBlock, Rows: []int{0}, Weights: []float64{math.Inf(1)}}), "+Inf"},
		"nominal len":  {1, ok(Block{Type: NominalBlock, Rows: []int{0}, Weights: []float64{1, 1, 1}}), "needs 2×2 = 4"},
		"nominal neg":  {1, ok(Block{Type: NominalBlock, Rows: []int{0}, Weights: []float64{0, -1, -1, 0}}), "weight 1 is -1"},
		"asymmetric":   {1, ok(Block{Type: NominalBlock, Rows: []int{0}, Weights: []float64{0, 1, 2, 0}}), "not symmetric"},
		"nu":           {1, ok(Block{Type: CardinalityBlock, Rows: []int{0}, Nu: -1}), "block 0 (cardinality) ν = -1"},
		"card weights": {1, ok(Block{Type: CardinalityBlock, Rows: []int{0}, Weights: []float64{1}}), "takes no weights"},
		"type":         {1, ok(Block{Type: 9, Rows: []int{0}}), "unknown type"},
	} {
		_, err := NewBlocks(c.p, c.blocks)
		require.ErrorContains(t, err, c.msg, name)
	}
	h, err := NewBlocks(2, []Block{{Type: LassoBlock, Rows: []int{0, 1}, Weights: []float64{1, 2}}})
	require.NoError(t, err)
	require.NoError(t, h.Validate())
	h.Blocks()[0].Weights[1] = math.NaN()
	require.ErrorContains(t, h.Validate(), "block 0 (lasso) weight 1 is NaN")
}

// A 583-level nominal factor with equal weights never builds its 169,653
// pairs: value, prox and dual norm are sorted-form, O(K log K) per column.
func TestLargeEqualNominalFast(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	n := 582
	h, err := NewBlocks(n, []Block{{Type: NominalBlock, Rows: seq(n)}})
	require.NoError(t, err)
	theta := draw(rng, n, 4, false)
	var dst mat.Dense
	start := time.Now()
	for range 20 {
		h.Prox(&dst, theta, 0.01)
		h.DualNorm(theta)
		h.Value(theta)
	}
	el := time.Since(start) / 20
	require.Less(t, el, 50*time.Millisecond)
	t.Logf("583 levels, 4 columns: prox + dual norm + value in %v", el)
}

// levelWeights returns a factor block's edge weights as a K×K matrix over
// the reference (index 0) and the Rows (1…K−1); 0 means no edge.
func levelWeights(b Block) []float64 {
	n := len(b.Rows)
	k := n + 1
	w := make([]float64, k*k)
	switch b.Type {
	case NominalBlock:
		for i := range w {
			if b.Weights == nil {
				w[i] = 1
			} else {
				w[i] = b.Weights[i]
			}
		}
		for i := 0; i < k; i++ {
			w[i*k+i] = 0
		}
	case OrdinalBlock:
		idx := func(l int) int {
			switch {
			case l == b.Ref:
				return 0
			case l < b.Ref:
				return l + 1
			}
			return l
		}
		for e := 0; e < n; e++ {
			we := 1.0
			if b.Weights != nil {
				we = b.Weights[e]
			}
			i, j := idx(e), idx(e+1)
			w[i*k+j], w[j*k+i] = we, we
		}
	}
	return w
}

// bruteFactorProx returns the prox of τh for a factor block by enumerating
// the ordered partitions of the K levels (reference included): on each, the
// signs of all differences are fixed, so every cluster not holding the
// reference has the closed-form value mean(v_c) − τ·slope_c/|c|, and the
// reference's cluster is 0. The candidate whose values respect its order
// strictly and has the least objective is the prox.
func bruteFactorProx(b Block, v []float64, tau float64) []float64 {
	f := &factorBrute{v: v, tau: tau, k: len(v) + 1, w: levelWeights(b), bestObj: math.Inf(1)}
	f.label = make([]int, f.k)
	f.label[0] = 0
	f.parts(1, 1)
	return f.best
}

// factorBrute is bruteFactorProx's enumeration: the data v, τ, the K
// levels' weights w (K×K), the partition being tried (label[i] is level
// i's cluster) and the best candidate so far.
type factorBrute struct {
	v       []float64
	tau     float64
	k       int
	w       []float64
	label   []int
	best    []float64
	bestObj float64
}

// objective returns the prox objective at x, over levels with x[0] = 0.
func (f *factorBrute) objective(x []float64) float64 {
	k, v, w := f.k, f.v, f.w
	var s float64
	for i := 1; i < k; i++ {
		s += 0.5 * (x[i] - v[i-1]) * (x[i] - v[i-1])
	}
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			s += f.tau * w[i*k+j] * math.Abs(x[i]-x[j])
		}
	}
	return s
}

// parts labels levels i… in every way that extends the partition of levels
// 0…i−1 into m clusters, and tries each complete partition.
func (f *factorBrute) parts(i, m int) {
	if i == f.k {
		f.permute(seq(m), 0) // perm[c] is cluster c's rank
		return
	}
	for c := 0; c <= m && c < f.k; c++ {
		f.label[i] = c
		if c == m {
			f.parts(i+1, m+1)
		} else {
			f.parts(i+1, m)
		}
	}
}

// permute tries every order of the clusters that keeps perm[:i] and
// permutes perm[i:].
func (f *factorBrute) permute(perm []int, i int) {
	m := len(perm)
	if i < m {
		for j := i; j < m; j++ {
			perm[i], perm[j] = perm[j], perm[i]
			f.permute(perm, i+1)
			perm[i], perm[j] = perm[j], perm[i]
		}
		return
	}
	val := f.clusterValues(perm)
	if !respectsOrder(perm, val) {
		return
	}
	x := make([]float64, f.k)
	for i := range x {
		x[i] = val[f.label[i]]
	}
	if o := f.objective(x); o < f.bestObj {
		f.best, f.bestObj = x[1:], o
	}
}

// clusterValues returns each cluster's closed-form value for the ordered
// partition (label, perm): 0 for the reference's, mean(v_c) − τ·slope_c/|c|
// for the others.
func (f *factorBrute) clusterValues(perm []int) []float64 {
	k, v, w, label := f.k, f.v, f.w, f.label
	val := make([]float64, len(perm))
	for c := range val {
		if c == label[0] {
			continue
		}
		var s, slope float64
		var size int
		for i := 1; i < k; i++ {
			if label[i] != c {
				continue
			}
			s += v[i-1]
			size++
			for j := 0; j < k; j++ {
				if d := label[j]; d != c {
					slope += w[i*k+j] * sign(float64(perm[c]-perm[d]))
				}
			}
		}
		val[c] = s/float64(size) - f.tau*slope/float64(size)
	}
	return val
}

// respectsOrder reports whether the clusters' values val are strictly in
// the order of their ranks perm.
func respectsOrder(perm []int, val []float64) bool {
	for c := range perm {
		for d := range perm {
			if perm[c] > perm[d] && !(val[c] > val[d]) {
				return false
			}
		}
	}
	return true
}

func TestFactorProxBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(53, 54))
	var worst float64
	for _, typ := range []BlockType{NominalBlock, OrdinalBlock} {
		for n := 1; n <= 4; n++ {
			for trial := 0; trial < 15; trial++ {
				blk := randBlock(rng, typ, n, trial%3 == 0)
				h, err := NewBlocks(n, []Block{blk})
				require.NoError(t, err)
				scale := []float64{0.1, 1, 10}[trial%3]
				v := randColumn(rng, n, scale, trial%2 == 1)
				tau := scale * (0.05 + rng.Float64())
				var dst mat.Dense
				h.Prox(&dst, colMatrix(v), tau)
				want := bruteFactorProx(blk, v, tau)
				require.NotNil(t, want)
				got := mat.Col(nil, 0, &dst)
				for i := range got {
					worst = math.Max(worst, math.Abs(got[i]-want[i])/scale)
				}
				require.InDeltaSlice(t, want, got, 1e-12*scale, "%v n=%d trial %d v=%v τ=%v", typ, n, trial, v, tau)
			}
		}
	}
	t.Logf("worst |prox − brute force|/scale %.3g", worst)
}

// The prox returns clusters as exact ties: two entries within rounding of
// each other are equal, and entries fused with the reference are exactly 0,
// so that Piece reads the clusters the prox found. The number of clusters
// must match the reference prox's.
func TestFactorProxExactTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(55, 56))
	for _, typ := range []BlockType{NominalBlock, OrdinalBlock} {
		for trial := 0; trial < 60; trial++ {
			n := 2 + rng.IntN(9)
			blk := randBlock(rng, typ, n, trial%4 == 0)
			h, err := NewBlocks(n, []Block{blk})
			require.NoError(t, err)
			v := randColumn(rng, n, 1, trial%2 == 1)
			tau := 0.1 + 0.6*rng.Float64()
			var dst mat.Dense
			h.Prox(&dst, colMatrix(v), tau)
			x := mat.Col(nil, 0, &dst)
			xr, _, err := reference.ProxExplicit(explicitBlockK(blk), v, tau)
			require.NoError(t, err)
			for i := range x {
				require.False(t, x[i] != 0 && math.Abs(x[i]) < 1e-9, "near-zero %v", x[i])
				for j := range x {
					require.False(t, x[i] != x[j] && math.Abs(x[i]-x[j]) < 1e-9, "%v trial %d: near tie %v %v", typ, trial, x[i], x[j])
					require.Equal(t, math.Abs(xr[i]-xr[j]) < 1e-7, x[i] == x[j], "%v trial %d: %v vs ref %v", typ, trial, x, xr)
				}
			}
		}
	}
}

// Extremes: τ = 0 is the identity, a τ beyond the dual norm of v gives
// exact zeros (0 is the prox exactly when h*(v) ≤ τ), and a zero gradient has
// dual norm 0.
func TestBlocksExtremes(t *testing.T) {
	rng := rand.New(rand.NewPCG(57, 58))
	for _, typ := range blockTypes {
		for trial := 0; trial < 10; trial++ {
			n := 1 + rng.IntN(8)
			blk := randBlock(rng, typ, n, trial%2 == 0)
			h, err := NewBlocks(n, []Block{blk})
			require.NoError(t, err)
			v := colMatrix(randColumn(rng, n, 3, trial%3 == 0))
			var dst mat.Dense
			h.Prox(&dst, v, 0)
			require.True(t, mat.Equal(v, &dst))
			d := h.DualNorm(v)
			h.Prox(&dst, v, d*(1+1e-9))
			require.True(t, mat.Equal(mat.NewDense(n, 1, nil), &dst), "%v: %v", typ, mat.Formatted(dst.T()))
			if d > 0 {
				h.Prox(&dst, v, d*(1-1e-3))
				require.False(t, mat.Equal(mat.NewDense(n, 1, nil), &dst), "%v: prox 0 below the dual norm", typ)
			}
			require.Zero(t, h.DualNorm(mat.NewDense(n, 1, nil)))
		}
	}
}

// TestProxBlocksPerBlockStep: ProxBlocks with one step per block is, on
// each block's rows, that block's own prox at its step (the blocks
// interleaved among the rows), and with equal steps it is Prox.
func TestProxBlocksPerBlockStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 20; trial++ {
		var blocks []Block
		p := 0
		for _, typ := range blockTypes {
			n := 1 + rng.IntN(6)
			blk := randBlock(rng, typ, n, trial%3 == 0)
			blk.Rows = seq(n)
			for i := range blk.Rows {
				blk.Rows[i] += p
			}
			p += n
			blocks = append(blocks, blk)
		}
		perm := rng.Perm(p) // interleave the blocks' rows
		for k := range blocks {
			for i, r := range blocks[k].Rows {
				blocks[k].Rows[i] = perm[r]
			}
		}
		h, err := NewBlocks(p, blocks)
		require.NoError(t, err)
		v := randColumn(rng, p, 3, trial%2 == 1)
		taus := make([]float64, len(blocks))
		for k := range taus {
			taus[k] = math.Pow(10, 2*rng.Float64()-1)
		}
		var got mat.Dense
		h.ProxBlocks(&got, colMatrix(v), taus)
		for k, blk := range blocks {
			own := blk
			own.Rows = seq(len(blk.Rows))
			one, err := NewBlocks(len(blk.Rows), []Block{own})
			require.NoError(t, err)
			sub := make([]float64, len(blk.Rows))
			for i, r := range blk.Rows {
				sub[i] = v[r]
			}
			var want mat.Dense
			one.Prox(&want, colMatrix(sub), taus[k])
			for i, r := range blk.Rows {
				require.InDelta(t, want.At(i, 0), got.At(r, 0), 1e-12, "trial %d block %v row %d", trial, blk.Type, r)
			}
		}
		var all, same mat.Dense
		h.Prox(&all, colMatrix(v), taus[0])
		for k := range taus {
			taus[k] = taus[0]
		}
		h.ProxBlocks(&same, colMatrix(v), taus)
		require.True(t, mat.Equal(&all, &same), "trial %d: equal steps differ from Prox", trial)
	}
}
