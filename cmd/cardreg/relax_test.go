package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/testenv"
	"github.com/stretchr/testify/require"
)

// thresholdCSV returns n rows x1,y with x1 ~ N(1, 1) and y = [x1 > 1]: the
// issue's "x1 > 1 decides y" (the intercept takes part in the separation).
func thresholdCSV(n int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 3))
	var b strings.Builder
	b.WriteString("x1,y\n")
	for range n {
		x, y := 1+r.NormFloat64(), 0
		if x > 1 {
			y = 1
		}
		fmt.Fprintf(&b, "%.6f,%d\n", x, y)
	}
	return b.String()
}

// TestRelaxSeparationEveryRoute: binomial --relax with λ by
// cross-validation on perfectly separable data printed the diverged refit
// (intercept −400.9, x1 1928.1 in the issue; −908 and 904 here) as
// "converged true", with no warning, for the lasso and the cardinality
// penalty alike, and path and cv --relax counted such λ as converged. Now
// each route says the refit does not exist and keeps the penalised fit.
func TestRelaxSeparationEveryRoute(t *testing.T) {
	dir := t.TempDir()
	// The lasso and a second data set under CARDREG_SLOW (internal/glm's
	// TestRelaxSeparableEveryRoute fits both penalties on every route).
	seeds, pens := uint64(1), []string{"cardinality"}
	if testenv.Slow() {
		seeds, pens = 2, []string{"lasso", "cardinality"}
	}
	for seed := range seeds {
		data := writeFile(t, dir, fmt.Sprintf("sep%d.csv", seed), thresholdCSV(100, seed))
		for _, pen := range pens {
			for _, rule := range []string{"min", "1se"} {
				what := fmt.Sprintf("seed %d %s %s", seed, pen, rule)
				res := cardreg(t, "fit", "--family", "binomial", "--relax", "--penalty", pen, "--rule", rule, "--target", "y", "--format", "json", data)
				require.Equal(t, 0, res.code, res.stderr)
				var out struct {
					Converged    bool      `json:"converged"`
					Relaxed      bool      `json:"relaxed"`
					RelaxNote    string    `json:"relax_note"`
					Coefficients []float64 `json:"coefficients"`
				}
				require.NoError(t, json.Unmarshal([]byte(res.stdout), &out), res.stdout)
				require.False(t, out.Converged, "%s: %v", what, out.Coefficients)
				require.False(t, out.Relaxed, what)
				require.Contains(t, out.RelaxNote, "does not exist (separation)", what)
				require.Contains(t, res.stderr, "warning: --relax: fitted probabilities numerically 0 or 1 occurred", what)
			}
			for _, cmd := range []string{"path", "cv"} {
				res := cardreg(t, cmd, "--family", "binomial", "--relax", "--penalty", pen, "--target", "y", data)
				require.Equal(t, 0, res.code, res.stderr)
				// Every λ but λ_max (where the lasso's coefficient is 0)
				// keeps x1 alone in its cluster, so no refit exists.
				m := relaxCount.FindStringSubmatch(res.stderr)
				require.NotNil(t, m, "%s %s seed %d: %s", cmd, pen, seed, res.stderr)
				require.GreaterOrEqual(t, mustAtoi(t, m[1]), mustAtoi(t, m[2])-1, "%s %s seed %d: %s", cmd, pen, seed, res.stderr)
			}
		}
	}
}

// relaxCount finds the count of λ whose refit does not exist in a path's
// warning.
var relaxCount = regexp.MustCompile(`--relax: at (\d+) of the (\d+) λ`)

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	v, err := strconv.Atoi(s)
	require.NoError(t, err)
	return v
}

// relaxJSON mirrors the parts of a relaxed fit's JSON that say which fit
// each number belongs to.
type relaxJSON struct {
	Objective     float64  `json:"objective"`
	DualityGap    float64  `json:"duality_gap"`
	Deviance      float64  `json:"deviance"`
	DevRatio      float64  `json:"dev_ratio"`
	R2            *float64 `json:"r2"`
	Relaxed       bool     `json:"relaxed"`
	RelaxedFields []string `json:"relaxed_fields"`
	Penalized     *struct {
		Objective  float64  `json:"objective"`
		DualityGap float64  `json:"duality_gap"`
		Deviance   float64  `json:"deviance"`
		DevRatio   float64  `json:"dev_ratio"`
		R2         *float64 `json:"r2"`
	} `json:"penalized"`
}

