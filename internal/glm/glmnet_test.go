package glm

import (
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/internal/rtest"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// table is a data set: predictors, response, and optional weights and
// offsets.
type table struct {
	x    *mat.Dense
	y    []float64
	w, o []float64
}

func readTable(t *testing.T, path string) *table {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	n, p := len(recs)-1, len(recs[0])-1
	tb := &table{x: mat.NewDense(n, p, nil), y: make([]float64, n)}
	for i, r := range recs[1:] {
		for j, s := range r {
			v, err := strconv.ParseFloat(s, 64)
			require.NoError(t, err)
			if j == p {
				tb.y[i] = v
			} else {
				tb.x.Set(i, j, v)
			}
		}
	}
	return tb
}

// writeTable writes x1..xp, y, then w and off when present.
func (tb *table) write(t *testing.T, path string) {
	n, p := tb.x.Dims()
	var b strings.Builder
	for j := range p {
		fmt.Fprintf(&b, "x%d,", j+1)
	}
	b.WriteString("y")
	if tb.w != nil {
		b.WriteString(",w")
	}
	if tb.o != nil {
		b.WriteString(",off")
	}
	b.WriteString("\n")
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for i := range n {
		for j := range p {
			b.WriteString(g(tb.x.At(i, j)) + ",")
		}
		b.WriteString(g(tb.y[i]))
		if tb.w != nil {
			b.WriteString("," + g(tb.w[i]))
		}
		if tb.o != nil {
			b.WriteString("," + g(tb.o[i]))
		}
		b.WriteString("\n")
	}
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
}

// own draws a data set of family f whose true coefficients take three
// values (cardinality-sparse).
func own(f datafit.Family, n, p int, seed uint64) *table {
	r := rand.New(rand.NewPCG(seed, 9))
	tb := &table{x: mat.NewDense(n, p, nil), y: make([]float64, n)}
	levels := []float64{0, 0.6, -0.4}
	for i := range n {
		eta := -0.3
		for j := range p {
			v := r.NormFloat64()
			tb.x.Set(i, j, v)
			eta += levels[j%3] * v * 0.7
		}
		mu := f.Mean(eta)
		switch f.(type) {
		case datafit.Gaussian:
			tb.y[i] = mu + r.NormFloat64()
		case datafit.Binomial:
			if r.Float64() < mu {
				tb.y[i] = 1
			}
		case datafit.Poisson:
			k, l, q := 0, math.Exp(-mu), 1.0
			for q *= r.Float64(); q > l; q *= r.Float64() {
				k++
			}
			tb.y[i] = float64(k)
		case datafit.Gamma: // shape 2: half the sum of two exponentials
			tb.y[i] = mu / 2 * (r.ExpFloat64() + r.ExpFloat64())
		}
	}
	return tb
}

// glmnetFit runs bench/glmfamily.R and returns, per λ, the intercept and
// coefficients.
func glmnetFit(t *testing.T, path, family string, lambdas []float64, weights, offset bool, factors []float64) [][]float64 {
	var ls []string
	for _, l := range lambdas {
		ls = append(ls, strconv.FormatFloat(l, 'g', -1, 64))
	}
	args := []string{"../../bench/glmfamily.R", "fit", path, family, strings.Join(ls, ","), "-", "-", "-"}
	if weights {
		args[5] = "w"
	}
	if offset {
		args[6] = "off"
	}
	if factors != nil {
		var fs []string
		for _, f := range factors {
			fs = append(fs, strconv.FormatFloat(f, 'g', -1, 64))
		}
		args[7] = strings.Join(fs, ",")
	}
	res := rscriptRows(t, args...)
	require.Len(t, res, len(lambdas))
	return res
}

// rscriptRows runs Rscript with args and returns its output's lines as
// rows of numbers.
func rscriptRows(t *testing.T, args ...string) [][]float64 {
	out, err := rtest.Output(args[0], args[1:]...)
	require.NoError(t, err, "%s", out)
	var res [][]float64
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var row []float64
		for _, s := range strings.Fields(line) {
			v, err := strconv.ParseFloat(s, 64)
			require.NoError(t, err, line)
			row = append(row, v)
		}
		res = append(res, row)
	}
	return res
}

