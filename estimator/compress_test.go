package estimator

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/testenv"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// factorLevels are the levels of the test designs' factors: 2·4·4 = 32
// combinations, one-hot coded with the first level the reference (7
// columns).
var factorLevels = []int{2, 4, 4}

// factorRows returns n rows of a design of factorLevels for family fam
// with random weights and offsets: continuous offsets when offLevels is 0
// (they differ within every group), else offLevels values.
func factorRows(fam datafit.Family, n, offLevels int, seed uint64) *Rows {
	rng := rand.New(rand.NewPCG(seed, 7))
	p := 0
	for _, k := range factorLevels {
		p += k - 1
	}
	x := mat.NewDense(n, p, nil)
	y, w, o := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		col, eta := 0, -0.5
		for f, k := range factorLevels {
			if l := rng.IntN(k); l > 0 {
				x.Set(i, col+l-1, 1)
				eta += 0.3 * float64(l*(f+1)%3-1)
			}
			col += k - 1
		}
		if offLevels == 0 {
			o[i] = 0.4 * rng.NormFloat64()
		} else {
			o[i] = 0.25 * float64(rng.IntN(offLevels))
		}
		w[i] = 0.2 + rng.Float64()
		mu := math.Exp(eta + o[i])
		switch fam.(type) {
		case datafit.Gaussian:
			y[i] = eta + o[i] + rng.NormFloat64()
		case datafit.Binomial:
			if rng.Float64() < mu/(1+mu) {
				y[i] = 1
			}
		case datafit.Poisson:
			for t := rng.ExpFloat64(); t < mu; t += rng.ExpFloat64() {
				y[i]++
			}
		case datafit.Gamma:
			y[i] = mu * rng.ExpFloat64() * (0.5 + rng.Float64())
		}
	}
	r := NewRows(x, y)
	r.Weights, r.Offset = w, o
	return r
}

// factorBlocks is the nominal-factor penalty of factorLevels' design.
func factorBlocks(t *testing.T) penalty.Penalty {
	var blocks []penalty.Block
	col := 0
	for _, k := range factorLevels {
		b := penalty.Block{Type: penalty.NominalBlock}
		for l := 1; l < k; l++ {
			b.Rows = append(b.Rows, col)
			col++
		}
		blocks = append(blocks, b)
	}
	pen, err := penalty.NewBlocks(col, blocks)
	require.NoError(t, err)
	return pen
}

// compressCase is one family and options of the comparisons.
type compressCase struct {
	name      string
	fam       datafit.Family
	offLevels int
	unpen     []int
	measure   string
	relax     bool
	pen       func(t *testing.T) penalty.Penalty
	// coefTol and cvTol loosen the comparisons where the solvers' own
	// accuracy is the limit (0: 1e-8 and 1e-9): a relaxed refit stops at a
	// gradient of 1e-9 of the null deviance, and the fold fits of the
	// fusing penalties are not polished (their clusters not snapped) and
	// stop at the duality gap's rounding floor, so two runs of the same
	// problem summed in another order differ there by up to about 1e-7.
	coefTol, cvTol float64
}

func compressCases() []compressCase {
	card := func(*testing.T) penalty.Penalty { return penalty.Cardinality{} }
	l1 := func(*testing.T) penalty.Penalty { return penalty.L1{} }
	return []compressCase{
		{name: "gaussian cardinality", fam: datafit.Gaussian{}, unpen: []int{0}, pen: card, cvTol: 1e-6},
		{name: "gaussian lasso mse", fam: datafit.Gaussian{}, unpen: []int{0}, measure: "mse", pen: l1},
		{name: "binomial cardinality", fam: datafit.Binomial{}, offLevels: 3, pen: card, cvTol: 1e-6},
		{name: "binomial lasso auc", fam: datafit.Binomial{}, offLevels: 3, measure: "auc", pen: l1},
		{name: "binomial blocks class", fam: datafit.Binomial{}, offLevels: 2, measure: "class", pen: factorBlocks, cvTol: 1e-6},
		{name: "poisson cardinality", fam: datafit.Poisson{}, pen: card, cvTol: 1e-6},
		{name: "poisson lasso", fam: datafit.Poisson{}, pen: l1},
		{name: "poisson blocks relaxed", fam: datafit.Poisson{}, relax: true, pen: factorBlocks, coefTol: 1e-6, cvTol: 1e-6},
		{name: "poisson mse", fam: datafit.Poisson{}, offLevels: 2, measure: "mse", pen: card, cvTol: 1e-6},
		{name: "gamma cardinality", fam: datafit.Gamma{}, pen: card, cvTol: 1e-6},
		{name: "gamma lasso", fam: datafit.Gamma{}, unpen: []int{2}, pen: l1},
	}
}

