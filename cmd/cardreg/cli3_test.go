package main

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/membudget"
	"github.com/stretchr/testify/require"
)

// TestNetRefusesUnderflowingFloats: a float flag of net that is not zero
// but rounds to 0 (1e-400) is a usage error naming the flag and the
// number, not silently 0 (no penalty, no validation rows).
func TestNetRefusesUnderflowingFloats(t *testing.T) {
	dir := t.TempDir()
	data := writeClasses(t, dir)
	for _, c := range [][]string{
		{"--penalty", "lasso", "--lambda", "1e-400"},
		{"--penalty", "lasso", "--lambda=-1E-999"},
		{"--validation", "0.0000e-330"},
		{"--validation", "1e-400"},
		{"--lr", "2e-324"},
		{"--lr", "0x1p-2000"},
		{"--validation", "0X1.8P-1100"},
		{"--penalty", "cardinality", "--lambda", "1", "--nu", "1e-400"},
	} {
		res := cardreg(t, append(append([]string{"net", "--arch", "3,4,1", "--epochs", "1"}, c...), data)...)
		if c[len(c)-1] == "0.0000e-330" {
			// A zero typed as zero is zero.
			require.Equal(t, 0, res.code, "%v: %s", c, res.stderr)
			continue
		}
		require.Equal(t, 2, res.code, "%v: %s", c, res.stderr)
		require.Contains(t, res.stderr, "below the smallest float64", c)
		require.Equal(t, 1, strings.Count(strings.TrimSpace(res.stderr), "\n")+1, res.stderr)
	}
	res := cardreg(t, "net", "--arch", "3,4,1", "--epochs", "1", "--penalty", "lasso", "--lambda", "1e-300", data)
	require.Equal(t, 0, res.code, res.stderr)
	// --nu is the same flag type in fit.
	res = cardreg(t, "fit", "--lambda", "1", "--nu", "1e-400", data)
	require.Equal(t, 2, res.code, res.stderr)
	require.Contains(t, res.stderr, "1e-400 is below the smallest float64")
	// fit's --lambda: hexadecimal numbers too (the mantissa test missed them).
	res = cardreg(t, "fit", "--lambda", "0x1p-2000", data)
	oneLine(t, res, 2, "--lambda 0x1p-2000 is below the smallest float64")
}

// TestOutweighingWeightNamesRowOnce: one weight outweighing all the others
// was reported as "FILE: data row 3, column "w": the weight 1e+308 of data
// row 3 …" (streamed) or "FILE:4: … of data row 3" (in memory). Now the
// row is named once, by its line where the rows are in memory, on every
// route and family.
func TestOutweighingWeightNamesRowOnce(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x1,x2,w,y\n")
	for i := range 60 {
		w := "1"
		if i == 2 {
			w = "1e18"
		}
		fmt.Fprintf(&b, "%v,%v,%s,%d\n", math.Sin(float64(i)), math.Cos(float64(3*i)), w, i%4)
	}
	data := writeFile(t, dir, "heavy.csv", b.String())
	for _, c := range []struct {
		args  []string
		where string
	}{
		{[]string{"fit", "--lambda", "1", "--stream"}, ": data row 3, "},
		{[]string{"fit", "--lambda", "1", "--stream=false"}, ": data row 3, "}, // gaussian: statistics in one pass
		{[]string{"fit", "--lambda", "1", "--family", "poisson", "--stream"}, ": data row 3, "},
		{[]string{"fit", "--lambda", "1", "--family", "poisson", "--stream=false"}, ":4: "},
		{[]string{"cv", "--nlambda", "5", "--family", "poisson", "--stream"}, ": data row 3, "},
		{[]string{"cv", "--nlambda", "5", "--family", "poisson", "--stream=false"}, ":4: "},
	} {
		args := append(append(c.args, "--weights", "w"), data)
		res := cardreg(t, args...)
		oneLine(t, res, 1, data+c.where+`column "w": the weight 1e+18 outweighs all the others`, "(--weights)")
		require.NotContains(t, res.stderr, "of data row", args)
	}
}

