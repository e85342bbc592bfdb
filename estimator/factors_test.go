package estimator_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/internal/reference"
	"github.com/cardsparse/cardreg/internal/testenv"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// factorTol is the relative duality gap the factor fits are asked for.
const factorTol = 1e-10

// factor is one factor predictor of a test design: K levels, the
// reference at level ref (its effect pinned at 0, its column dropped),
// the design column of each other level, and the weights of its penalty
// written in level order: pair[j][l] for a nominal factor, edge[e] (levels
// e and e+1) for an ordinal one.
type factor struct {
	k, ref  int
	ordinal bool
	kind    string // "equal", "count" or "random" weights
	cols    []int  // cols[l]: the column of level l, −1 for the reference
	pair    [][]float64
	edge    []float64
}

// factorDesign is a one-hot design of factors and numeric columns with
// its Blocks penalty and, built independently from the penalty's formula,
// the explicit G with h(β) = ‖Gβ‖₁.
type factorDesign struct {
	name    string
	x       *mat.Dense
	level   [][]int // level[f][i]: row i's level of factor f
	factors []factor
	numeric []int
	numType penalty.BlockType
	numW    []float64 // lasso factors (nil: all 1)
	nu      float64   // cardinality ν (0: 1)
	pen     *penalty.Blocks
	g       *mat.Dense
	truth   []float64 // the coefficients the responses are drawn around
}

// newRand returns a generator with a fixed seed.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// randomFactorDesign draws design number di of n rows: 1–3 factors of
// 2–6 levels and 0–2 numeric columns under a lasso or cardinality block,
// the p columns in a random order. The factors' structure cycles with the
// running count *c of factors so that a few designs cover every
// combination: nominal and ordinal, equal, count and random weights, the
// reference first or in the middle.
func randomFactorDesign(t *testing.T, rng *rand.Rand, n, di int, c *int) *factorDesign {
	d := &factorDesign{factors: drawFactors(rng, 1+di%3, c)}
	nnum := (di / 3) % 3
	p := nnum
	for _, f := range d.factors {
		p += f.k - 1
	}
	perm := rng.Perm(p)
	next := 0
	col := func() int { c := perm[next]; next++; return c }
	d.x = mat.NewDense(n, p, nil)
	d.truth = make([]float64, p)
	for fi := range d.factors {
		d.addFactor(rng, &d.factors[fi], col)
	}
	d.addNumeric(rng, di, nnum, col)
	d.build(t)
	d.name = d.describe()
	return d
}

// drawFactors draws nf factors of 2–6 levels, their structure cycling
// with the running count *c of factors (see randomFactorDesign).
func drawFactors(rng *rand.Rand, nf int, c *int) []factor {
	var out []factor
	for range nf {
		f := factor{k: 2 + rng.IntN(5), ordinal: *c%2 == 1, kind: []string{"equal", "count", "random"}[(*c/2)%3]}
		if (*c/6)%2 == 1 {
			f.k = 3 + rng.IntN(4)
			f.ref = 1 + rng.IntN(f.k-2) // strictly inside
		}
		*c++
		out = append(out, f)
	}
	return out
}

// addFactor gives the factor f of d its columns, taken from col (none for
// the reference), draws its rows' levels into d.x and d.level and its
// effects into d.truth, and sets its weights.
func (d *factorDesign) addFactor(rng *rand.Rand, f *factor, col func() int) {
	n, _ := d.x.Dims()
	f.cols = make([]int, f.k)
	for l := range f.k {
		f.cols[l] = -1
		if l != f.ref {
			f.cols[l] = col()
		}
	}
	lv, counts := drawLevels(rng, f.k, n)
	for i, l := range lv {
		if c := f.cols[l]; c >= 0 {
			d.x.Set(i, c, 1)
		}
	}
	d.level = append(d.level, lv)
	// Effects from three values, 0 among them, so that the data
	// suggest fusions.
	vals := []float64{0, 0.5 + 0.5*rng.Float64(), -0.4 - 0.5*rng.Float64()}
	eff := make([]float64, f.k)
	for l := range eff {
		eff[l] = vals[rng.IntN(3)]
	}
	for l, c := range f.cols {
		if c >= 0 {
			d.truth[c] = eff[l] - eff[f.ref]
		}
	}
	f.weights(rng, counts, n)
}

// drawLevels draws n rows' levels of a factor of k levels with unequal
// frequencies, each present at least once, and returns them with each
// level's count.
func drawLevels(rng *rand.Rand, k, n int) ([]int, []float64) {
	prob := make([]float64, k)
	for l := range prob {
		prob[l] = 0.3 + rng.Float64()
	}
	lv := make([]int, n)
	counts := make([]float64, k)
	for i := range n {
		lv[i] = i % k
		if i >= k {
			lv[i] = draw(rng, prob)
		}
		counts[lv[i]]++
	}
	return lv, counts
}

// addNumeric adds nnum standard normal columns, taken from col, under a
// lasso block (random weights or none) or, for every other pair of
// designs di, a cardinality block (random ν or the default).
func (d *factorDesign) addNumeric(rng *rand.Rand, di, nnum int, col func() int) {
	n, _ := d.x.Dims()
	d.numType = penalty.LassoBlock
	if (di/2)%2 == 1 {
		d.numType = penalty.CardinalityBlock
	}
	for j := range nnum {
		c := col()
		d.numeric = append(d.numeric, c)
		for i := range n {
			d.x.Set(i, c, rng.NormFloat64())
		}
		d.truth[c] = []float64{0.4, 0}[j]
	}
	if d.numType == penalty.LassoBlock && rng.IntN(2) == 1 {
		for range nnum {
			d.numW = append(d.numW, 0.5+rng.Float64())
		}
	}
	if d.numType == penalty.CardinalityBlock && rng.IntN(2) == 1 {
		d.nu = 0.3 + 1.5*rng.Float64()
	}
}