// worst records the largest differences seen, by kind, for the log.
type worst map[string]float64

// close checks got against want to tol relative to the largest |want|
// (and 1).
func (w worst) close(t *testing.T, kind string, want, got []float64, tol float64, what string) {
	t.Helper()
	require.Len(t, got, len(want), what)
	scale := 1.0
	for _, v := range want {
		scale = math.Max(scale, math.Abs(v))
	}
	for j := range want {
		d := math.Abs(want[j]-got[j]) / scale
		w[kind] = math.Max(w[kind], d)
		require.LessOrEqual(t, d, tol, "%s [%d]: %v and %v", what, j, want[j], got[j])
	}
}

// rel checks got against want to tol relative to |want|.
func (w worst) rel(t *testing.T, kind string, want, got, tol float64, what string) {
	t.Helper()
	d := math.Abs(want-got) / math.Max(math.Abs(want), 1e-300)
	w[kind] = math.Max(w[kind], d)
	require.LessOrEqual(t, d, tol, "%s: %v and %v", what, want, got)
}

// sameModel checks a compressed fit against the rows' own.
func (w worst) sameModel(t *testing.T, want, got *Model, coefTol float64, what string) {
	t.Helper()
	require.Equal(t, want.N, got.N, what+": N")
	w.close(t, "coefficients", append(want.Coefficients(0), want.Intercept[0]), append(got.Coefficients(0), got.Intercept[0]), coefTol, what+": coefficients")
	w.rel(t, "deviance", want.Deviance, got.Deviance, 1e-10, what+": deviance")
	w.rel(t, "deviance", want.NullDeviance, got.NullDeviance, 1e-10, what+": null deviance")
	w.rel(t, "deviance", want.Objective, got.Objective, 1e-10, what+": objective")
	require.Equal(t, want.Relaxed, got.Relaxed, what+": relaxed")
}

// sameIndex checks that a λ index chosen on the compressed rows is the
// rows' own, or (a relaxed fit's curve is flat between changes of the
// support) ties with it on the curve to tol.
func sameIndex(t *testing.T, curve []float64, want, got int, tol float64, what string) {
	t.Helper()
	if want != got {
		t.Logf("%s: index %d for %d, curve %v and %v", what, got, want, curve[want], curve[got])
		require.InDelta(t, curve[want], curve[got], tol*math.Abs(curve[want]), what)
	}
}

