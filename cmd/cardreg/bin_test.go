package main

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// bandsByHand labels each value of x by its band among k quantile bands
// (R's quantile type 1: the ⌈j·n/k⌉-th smallest value, j = 1…k−1, tied
// cut points once, none at the largest value), the labels in order: b00,
// b01, … (the bands' own names hold a comma, which --ordinal's list
// cannot), and the bands' names.
func bandsByHand(x []float64, k int) ([]string, []string) {
	s := slices.Sorted(slices.Values(x))
	var cuts []float64
	for j := 1; j < k; j++ {
		c := s[int(math.Ceil(float64(j*len(s))/float64(k)))-1]
		if c < s[len(s)-1] && !slices.Contains(cuts, c) {
			cuts = append(cuts, c)
		}
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	order := []string{"(-Inf," + f(cuts[0]) + "]"}
	for i := 1; i < len(cuts); i++ {
		order = append(order, "("+f(cuts[i-1])+","+f(cuts[i])+"]")
	}
	order = append(order, "("+f(cuts[len(cuts)-1])+",Inf)")
	labels := make([]string, len(x))
	for i, v := range x {
		labels[i] = fmt.Sprintf("b%02d", sort.SearchFloat64s(cuts, v))
	}
	return labels, order
}

// bandNames are the names b00, b01, … of k bands.
func bandNames(k int) []string {
	out := make([]string, k)
	for i := range out {
		out[i] = fmt.Sprintf("b%02d", i)
	}
	return out
}

// --bin NAME=K fits the ordinal factor of the column's quantile bands: the
// same fit as the bands labelled by hand in the file, read as an ordinal
// text factor in the bands' order; --bin NAME=e1,… the bands given; a
// saved model predicts new rows from their numbers at the same cut points.
func TestBinEqualsBandsByHand(t *testing.T) {
	dir := t.TempDir()
	data, _, _ := stdData(t, dir, "")
	d := loadTextCSV(t, data)
	col := func(name string) []float64 {
		out := make([]float64, len(d.rows))
		for i, r := range d.rows {
			v, err := strconv.ParseFloat(r[d.index[name]], 64)
			require.NoError(t, err)
			out[i] = v
		}
		return out
	}
	bonus, bonusOrder := bandsByHand(col("bonus"), 10)
	density, densityOrder := bandsByHand(col("density"), 4)
	var b strings.Builder
	b.WriteString("region,vehicle_age,fuel,driver_age,bonus,density,log_exposure,claims\n")
	for i, r := range d.rows {
		b.WriteString(strings.Join([]string{r[d.index["region"]], r[d.index["vehicle_age"]], r[d.index["fuel"]], r[d.index["driver_age"]],
			bonus[i], density[i], r[d.index["log_exposure"]], r[d.index["claims"]]}, ",") + "\n")
	}
	banded := writeFile(t, dir, "banded.csv", b.String())
	common := []string{"--family", "poisson", "--offset", "log_exposure", "--ordinal", policiesOrder, "--penalty", "lasso", "--lambda", "4"}
	got, _ := fitStd(t, append(slices.Clone(common), "--drop", "exposure", "--bin", "bonus=10", "--bin", "density=4", data)...)
	want, _ := fitStd(t, append(slices.Clone(common), "--ordinal", "bonus="+strings.Join(bandNames(len(bonusOrder)), ","),
		"--ordinal", "density="+strings.Join(bandNames(len(densityOrder)), ","), banded)...)
	renamed := slices.Clone(want.Names)
	for j, name := range renamed {
		for _, c := range []struct {
			col   string
			order []string
		}{{"bonus", bonusOrder}, {"density", densityOrder}} {
			if level, ok := strings.CutPrefix(name, c.col+"=b"); ok {
				k, _ := strconv.Atoi(level)
				renamed[j] = c.col + "=" + c.order[k]
			}
		}
	}
	require.Equal(t, renamed, got.Names)
	require.Equal(t, want.Coefficients, got.Coefficients)
	require.Equal(t, want.Intercept, got.Intercept)
	require.Len(t, want.Factors, 5)

	// Given cut points, and predict from the saved model on the numbers.
	model := filepath.Join(dir, "model.json")
	res := cardreg(t, append(append([]string{"fit"}, common...), "--drop", "exposure", "--bin", "bonus=80,100.0,120", "--save-model", model, data)...)
	require.Equal(t, 0, res.code, res.stderr)
	pred := cardreg(t, "predict", "--model", model, "--type", "link", data)
	require.Equal(t, 0, pred.code, pred.stderr)
	band := func(column, cell string) string {
		if column != "bonus" {
			return cell
		}
		v, _ := strconv.ParseFloat(cell, 64)
		return []string{"(-Inf,80]", "(80,100]", "(100,120]", "(120,Inf)"}[sort.SearchFloat64s([]float64{80, 100, 120}, v)]
	}
	requireClose(t, linkByHand(t, model, data, band), predictions(t, pred.stdout))
	bad := writeFile(t, dir, "bad.csv", "region,vehicle_age,fuel,driver_age,bonus,density,log_exposure\nR01,0-2,Diesel,0.1,abc,100,0\n")
	pred = cardreg(t, "predict", "--model", model, bad)
	require.Equal(t, 1, pred.code)
	require.Contains(t, pred.stderr, `column "bonus": "abc" is not a number (the model bins this column's numbers`)
}

// --bin refuses what it cannot do, with one line; quantile bands fewer
// than asked (ties) are said on stderr.
func TestBinRefusals(t *testing.T) {
	dir := t.TempDir()
	data, _, _ := stdData(t, dir, "")
	base := []string{"fit", "--family", "poisson", "--offset", "log_exposure", "--drop", "exposure", "--lambda", "4"}
	for bin, msg := range map[string]string{
		"bonus=1":           "at least 2 bands",
		"bonus=102":         "102 bands asked of a column with 101 distinct values",
		"bonus=100,90":      "the cut points must increase strictly",
		"bonus=NaN":         "not a finite number",
		"region=3":          "holds text (a factor already)",
		"claims=3":          "which is never a factor",
		"bonus=1000.0":      "the band (1000,Inf) holds no row",
		"bonus":             "give NAME=K",
		"vehicle_age=20.5,": "is not a number",
	} {
		res := cardreg(t, append(slices.Clone(base), "--bin", bin, data)...)
		require.NotEqual(t, 0, res.code, bin)
		require.Contains(t, res.stderr, msg, bin)
		require.Equal(t, 1, strings.Count(strings.TrimSpace(res.stderr), "\n")+1, "%s: %s", bin, res.stderr)
	}
	res := cardreg(t, append(slices.Clone(base), "--bin", "bonus=3", "--stream", data)...)
	require.NotEqual(t, 0, res.code)
	require.Contains(t, res.stderr, "--bin")
	// driver_age rounded to one decimal has many ties at 0.
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := range 200 {
		x := 0
		if i%5 == 0 {
			x = i
		}
		b.WriteString(strconv.Itoa(x) + "," + strconv.Itoa(i%7) + "\n")
	}
	ties := writeFile(t, dir, "ties.csv", b.String())
	res = cardreg(t, "fit", "--bin", "x=10", "--lambda", "1", ties)
	require.Equal(t, 0, res.code, res.stderr)
	require.Contains(t, res.stderr, "cardreg fit: note: --bin x=10: 3 bands made of the 10 asked: tied values are never split")
}