// describe names d for messages: each factor's type, levels, reference
// and weights, then the numeric columns' count and block.
func (d *factorDesign) describe() string {
	var b []string
	for _, f := range d.factors {
		typ := "nominal"
		if f.ordinal {
			typ = "ordinal"
		}
		b = append(b, fmt.Sprintf("%s K=%d ref=%d %s", typ, f.k, f.ref, f.kind))
	}
	if nnum := len(d.numeric); nnum > 0 {
		b = append(b, fmt.Sprintf("%d numeric (%v)", nnum, d.numType))
	}
	return fmt.Sprint(b)
}

// draw returns an index drawn with probabilities proportional to prob.
func draw(rng *rand.Rand, prob []float64) int {
	var s float64
	for _, v := range prob {
		s += v
	}
	u := rng.Float64() * s
	for l, v := range prob {
		if u < v {
			return l
		}
		u -= v
	}
	return len(prob) - 1
}

// weights sets the factor's weights in level order: all 1, the level-count
// weights (2/K)√((n_j+n_l)/n) of a nominal and √((n_e+n_{e+1})/n) of an
// ordinal factor (written here from their formulas), or random ones.
func (f *factor) weights(rng *rand.Rand, counts []float64, n int) {
	if f.ordinal {
		f.edge = make([]float64, f.k-1)
		for e := range f.edge {
			switch f.kind {
			case "equal":
				f.edge[e] = 1
			case "count":
				f.edge[e] = math.Sqrt((counts[e] + counts[e+1]) / float64(n))
			default:
				f.edge[e] = 0.2 + 2*rng.Float64()
			}
		}
		return
	}
	f.pair = make([][]float64, f.k)
	for j := range f.pair {
		f.pair[j] = make([]float64, f.k)
	}
	for j := range f.k {
		for l := j + 1; l < f.k; l++ {
			var w float64
			switch f.kind {
			case "equal":
				w = 1
			case "count":
				w = 2 / float64(f.k) * math.Sqrt((counts[j]+counts[l])/float64(n))
			default:
				w = 0.2 + 2*rng.Float64()
			}
			f.pair[j][l], f.pair[l][j] = w, w
		}
	}
	if f.kind == "count" {
		// The package's weights must be these, reindexed.
		got := penalty.CountPairWeights(counts, f.ref)
		want := f.blockWeights()
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-15 {
				panic(fmt.Sprintf("CountPairWeights[%d] = %v, want %v", i, got[i], want[i]))
			}
		}
	}
}

// blockWeights returns the weights a Block of the factor takes: for a
// nominal factor the K×K matrix with the reference at index 0 and the
// other levels at 1…K−1 in level order, for an ordinal one the edges.
func (f *factor) blockWeights() []float64 {
	if f.ordinal {
		if f.kind == "equal" {
			return nil
		}
		return slices.Clone(f.edge)
	}
	if f.kind == "equal" {
		return nil
	}
	order := []int{f.ref} // index → level
	for l := range f.k {
		if l != f.ref {
			order = append(order, l)
		}
	}
	w := make([]float64, f.k*f.k)
	for a, la := range order {
		for b, lb := range order {
			w[a*f.k+b] = f.pair[la][lb]
		}
	}
	return w
}

// rows returns the factor's columns of its non-reference levels in level
// order: a Block's Rows.
func (f *factor) rows() []int {
	var r []int
	for _, c := range f.cols {
		if c >= 0 {
			r = append(r, c)
		}
	}
	return r
}

// build makes the Blocks penalty and the explicit G: for a nominal factor
// a row w_jl(e_j − e_l) per pair of non-reference levels and w_j,ref·e_j
// per level paired with the reference; for an ordinal one a row
// w_e(e_{e+1} − e_e) per edge, the reference's entry left out; f_i·e_i per
// lasso column; the pairs of the cardinality columns and ν times their sum.
func (d *factorDesign) build(t *testing.T) {
	_, p := d.x.Dims()
	var g [][]float64
	row := func(terms ...float64) { // (column, coefficient) pairs
		r := make([]float64, p)
		for a := 0; a < len(terms); a += 2 {
			if c := int(terms[a]); c >= 0 {
				r[c] += terms[a+1]
			}
		}
		g = append(g, r)
	}
	var blocks []penalty.Block
	for _, f := range d.factors {
		c := func(l int) float64 { return float64(f.cols[l]) }
		if f.ordinal {
			for e, w := range f.edge {
				row(c(e+1), w, c(e), -w)
			}
			blocks = append(blocks, penalty.Block{Type: penalty.OrdinalBlock, Rows: f.rows(), Ref: f.ref, Weights: f.blockWeights()})
			continue
		}
		for j := range f.k {
			for l := j + 1; l < f.k; l++ {
				w := f.pair[j][l]
				row(c(j), w, c(l), -w) // the reference's column is −1: left out
			}
		}
		blocks = append(blocks, penalty.Block{Type: penalty.NominalBlock, Rows: f.rows(), Weights: f.blockWeights()})
	}
	if len(d.numeric) > 0 {
		blocks = append(blocks, penalty.Block{Type: d.numType, Rows: d.numeric, Weights: d.numW, Nu: d.nu})
		if d.numType == penalty.LassoBlock {
			for a, c := range d.numeric {
				w := 1.0
				if d.numW != nil {
					w = d.numW[a]
				}
				row(float64(c), w)
			}
		} else {
			for a, ca := range d.numeric {
				for _, cb := range d.numeric[a+1:] {
					row(float64(ca), 1, float64(cb), -1)
				}
			}
			nu := d.nu
			if nu == 0 {
				nu = 1
			}
			var terms []float64
			for _, c := range d.numeric {
				terms = append(terms, float64(c), nu)
			}
			row(terms...)
		}
	}
	d.g = mat.NewDense(len(g), p, nil)
	for r, v := range g {
		d.g.SetRow(r, v)
	}
	pen, err := penalty.NewBlocks(p, blocks)
	require.NoError(t, err)
	d.pen = pen
}