func orTol(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

// TestCompressAgrees: on a design of factors (2000 rows, at most 48
// distinct designs) with random weights and offsets, Fit, FitPath and
// CrossValidate (seeded folds and the user's fold ids) on the compressed
// rows give the rows' own answers: coefficients to 1e-8, deviances to
// 1e-10, the same grid (to rounding), N, curve (1e-9) and λ_min, λ_1se.
func TestCompressAgrees(t *testing.T) {
	const n = 2000
	for k, tc := range compressCases() {
		t.Run(tc.name, func(t *testing.T) {
			if !testenv.Slow() && !slices.Contains(quickCompressCases, tc.name) {
				t.Skip("the quick cases, one per family; " + testenv.SlowVar + "=1 runs every one")
			}
			w := worst{}
			defer func() { t.Logf("largest relative differences: %v", w) }()
			coefTol, cvTol := orTol(tc.coefTol, 1e-8), orTol(tc.cvTol, 1e-9)
			r := factorRows(tc.fam, n, tc.offLevels, uint64(10+k))
			pen := tc.pen(t)
			base := Options{Family: tc.fam, Unpenalized: tc.unpen, Relax: tc.relax,
				Settings: solver.Settings{Tol: 1e-12}}
			rOff := *r
			rOff.noCompress = true

			// The case compresses, its groups within the limit.
			c := compress(r, tc.fam, Folds(n, 5, 3), tc.measure)
			require.NotNil(t, c, "compressed")
			require.LessOrEqual(t, len(c.counts), n/compressWhen)

			po := PathOptions{Options: base, NLambda: 20}
			want, err := FitPath(&rOff, pen, &po)
			require.NoError(t, err)
			got, err := FitPath(r, pen, &po)
			require.NoError(t, err)
			require.Equal(t, len(want.Lambdas), len(got.Lambdas), "path length")
			w.close(t, "grid", want.Lambdas, got.Lambdas, 1e-12, "grid")
			for l := range want.Models {
				w.sameModel(t, want.Models[l], got.Models[l], coefTol, fmt.Sprintf("path λ %d", l))
			}

			lambda := want.Lambdas[len(want.Lambdas)/2]
			mw, err := Fit(&rOff, pen, lambda, &base)
			require.NoError(t, err)
			mg, err := Fit(r, pen, lambda, &base)
			require.NoError(t, err)
			w.sameModel(t, mw, mg, coefTol, "fit")
			require.LessOrEqual(t, mg.Gap, 1e-10, "gap")

			ids := make([]int, n)
			for i := range ids {
				ids[i] = (i * 7 / 3) % 4
			}
			for _, folds := range []struct {
				name string
				seed uint64
				id   []int
			}{{"fold ids", 0, ids}, {"seeded", 3, nil}}[:foldVariants()] {
				co := CVOptions{PathOptions: po, Folds: 5, Seed: folds.seed, FoldID: folds.id, Measure: tc.measure}
				cw, err := CrossValidate(&rOff, pen, &co)
				require.NoError(t, err)
				cg, err := CrossValidate(r, pen, &co)
				require.NoError(t, err)
				what := folds.name
				require.Equal(t, cw.Folds, cg.Folds, what+": folds")
				w.close(t, "grid", cw.Lambdas, cg.Lambdas, 1e-12, what+": grid")
				w.close(t, "cvm", cw.Mean, cg.Mean, cvTol, what+": cvm")
				w.close(t, "cvsd", cw.SE, cg.SE, cvTol, what+": cvsd")
				sameIndex(t, cw.Mean, cw.IndexMin, cg.IndexMin, cvTol, what+": λ_min")
				sameIndex(t, cw.Mean, cw.IndexSE, cg.IndexSE, cvTol, what+": λ_1se")
				if cw.Unconverged != cg.Unconverged {
					// At Tol 1e-12 a fold fit may stall at the gap's
					// floor in one summation order and not the other.
					t.Logf("%s: %d unconverged fold fits, %d compressed", what, cw.Unconverged, cg.Unconverged)
				}
			}
		})
	}
}

// TestCompressConstant checks each aggregation numerically: for every
// group, Σwᵢd(yᵢ, oᵢ + η) − W·d(ȳ, o_g + η) is the group's constant c_g ≥ 0
// whatever η.
func TestCompressConstant(t *testing.T) {
	for k, tc := range compressCases() {
		r := factorRows(tc.fam, 2000, tc.offLevels, uint64(10+k))
		c := compress(r, tc.fam, nil, tc.measure)
		require.NotNil(t, c, tc.name)
		x, y := denseOf(r.X), colOf(r)
		// The groups again, by their design rows.
		gid := map[string]int{}
		m, _ := denseOf(c.rows.X).Dims()
		for g := range m {
			gid[fmt.Sprint(denseOf(c.rows.X).RawRowView(g))] = g
		}
		top := 0.0
		for _, v := range r.Weights {
			top = math.Max(top, v)
		}
		yg := colOf(c.rows)
		for _, eta := range []float64{-1.3, -0.2, 0, 0.7, 2} {
			full := make([]float64, m)
			for i := range y {
				g := gid[fmt.Sprint(x.RawRowView(i))]
				if identicalOnly(tc.fam, tc.measure) {
					continue
				}
				full[g] += r.Weights[i] / top * tc.fam.Deviance(y[i], r.Offset[i]+eta)
			}
			if identicalOnly(tc.fam, tc.measure) {
				require.Nil(t, c.constant, tc.name)
				continue
			}
			for g := range m {
				o := 0.0
				if c.rows.Offset != nil {
					o = c.rows.Offset[g]
				}
				agg := c.rows.Weights[g]*tc.fam.Deviance(yg[g], o+eta) + c.constant[g]
				require.GreaterOrEqual(t, c.constant[g], 0.0)
				require.InDelta(t, full[g], agg, 1e-11*math.Max(full[g], 1), "%s: group %d at η = %v", tc.name, g, eta)
			}
		}
	}
}

// TestCompressDistinct: a design without repeated rows, or with too few
// repeats, is not compressed; a fold splits a group.
func TestCompressDistinct(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 400
	x := mat.NewDense(n, 3, nil)
	y := make([]float64, n)
	for i := range n {
		for j := range 3 {
			x.Set(i, j, rng.NormFloat64())
		}
		y[i] = float64(rng.IntN(3))
	}
	r := NewRows(x, y)
	require.Nil(t, compress(r, datafit.Poisson{}, nil, ""), "no repeats")
	for i := n / 2; i < n; i++ { // rows n/2… repeat rows 0…: n/2 + 1 distinct
		x.SetRow(i, x.RawRowView(i-n/2))
	}
	x.Set(n-1, 0, 99)
	require.Nil(t, compress(r, datafit.Poisson{}, nil, ""), "more than half distinct")
	x.SetRow(n-1, x.RawRowView(n/2-1))
	c := compress(r, datafit.Poisson{}, nil, "")
	require.NotNil(t, c, "half distinct")
	require.Len(t, c.counts, n/2)
	fold := make([]int, n)
	fold[0] = 1
	require.Nil(t, compress(r, datafit.Poisson{}, fold, ""), "a fold splits a group")
}

// quickCompressCases are TestCompressAgrees' cases run without
// CARDREG_SLOW: one per family, under a second each.
var quickCompressCases = []string{"gaussian cardinality", "gaussian lasso mse", "binomial lasso auc", "poisson lasso", "gamma lasso"}

// foldVariants is how many fold assignments TestCompressAgrees
// cross-validates: the user's fold ids, and with CARDREG_SLOW the seeded
// assignment too.
func foldVariants() int {
	if testenv.Slow() {
		return 2
	}
	return 1
}

// TestCompressKeepsBadRows: rows with a negative weight, or a response or
// offset that is not finite, are not aggregated (where they could average
// into valid ones), so the fit refuses them as it refuses the rows as
// they are.
func TestCompressKeepsBadRows(t *testing.T) {
	r := factorRows(datafit.Poisson{}, 400, 2, 7)
	require.NotNil(t, compress(r, datafit.Poisson{}, nil, ""))
	bad := *r
	bad.Weights = make([]float64, 400)
	for i := range bad.Weights {
		bad.Weights[i] = 1
	}
	bad.Weights[3] = -0.5
	require.Nil(t, compress(&bad, datafit.Poisson{}, nil, ""))
	_, err := Fit(&bad, penalty.L1{}, 1, &Options{Family: datafit.Poisson{}})
	require.ErrorContains(t, err, "-0.5")
}
