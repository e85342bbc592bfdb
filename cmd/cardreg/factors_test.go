package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const policies = "../../examples/policies.csv"

// policiesOrder is the vehicle age bands' order.
const policiesOrder = "vehicle_age=0-2,3-5,6-9,10-14,15+"

// factorJSON mirrors what a fit with factors adds to the JSON output.
type factorJSON struct {
	Penalty        string      `json:"penalty"`
	NumericPenalty string      `json:"numeric_penalty"`
	PairWeights    string      `json:"pair_weights"`
	Lambda         float64     `json:"lambda"`
	Objective      float64     `json:"objective"`
	DualityGap     *float64    `json:"duality_gap"`
	Converged      bool        `json:"converged"`
	Relaxed        bool        `json:"relaxed"`
	N              int         `json:"n"`
	Names          []string    `json:"names"`
	Coefficients   []float64   `json:"coefficients"`
	Intercept      float64     `json:"intercept"`
	LambdaRule     string      `json:"lambda_rule"`
	Factors        []levelJSON `json:"factors"`
}

type levelJSON struct {
	Factor    string `json:"factor"`
	Reference string `json:"reference"`
	Ordinal   bool   `json:"ordinal"`
	Groups    []struct {
		Levels     []string `json:"levels"`
		Reference  bool     `json:"reference"`
		Effect     float64  `json:"effect"`
		Penalised  *float64 `json:"penalised_effect"`
		Relativity *float64 `json:"relativity"`
		Rows       int      `json:"rows"`
		Share      float64  `json:"share"`
	} `json:"groups"`
}

func fitFactors(t *testing.T, args ...string) factorJSON {
	t.Helper()
	res := cardreg(t, append([]string{"fit", "--format", "json"}, args...)...)
	require.Equal(t, 0, res.code, res.stderr)
	var out factorJSON
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &out), res.stdout)
	return out
}

// coef returns the coefficient of the predictor named name.
func (r factorJSON) coef(t *testing.T, name string) float64 {
	t.Helper()
	j := slices.Index(r.Names, name)
	require.GreaterOrEqual(t, j, 0, "no predictor %s in %v", name, r.Names)
	return r.Coefficients[j]
}

// TestFactorLevelsTable checks the level groups against the coefficients
// they summarise: every level in exactly one group, the reference's group
// at 0, each dummy's coefficient its group's effect, relativities e^β,
// shares and rows adding up.
func TestFactorLevelsTable(t *testing.T) {
	r := fitFactors(t, "--family", "poisson", "--offset", "log_exposure", "--drop", "exposure",
		"--ordinal", policiesOrder, "--lambda", "4", policies)
	require.Equal(t, "factor", r.Penalty)
	require.Equal(t, "cardinality", r.NumericPenalty)
	require.True(t, r.Converged)
	require.Less(t, *r.DualityGap, 1e-7)
	require.Len(t, r.Factors, 3)
	levels := map[string]int{"region": 12, "vehicle_age": 5, "fuel": 2}
	for _, f := range r.Factors {
		seen := map[string]bool{}
		rows, share, refs := 0, 0.0, 0
		for _, g := range f.Groups {
			if g.Reference {
				refs++
				require.Equal(t, 0.0, g.Effect, "%s: the reference group's effect", f.Factor)
				require.Contains(t, g.Levels, f.Reference)
			}
			require.InDelta(t, math.Exp(g.Effect), *g.Relativity, 1e-12)
			for _, l := range g.Levels {
				require.False(t, seen[l], "%s: level %s in two groups", f.Factor, l)
				seen[l] = true
				if l != f.Reference {
					require.Equal(t, g.Effect, r.coef(t, f.Factor+"="+l), "%s=%s", f.Factor, l)
				}
			}
			rows += g.Rows
			share += g.Share
		}
		require.Equal(t, 1, refs, f.Factor)
		require.Len(t, seen, levels[f.Factor], f.Factor)
		require.Equal(t, r.N, rows, f.Factor)
		require.InDelta(t, 1, share, 1e-12, f.Factor)
	}
	require.Equal(t, "R01", r.Factors[0].Reference, "the most frequent region")
	require.Equal(t, "0-2", r.Factors[1].Reference, "an ordinal factor's first level")
	require.True(t, r.Factors[1].Ordinal)
}

