package main

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// weightedCSV writes n rows x1,x2,w,y with weight 1 but heavy at row 0
// and a response of the family ("gaussian", "binomial").
func weightedCSV(t *testing.T, name, family string, n int, heavy string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("x1,x2,w,y\n")
	for i := range n {
		x1, x2 := math.Sin(float64(i)), math.Cos(float64(3*i))
		w := "1"
		if i == 0 {
			w = heavy
		}
		y := fmt.Sprint(2*x1 - x2 + 0.3*math.Sin(float64(7*i)))
		if family == "binomial" {
			y = fmt.Sprint(i % 2)
		}
		fmt.Fprintf(&b, "%v,%v,%s,%s\n", x1, x2, w, y)
	}
	return writeFile(t, t.TempDir(), name, b.String())
}

// TestFrequencyWeightsAccepted: one row of weight 1000 among 200 ones and
// an aggregated binomial count of 1500 among ones were refused ("the
// effective sample is 1.44 rows (Kish's …)") on every route, though
// glmnet and R fit them. Now only weights whose others sum below the
// largest's rounding are refused (TestOutweighingWeightNamesRowOnce);
// these fit, in memory and streamed, and cross-validate.
func TestFrequencyWeightsAccepted(t *testing.T) {
	for _, c := range []struct {
		family, heavy string
		n             int
	}{
		{"gaussian", "1000", 201},
		{"gaussian", "1e15", 60},
		{"binomial", "1500", 60},
		{"poisson", "1000", 60},
	} {
		fam := c.family
		if fam == "poisson" {
			fam = "binomial" // counts 0 and 1 serve both
		}
		data := weightedCSV(t, "freq.csv", fam, c.n, c.heavy)
		for _, args := range [][]string{
			{"fit", "--lambda", "0.1"},
			{"fit", "--lambda", "0.1", "--stream"},
			{"cv", "--nlambda", "5"},
			{"cv", "--nlambda", "5", "--stream"},
		} {
			a := append(append(args, "--family", c.family, "--weights", "w"), data)
			res := cardreg(t, a...)
			require.Equal(t, 0, res.code, "%v: %s", a, res.stderr)
			require.NotContains(t, res.stderr, "outweighs", a)
		}
	}
}