// familyCase is a family, the intercept of its simulated data and how it
// draws a response around a linear predictor.
type familyCase struct {
	fam  datafit.Family
	b0   float64
	draw func(rng *rand.Rand, eta float64) float64
}

var factorFamilies = []familyCase{
	{datafit.Gaussian{}, 0.5, func(rng *rand.Rand, eta float64) float64 { return eta + 0.7*rng.NormFloat64() }},
	{datafit.Binomial{}, 0, func(rng *rand.Rand, eta float64) float64 {
		if rng.Float64() < 1/(1+math.Exp(-eta)) {
			return 1
		}
		return 0
	}},
	{datafit.Poisson{}, 0.5, func(rng *rand.Rand, eta float64) float64 {
		l, k, q := math.Exp(-math.Exp(eta)), 0.0, rng.Float64() // Knuth's method
		for q > l {
			k++
			q *= rng.Float64()
		}
		return k
	}},
	{datafit.Gamma{}, 1, func(rng *rand.Rand, eta float64) float64 {
		return math.Exp(eta) * (rng.ExpFloat64() + rng.ExpFloat64() + rng.ExpFloat64()) / 3 // shape 3
	}},
}

// factorRows draws the responses of family fc around the design's truth,
// with random positive weights and offsets when asked.
func factorRows(rng *rand.Rand, d *factorDesign, fc familyCase, weighted, offset bool) *estimator.Rows {
	n, p := d.x.Dims()
	y := make([]float64, n)
	var w, o []float64
	if weighted {
		w = make([]float64, n)
	}
	if offset {
		o = make([]float64, n)
	}
	for i := range n {
		eta := fc.b0
		for j := range p {
			eta += d.x.At(i, j) * d.truth[j]
		}
		if weighted {
			w[i] = 0.2 + 2.8*rng.Float64()
		}
		if offset {
			o[i] = 0.4 * rng.NormFloat64()
			eta += o[i]
		}
		y[i] = fc.draw(rng, eta)
	}
	return &estimator.Rows{X: solver.DenseDesign{X: d.x}, Y: mat.NewDense(n, 1, y), Weights: w, Offset: o}
}

// referenceProblem is the rows' problem at λ for the reference, with the
// weights rescaled to sum to n as the estimator rescales them.
func referenceProblem(d *factorDesign, r *estimator.Rows, fam datafit.Family, lambda float64) reference.GLMProblem {
	n, _ := d.x.Dims()
	var w []float64
	if r.Weights != nil {
		var s float64
		for _, v := range r.Weights {
			s += v
		}
		w = make([]float64, n)
		for i, v := range r.Weights {
			w[i] = v * float64(n) / s
		}
	}
	return reference.GLMProblem{Family: fam.Name(), X: d.x, Y: mat.Col(nil, 0, r.Y), Weights: w,
		Offset: r.Offset, K: d.g, Lambda: lambda}
}

// groups returns the value groups whose partition a fit must share with
// the reference: each factor's K level effects (the reference's 0
// included), and the numeric coefficients with a 0 appended.
func (d *factorDesign) groups(beta []float64) [][]float64 {
	var out [][]float64
	for _, f := range d.factors {
		x := make([]float64, f.k)
		for l, c := range f.cols {
			if c >= 0 {
				x[l] = beta[c]
			}
		}
		out = append(out, x)
	}
	if len(d.numeric) > 0 {
		x := []float64{0}
		for _, c := range d.numeric {
			x = append(x, beta[c])
		}
		out = append(out, x)
	}
	return out
}

// partitionCount counts what comparePartitions checked: pairs of values
// compared, pairs too close for the reference to tell, pairs the
// reference ties and those of them the fit ties exactly, and groups the
// fit fuses partly (neither all values distinct nor one value).
type partitionCount struct {
	checked, ambiguous, ties, exactTies, partial int
}

// tieTol and sepTol, times a group's scale, are the differences below
// which the reference ties two values and above which it separates them.
const (
	tieTol = 1e-7
	sepTol = 1e-5
)

// comparePartitions compares the fit's partition of each group with the
// reference's: a pair the reference ties (|Δ| ≤ tieTol·s, s the largest
// |value| of the group, at least 1e-3) must be tied in the fit to the same
// tolerance, a pair it separates by sepTol·s or more must be separated;
// the pairs in between are too close for the reference to tell.
func comparePartitions(t *testing.T, name string, got, ref [][]float64, pc *partitionCount) {
	t.Helper()
	for gi := range got {
		x, r := got[gi], ref[gi]
		s := 1e-3
		for _, v := range r {
			s = math.Max(s, math.Abs(v))
		}
		for a := range x {
			for b := a + 1; b < len(x); b++ {
				dr, dg := math.Abs(r[a]-r[b]), math.Abs(x[a]-x[b])
				switch {
				case dr <= tieTol*s:
					pc.checked++
					pc.ties++
					if dg == 0 {
						pc.exactTies++
					}
					require.LessOrEqual(t, dg, tieTol*s, "%s: group %d levels %d, %d tied in the reference (%v) but not in the fit (%v)", name, gi, a, b, r, x)
				case dr >= sepTol*s:
					pc.checked++
					require.Greater(t, dg, tieTol*s, "%s: group %d levels %d, %d separate in the reference (%v) but tied in the fit (%v)", name, gi, a, b, r, x)
				default:
					pc.ambiguous++
				}
			}
		}
		v := slices.Clone(x)
		slices.Sort(v)
		distinct := len(slices.Compact(v))
		if distinct > 1 && distinct < len(x) {
			pc.partial++
		}
	}
}

// worst records the worst agreement seen per family.
type worst struct {
	objective, gap, certified, coef float64
}