// TestFactorEqualsGeneralPenalty fits the example with its factors read
// from text and, independently, with the dummy columns written out and the
// same penalty given as an explicit G to --penalty general (whose prox is
// iterative, not the blocks' exact one): the objectives agree.
func TestFactorEqualsGeneralPenalty(t *testing.T) {
	dir := t.TempDir()
	const lambda = "6"
	r := fitFactors(t, "--family", "poisson", "--offset", "log_exposure", "--drop", "exposure",
		"--ordinal", policiesOrder, "--penalty", "lasso", "--lambda", lambda, "--tol", "1e-10", policies)
	dummies, g := dummyFileAndG(t, dir, r)
	res := cardreg(t, "fit", "--format", "json", "--family", "poisson", "--offset", "log_exposure",
		"--penalty", "general", "--G", g, "--lambda", lambda, "--tol", "1e-10", dummies)
	require.Equal(t, 0, res.code, res.stderr)
	var gen factorJSON
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &gen))
	require.InDelta(t, r.Objective, gen.Objective, 1e-7*r.Objective)
	for j, name := range r.Names {
		require.InDelta(t, r.Coefficients[j], gen.coef(t, name), 1e-4, name)
	}
}

// dummyFileAndG writes the example with one 0/1 column per non-reference
// level (named as the fit r names them) and the G of r's penalty (see
// penaltyRows).
func dummyFileAndG(t *testing.T, dir string, r factorJSON) (string, string) {
	t.Helper()
	d := loadTextCSV(t, policies)
	var b strings.Builder
	b.WriteString(strings.Join(append(slices.Clone(r.Names), "log_exposure", "claims"), ",") + "\n")
	for _, row := range d.rows {
		var cells []string
		for _, name := range r.Names {
			cells = append(cells, dummyCell(d, row, name))
		}
		cells = append(cells, row[d.index["log_exposure"]], row[d.index["claims"]])
		b.WriteString(strings.Join(cells, ",") + "\n")
	}
	data := writeFile(t, dir, "dummies.csv", b.String())
	var gb strings.Builder
	for _, row := range penaltyRows(r) {
		cells := make([]string, len(row))
		for j, v := range row {
			cells[j] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		gb.WriteString(strings.Join(cells, ",") + "\n")
	}
	return data, writeFile(t, dir, "G.csv", gb.String())
}

// dummyCell is the cell of predictor name (a dummy NAME=LEVEL, or a
// numeric column) in a row of d.
func dummyCell(d textCSV, row []string, name string) string {
	col, level, isDummy := strings.Cut(name, "=")
	switch {
	case !isDummy:
		return row[d.index[name]]
	case row[d.index[col]] == level:
		return "1"
	}
	return "0"
}

// penaltyRows are the rows of the G of r's penalty: per nominal factor a
// row per pair of levels and per level against the reference, per ordinal
// factor a row per adjacent pair, a row per numeric predictor (the lasso).
func penaltyRows(r factorJSON) [][]float64 {
	p := len(r.Names)
	var rows [][]float64
	add := func(j, k int) { // e_j − e_k, k < 0 for the reference
		row := make([]float64, p)
		row[j] = 1
		if k >= 0 {
			row[k] = -1
		}
		rows = append(rows, row)
	}
	for _, f := range r.Factors {
		cols := factorColumns(r, f)
		for a := range cols {
			for c := a + 1; c < len(cols); c++ {
				switch {
				case f.Ordinal && c != a+1:
				case cols[a] < 0:
					add(cols[c], -1)
				default:
					add(cols[a], cols[c])
				}
			}
		}
	}
	for j, name := range r.Names {
		if !strings.Contains(name, "=") {
			add(j, -1)
		}
	}
	return rows
}

// factorColumns are f's columns in level order, −1 for the reference.
func factorColumns(r factorJSON, f levelJSON) []int {
	var cols []int
	for _, l := range factorLevels(f) {
		if l == f.Reference {
			cols = append(cols, -1)
			continue
		}
		cols = append(cols, slices.Index(r.Names, f.Factor+"="+l))
	}
	return cols
}

// factorLevels returns the levels of f in the factor's order: the dummy
// names' order with the reference in its place (ordinal: first).
func factorLevels(f levelJSON) []string {
	var all []string
	for _, g := range f.Groups {
		all = append(all, g.Levels...)
	}
	if f.Ordinal {
		order := strings.Split(strings.TrimPrefix(policiesOrder, "vehicle_age="), ",")
		return order
	}
	slices.Sort(all)
	return all
}

type textCSV struct {
	index map[string]int
	rows  [][]string
}

func loadTextCSV(t *testing.T, path string) textCSV {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	d := textCSV{index: map[string]int{}}
	for j, name := range strings.Split(lines[0], ",") {
		d.index[name] = j
	}
	for _, l := range lines[1:] {
		d.rows = append(d.rows, strings.Split(l, ","))
	}
	return d
}

// TestFactorRelax checks --relax: the groups are the penalised fit's, the
// effects its maximum-likelihood refit on them, the reference's group
// stays at 0, and the refit is a stationary point of the unpenalised
// deviance over the groups (checked through the fit at λ = 0 being no
// better on the same groups: its deviance is at most the refit's).
func TestFactorRelax(t *testing.T) {
	r := fitFactors(t, "--family", "poisson", "--offset", "log_exposure", "--drop", "exposure",
		"--ordinal", policiesOrder, "--relax", "--lambda", "8", policies)
	require.True(t, r.Relaxed)
	for _, f := range r.Factors {
		for _, g := range f.Groups {
			require.NotNil(t, g.Penalised)
			for _, l := range g.Levels {
				if l != f.Reference {
					require.Equal(t, g.Effect, r.coef(t, f.Factor+"="+l), "the refit has one value per group: %s=%s", f.Factor, l)
				}
			}
			if g.Reference {
				require.Equal(t, 0.0, g.Effect)
				require.Equal(t, 0.0, *g.Penalised)
			}
		}
	}
	// The refit moves the effects away from 0 (the penalty shrinks them).
	reg := r.Factors[0]
	for _, g := range reg.Groups {
		if !g.Reference {
			require.Greater(t, math.Abs(g.Effect), math.Abs(*g.Penalised), "%v", g.Levels)
		}
	}
}

// TestFactorCriterion checks --lambda bic and aic: the λ chosen is on the
// path, BIC (heavier per degree of freedom) keeps no more groups than AIC.
func TestFactorCriterion(t *testing.T) {
	groups := func(r factorJSON) int {
		k := 0
		for _, f := range r.Factors {
			k += len(f.Groups)
		}
		return k
	}
	bic := fitFactors(t, "--family", "poisson", "--offset", "log_exposure", "--drop", "exposure",
		"--ordinal", policiesOrder, "--lambda", "bic", policies)
	aic := fitFactors(t, "--family", "poisson", "--offset", "log_exposure", "--drop", "exposure",
		"--ordinal", policiesOrder, "--lambda", "aic", policies)
	require.Contains(t, bic.LambdaRule, "bic = ")
	require.Contains(t, aic.LambdaRule, "aic = ")
	require.GreaterOrEqual(t, bic.Lambda, aic.Lambda)
	require.LessOrEqual(t, groups(bic), groups(aic))
}

// TestFactorMerges checks path --merges: per factor, λ increases down the
// list, the number of groups decreases, and at the top of the path every
// factor is one group with its reference.
func TestFactorMerges(t *testing.T) {
	dir := t.TempDir()
	merges := filepath.Join(dir, "merges.csv")
	res := cardreg(t, "path", "--family", "poisson", "--offset", "log_exposure", "--drop", "exposure",
		"--ordinal", policiesOrder, "--merges", merges, "--out", filepath.Join(dir, "path.csv"), policies)
	require.Equal(t, 0, res.code, res.stderr)
	d := loadTextCSV(t, merges)
	require.NotEmpty(t, d.rows)
	last := map[string][2]float64{} // factor → λ, groups of the previous merge
	for _, row := range d.rows {
		f := row[d.index["factor"]]
		lam, err := strconv.ParseFloat(row[d.index["lambda"]], 64)
		require.NoError(t, err)
		g, err := strconv.Atoi(row[d.index["groups"]])
		require.NoError(t, err)
		if prev, ok := last[f]; ok {
			require.Greater(t, lam, prev[0], "%s", row)
			require.LessOrEqual(t, float64(g), prev[1], "%s (a group may split as another merges)", row)
		}
		last[f] = [2]float64{lam, float64(g)}
	}
	for f, v := range last {
		require.Equal(t, 1.0, v[1], "factor %s ends in one group", f)
	}
	res = cardreg(t, "path", "--merges", filepath.Join(dir, "m2.csv"), example)
	require.Equal(t, 2, res.code)
	require.Contains(t, res.stderr, "no factor")
}

// TestFactorNumericPenalty checks --penalty none (the numeric predictor
// unpenalised: not shrunk to 0 at a λ that fuses every factor) and that it
// is refused without factors.
func TestFactorNumericPenalty(t *testing.T) {
	r := fitFactors(t, "--family", "poisson", "--offset", "log_exposure", "--drop", "exposure",
		"--ordinal", policiesOrder, "--penalty", "none", "--lambda", "1000", policies)
	require.InDelta(t, 0.3, r.coef(t, "driver_age"), 0.1)
	for _, f := range r.Factors {
		require.Len(t, f.Groups, 1, f.Factor)
	}
	res := cardreg(t, "fit", "--penalty", "none", "--lambda", "1", example)
	require.Equal(t, 2, res.code)
	require.Contains(t, res.stderr, "no factor")
	res = cardreg(t, "fit", "--penalty", "grouped", "--groups", "a,a,a", "--lambda", "1", policies)
	require.Equal(t, 2, res.code, res.stderr)
	require.Contains(t, res.stderr, "numeric predictors' penalty")
}

// TestFactorBadInput gives the bad inputs of factors: each is one line on
// stderr naming the column, exit 1 or 2, and no output file.
func TestFactorBadInput(t *testing.T) {
	dir := t.TempDir()
	ids := []string{"id,y"}
	for i := range 10001 {
		ids = append(ids, fmt.Sprintf("u%d,%d", i, i%7))
	}
	cases := []struct {
		name, file string
		args       []string
		want       string
	}{
		{"one level", "g,x,y\na,1,2\na,2,3\na,3,5\na,4,4\n", nil, `"g"`},
		{"level seen once", "g,x,y\na,1,2\na,2,3\nb,3,5\nc,4,4\nc,5,1\nb,1,1\na,2,2\nz,3,3\n", nil, `"z"`},
		{"unknown reference", "g,x,y\na,1,2\na,2,3\nb,3,5\nb,4,4\n", []string{"--ref", "g=q"}, `"q"`},
		{"order misses a level", "g,x,y\na,1,2\na,2,3\nb,3,5\nb,4,4\nc,1,1\nc,2,2\n", []string{"--ordinal", "g=a,b"}, `"c"`},
		{"non-integer factor", "g,x,y\n1,1,2\n1,2,3\n2.5,3,5\n2,4,4\n", []string{"--factor", "g"}, "2.5"},
		{"an ID column", strings.Join(ids, "\n") + "\n", nil, "--max-levels"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, dir, strings.ReplaceAll(c.name, " ", "_")+".csv", c.file)
			out := filepath.Join(dir, "out-"+strings.ReplaceAll(c.name, " ", "_"))
			args := append([]string{"fit", "--lambda", "1", "--out", out}, c.args...)
			res := cardreg(t, append(args, path)...)
			require.Contains(t, []int{1, 2}, res.code, res.stderr)
			require.Equal(t, 1, strings.Count(strings.TrimSpace(res.stderr), "\n")+1, "one line: %q", res.stderr)
			require.Contains(t, res.stderr, c.want)
			_, err := os.Stat(out)
			require.True(t, os.IsNotExist(err), "an output was written")
		})
	}
}

