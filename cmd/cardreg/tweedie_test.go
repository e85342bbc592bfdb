package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/rtest"
	"github.com/cardsparse/cardreg/sqlstats"
	"github.com/stretchr/testify/require"
)

// tweedieCSV writes n rows of Tweedie (p = 1.5) data, x1…x4, a weight w,
// an offset off, a factor f of four levels (when factor) and the response y (zeros and
// compound Poisson–gamma amounts), and returns its path; without f when
// factor is false (R's reference reads every other column as a predictor).
func tweedieCSV(t *testing.T, dir string, n int, factor bool) string {
	r := rand.New(rand.NewPCG(15, 2))
	var b strings.Builder
	b.WriteString("x1,x2,x3,x4,w,off,")
	if factor {
		b.WriteString("f,")
	}
	b.WriteString("y\n")
	for range n {
		x := []float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		lev := r.IntN(4)
		off := 0.2 * r.NormFloat64()
		eta := -0.2 + 0.5*x[0] - 0.4*x[2] + 0.3*float64(lev%2) + off
		mu := math.Exp(eta)
		rate := math.Sqrt(mu) / 0.5 // μ^(2−p)/(2−p)
		y := 0.0
		for q, l := r.Float64(), math.Exp(-rate); q > l; q *= r.Float64() {
			y += r.ExpFloat64() * mu / rate
		}
		fmt.Fprintf(&b, "%v,%v,%v,%v,%v,%v,", x[0], x[1], x[2], x[3], 0.5+r.Float64(), off)
		if factor {
			fmt.Fprintf(&b, "L%d,", lev)
		}
		fmt.Fprintf(&b, "%v\n", y)
	}
	name := "tweedie.csv"
	if factor {
		name = "tweedie-factor.csv"
	}
	return writeFile(t, dir, name, b.String())
}

// TestTweedieCLI runs --family tweedie:1.5 on the command line's routes:
// the lasso with weights and an offset equals R glmnet(family =
// statmod::tweedie(var.power = 1.5, link.power = 0)) at λ_glmnet = λ/(2n)
// to 1e-7 when R and statmod are there; the streamed fit is the in-memory
// one; the saved model keeps the family's name with its power, and
// predict gives e^η; cv, path, relax and --factor fit, naming the family
// with its power.
func TestTweedieCLI(t *testing.T) {
	dir := t.TempDir()
	data := tweedieCSV(t, dir, 400, false)
	model := filepath.Join(dir, "m.json")
	args := []string{"--family", "tweedie:1.5", "--weights", "w", "--offset", "off", "--penalty", "lasso", "--lambda", "20", "--tol", "1e-13"}
	out := glmFitJSON(t, append(args, "--save-model", model, data)...)
	require.Equal(t, "tweedie:1.5", out.Family)
	require.Equal(t, "log", out.Link)
	require.LessOrEqual(t, out.Gap, 1e-13)
	got := append([]float64{out.Intercept}, out.Coefficients...)

	streamed := glmFitJSON(t, append(args[:len(args)-2], "--stream", data)...)
	require.Equal(t, "tweedie:1.5", streamed.Family)
	require.InEpsilon(t, out.Objective, streamed.Objective, 1e-9)
	require.InDeltaSlice(t, got, append([]float64{streamed.Intercept}, streamed.Coefficients...), 1e-5)

	var saved struct {
		Family, Link string
	}
	raw := cardreg(t, "predict", "--model", model, data) // the model reads back
	require.Equal(t, 0, raw.code, raw.stderr)
	buf, err := os.ReadFile(model)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(buf, &saved))
	require.Equal(t, "tweedie:1.5", saved.Family)
	mu, eta := predictColumn(t, "response", model, data), predictColumn(t, "link", model, data)
	require.Len(t, mu, 400)
	for i := range mu {
		require.InEpsilon(t, math.Exp(eta[i]), mu[i], 1e-12)
	}
	res := cardreg(t, "predict", "--type", "class", "--model", model, data)
	require.Equal(t, 2, res.code)
	require.Contains(t, res.stderr, "tweedie:1.5")

	for _, route := range [][]string{
		{"cv", "--family", "tweedie:1.5", "--weights", "w", "--offset", "off", "--nlambda", "20", data},
		{"cv", "--family", "tweedie:1.5", "--type-measure", "mae", "--nlambda", "20", data},
		{"path", "--family", "tweedie:1.5", "--nlambda", "20", data},
		{"fit", "--family", "tweedie:1.5", "--relax", "--penalty", "lasso", "--lambda", "cv", data},
		{"fit", "--family", "tweedie:1.5", "--factor", "f", "--weights", "w", "--lambda", "cv", tweedieCSV(t, dir, 400, true)},
	} {
		res := cardreg(t, route...)
		require.Equal(t, 0, res.code, "%v: %s", route, res.stderr)
		if route[0] == "fit" {
			require.Contains(t, res.stdout, "tweedie:1.5 (log link)", route)
		}
	}

	if !rtest.Available() {
		t.Skip("R's glmnet is not available: not compared with glmnet")
	}
	var ref []byte
	ref, err = rtest.Output("../../bench/glmfamily.R", "fit", data, "tweedie:1.5", strconv.FormatFloat(20.0/800, 'g', -1, 64), "w", "off")
	if err != nil && strings.Contains(string(ref)+err.Error(), "statmod") {
		t.Skipf("R's statmod is not available: %v", err)
	}
	require.NoError(t, err, "%s", ref)
	want := strings.Fields(string(ref))
	require.Len(t, want, 5)
	for j, s := range want {
		v, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err)
		require.InDelta(t, v, got[j], 1e-7, "coefficient %d", j)
	}
}

// TestClickHouseTweedieCV: --family tweedie:1.5 with an offset, from a
// Distributed table over two shards (--db), is fitted in rounds of scans
// and gives the in-memory cv of the same rows and folds: the same λ, curve
// (to 1e-4) and λ_min and λ_1se marks.
func TestClickHouseTweedieCV(t *testing.T) {
	u := os.Getenv("CARDREG_CLICKHOUSE_URL")
	if u == "" {
		t.Skip("no ClickHouse cluster: run scripts/clickhouse/ci.sh, or start.sh and set CARDREG_CLICKHOUSE_URL")
	}
	shards := []sqlstats.HTTP{{URL: u}, {URL: strings.Replace(u, os.Getenv("CARDREG_CLICKHOUSE_PORT1"), os.Getenv("CARDREG_CLICKHOUSE_PORT2"), 1)}}
	path := loadTable(t, shards, tweedieCSV(t, t.TempDir(), 2000, false), "tweedie", 5)
	args := []string{"cv", "--nlambda", "30", "--foldid", "fold", "--target", "y", "--family", "tweedie:1.5", "--weights", "w", "--offset", "off"}
	db := cardreg(t, append(args, "--db", u, "--table", "tweedie")...)
	require.Zero(t, db.code, db.stderr)
	mem := cardreg(t, append(args, path)...)
	require.Zero(t, mem.code, mem.stderr)
	got, want := cvCurve(t, db.stdout), cvCurve(t, mem.stdout)
	require.Len(t, got, len(want))
	for l := range want {
		require.Equal(t, want[l][0], got[l][0], "λ %d", l)
		gv, _ := strconv.ParseFloat(got[l][1], 64)
		wv, _ := strconv.ParseFloat(want[l][1], 64)
		require.InEpsilon(t, wv, gv, 1e-4, "λ %d", l)
		require.Equal(t, want[l][2], got[l][2], "λ %d", l)
	}
	t.Log(db.stderr)
}