// TestRelaxLabelsBothFits: with --relax the objective and the duality gap
// were the penalised fit's while the coefficients, the deviance and R²
// were the refit's, and neither text nor JSON said which (issue 35 item
// 9). Now JSON has a "penalized" object (objective, gap, deviance, ratio)
// and "relaxed_fields" naming the refit's fields; the text labels the
// objective and the gap "penalised fit", R² or the deviance "relaxed
// refit", and gives the penalised fit's R² or deviance. The penalised
// deviance is the objective less λh(β) ≥ 0, and the refit's is lower.
func TestRelaxLabelsBothFits(t *testing.T) {
	data := "../../examples/cardinality.csv"
	sep := writeFile(t, t.TempDir(), "sep.csv", separableCSV(200))
	for _, c := range []struct {
		name    string
		args    []string
		measure string
	}{
		{"gaussian", []string{"--lambda", "50", data}, "R²"},
		{"gaussian cv", []string{data}, "R²"},
		{"gaussian lasso", []string{"--penalty", "lasso", "--lambda", "50", data}, "R²"},
		{"poisson", []string{"--family", "poisson", "--target", "c", "--drop", "y,g", "--lambda", "20", sep}, "deviance"},
	} {
		res := cardreg(t, append([]string{"fit", "--relax", "--format", "json"}, c.args...)...)
		require.Equal(t, 0, res.code, res.stderr)
		var out relaxJSON
		require.NoError(t, json.Unmarshal([]byte(res.stdout), &out), res.stdout)
		require.True(t, out.Relaxed, c.name)
		require.NotNil(t, out.Penalized, c.name)
		pf := out.Penalized
		require.Equal(t, out.Objective, pf.Objective, c.name)
		require.Equal(t, out.DualityGap, pf.DualityGap, c.name)
		require.LessOrEqual(t, pf.Deviance, pf.Objective*(1+1e-12), c.name)
		require.LessOrEqual(t, out.Deviance, pf.Deviance*(1+1e-9), "%s: the refit's deviance is the lowest on the clusters", c.name)
		require.Greater(t, math.Abs(out.Deviance-pf.Deviance), 0.0, c.name)
		require.Less(t, pf.DevRatio, out.DevRatio+1e-12, c.name)
		if c.measure == "R²" {
			require.NotNil(t, pf.R2, c.name)
			require.InDelta(t, pf.DevRatio, *pf.R2, 1e-15, c.name)
		}
		for _, f := range []string{"intercept", "coefficients", "deviance", "r2", "dev_ratio", "clusters"} {
			require.Contains(t, out.RelaxedFields, f, c.name)
		}
		require.NotContains(t, out.RelaxedFields, "objective", c.name)

		text := cardreg(t, append([]string{"fit", "--relax"}, c.args...)...)
		require.Equal(t, 0, text.code, text.stderr)
		require.Regexp(t, `(?m)^objective +[-0-9.e+]+ \(penalised fit\)$`, text.stdout, c.name)
		require.Regexp(t, `(?m)^duality gap +[-0-9.e+]+ \(relative; penalised fit\)$`, text.stdout, c.name)
		require.Regexp(t, `(?m)^`+c.measure+` +.*\(relaxed refit\)$`, text.stdout, c.name)
		require.Regexp(t, `(?m)^relaxed +.*the intercept, `+c.measure+` and the values below are the refit's; objective and gap above are the penalised fit's \(its `, text.stdout, c.name)

		plain := cardreg(t, append([]string{"fit"}, c.args...)...)
		require.NotContains(t, plain.stdout, "penalised fit", c.name)
		require.NotContains(t, plain.stdout, "relaxed refit", c.name)
	}
}

// TestRelaxSingularRefitSaid: a least-squares refit whose clusters the
// data cannot tell apart (a column twice, and one the sum of two others,
// each in a cluster of its own at the lasso's solution) was dropped
// silently: "relaxed": false, converged true, no word (the Munich rent
// file with both the numeric and the factor coding of quality did this at
// λ 6.159). Now it is said, as a separable family refit is.
func TestRelaxSingularRefitSaid(t *testing.T) {
	dir, said := t.TempDir(), 0
	for seed := range uint64(12) {
		r := rand.New(rand.NewPCG(seed, 4))
		var b strings.Builder
		b.WriteString("a,b,c,d,y\n")
		for range 80 {
			a, c, z := r.NormFloat64(), r.NormFloat64(), r.NormFloat64()
			fmt.Fprintf(&b, "%.6f,%.6f,%.6f,%.6f,%.6f\n", a, a, c, a+c, 2*a-c+0.5*z+0.3*r.NormFloat64())
		}
		data := writeFile(t, dir, fmt.Sprintf("twin%d.csv", seed), b.String())
		for _, l := range []string{"0.1", "1", "10"} {
			res := cardreg(t, "fit", "--relax", "--penalty", "lasso", "--lambda", l, "--format", "json", data)
			require.Equal(t, 0, res.code, res.stderr)
			var out struct {
				Converged bool   `json:"converged"`
				Relaxed   bool   `json:"relaxed"`
				RelaxNote string `json:"relax_note"`
			}
			require.NoError(t, json.Unmarshal([]byte(res.stdout), &out), res.stdout)
			if out.Relaxed {
				continue
			}
			said++
			require.False(t, out.Converged, "seed %d λ %s", seed, l)
			require.Contains(t, out.RelaxNote, "no unique solution", "seed %d λ %s", seed, l)
			require.Contains(t, res.stderr, "warning: --relax: the least-squares refit on the clusters has no unique solution")
		}
	}
	require.Greater(t, said, 0, "no seed gave a singular refit")
	t.Logf("%d singular refits said", said)
}