// TestFactorRoutes checks where factors are read: a weighted gaussian fit
// (whose rows would go through streamed statistics) reads them in memory
// and equals the family route's fit (an offset of zeros forces it), and
// --stream gives the same fit.
func TestFactorRoutes(t *testing.T) {
	dir := t.TempDir()
	d := loadTextCSV(t, policies)
	var b strings.Builder
	b.WriteString("region,vehicle_age,fuel,driver_age,zero,w,claims\n")
	for i, row := range d.rows {
		fmt.Fprintf(&b, "%s,%s,%s,%s,0,%d,%s\n", row[0], row[1], row[2], row[3], i%3+1, row[6])
	}
	path := writeFile(t, dir, "weighted.csv", b.String())
	stats := fitFactors(t, "--weights", "w", "--drop", "zero", "--lambda", "20", "--tol", "1e-10", path)
	fam := fitFactors(t, "--weights", "w", "--offset", "zero", "--lambda", "20", "--tol", "1e-10", path)
	require.Len(t, stats.Factors, 3)
	require.InDelta(t, fam.Objective, stats.Objective, 1e-8*fam.Objective)
	for j, name := range fam.Names {
		require.InDelta(t, fam.Coefficients[j], stats.coef(t, name), 1e-5, name)
	}
	// Streamed, the factors' levels are learned by a first pass: the same
	// fit.
	str := fitFactors(t, "--stream", "--weights", "w", "--drop", "zero", "--lambda", "20", "--tol", "1e-10", path)
	require.Equal(t, stats.Names, str.Names)
	require.InDelta(t, stats.Objective, str.Objective, 1e-12*stats.Objective)
	for j := range stats.Coefficients {
		require.InDelta(t, stats.Coefficients[j], str.Coefficients[j], 1e-12, stats.Names[j])
	}
	require.Equal(t, stats.Factors, str.Factors)
}