// objective returns Σ w d + λ·Σ f|β| at coefficients (b₀, β), weights
// rescaled to sum to n.
func objective(fam datafit.Family, tb *table, b0 float64, beta []float64, lambda float64, pen penalty.Penalty, pen0 []int) float64 {
	n, p := tb.x.Dims()
	var sw float64
	for i := range n {
		sw += weight(tb.w, i)
	}
	var f float64
	for i := range n {
		eta := b0
		for j := range p {
			eta += tb.x.At(i, j) * beta[j]
		}
		if tb.o != nil {
			eta += tb.o[i]
		}
		f += weight(tb.w, i) * float64(n) / sw * fam.Deviance(tb.y[i], eta)
	}
	var pb []float64
	for j := range p {
		if !contains(pen0, j) {
			pb = append(pb, beta[j])
		}
	}
	return f + lambda*pen.Value(mat.NewDense(len(pb), 1, pb))
}

func weight(w []float64, i int) float64 {
	if w == nil {
		return 1
	}
	return w[i]
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// glmnetSet is a data set for the comparisons with R's glmnet.
type glmnetSet struct {
	name string
	fam  datafit.Family
	tb   *table
}

// glmnetSets skips the test without R's glmnet (CI installs r-cran-glmnet)
// and returns a folder and the data sets: glmnet's own BinomialExample and
// PoissonExample, and one n×p set of our own per family.
func glmnetSets(t *testing.T, n, p int) (string, []glmnetSet) {
	rtest.SkipUnlessAvailable(t)
	dir := t.TempDir()
	out, err := rtest.Output("../../bench/glmfamily.R", "export", dir)
	require.NoError(t, err, "%s", out)
	return dir, []glmnetSet{
		{"BinomialExample", datafit.Binomial{}, readTable(t, filepath.Join(dir, "binomial.csv"))},
		{"PoissonExample", datafit.Poisson{}, readTable(t, filepath.Join(dir, "poisson.csv"))},
		{"own binomial", datafit.Binomial{}, own(datafit.Binomial{}, n, p, 1)},
		{"own poisson", datafit.Poisson{}, own(datafit.Poisson{}, n, p, 2)},
	}
}

// TestMatchesGlmnet fits lasso logistic and Poisson models to glmnet's own
// BinomialExample and PoissonExample and to data of our own, with and
// without weights, offsets and penalty factors (one of them 0), and checks
// them against R glmnet (standardize = FALSE, thresh = 1e-14) at the same
// λ (λ_glmnet = λ/(2n)): objective to 1e-6 relative, coefficients to 1e-5.
// Skipped without R's glmnet (CI installs r-cran-glmnet).
func TestMatchesGlmnet(t *testing.T) {
	dir, sets := glmnetSets(t, 400, 12)
	for _, set := range sets {
		for _, variant := range []string{"plain", "weights", "offset", "weights+offset", "factors"} {
			t.Run(set.name+" "+variant, func(t *testing.T) {
				t.Parallel() // R runs the references one at a time; the fits overlap them
				matchGlmnet(t, dir, set.fam, set.tb, variant)
			})
		}
	}
}

func matchGlmnet(t *testing.T, dir string, fam datafit.Family, base *table, variant string) {
	n, p := base.x.Dims()
	tb := *base
	r := rand.New(rand.NewPCG(uint64(len(variant)), 5))
	if strings.Contains(variant, "weights") {
		tb.w = make([]float64, n)
		for i := range tb.w {
			tb.w[i] = 0.2 + 2*r.Float64()
		}
	}
	if strings.Contains(variant, "offset") {
		tb.o = make([]float64, n)
		for i := range tb.o {
			tb.o[i] = 0.3 * r.NormFloat64()
		}
	}
	var factors []float64
	var pen penalty.Penalty = penalty.L1{}
	opts := &fit.Options{Family: fam, Settings: solver.Settings{Tol: 1e-14, MaxIter: 100000}}
	if variant == "factors" {
		factors = make([]float64, p)
		for j := range factors {
			factors[j] = 0.5 + float64(j%4)/2
		}
		factors[1] = 0
		wl, free, err := PenaltyFactors(factors)
		require.NoError(t, err)
		pen, opts.Unpenalized = wl, free
	}
	lmax, ok, err := LambdaMax(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, opts)
	require.NoError(t, err)
	require.True(t, ok)
	fracs := []float64{0.5, 0.15, 0.04}
	var lambdas, glmnetLambdas []float64
	for _, f := range fracs {
		lambdas = append(lambdas, f*lmax)
		glmnetLambdas = append(glmnetLambdas, f*lmax/(2*float64(n)))
	}
	path := filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+".csv")
	tb.write(t, path)
	ref := glmnetFit(t, path, fam.Name(), glmnetLambdas, tb.w != nil, tb.o != nil, factors)
	for k, lambda := range lambdas {
		m, err := Fit(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, lambda, opts)
		require.NoError(t, err)
		require.True(t, m.Converged, "λ %d: %v, gap %v", k, m.Status, m.Gap)
		ours := objective(fam, &tb, m.Intercept[0], coef(m), lambda, pen, opts.Unpenalized)
		theirs := objective(fam, &tb, ref[k][0], ref[k][1:], lambda, pen, opts.Unpenalized)
		require.InEpsilon(t, theirs, ours, 1e-6, "objective at λ %d", k)
		require.LessOrEqual(t, ours, theirs*(1+1e-12), "glmnet's objective below ours at λ %d", k)
		scale := math.Abs(ref[k][0])
		for _, v := range ref[k][1:] {
			scale = math.Max(scale, math.Abs(v))
		}
		require.InDelta(t, ref[k][0], m.Intercept[0], 1e-5*scale, "intercept at λ %d", k)
		for j, v := range ref[k][1:] {
			require.InDelta(t, v, coef(m)[j], 1e-5*scale, "coefficient %d at λ %d", j+1, k)
		}
		if math.Abs(ours-m.Objective) > 1e-9*ours {
			t.Errorf("reported objective %v, recomputed %v", m.Objective, ours)
		}
	}
}