// TestFactorFitsMatchReference fits random factor designs (1–3 nominal or
// ordinal factors, the reference first or in the middle, equal, count or
// random pair weights, 0–2 numeric columns under a lasso or cardinality
// block, columns in a random order) on every family, with and without
// random weights and offsets, at fractions of λ_max, and checks each fit
// against the independent ADMM of internal/reference on the explicit G
// written from the penalty's formula: the objectives agree to 1e-8
// relative, the certified gap is within the tolerance, the partitions of
// the levels agree where the reference can tell, and the gap is a
// certificate (a perturbed solution is certified with a larger gap, one
// at least its true relative suboptimality).
func TestFactorFitsMatchReference(t *testing.T) {
	start := time.Now()
	rng := newRand(20240611)
	const n = 60
	fracs := []float64{0.03, 0.15, 0.5}
	worstOf := map[string]*worst{}
	var pc partitionCount
	var refTime time.Duration
	seen := map[string]bool{}
	count := 0
	for di := range 10 {
		d := randomFactorDesign(t, rng, n, di, &count)
		t.Logf("design %d: %s", di, d.name)
		for _, f := range d.factors {
			typ, at := "nominal", "middle"
			if f.ordinal {
				typ = "ordinal"
			}
			switch f.ref {
			case 0:
				at = "first"
			case f.k - 1:
				at = "last"
			}
			seen[typ+" reference "+at], seen[typ+" "+f.kind] = true, true
			if f.k >= 4 {
				seen[typ+" "+f.kind+" K ≥ 4"] = true
			}
		}
		if len(d.numeric) > 0 {
			seen[d.numType.String()] = true
		}
		seen[fmt.Sprintf("%d factors", len(d.factors))] = true
		weighted, offset := di%2 == 1, di%4 >= 2
		for _, fc := range factorFamilies {
			fam := fc.fam
			r := factorRows(rng, d, fc, weighted, offset)
			opts := &estimator.Options{Family: fam, Settings: solver.Settings{Tol: factorTol, MaxIter: 100000}}
			lmax, ok, err := estimator.LambdaMax(r, d.pen, opts)
			require.NoError(t, err)
			require.True(t, ok)
			wst := worstOf[fam.Name()]
			if wst == nil {
				wst = &worst{}
				worstOf[fam.Name()] = wst
			}
			for _, frac := range fracs {
				lambda := frac * lmax
				name := fmt.Sprintf("design %d %s, %s weights=%v offset=%v λ=%gλmax", di, d.name, fam.Name(), weighted, offset, frac)
				m, err := estimator.Fit(r, d.pen, lambda, opts)
				require.NoError(t, err, name)
				require.True(t, m.Converged, "%s: %v after %d iterations", name, m.Status, m.Iterations)
				require.LessOrEqual(t, m.Gap, factorTol, name)
				beta := m.Coefficients(0)

				pr := referenceProblem(d, r, fam, lambda)
				t0 := time.Now()
				ref, err := reference.GLMSolve(pr, 50000)
				refTime += time.Since(t0)
				require.NoError(t, err, name)

				// The objective at the fit, evaluated by the reference's
				// formula, is the fit's own and the reference's minimum.
				own := reference.GLMObjective(pr, m.Intercept[0], beta)
				require.InEpsilon(t, own, m.Objective, 1e-10, "%s: objective as reported and as evaluated", name)
				rel := math.Abs(own-ref.Objective) / ref.Objective
				require.LessOrEqual(t, rel, 1e-8, "%s: objective %.15g, reference %.15g", name, own, ref.Objective)
				wst.objective = math.Max(wst.objective, rel)
				wst.gap = math.Max(wst.gap, m.Gap)
				var dc float64
				for j := range beta {
					dc = math.Max(dc, math.Abs(beta[j]-ref.Beta[j]))
				}
				// The gap bounds the objective, not the coefficients: a fit
				// that stops on it before polishing (the least-squares
				// route's FISTA) can be off along flat directions by more
				// than the reference, within the certificate; a loose bound
				// still catches a wrong solution.
				if dc > 1e-7 {
					t.Logf("%s: coefficients differ by %.1e: fit %v (gap %.1e, %d iterations, %v), reference %v (%d iterations); objectives %.15g %.15g", name, dc, beta, m.Gap, m.Iterations, m.Status, ref.Beta, ref.Iterations, own, ref.Objective)
				}
				require.LessOrEqual(t, dc, 1e-4*math.Max(1, maxAbs(ref.Beta)), name)
				if _, ok := fam.(datafit.Gaussian); ok {
					// There the deviance is strongly convex (modulus μ), so
					// F − F* ≥ (μ/2)‖θ − θ*‖² and the gap bounds the distance.
					var d2 float64
					for j := range beta {
						d2 += (beta[j] - ref.Beta[j]) * (beta[j] - ref.Beta[j])
					}
					bound := math.Sqrt(2*m.Gap*own/strongConvexity(d.x, r.Weights)) + 1e-8
					require.LessOrEqual(t, math.Sqrt(d2), bound, name)
				}
				wst.coef = math.Max(wst.coef, dc)
				comparePartitions(t, name, d.groups(beta), d.groups(ref.Beta), &pc)

				// Certify agrees with the model's gap, and a perturbed
				// solution is certified with a larger gap, at least its
				// true relative suboptimality (the reference's objective
				// standing in for the minimum; the intercept profiled).
				gap, err := estimator.Certify(r, d.pen, lambda, beta, opts)
				require.NoError(t, err, name)
				require.LessOrEqual(t, gap, factorTol, name)
				wst.certified = math.Max(wst.certified, gap)
				pert := slices.Clone(beta)
				j := rng.IntN(len(pert))
				pert[j] += 0.05 * (1 + math.Abs(pert[j]))
				pgap, err := estimator.Certify(r, d.pen, lambda, pert, opts)
				require.NoError(t, err, name)
				require.Greater(t, pgap, math.Max(gap, factorTol), name)
				fp := profiledObjective(t, pr, pert)
				require.GreaterOrEqual(t, pgap, (fp-ref.Objective)/fp*(1-1e-6), "%s: perturbed gap %g below the suboptimality %g", name, pgap, (fp-ref.Objective)/fp)
			}
		}
	}
	for _, fc := range factorFamilies {
		w := worstOf[fc.fam.Name()]
		t.Logf("%-8s worst: objective %.1e relative, model gap %.1e, Certify %.1e, coefficients %.1e", fc.fam.Name(), w.objective, w.gap, w.certified, w.coef)
	}
	t.Logf("partitions: %d pairs checked (%d ties, %d exact in the fit), %d too close to tell; %d partly fused groups; reference %v of %v",
		pc.checked, pc.ties, pc.exactTies, pc.ambiguous, pc.partial, refTime.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	for _, want := range []string{"nominal reference first", "nominal reference middle", "ordinal reference first",
		"ordinal reference middle", "nominal equal", "nominal count", "nominal random", "ordinal equal",
		"ordinal count", "ordinal random", "nominal random K ≥ 4", "nominal count K ≥ 4", "ordinal random K ≥ 4", "lasso", "cardinality", "1 factors", "3 factors"} {
		require.True(t, seen[want], "no design with %s", want)
	}
	require.Greater(t, pc.partial, 0, "no fit fused some levels and not others")
	require.Greater(t, pc.ties, 0)
}

// profiledObjective returns the problem's objective at beta with the
// intercept minimised, by the reference: beta enters the offset, and a
// zero column held at 0 stands for the predictors.
func profiledObjective(t *testing.T, pr reference.GLMProblem, beta []float64) float64 {
	t.Helper()
	n, _ := pr.X.Dims()
	off := make([]float64, n)
	var xb mat.VecDense
	xb.MulVec(pr.X, mat.NewVecDense(len(beta), beta))
	for i := range off {
		off[i] = xb.AtVec(i)
		if pr.Offset != nil {
			off[i] += pr.Offset[i]
		}
	}
	var pen mat.VecDense
	pen.MulVec(pr.K, mat.NewVecDense(len(beta), beta))
	var h float64
	for i := range pen.Len() {
		h += math.Abs(pen.AtVec(i))
	}
	q := reference.GLMProblem{Family: pr.Family, X: mat.NewDense(n, 1, nil), Y: pr.Y, Weights: pr.Weights,
		Offset: off, K: mat.NewDense(1, 1, []float64{1}), Lambda: 1}
	res, err := reference.GLMSolve(q, 1000)
	require.NoError(t, err)
	return res.Objective + pr.Lambda*h
}

func maxAbs(v []float64) float64 {
	var m float64
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

// oneFactor returns the one-hot design of n rows of one factor with k
// levels (each level in turn, so every level has n/k rows), the
// reference's column dropped, and each row's level.
func oneFactor(n, k, ref int) (*mat.Dense, []int) {
	x := mat.NewDense(n, k-1, nil)
	lv := make([]int, n)
	for i := range n {
		lv[i] = i % k
		if c := column(lv[i], ref); c >= 0 {
			x.Set(i, c, 1)
		}
	}
	return x, lv
}

// column returns the design column of level l for the reference at ref,
// −1 for the reference.
func column(l, ref int) int {
	switch {
	case l == ref:
		return -1
	case l < ref:
		return l
	}
	return l - 1
}

// TestNominalIsNotCardinality: a nominal factor with equal weights,
// Σ_{j<k}|β_j − β_k| + Σ_j|β_j|, is not the cardinality penalty on its
// K−1 columns, Σ_{j<k}|β_j − β_k| + ν|Σ_j β_j|: the two agree only where
// the β_j share a sign. The reference's pairs |β_j − 0| give each level its
// own kink at the reference's 0, so a level can be fused with the
// reference alone; the cardinality's one term ν|Σβ| has its kink on the
// hyperplane Σβ = 0 and never holds a single level at 0. Here a level
// whose effect is small (0.05 beside 1.5 and −1) is fused with the
// reference exactly by the nominal fit, checked against the reference
// ADMM, while the cardinality fit at the same λ (also checked) keeps it
// apart from 0.
func TestNominalIsNotCardinality(t *testing.T) {
	const n, k = 80, 4
	rng := newRand(7)
	x, lv := oneFactor(n, k, 0)
	effect := []float64{0, 0.05, 1.5, -1}
	y := make([]float64, n)
	for i := range y {
		y[i] = 0.3 + effect[lv[i]] + 0.5*rng.NormFloat64()
	}
	r := estimator.NewRows(x, y)
	nominal, err := penalty.NewBlocks(k-1, []penalty.Block{{Type: penalty.NominalBlock, Rows: []int{0, 1, 2}}})
	require.NoError(t, err)
	card := penalty.Cardinality{Nu: 1}
	opts := &estimator.Options{Settings: solver.Settings{Tol: factorTol}}
	lmax, _, err := estimator.LambdaMax(r, nominal, opts)
	require.NoError(t, err)
	lambda := 0.2 * lmax

	nom, err := estimator.Fit(r, nominal, lambda, opts)
	require.NoError(t, err)
	cf, err := estimator.Fit(r, card, lambda, opts)
	require.NoError(t, err)
	bn, bc := nom.Coefficients(0), cf.Coefficients(0)
	t.Logf("λ = %.4g: nominal %v, cardinality %v", lambda, bn, bc)

	// The nominal fit: level 1 exactly at the reference's 0, the others
	// apart from 0 and from each other; the reference agrees.
	require.Equal(t, 0.0, bn[0])
	require.Greater(t, bn[1], 0.1)
	require.Less(t, bn[2], -0.1)
	g := mat.NewDense(6, 3, []float64{
		1, 0, 0, // levels 1, 2, 3 with the reference
		0, 1, 0,
		0, 0, 1,
		1, -1, 0, // the pairs of levels 1, 2, 3
		1, 0, -1,
		0, 1, -1,
	})
	for _, c := range []struct {
		name string
		k    *mat.Dense
		m    *estimator.Model
	}{{"nominal", g, nom}, {"cardinality", reference.ExplicitCardinality(3, 1), cf}} {
		pr := reference.GLMProblem{Family: "gaussian", X: x, Y: y, K: c.k, Lambda: lambda}
		ref, err := reference.GLMSolve(pr, 50000)
		require.NoError(t, err, c.name)
		own := reference.GLMObjective(pr, c.m.Intercept[0], c.m.Coefficients(0))
		require.InEpsilon(t, ref.Objective, own, 1e-9, c.name)
		require.InDeltaSlice(t, ref.Beta, c.m.Coefficients(0), 1e-6, c.name)
		if c.name == "nominal" {
			require.InDelta(t, 0, ref.Beta[0], 1e-9, "the reference fuses level 1 with the reference level")
		}
	}
	// The cardinality fit keeps level 1 off 0, and the two fits differ.
	require.Greater(t, math.Abs(bc[0]), 0.01)
	require.Greater(t, maxAbs([]float64{bc[0] - bn[0], bc[1] - bn[1], bc[2] - bn[2]}), 0.01)
}

// orderedPartitions calls f with each ordered partition of k levels: rank[l]
// is the position (0 the highest value) of level l's cluster among the m
// clusters, every position 0…m−1 used.
func orderedPartitions(k int, f func(rank []int, m int)) {
	rank := make([]int, k)
	var rec func(l int)
	rec = func(l int) {
		if l == k {
			used := make([]bool, k)
			m := 0
			for _, r := range rank {
				if !used[r] {
					used[r] = true
					m++
				}
			}
			for r := range m {
				if !used[r] {
					return
				}
			}
			f(rank, m)
			return
		}
		for r := range k {
			rank[l] = r
			rec(l + 1)
		}
	}
	rec(0)
}

// bruteForce returns the minimum over b₀ and β of
// Σᵢ wᵢ(yᵢ − b₀ − xᵢᵀβ)² + λ‖Gβ‖₁ for one factor whose penalty is
// Σ_{edges} w_jl|x_j − x_l| over its levels (x_ref = 0), and the level
// effects at the minimum. On each ordered partition of the levels
// (clusters with values v_1 > … > v_m, the reference's cluster at 0) the
// penalty is linear, Σ_c s_c v_c with s_c = Σ_{j∈c, l∉c} w_jl·(+1 if c is
// above l's cluster, −1 below), so the restricted problem is least
// squares with a linear term: the normal equations
// ZᵀWZ θ = ZᵀWy − (λ/2)(0, s), Z = (1, one indicator column per cluster
// other than the reference's). A solution whose values keep the assumed
// order is a candidate; the minimum's own piece gives one, so the least
// objective among them is the minimum. The objective of every candidate is
// evaluated by the reference's formula with G, not the piece's linear term.
func bruteForce(t *testing.T, pr reference.GLMProblem, lv []int, k, ref int, edge func(j, l int) float64) (float64, []float64) {
	t.Helper()
	best, bestX := math.Inf(1), []float64(nil)
	candidates := 0
	orderedPartitions(k, func(rank []int, m int) {
		x, f, ok := pieceMinimum(t, pr, lv, rank, m, ref, edge)
		if !ok {
			return
		}
		candidates++
		if f < best {
			best, bestX = f, x
		}
	})
	require.Positive(t, candidates)
	return best, bestX
}

// pieceMinimum solves bruteForce's problem restricted to the ordered
// partition (rank, m) of the levels and returns the level effects and the
// objective at its solution, and whether the solution keeps the assumed
// order (a candidate).
func pieceMinimum(t *testing.T, pr reference.GLMProblem, lv, rank []int, m, ref int, edge func(j, l int) float64) ([]float64, float64, bool) {
	t.Helper()
	k := len(rank)
	idx, nz := clusterColumns(m, rank[ref])
	s := pieceSlopes(rank, idx, nz, edge)
	a, b := pieceNormalEquations(pr, lv, rank, idx, nz)
	for c := 1; c < nz; c++ {
		b.SetVec(c, b.AtVec(c)-pr.Lambda/2*s[c])
	}
	var chol mat.Cholesky
	require.True(t, chol.Factorize(a), "every cluster has rows")
	var theta mat.VecDense
	require.NoError(t, chol.SolveVecTo(&theta, b))
	val := make([]float64, m)
	for c := range m {
		if idx[c] > 0 {
			val[c] = theta.AtVec(idx[c])
		}
	}
	for c := 1; c < m; c++ {
		if !(val[c-1] > val[c]) {
			return nil, 0, false // not in the assumed order
		}
	}
	x := make([]float64, k)
	beta := make([]float64, k-1)
	for l := range k {
		x[l] = val[rank[l]]
		if c := column(l, ref); c >= 0 {
			beta[c] = x[l]
		}
	}
	return x, reference.GLMObjective(pr, theta.AtVec(0), beta), true
}

// clusterColumns returns the column of Z of each of m cluster positions
// (0 is the intercept's, −1 for the reference's position cr: the free
// clusters are every position but it) and the number of columns.
func clusterColumns(m, cr int) ([]int, int) {
	idx := make([]int, m)
	nz := 1
	for c := range m {
		idx[c] = -1
		if c != cr {
			idx[c] = nz
			nz++
		}
	}
	return idx, nz
}

// pieceSlopes returns the penalty's slope s_c on each free cluster's
// column of Z (see bruteForce).
func pieceSlopes(rank, idx []int, nz int, edge func(j, l int) float64) []float64 {
	k := len(rank)
	s := make([]float64, nz)
	for j := range k {
		for l := range k {
			if w := edge(j, l); l != j && w > 0 && rank[j] != rank[l] && idx[rank[j]] > 0 {
				sgn := 1.0 // j's cluster above l's: positions count down
				if rank[j] > rank[l] {
					sgn = -1
				}
				s[idx[rank[j]]] += w * sgn
			}
		}
	}
	return s
}

// pieceNormalEquations returns ZᵀWZ and ZᵀWy for the ordered partition
// rank of the levels, whose clusters have the columns idx of Z.
func pieceNormalEquations(pr reference.GLMProblem, lv, rank, idx []int, nz int) (*mat.SymDense, *mat.VecDense) {
	a := mat.NewSymDense(nz, nil)
	b := mat.NewVecDense(nz, nil)
	for i := range lv {
		wi := 1.0
		if pr.Weights != nil {
			wi = pr.Weights[i]
		}
		cols := []int{0}
		if c := idx[rank[lv[i]]]; c > 0 {
			cols = append(cols, c)
		}
		for _, u := range cols {
			b.SetVec(u, b.AtVec(u)+wi*pr.Y[i])
			for _, v := range cols {
				if u <= v {
					a.SetSym(u, v, a.At(u, v)+wi)
				}
			}
		}
	}
	return a, b
}

// TestFactorBruteForce: gaussian fits of one nominal or ordinal factor of
// 2–4 levels (every reference position, equal or random pair or edge
// weights, with and without row weights) reach the minimum found by enumerating the
// ordered partitions of the levels, to 1e-9 relative, with the same
// partition (exact ties), and level effects as close as the certified gap
// guarantees: the fits stop on the gap (least-squares FISTA, unpolished
// when the gap is met first) and are off by up to a few 1e-6 along the
// piece.
func TestFactorBruteForce(t *testing.T) {
	rng := newRand(99)
	var st bruteStats
	maxK := 4 // every ordered partition: 75 at K = 4, 4683 at K = 6
	if testenv.Slow() {
		maxK = 6
	}
	for k := 2; k <= maxK; k++ {
		for ref := range k {
			for _, ordinal := range []bool{false, true} {
				for _, c := range []struct{ weighted, equal bool }{{false, true}, {true, true}, {false, false}, {true, false}} {
					bc := newBruteCase(t, rng, k, ref, ordinal, c.weighted, c.equal)
					st.run(t, bc)
				}
			}
		}
	}
	t.Logf("%d cases (%d partly fused): worst objective %.1e relative, worst level effect %.1e (%.2g of the gap's bound)", st.cases, st.fused, st.worstObj, st.worstEff, st.worstBound)
	require.Positive(t, st.fused)
}

// bruteN is the number of rows of TestFactorBruteForce's designs.
const bruteN = 36

// bruteCase is one design of TestFactorBruteForce: one factor of k levels,
// the reference at ref, its rows' levels lv and design x, the responses y
// and row weights w (nil: none), the level-order weights pw of its
// penalty, the penalty pen and its explicit G.
type bruteCase struct {
	k, ref                   int
	ordinal, weighted, equal bool
	x                        *mat.Dense
	lv                       []int
	y, w                     []float64
	pw                       [][]float64
	pen                      *penalty.Blocks
	g                        *mat.Dense
}

// newBruteCase draws a design of TestFactorBruteForce: level effects from
// 0, 0.6 and −0.5, gaussian responses, random row weights if weighted, and
// pair or edge weights all 1 if equal, random otherwise.
func newBruteCase(t *testing.T, rng *rand.Rand, k, ref int, ordinal, weighted, equal bool) *bruteCase {
	bc := &bruteCase{k: k, ref: ref, ordinal: ordinal, weighted: weighted, equal: equal}
	wt := func() float64 {
		if equal {
			return 1
		}
		return 0.3 + 1.5*rng.Float64()
	}
	bc.x, bc.lv = oneFactor(bruteN, k, ref)
	bc.y, bc.w = bruteResponses(rng, bc.lv, k, ref, weighted)
	var blk penalty.Block
	bc.pw, blk = factorPenalty(k, ref, ordinal, wt)
	if equal {
		blk.Weights = nil // the package's closed forms, not its graph
	}
	pen, err := penalty.NewBlocks(k-1, []penalty.Block{blk})
	require.NoError(t, err)
	bc.pen = pen
	bc.g = explicitG(bc.pw, ref)
	return bc
}

// bruteResponses draws the level effects and the responses (intercept 1,
// noise 0.4) of the rows' levels lv and, if weighted, their row weights.
func bruteResponses(rng *rand.Rand, lv []int, k, ref int, weighted bool) (y, w []float64) {
	eff := make([]float64, k)
	for l := range eff {
		eff[l] = []float64{0, 0.6, -0.5}[rng.IntN(3)]
	}
	y = make([]float64, len(lv))
	if weighted {
		w = make([]float64, len(lv))
	}
	for i := range y {
		y[i] = 1 + eff[lv[i]] - eff[ref] + 0.4*rng.NormFloat64()
		if weighted {
			w[i] = 0.2 + 2*rng.Float64()
		}
	}
	return y, w
}

// factorPenalty returns the level-order weights pw of a nominal factor's
// pairs or an ordinal factor's edges, drawn from wt, and its block from
// them.
func factorPenalty(k, ref int, ordinal bool, wt func() float64) ([][]float64, penalty.Block) {
	pw := make([][]float64, k)
	for j := range pw {
		pw[j] = make([]float64, k)
	}
	blk := penalty.Block{Type: penalty.NominalBlock, Ref: ref}
	for l := range k {
		if l != ref {
			blk.Rows = append(blk.Rows, column(l, ref))
		}
	}
	if ordinal {
		blk.Type = penalty.OrdinalBlock
		for e := range k - 1 {
			pw[e][e+1] = wt()
			pw[e+1][e] = pw[e][e+1]
			blk.Weights = append(blk.Weights, pw[e][e+1])
		}
		return pw, blk
	}
	for j := range k {
		for l := j + 1; l < k; l++ {
			pw[j][l] = wt()
			pw[l][j] = pw[j][l]
		}
	}
	blk.Weights = (&factor{k: k, ref: ref, kind: "random", pair: pw}).blockWeights()
	return pw, blk
}

// explicitG returns G from the level-order weights pw, the reference at
// ref: a row pw[j][l]·(e_j − e_l) for each pair j < l of positive weight.
func explicitG(pw [][]float64, ref int) *mat.Dense {
	k := len(pw)
	var g [][]float64
	for j := range k {
		for l := j + 1; l < k; l++ {
			if pw[j][l] > 0 {
				row := make([]float64, k-1)
				if c := column(j, ref); c >= 0 {
					row[c] = pw[j][l]
				}
				if c := column(l, ref); c >= 0 {
					row[c] = -pw[j][l]
				}
				g = append(g, row)
			}
		}
	}
	gm := mat.NewDense(len(g), k-1, nil)
	for i, row := range g {
		gm.SetRow(i, row)
	}
	return gm
}

// bruteStats gathers TestFactorBruteForce's counts and worst errors.
type bruteStats struct {
	cases, fused                   int
	worstObj, worstEff, worstBound float64
}

// run fits the design bc at fractions of its λ_max and checks each fit
// against the brute-force minimum.
func (st *bruteStats) run(t *testing.T, bc *bruteCase) {
	r := estimator.NewRows(bc.x, bc.y)
	r.Weights = bc.w
	opts := &estimator.Options{Settings: solver.Settings{Tol: factorTol}}
	lmax, _, err := estimator.LambdaMax(r, bc.pen, opts)
	require.NoError(t, err)
	mu := strongConvexity(bc.x, bc.w)
	for _, frac := range []float64{0.05, 0.25, 0.6, 1.2} {
		name := fmt.Sprintf("K=%d ref=%d ordinal=%v weighted=%v equal pair weights=%v λ=%gλmax", bc.k, bc.ref, bc.ordinal, bc.weighted, bc.equal, frac)
		lambda := frac * lmax
		m, err := estimator.Fit(r, bc.pen, lambda, opts)
		require.NoError(t, err, name)
		require.True(t, m.Converged, name)
		pr := reference.GLMProblem{Family: "gaussian", X: bc.x, Y: bc.y, K: bc.g, Lambda: lambda}
		if bc.w != nil {
			pr.Weights = rescaled(bc.w)
		}
		st.check(t, name, bc, pr, m, mu)
	}
}

// rescaled returns the weights w rescaled to sum to their number.
func rescaled(w []float64) []float64 {
	n := len(w)
	out := make([]float64, n)
	var sw float64
	for _, v := range w {
		sw += v
	}
	for i, v := range w {
		out[i] = v * float64(n) / sw
	}
	return out
}

// check compares the fit m of problem pr (design bc) with the brute-force
// minimum: its objective, its partition of the levels (exact ties) and its
// level effects, as close as the certified gap guarantees for the
// least-squares part's strong convexity mu.
func (st *bruteStats) check(t *testing.T, name string, bc *bruteCase, pr reference.GLMProblem, m *estimator.Model, mu float64) {
	k, ref := bc.k, bc.ref
	best, bx := bruteForce(t, pr, bc.lv, k, ref, func(j, l int) float64 { return bc.pw[j][l] })
	beta := m.Coefficients(0)
	own := reference.GLMObjective(pr, m.Intercept[0], beta)
	require.InEpsilon(t, own, m.Objective, 1e-10, name)
	rel := (own - best) / best
	require.LessOrEqual(t, math.Abs(rel), 1e-9, "%s: objective %.15g, brute force %.15g", name, own, best)
	st.worstObj = math.Max(st.worstObj, math.Abs(rel))
	fx := make([]float64, k)
	for l := range k {
		if c := column(l, ref); c >= 0 {
			fx[l] = beta[c]
		}
	}
	// F − F* ≥ (μ/2)‖θ − θ*‖² for the least-squares part's strong
	// convexity μ, and the certified gap bounds F − F* by Gap·F: the
	// effects are as close as that.
	var dist float64
	for l := range k {
		st.worstEff = math.Max(st.worstEff, math.Abs(fx[l]-bx[l]))
		dist += (fx[l] - bx[l]) * (fx[l] - bx[l])
		for j := range l {
			require.Equal(t, bx[j] == bx[l], fx[j] == fx[l], "%s: levels %d and %d: brute force %v, fit %v", name, j, l, bx, fx)
		}
	}
	// The gap is a float64 difference of two objectives: below about
	// 1e-15 relative it is rounding, and a gap of 0 certifies no more.
	bound := math.Sqrt(2*math.Max(m.Gap, 1e-15)*own/mu) + 1e-9
	require.LessOrEqual(t, math.Sqrt(dist), bound, "%s: effects %v, brute force %v", name, fx, bx)
	st.worstBound = math.Max(st.worstBound, math.Sqrt(dist)/bound)
	v := slices.Clone(bx)
	slices.Sort(v)
	if d := len(slices.Compact(v)); d > 1 && d < k {
		st.fused++
	}
	st.cases++
}

// strongConvexity returns the modulus of strong convexity of
// (b₀, β) ↦ Σᵢ wᵢ(yᵢ − b₀ − xᵢᵀβ)² with the weights rescaled to sum to n:
// twice the least eigenvalue of (1, X)ᵀW(1, X).
func strongConvexity(x *mat.Dense, w []float64) float64 {
	n, p := x.Dims()
	var sw float64
	for i := range n {
		sw += weightAt(w, i)
	}
	a := mat.NewSymDense(p+1, nil)
	for i := range n {
		z := append([]float64{1}, x.RawRowView(i)...)
		wi := weightAt(w, i) * float64(n) / sw
		for u := range p + 1 {
			for v := u; v <= p; v++ {
				a.SetSym(u, v, a.At(u, v)+wi*z[u]*z[v])
			}
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(a, false) {
		panic("eigendecomposition failed")
	}
	return 2 * eig.Values(nil)[0]
}

func weightAt(w []float64, i int) float64 {
	if w == nil {
		return 1
	}
	return w[i]
}