// TestFactorPairWeights fits with each pair weighting: every fit certified,
// the weighting said, and the three give different fits.
func TestFactorPairWeights(t *testing.T) {
	objectives := map[float64]bool{}
	for _, w := range []string{"equal", "count", "adaptive"} {
		r := fitFactors(t, "--family", "poisson", "--offset", "log_exposure", "--drop", "exposure",
			"--ordinal", policiesOrder, "--pair-weights", w, "--lambda", "5", policies)
		require.Equal(t, w, r.PairWeights)
		require.True(t, r.Converged, w)
		require.LessOrEqual(t, *r.DualityGap, 1e-7, w)
		objectives[r.Objective] = true
	}
	require.Len(t, objectives, 3)
	res := cardreg(t, "fit", "--pair-weights", "smurf", "--lambda", "1", policies)
	require.Equal(t, 2, res.code)
	require.Contains(t, res.stderr, "equal, count, adaptive")
}

// TestFactorFlagRefusals: a factor flag on data without factors, and a
// flag that does not combine with factors, are usage errors (exit 2)
// before any fit or output.
func TestFactorFlagRefusals(t *testing.T) {
	dir := t.TempDir()
	cases := [][]string{
		{"fit", "--pair-weights", "adaptive", "--lambda", "1", example},
		{"fit", "--min-count", "1", "--lambda", "1", example},
		{"fit", "--responses", "claims,driver_age", "--lambda", "1", policies},
		{"fit", "--lambda", "theory", policies},
		{"fit", "--penalty", "ridge", "--lambda", "bic", example},
		{"path", "--plot", filepath.Join(dir, "p.png"), "--merges", filepath.Join(dir, "m.csv"), example},
	}
	for _, args := range cases {
		res := cardreg(t, args...)
		require.Equal(t, 2, res.code, "%v: %s", args, res.stderr)
		require.Equal(t, 1, strings.Count(strings.TrimSpace(res.stderr), "\n")+1, "%v: one line: %q", args, res.stderr)
	}
	require.Empty(t, listDir(t, dir), "nothing written")
}