// TestRelaxPathLabelled: path --relax printed the penalised fits'
// objective beside the refits' coefficients and deviance ratio, one row
// per λ, with nothing to tell them apart from a plain path. Its CSV now
// has a column relaxed after converged (true where the coefficients are
// the refit's); a plain path has none.
func TestRelaxPathLabelled(t *testing.T) {
	data := "../../examples/cardinality.csv"
	plain := cardreg(t, "path", "--nlambda", "6", data)
	require.Equal(t, 0, plain.code, plain.stderr)
	require.True(t, strings.HasPrefix(plain.stdout, "lambda,objective,distinct_values,converged,x1,"), plain.stdout)
	relaxed := cardreg(t, "path", "--relax", "--nlambda", "6", data)
	require.Equal(t, 0, relaxed.code, relaxed.stderr)
	lines := strings.Split(strings.TrimSpace(relaxed.stdout), "\n")
	require.True(t, strings.HasPrefix(lines[0], "lambda,objective,distinct_values,converged,relaxed,x1,"), lines[0])
	for _, l := range lines[1:] {
		require.Equal(t, "true", strings.Split(l, ",")[4], l)
	}
	sep := writeFile(t, t.TempDir(), "sep.csv", thresholdCSV(100, 0))
	res := cardreg(t, "path", "--family", "binomial", "--relax", "--penalty", "lasso", "--target", "y", "--nlambda", "10", sep)
	require.Equal(t, 0, res.code, res.stderr)
	lines = strings.Split(strings.TrimSpace(res.stdout), "\n")
	require.True(t, strings.HasPrefix(lines[0], "lambda,objective,distinct_values,converged,relaxed,dev_ratio,x1"), lines[0])
	for _, l := range lines[2:] {
		require.Equal(t, "false,false", strings.Join(strings.Split(l, ",")[3:5], ","), "a separable refit is not used: %s", l)
	}
}

// zeroedGaussian is a small gaussian data set that λ 50 with the lasso
// zeroes entirely.
const zeroedGaussian = `
x1,x2,y
0.0947,1.2500,-0.9030
0.9924,-0.2592,0.0362
1.8997,0.1575,0.5270
0.7295,1.1269,0.1880
0.5880,-0.9737,-0.1904
-0.4381,-1.3323,-1.6400
-1.6269,-0.2387,-0.6605
-0.3203,0.0691,-1.4317
-0.0795,0.2381,0.7272
-0.8462,-0.3999,-2.2690
-0.5036,-2.1967,-1.5705
1.1015,-2.2016,1.1290
0.3279,-0.3123,0.5577
0.5275,1.0454,-0.0721
-0.5922,-0.6046,-1.1641
-0.0449,-0.7858,1.0551
-1.8694,-1.0937,-1.5140
-2.0929,1.9023,-3.0362
-0.2833,-0.5252,1.5709
-1.9854,1.0718,-1.3270
-0.1552,-0.6710,0.5939
-1.1376,-0.0789,0.0121
1.8403,-2.4053,2.0772
0.9481,-0.4836,0.5894
-0.4660,1.6467,0.0698
-0.2156,-0.2281,-0.2645
-0.1766,-0.8790,2.0054
-1.9110,-3.6058,-0.6961
-0.1466,0.3724,-0.2485
-0.1481,0.3323,0.9240
`

// TestRelaxZeroModelR2 checks a relaxed fit whose penalised fit zeroes
// every coefficient: that fit is the intercept alone, whose R² is 0 by
// definition, not the loss's rounding (−2.2e−16, printed "-0.000000", or
// 1.1e−16), and relaxed_fields names only fields the output holds (no
// "factors" without factors).
func TestRelaxZeroModelR2(t *testing.T) {
	path := writeFile(t, t.TempDir(), "g.csv", strings.TrimPrefix(zeroedGaussian, "\n"))
	args := []string{"fit", "--relax", "--lambda", "50", "--penalty", "lasso", path}
	res := cardreg(t, append(args, "--format", "json")...)
	require.Equal(t, 0, res.code, res.stderr)
	var out struct {
		Coefficients  []float64 `json:"coefficients"`
		R2            *float64  `json:"r2"`
		RelaxedFields []string  `json:"relaxed_fields"`
		Penalized     struct {
			R2       *float64 `json:"r2"`
			DevRatio *float64 `json:"dev_ratio"`
		} `json:"penalized"`
	}
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &out))
	require.Equal(t, []float64{0, 0}, out.Coefficients)
	require.NotNil(t, out.Penalized.R2)
	require.Zero(t, *out.Penalized.R2)
	require.Zero(t, *out.Penalized.DevRatio)
	require.Zero(t, *out.R2)
	require.NotContains(t, out.RelaxedFields, "factors")
	require.Contains(t, out.RelaxedFields, "r2")
	text := cardreg(t, args...)
	require.Equal(t, 0, text.code, text.stderr)
	require.Contains(t, text.stdout, "(its R² 0.000000)")
}