// TestPathMatchesGlmnet fits glmnet's own path (its grid and its stopping
// rules, which differ per family) and ours on the same data: the same
// number of λ, the same λ and the same deviance ratios.
func TestPathMatchesGlmnet(t *testing.T) {
	dir, sets := glmnetSets(t, 300, 10)
	sets = append(sets, glmnetSet{"own gaussian", datafit.Gaussian{}, own(datafit.Gaussian{}, 300, 10, 3)})
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+".csv")
			set.tb.write(t, path)
			ref := rscriptRows(t, "../../bench/glmfamily.R", "path", path, set.fam.Name())
			opts := fit.Options{Family: set.fam, Settings: solver.Settings{Tol: 1e-10}}
			ours, err := FitPath(&Rows{X: set.tb.x, Y: set.tb.y}, penalty.L1{}, &fit.PathOptions{Options: opts})
			require.NoError(t, err)
			n, _ := set.tb.x.Dims()
			require.Equal(t, len(ref), len(ours.Models), "path length (ours: %s)", ours.Note)
			for k, m := range ours.Models {
				require.InEpsilon(t, ref[k][0], ours.Lambdas[k]/(2*float64(n)), 1e-9, "λ %d", k)
				require.InDelta(t, ref[k][1], m.DevRatio, 1e-7, "dev ratio %d", k)
			}
		})
	}
}
