package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// rareCSV returns n rows a,b,fold,y with y = hi on the rows in rare and 0
// elsewhere, fold ids 1…3 dealt in turn except that the rare rows are all
// in fold 1.
func rareCSV(n int, rare []int, hi int) string {
	r := rand.New(rand.NewPCG(4, 4))
	var b strings.Builder
	b.WriteString("a,b,fold,y\n")
	for i := range n {
		y, fold := 0, 1+i%3
		for _, k := range rare {
			if i == k {
				y, fold = hi, 1
			}
		}
		fmt.Fprintf(&b, "%.4f,%.4f,%d,%d\n", r.NormFloat64(), r.NormFloat64(), fold, y)
	}
	return b.String()
}

// TestCVOneClassFold: a fold whose training rows hold one class only (or
// only zero responses) is named with the cause and what to do; before, the
// message was "glm: fold 2: datafit: every binomial response is 0: …"
// (streamed: "glm: fold 5: glm: the intercept-only model did not
// converge (separable data?)").
func TestCVOneClassFold(t *testing.T) {
	dir := t.TempDir()
	one := writeFile(t, dir, "one.csv", rareCSV(200, []int{50}, 1))
	for _, extra := range [][]string{nil, {"--stream"}, {"--folds", "3", "--seed", "9"}} {
		args := append([]string{"cv", "--family", "binomial", "--drop", "fold"}, extra...)
		res := cardreg(t, append(args, one)...)
		oneLine(t, res, 1, "one.csv: glm: fold ", "has only y = 0 in its training rows", "the only row of the 200 with another response is in fold", "needs at least 2 such rows")
		require.NotContains(t, res.stderr, "glm: glm:")
	}
	two := writeFile(t, dir, "two.csv", rareCSV(90, []int{4, 40}, 1))
	oneLine(t, cardreg(t, "cv", "--family", "binomial", "--foldid", "fold", two), 1,
		"fold 1 of 3 has only y = 0", "all 2 of the 90 rows with another response are in fold 1", "stratified", "--foldid")
	counts := writeFile(t, dir, "counts.csv", rareCSV(90, []int{4, 40, 41}, 3))
	oneLine(t, cardreg(t, "cv", "--family", "poisson", "--foldid", "fold", counts), 1,
		"fold 1 of 3 has only zero responses", "all 3 of the 90 rows", "--foldid")
	// The same data with the rare rows spread: no error.
	spread := strings.Replace(rareCSV(90, []int{4, 40}, 1), "1,1\n", "2,1\n", 1)
	res := cardreg(t, "cv", "--family", "binomial", "--foldid", "fold", writeFile(t, dir, "spread.csv", spread))
	require.Equal(t, 0, res.code, res.stderr)
}

// TestNoDoubledPrefix: "cardreg cv: cv: a streamed …" said the command
// twice.
func TestNoDoubledPrefix(t *testing.T) {
	dir := t.TempDir()
	one := writeFile(t, dir, "one.csv", rareCSV(60, []int{5, 9}, 1))
	res := cardreg(t, "cv", "--family", "binomial", "--stream", "--type-measure", "auc", "--drop", "fold", one)
	oneLine(t, res, 2, "cardreg cv: --type-measure auc cannot score a streamed cross-validation")
	require.NotContains(t, res.stderr, "cv: cv:")
}

// separableCSV returns n rows x,z,g,y,c: y = [x > 0] (separated by x) and
// counts c that are 0 exactly where the 0/1 column g is 1.
func separableCSV(n int) string {
	r := rand.New(rand.NewPCG(8, 1))
	var b strings.Builder
	b.WriteString("x,z,g,y,c\n")
	for i := range n {
		x, y, g, c := r.NormFloat64(), 0, 0, 1+r.IntN(4)
		if x > 0 {
			y = 1
		}
		if i%4 == 0 {
			g, c = 1, 0
		}
		fmt.Fprintf(&b, "%.4f,%.4f,%d,%d,%d\n", x, r.NormFloat64(), g, y, c)
	}
	return b.String()
}

// TestRelaxSeparationCLI: --relax on separable data printed the diverged
// refit (coefficients in the hundreds) as converged, with no warning; now
// converged is false, status and relax_note say why, one warning line.
func TestRelaxSeparationCLI(t *testing.T) {
	path := writeFile(t, t.TempDir(), "sep.csv", separableCSV(100))
	for _, c := range []struct {
		args []string
		note string
	}{
		{[]string{"--family", "binomial", "--target", "y", "--drop", "c,g", "--lambda", "0.5"}, "fitted probabilities numerically 0 or 1 occurred"},
		{[]string{"--family", "binomial", "--target", "y", "--drop", "c,g", "--lambda", "0.5", "--penalty", "lasso"}, "fitted probabilities numerically 0 or 1 occurred"},
		{[]string{"--family", "poisson", "--target", "c", "--drop", "y", "--lambda", "1"}, "fitted rates numerically 0 occurred"},
	} {
		args := append(append([]string{"fit", "--relax", "--format", "json"}, c.args...), path)
		res := cardreg(t, args...)
		require.Equal(t, 0, res.code, res.stderr)
		var out struct {
			Converged    bool      `json:"converged"`
			Relaxed      bool      `json:"relaxed"`
			Status       string    `json:"status"`
			RelaxNote    string    `json:"relax_note"`
			Coefficients []float64 `json:"coefficients"`
		}
		require.NoError(t, json.Unmarshal([]byte(res.stdout), &out), res.stdout)
		require.False(t, out.Converged, "%v", c.args)
		require.False(t, out.Relaxed, "%v", c.args)
		require.Contains(t, out.RelaxNote, c.note)
		require.Contains(t, out.Status, "does not exist")
		require.Equal(t, 1, strings.Count(res.stderr, "\n"), res.stderr)
		require.Contains(t, res.stderr, "warning: --relax: "+c.note)
		for _, b := range out.Coefficients {
			require.Less(t, math.Abs(b), 50.0, "the penalised fit's coefficients, not a diverged refit's")
		}
	}
}