// TestFactorOnlyModel saves and predicts with a model whose predictors
// are all factors (no numeric predictor: the penalty says none is named).
func TestFactorOnlyModel(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	res := cardreg(t, "fit", "--family", "poisson", "--offset", "log_exposure", "--drop", "exposure,driver_age",
		"--lambda", "4", "--save-model", model, policies)
	require.Equal(t, 0, res.code, res.stderr)
	require.NotContains(t, res.stdout, "numeric predictors")
	res = cardreg(t, "predict", "--model", model, policies)
	require.Equal(t, 0, res.code, res.stderr)
	require.Equal(t, 3001, strings.Count(res.stdout, "\n"))
}

// TestFactorMemory: a factor's dummy columns count against --memory
// before they are built (a small file can expand into a large design).
func TestFactorMemory(t *testing.T) {
	var b strings.Builder
	b.WriteString("g,y\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "L%d,%d\n", i%500, i%3)
	}
	path := writeFile(t, t.TempDir(), "levels.csv", b.String())
	res := cardreg(t, "fit", "--family", "poisson", "--lambda", "1", "--memory", "1MB", path)
	require.Equal(t, 1, res.code, res.stderr)
	require.Contains(t, res.stderr, "2000 rows of 499 predictor columns")
	res = cardreg(t, "fit", "--family", "poisson", "--lambda", "1", "--memory", "64MB", path)
	require.Equal(t, 0, res.code, res.stderr)
}

