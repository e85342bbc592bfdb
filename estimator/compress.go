package estimator

import (
	"math"
	"slices"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/internal/glm"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// Compression of identical rows on the family route.
//
// A design made of factors (one-hot columns) has few distinct rows: the
// French motor claims' 678,013 policies hold 13,107 combinations of five
// factors. Proximal Newton costs O(n·p²) per step, so the family route
// (famRows) fits the distinct rows instead, each standing for the
// observations it aggregates, with exactly the observations' answers.
//
// When. Rows are grouped when their design rows are bitwise equal (and,
// in cross-validation, their folds are equal: the folds are assigned to
// the observations first). The rows are compressed when the groups number
// at most half of the observations (compressWhen); otherwise, and when the
// compressed fit returns an error (so that errors are the observations'
// own), the observations are fitted as they are.
//
// Aggregation. Within a group every observation has the same linear
// predictor η = b₀ + xᵀβ, up to its offset oᵢ. With the weights wᵢ (on
// any common scale: the engine rescales them to sum to n, the number of
// observations, through glm.Rows.Counts) and W = Σwᵢ, the group becomes
// one row (ȳ, o_g, W) whose deviance W·d(ȳ, o_g + η) differs from
// Σwᵢd(yᵢ, oᵢ + η) by a constant c_g independent of η:
//
//   - gaussian, d = (y − η)²: with zᵢ = yᵢ − oᵢ, ȳ = Σwᵢzᵢ/W and o_g = 0;
//     Σwᵢ(zᵢ − η)² = W(ȳ − η)² + Σwᵢ(zᵢ − ȳ)².
//   - a log-link family whose deviance's terms in η are multiples of
//     y·μ^(a−1) and μ^a, μ = e^η (datafit.AggregatePower: poisson a = 1,
//     Tweedie a = 2 − p, gamma a = 0): o_g = log(Σwᵢe^{a·oᵢ}/W)/a and
//     ȳ = Σwᵢyᵢe^{(a−1)(oᵢ−o_g)}/W, for then Σwᵢyᵢe^{(a−1)(oᵢ+η)} =
//     Wȳe^{(a−1)(o_g+η)} and Σwᵢe^{a(oᵢ+η)} = We^{a(o_g+η)}. At a = 0
//     (gamma, d = 2[y e^{−η} + η − log y − 1], whose terms in η are
//     y·e^{−η} and η) o_g is the limit Σwᵢoᵢ/W. Poisson: ȳ = Σwᵢyᵢ/W and
//     o_g = log(Σwᵢe^{oᵢ}/W).
//   - negbin (datafit.AggregateSameOffset), d = 2[c(y) − yη +
//     (y + θ)log(e^η + θ)]: linear in y and w at a fixed μ, but
//     log(e^{o+η} + θ) does not factor over offsets, so the offset joins
//     the key and ȳ = Σwᵢyᵢ/W.
//   - binomial (a family that is not a datafit.Aggregator), and every
//     family when a measure needs the rows' own values: the response and
//     the offset join the key, so the group's rows are the same
//     observation repeated, and W·d(y, o + η) is their sum exactly
//     (c_g = 0). Binomial responses must stay 0 or 1.
//
// The constant is c_g = Σwᵢd(yᵢ, oᵢ + η*) at η* = g(ȳ) − o_g, where the
// group's own deviance is 0: a sum of deviances, so c_g ≥ 0 and it is
// computed without cancellation (0 when ȳ = 0 for a log link, the infimum).
// The engine adds Σc_g (datafit.Data.Constant) to the deviance and to its
// dual: Deviance, NullDeviance, DevRatio (and so the path's stopping rules)
// and Objective are the observations'; the absolute duality gap is the
// compressed problem's, which bounds the observations' suboptimality
// since the objectives differ by a constant, and the reported relative gap
// is that gap over the observations' objective (the smaller of the two
// relative gaps, the one the observations' fit would report).
//
// The gradient at any β is Σ over rows of wᵢ∂d/∂η·xᵢ, the same sum grouped,
// so λ_max and the grid are the observations'; n (Model.N, the grid's
// MinRatio rule, the folds' λ·n_train/n) counts observations.
//
// Cross-validation measures. The held-out deviance is the groups' plus
// their constants (glm's score adds them), and the gaussian's mse is its
// deviance: both aggregate. mae, and mse for the other families, need each
// observation's value: for them the response and offset join the key
// (identical rows only). The binomial's measures (deviance, mse, mae,
// class, auc) are computed on identical rows, which count as their sum of
// weights: exact.
//
// Cost: one pass hashing each row (FNV-1a over the float64 bits of the
// row, and of the fold, response and offset when they join the key) into a
// map of groups, rows compared bitwise against their group's first row; a
// second pass aggregating. O(n·p).
type compressed struct {
	// rows are the groups' rows: the distinct design rows, ȳ, W (over the
	// largest weight) and o_g (nil when the observations have no offset).
	rows *Rows
	// counts are the observations per group, constant the c_g (nil when
	// all 0), fold each group's fold (nil without folds).
	counts   []int
	constant []float64
	fold     []int
}

// compressWhen is the rule: the rows are compressed when the groups are at
// most 1/compressWhen of the observations.
const compressWhen = 2

// keyOf returns what joins the design row in the key of the groups of
// family fam under CV measure (empty: no cross-validation): the response
// and the offset (identical observations), the offset alone, or neither.
func keyOf(fam datafit.Family, measure string) (response, offset bool) {
	kind := datafit.AggregationOf(fam).Kind
	switch {
	case kind == datafit.AggregateIdentical || measure == "mae" || measure == "mse" && kind != datafit.AggregateShift:
		return true, true
	case kind == datafit.AggregateSameOffset:
		return false, true
	}
	return false, false
}

// compress returns the groups of rows r for family fam (fold: each row's
// fold, or nil; measure: the CV measure, or empty), or nil when they are
// more than 1/compressWhen of the rows. r's design is dense.
func compress(r *Rows, fam datafit.Family, fold []int, measure string) *compressed {
	x := denseOf(r.X)
	n, _ := x.Dims()
	if n < 2 {
		return nil
	}
	y := colOf(r)
	if !checkable(r.Weights, y, r.Offset) {
		return nil // the rows as they are: the engine says what is wrong
	}
	keyY, keyO := keyOf(fam, measure)
	gid, first := group(x, y, r.Offset, fold, rowKey{y: keyY, off: keyO}, n/compressWhen)
	if gid == nil {
		return nil
	}
	return aggregate(x, y, r.Weights, r.Offset, fold, fam, keyY, gid, first)
}

// fnv are FNV-1a's 64-bit offset basis and prime.
const (
	fnvBasis = 14695981039346656037
	fnvPrime = 1099511628211
)

// group returns each row's group and each group's first row, or nil when
// the groups would exceed limit. Rows are in one group when their design
// rows, folds (fold not nil) and, as key's y and off say, responses and
// offsets are bitwise equal. A row is compared with its group's first row
// in place: no key is stored.
func group(x *mat.Dense, y, off []float64, fold []int, key rowKey, limit int) ([]int32, []int) {
	n, _ := x.Dims()
	k := keyOver{x: x, y: y, off: off, fold: fold, key: key}
	buckets := make(map[uint64][]int32)
	gid := make([]int32, n)
	var first []int
	for i := range n {
		h := k.hash(i)
		g := int32(-1)
		for _, c := range buckets[h] {
			if k.equal(first[c], i) {
				g = c
				break
			}
		}
		if g < 0 {
			if len(first) == limit {
				return nil, nil
			}
			g = int32(len(first))
			first = append(first, i)
			buckets[h] = append(buckets[h], g)
		}
		gid[i] = g
	}
	return gid, first
}

// rowKey says what joins the design row and the fold in a group's key:
// the response (y), the offset (off).
type rowKey struct{ y, off bool }

// keyOver is the key of rows x (responses y, offsets off: nil for none,
// folds fold: nil for none).
type keyOver struct {
	x      *mat.Dense
	y, off []float64
	fold   []int
	key    rowKey
}

// hash is FNV-1a over the bits of row i's key.
func (k *keyOver) hash(i int) uint64 {
	h := uint64(fnvBasis)
	add := func(v uint64) { h = (h ^ v) * fnvPrime }
	for _, v := range k.x.RawRowView(i) {
		add(math.Float64bits(v))
	}
	if k.fold != nil {
		add(uint64(k.fold[i]))
	}
	if k.key.y {
		add(math.Float64bits(k.y[i]))
	}
	if k.key.off && k.off != nil {
		add(math.Float64bits(k.off[i]))
	}
	return h
}

// equal reports whether rows a and b have bitwise equal keys.
func (k *keyOver) equal(a, b int) bool {
	ra, rb := k.x.RawRowView(a), k.x.RawRowView(b)
	for j := range ra {
		if math.Float64bits(ra[j]) != math.Float64bits(rb[j]) {
			return false
		}
	}
	if k.fold != nil && k.fold[a] != k.fold[b] {
		return false
	}
	if k.key.y && math.Float64bits(k.y[a]) != math.Float64bits(k.y[b]) {
		return false
	}
	return !k.key.off || k.off == nil || math.Float64bits(k.off[a]) == math.Float64bits(k.off[b])
}

// aggregate returns the groups gid (first: each group's first row) as
// rows, by the aggregation of fam (same: identical rows, summed weights).
func aggregate(x *mat.Dense, y, w, off []float64, fold []int, fam datafit.Family, same bool, gid []int32, first []int) *compressed {
	n, p := x.Dims()
	m := len(first)
	wt := overLargest(w, n)
	xg := mat.NewDense(m, p, nil)
	c := &compressed{counts: make([]int, m)}
	yg, wg := make([]float64, m), make([]float64, m)
	var og []float64
	if off != nil {
		og = make([]float64, m)
	}
	for g, i := range first {
		xg.SetRow(g, x.RawRowView(i))
		yg[g] = y[i]
		if og != nil {
			og[g] = off[i]
		}
	}
	if fold != nil {
		c.fold = make([]int, m)
		for g, i := range first {
			c.fold[g] = fold[i]
		}
	}
	for i := range n {
		c.counts[gid[i]]++
		wg[gid[i]] += wt[i]
	}
	c.rows = &Rows{X: solver.DenseDesign{X: xg}, Y: mat.NewDense(m, 1, yg), Weights: wg, Offset: og}
	if same {
		return c
	}
	g := groups{y: y, off: off, w: wt, gid: gid, wg: wg, yg: yg, og: og}
	switch a := datafit.AggregationOf(fam); a.Kind {
	case datafit.AggregateShift:
		g.shift()
	case datafit.AggregatePower:
		g.power(a.Power)
	case datafit.AggregateSameOffset:
		g.sameOffset()
	}
	c.rows.Y, c.rows.Offset = mat.NewDense(m, 1, g.yg), g.og
	c.constant = g.constants(fam)
	return c
}

// overLargest returns the weights w over the largest (only ratios matter:
// no overflow), all 1 when w is nil.
func overLargest(w []float64, n int) []float64 {
	out := make([]float64, n)
	if w == nil {
		for i := range out {
			out[i] = 1
		}
		return out
	}
	top := slices.Max(w)
	for i, v := range w {
		out[i] = v / top
	}
	return out
}

// groups are observations (y, off: nil for none, w) in groups gid, whose
// weights wg are summed: aggregation sets each group's response yg and
// offset og (nil without offsets), where its rows carry weight (a group of
// zero weight keeps its first row's).
type groups struct {
	y, off, w []float64
	gid       []int32
	wg        []float64
	yg, og    []float64
}

// offset is observation i's offset (0 without offsets).
func (g *groups) offset(i int) float64 {
	if g.off == nil {
		return 0
	}
	return g.off[i]
}

// shift: ȳ = Σwᵢ(yᵢ − oᵢ)/W and no offset (gaussian).
func (g *groups) shift() {
	sy := make([]float64, len(g.yg))
	for i, k := range g.gid {
		sy[k] += g.w[i] * (g.y[i] - g.offset(i))
	}
	setMeans(g.yg, sy, g.wg)
	g.og = nil
}

// sameOffset: ȳ = Σwᵢyᵢ/W, the group's offsets being equal (negbin).
func (g *groups) sameOffset() {
	sy := make([]float64, len(g.yg))
	for i, k := range g.gid {
		sy[k] += g.w[i] * g.y[i]
	}
	setMeans(g.yg, sy, g.wg)
}

// power: o_g = log(Σwᵢe^{a·oᵢ}/W)/a, the largest offset factored out
// (Σwᵢoᵢ/W at a = 0), and ȳ = Σwᵢyᵢe^{(a−1)(oᵢ−o_g)}/W (Σwᵢyᵢ/W at
// a = 1).
func (g *groups) power(a float64) {
	if g.og != nil {
		if a == 0 {
			g.meanOffset()
		} else {
			g.powerOffset(a)
		}
	}
	sy := make([]float64, len(g.yg))
	for i, k := range g.gid {
		if !(g.w[i] > 0) {
			continue
		}
		if a == 1 || g.og == nil {
			sy[k] += g.w[i] * g.y[i]
			continue
		}
		sy[k] += g.w[i] * g.y[i] * math.Exp((a-1)*(g.offset(i)-g.og[k]))
	}
	setMeans(g.yg, sy, g.wg)
}

// meanOffset sets o_g = Σwᵢoᵢ/W.
func (g *groups) meanOffset() {
	so := make([]float64, len(g.yg))
	for i, k := range g.gid {
		so[k] += g.w[i] * g.offset(i)
	}
	setMeans(g.og, so, g.wg)
}

// powerOffset sets o_g = log(Σwᵢe^{a·oᵢ}/W)/a, the largest a·oᵢ factored
// out.
func (g *groups) powerOffset(a float64) {
	m := len(g.yg)
	so, top := make([]float64, m), make([]float64, m)
	for k := range top {
		top[k] = math.Inf(-1)
	}
	for i, k := range g.gid {
		if g.w[i] > 0 {
			top[k] = math.Max(top[k], a*g.offset(i))
		}
	}
	for i, k := range g.gid {
		if g.w[i] > 0 {
			so[k] += g.w[i] * math.Exp(a*g.offset(i)-top[k])
		}
	}
	for k := range g.og {
		if g.wg[k] > 0 {
			g.og[k] = (top[k] + math.Log(so[k]/g.wg[k])) / a
		}
	}
}

// constants are c_g = Σwᵢd(yᵢ, oᵢ + η*), η* = g(ȳ) − o_g: the group's own
// deviance is 0 there.
func (g *groups) constants(fam datafit.Family) []float64 {
	c := make([]float64, len(g.yg))
	for i, k := range g.gid {
		star := fam.Eta(g.yg[k])
		if !(g.w[i] > 0) || math.IsInf(star, -1) {
			continue // ȳ = 0 under a log link: every weighted yᵢ is 0, c_g = 0
		}
		if g.og != nil {
			star -= g.og[k]
		}
		c[k] += g.w[i] * fam.Deviance(g.y[i], g.offset(i)+star)
	}
	return c
}

// setMeans sets v[g] = s[g]/w[g] where w[g] > 0 (v nil: nothing to set).
func setMeans(v, s, w []float64) {
	for g := range v {
		if w[g] > 0 {
			v[g] = s[g] / w[g]
		}
	}
}

// compressOf is compress for the options of a fit: nil when r asks for
// the rows as they are.
func compressOf(r *Rows, o *Options, fold []int, measure string) *compressed {
	if r.noCompress || denseOf(r.X) == nil {
		return nil // a design held by columns is fitted as it is
	}
	return compress(r, fit.FamilyOf(o), fold, measure)
}

// glmRows are the groups' rows, with their counts and constants, as the
// family engine holds them.
func (c *compressed) glmRows() *glm.Rows {
	g := glmRows(c.rows)
	g.Counts, g.Constant = c.counts, c.constant
	return g
}

// merger returns glm's Rows.Merge for family fam under CV measure: a
// fold's training rows, groups kept apart by their folds, regrouped by
// design row (and what keyOf adds: response, offset). Aggregation
// is associative: merging groups (ȳ_g, W_g, o_g) by the family's rule
// treats each as W_g observations of ȳ_g at o_g, which is exact up to
// Σ W_g·d(ȳ_g, o_g + η*) (the new constant), and the groups' own
// constants and counts add. The fold's fit then runs on the distinct rows
// of its training data, not on their union over folds.
func merger(fam datafit.Family, measure string) func(o *glm.Rows) *glm.Rows {
	keyY, keyO := keyOf(fam, measure)
	return func(o *glm.Rows) *glm.Rows {
		x, y := o.X, o.Y
		n, _ := x.Dims()
		gid, first := group(x, y, o.Offset, nil, rowKey{y: keyY, off: keyO}, n)
		if len(first) == n || o.Counts == nil {
			return o
		}
		w := o.Weights
		if w == nil {
			w = make([]float64, n)
			for i := range w {
				w[i] = 1
			}
		}
		c := aggregate(x, y, w, o.Offset, nil, fam, keyY, gid, first)
		top := slices.Max(w) // aggregate's weights are over the largest
		counts, constant := make([]int, len(first)), c.constant
		if constant == nil {
			constant = make([]float64, len(first))
		}
		for i, g := range gid {
			counts[g] += o.Counts[i]
			if o.Constant != nil {
				constant[g] += o.Constant[i] / top
			}
		}
		return &glm.Rows{X: denseOf(c.rows.X), Y: colOf(c.rows), Weights: c.rows.Weights,
			Offset: c.rows.Offset, Counts: counts, Constant: constant}
	}
}

// checkable reports whether weights w are finite and ≥ 0 and responses y
// and offsets off finite: only such rows are aggregated, so that a bad
// value is refused by the engine's checks on the rows themselves instead
// of being averaged into a valid one.
func checkable(w, y, off []float64) bool {
	for _, v := range w {
		if !(v >= 0) || math.IsInf(v, 0) {
			return false
		}
	}
	for _, s := range [][]float64{y, off} {
		for _, v := range s {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
	}
	return true
}
