package main

import (
	"fmt"
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
// only zero counts) is named with the cause and what to do; before, the
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
		"fold 1 of 3 has only zero counts", "all 3 of the 90 rows", "--foldid")
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
	oneLine(t, res, 2, "cardreg cv: a streamed cross-validation cannot score")
	require.NotContains(t, res.stderr, "cv: cv:")
}