// A factor whose first data row is empty or NA reads as with that row
// moved down: --na-level makes it a level, and the fit is the same
// (issue 35: the first row alone decided the column's kind, and the fit
// failed with a numeric column's message).
func TestFactorMissingFirstRow(t *testing.T) {
	dir := t.TempDir()
	rows := []string{"b,2,3", "a,3,5", "b,4,4", "a,5,6", "b,6,8", ",7,9", "a,8,9", "b,1,1"}
	var fits []fitJSON
	for _, miss := range []string{"", "NA"} {
		for _, order := range [][]string{append([]string{miss + ",1,2"}, rows...), append(slices.Clone(rows), miss+",1,2")} {
			path := writeFile(t, dir, "g.csv", "g,x,y\n"+strings.Join(order, "\n")+"\n")
			res := cardreg(t, "fit", "--na-level", "--lambda", "1", "--format", "json", path)
			require.Equal(t, 0, res.code, res.stderr)
			fits = append(fits, glmJSON(t, res.stdout))
			res = cardreg(t, "fit", "--lambda", "1", path)
			oneLine(t, res, 1, `column "g": missing value`, "--na-level")
		}
	}
	for _, f := range fits[1:] {
		require.Equal(t, fits[0].Names, f.Names)
		require.InDelta(t, fits[0].Objective, f.Objective, 1e-9*fits[0].Objective)
	}
	require.Contains(t, fits[0].Names, "g=NA")
}