// TestDBFoldColumnNull: a NULL in the --foldid column of a database
// source said "sqlstats: the fold column f holds NULL" with no way out;
// a fold column of NULLs only said strconv's "parsing \N". Now both say
// what to do, in one line.
func TestDBFoldColumnNull(t *testing.T) {
	schema := "x1\tf\ty\nFloat64\tNullable(UInt8)\tFloat64\n"
	means := "0\t4\t0\t0\t4\t1\t2\n1\t4\t0\t0\t4\t1\t2\n2\t4\t0\t0\t4\t1\t2\n\\N\t3\t0\t0\t3\t1\t2\n"
	url, _ := fakeClickHouse(t, map[string]string{schemaQuery: schema, "SELECT max(`f`)": "3\n", "count(*)": means})
	res := cardreg(t, "cv", "--db", url, "--table", "t", "--foldid", "f")
	oneLine(t, res, 1, `the fold column "f": 3 rows hold NULL, not a fold (from the server)`,
		"leave those rows out with --query 'SELECT * FROM … WHERE `f` IS NOT NULL'")
	require.Contains(t, res.stderr, "or give those rows a fold 1…K in column f")
	url, _ = fakeClickHouse(t, map[string]string{schemaQuery: schema, "SELECT max(`f`)": "\\N\n"})
	res = cardreg(t, "cv", "--db", url, "--table", "t", "--foldid", "f")
	oneLine(t, res, 1, "--foldid f: the fold column holds no fold, only NULL", "leave out --foldid")
	require.NotContains(t, res.stderr, "strconv")
}

// TestNetMemoryBudget: net checked --arch against its own budget (half the
// memory, 64 GiB when unknown), not membudget.Of, and had no --memory.
// Now it takes --memory, the cgroup-aware default (TestNetMemoryCgroup)
// and the message of the other commands.
func TestNetMemoryBudget(t *testing.T) {
	dir := t.TempDir()
	data := writeClasses(t, dir)
	arch := []string{"net", "--arch", "3,20000,1", "--epochs", "1"}
	res := cardreg(t, append(arch, "--memory", "1MB", data)...)
	oneLine(t, res, 2, "--arch [3 20000 1] needs about", "more than --memory 1 MB")
	res = cardreg(t, "net", "--arch", "3,4,1", "--epochs", "1", "--memory", "1GB", data)
	require.Equal(t, 0, res.code, res.stderr)
	err := checkNetMemory([]int{100000, 100000, 1}, 10, membudget.Budget{}.OrAssumed())
	require.ErrorContains(t, err, "more than 68.7 GB (assumed: the machine's memory is unknown; --memory sets it)")
	require.NoError(t, checkNetMemory([]int{3, 4, 1}, 10, membudget.Budget{}.OrAssumed()))
}

// TestProgressWorksOrIsRefused: --progress did nothing for a fit at one
// λ and for binomial or Poisson fits in memory. Now it draws a bar where
// there are steps (folds, λ values, passes over the file) and is a usage
// error where there are none, naming what would draw one.
func TestProgressWorksOrIsRefused(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x1,x2,y\n")
	for i := range 60 {
		fmt.Fprintf(&b, "%v,%v,%d\n", math.Sin(float64(i)), math.Cos(float64(3*i)), i%4)
	}
	data := writeFile(t, dir, "counts.csv", b.String())
	for _, c := range []struct {
		args []string
		bar  string // drawn on stderr; "" when refused
		why  string
	}{
		{[]string{"fit", "--lambda", "1"}, "", "has no steps to show in a fit at one lambda (--lambda 1)"},
		{[]string{"fit", "--lambda", "theory"}, "", "has no steps to show in a fit at one lambda (--lambda theory)"},
		{[]string{"fit", "--family", "poisson", "--lambda", "1"}, "", "is not drawn yet for a poisson fit in memory (the glm package reports no steps): add --stream"},
		{[]string{"fit", "--family", "poisson", "--lambda", "cv"}, "", "is not drawn yet for a poisson fit in memory (the glm package reports no steps)\n"},
		{[]string{"path", "--family", "poisson", "--nlambda", "5"}, "", "is not drawn yet for a poisson fit in memory (the glm package reports no steps): add --stream"},
		{[]string{"cv", "--offset", "x2", "--nlambda", "5"}, "", "is not drawn yet for a gaussian fit in memory"},
		{[]string{"fit", "--lambda", "1", "--stream"}, "streaming", ""},
		{[]string{"fit", "--family", "poisson", "--lambda", "1", "--stream"}, "streaming", ""},
		{[]string{"cv", "--family", "poisson", "--nlambda", "3", "--stream"}, "streaming", ""},
		{[]string{"fit", "--lambda", "cv"}, "cross-validating", ""},
		{[]string{"path", "--nlambda", "5"}, "fitting the path", ""},
	} {
		res := cardreg(t, append(append(c.args, "--progress"), data)...)
		if c.bar == "" {
			oneLine(t, res, 2, "--progress "+c.why)
			// Without --progress (or with =false) the same fit runs.
			res = cardreg(t, append(append(c.args, "--progress=false"), data)...)
			require.Equal(t, 0, res.code, "%v: %s", c.args, res.stderr)
			continue
		}
		require.Equal(t, 0, res.code, "%v: %s", c.args, res.stderr)
		require.Contains(t, res.stderr, c.bar, c.args)
	}
}
