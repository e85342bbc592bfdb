package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// floatFlagLine matches a float flag in a command's help: "-sigma float",
// or "-nu value" (an optFloat).
var floatFlagLine = regexp.MustCompile(`(?m)^\s+-(\S+) (float|value)$`)

// Every float flag of every command refuses NaN, Inf and -Inf as a usage
// error naming the flag: NaN passed range checks such as
// --min-ratio < 0 || >= 1 and reached the solvers.
func TestFloatFlagsRefuseNonFinite(t *testing.T) {
	data := writeFile(t, t.TempDir(), "d.csv", small)
	seen := 0
	for cmd := range commands {
		help := cardreg(t, "help", cmd)
		for _, m := range floatFlagLine.FindAllStringSubmatch(help.stdout, -1) {
			if m[2] == "value" && m[1] != "nu" {
				continue // not a float
			}
			seen++
			for _, v := range []string{"NaN", "Inf", "-Inf", "+inf", "nan"} {
				args := []string{cmd, "--" + m[1], v}
				if cmd != "lambda" {
					args = append(args, data)
				}
				res := cardreg(t, args...)
				oneLine(t, res, 2, "--"+m[1]+" must be a finite number")
			}
		}
	}
	require.GreaterOrEqual(t, seen, 20, "float flags found in the help texts")
}

// A refused ratio of penalty factors names them as the user typed them,
// not rescaled (it said "factor 1 (1) is 1e+40 times factor 2 (1e-40)"
// for 1e40,1); factors scaled by one huge or tiny number fit as the
// unscaled ones (only their ratios matter) without overflow.
func TestPenaltyFactorMessageShowsTypedValues(t *testing.T) {
	data := writeFile(t, t.TempDir(), "d.csv", small)
	for _, c := range []struct{ factors, top, low string }{
		{"1e40,1", "factor 1 (1e+40)", "factor 2 (1)"},
		{"1,1e-40", "factor 1 (1)", "factor 2 (1e-40)"},
		{"3e-10,2e+300", "factor 2 (2e+300)", "factor 1 (3e-10)"},
	} {
		res := cardreg(t, "fit", "--penalty", "lasso", "--lambda", "1", "--penalty-factor", c.factors, data)
		oneLine(t, res, 2, c.top, c.low)
	}
	plain := glmFitJSON(t, "--penalty", "lasso", "--lambda", "3", "--penalty-factor", "1,2", data)
	for _, scaled := range []string{"1e300,2e300", "1e-300,2e-300"} {
		got := glmFitJSON(t, "--penalty", "lasso", "--lambda", "3", "--penalty-factor", scaled, data)
		require.InDeltaSlice(t, plain.Coefficients, got.Coefficients, 1e-9, scaled)
	}
}

// A bad weight or fold id is reported as FILE:LINE: column "NAME": WHY
// (--FLAG), the same on every route (gaussian statistics, a GLM in memory,
// streamed): it said "FILE:LINE: --weights w: …", "FILE: --foldid fid:
// data row 5: fold 0 is not an integer in 1…1000" in memory and another
// line streamed.
func TestRowMessagesNameFileLineColumn(t *testing.T) {
	dir := t.TempDir()
	rows := "x1,w,fid,y\n1,1,1,0\n2,1,2,1\n3,%s,%s,3\n4,1,2,0\n5,1,1,2\n6,1,2,1\n7,1,1,1\n"
	file := func(name, w, fold string) string {
		return writeFile(t, dir, name, fmt.Sprintf(rows, w, fold))
	}
	for _, fam := range []string{"gaussian", "poisson"} {
		for _, stream := range []string{"--stream=false", "--stream"} {
			for _, w := range [][2]string{{"-2", "-2"}, {"1e308", "1e+308"}, {"1e-320", "1e-320"}} {
				path := file("w.csv", w[0], "1")
				res := cardreg(t, "fit", "--family", fam, stream, "--lambda", "1", "--weights", "w", path)
				if w[0] == "1e-320" {
					require.Equal(t, 0, res.code, res.stderr) // it counts for nothing, on every route
					continue
				}
				where := path + ":4: "
				if (fam == "gaussian" || stream == "--stream") && w[0] == "1e308" {
					where = path + ": data row 3, " // found after a pass (gaussian: the statistics)
				}
				oneLine(t, res, 1, where+"column \"w\": ", w[1], "(--weights)")
			}
		}
		for _, fold := range []string{"0", "1.5", "1001", "-1"} {
			path := file("f.csv", "1", fold)
			res := cardreg(t, "cv", "--family", fam, "--foldid", "fid", path)
			oneLine(t, res, 1, path+":4: column \"fid\": fold ids must be integers from 1 to 1000, found "+fold+" (--foldid)")
		}
	}
	path := file("f.csv", "1", "0")
	res := cardreg(t, "cv", "--stream", "--foldid", "fid", path)
	oneLine(t, res, 1, path+":4: column \"fid\": fold ids must be integers from 1 to 1000, found 0 (--foldid)")
}

// A file of fewer than two data rows gets one plain message on every
// route; a streamed logistic or Poisson fit said "glm: 1 rows with total
// weight 1: need at least 2 rows and a total weight within float64's
// range…".
func TestTooFewRowsSameOnEveryRoute(t *testing.T) {
	dir := t.TempDir()
	one := writeFile(t, dir, "one.csv", "x1,x2,y\n1,2,1\n")
	dropped := writeFile(t, dir, "dropped.csv", "x1,x2,y\n1,2,1\n,3,0\n4,NaN,1\n")
	for _, fam := range []string{"gaussian", "poisson", "binomial"} {
		for _, stream := range []string{"--stream=false", "--stream"} {
			for _, cmd := range [][]string{{"fit", "--lambda", "1"}, {"path"}, {"cv"}} {
				args := append(slices.Clone(cmd), "--family", fam, stream)
				oneLine(t, cardreg(t, append(args, one)...), 1, one+": 1 data row; at least 2 are needed")
				res := cardreg(t, append(args, "--drop-missing", dropped)...)
				require.Equal(t, 1, res.code, res.stderr)
				require.Contains(t, res.stderr, dropped+": 1 data row; at least 2 are needed")
			}
		}
	}
}

// Numeric cells are decimal numbers only, in memory and streamed (see
// data.TestCellsAreDecimalOnly for the parser's side).
func TestCellsAreDecimalOnly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.csv")
	for _, cell := range []string{"1_000", "0x1p3", "0x10", "-0X1P-2", "+0x1.8p1", "1e5_0", "0x"} {
		require.NoError(t, os.WriteFile(path, []byte("a,y\n1,2\n"+cell+",1\n3,3\n"), 0o644))
		for _, stream := range []string{"--stream=false", "--stream"} {
			oneLine(t, cardreg(t, "fit", "--lambda", "1", stream, path), 1,
				path+`:3: column "a": "`+cell+`" is not a decimal number`)
		}
	}
}

// A model file cut short anywhere is said to be incomplete JSON (it said
// "invalid character ' ' in numeric literal" when the cut fell in a
// number), with its length; --model - reads the model from standard
// input, unless the data come from there too (it said "open -: no such
// file or directory").
func TestModelTruncatedOrFromStdin(t *testing.T) {
	dir := t.TempDir()
	good := savedExample(t, dir)
	data := "../../examples/cardinality.csv"
	cut := filepath.Join(dir, "cut.json")
	for n := 1; n < len(good)-2; n += 1 + n/7 {
		require.NoError(t, os.WriteFile(cut, good[:n], 0o644))
		oneLine(t, cardreg(t, "predict", "--model", cut, data), 1,
			cut+": is not complete JSON (truncated?): it ends inside a value at byte "+strconv.Itoa(n))
	}
	require.NoError(t, os.WriteFile(cut, good[:strings.LastIndex(string(good), "}")], 0o644))
	oneLine(t, cardreg(t, "predict", "--model", cut, data), 1, "is not complete JSON (truncated?)")

	model := writeFile(t, dir, "m.json", string(good))
	want := cardreg(t, "predict", "--model", model, data)
	require.Equal(t, 0, want.code, want.stderr)
	withStdin(t, model, func() {
		got := cardreg(t, "predict", "--model", "-", data)
		require.Equal(t, 0, got.code, got.stderr)
		require.Equal(t, want.stdout, got.stdout)
	})
	require.NoError(t, os.WriteFile(cut, good[:100], 0o644))
	withStdin(t, cut, func() {
		oneLine(t, cardreg(t, "predict", "--model", "-", data), 1, "<stdin>: is not complete JSON (truncated?)")
	})
	withStdin(t, model, func() {
		oneLine(t, cardreg(t, "predict", "--model", "-", "-"), 2, "--model -: the model cannot come from standard input when the data do too")
	})
}

// A file whose lines end in CR only (old Mac format) reads as one line: it
// was refused as 'column 6: name "y\r1.288…" holds a control or invisible
// character'. It is now named for what it is, on every reader route; CR LF
// files still read, and a CR inside a quoted name is still that name's
// fault.
func TestCROnlyLineEnds(t *testing.T) {
	dir := t.TempDir()
	cr := writeFile(t, dir, "cr.csv", strings.ReplaceAll(small, "\n", "\r"))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, err := zw.Write([]byte(strings.ReplaceAll(small, "\n", "\r")))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	crgz := writeFile(t, dir, "cr.csv.gz", gz.String())
	const why = "lines end in CR only (old Mac format)"
	for _, args := range [][]string{
		{"fit", "--lambda", "1", cr},
		{"fit", "--lambda", "1", "--stream", cr},
		{"fit", "--lambda", "1", crgz},
		{"cv", "--family", "poisson", cr},
		{"memory", cr},
		{"fit", "--penalty", "general", "--G", writeFile(t, dir, "g.csv", "1,-1\r0,1\r"), "--lambda", "1", writeFile(t, dir, "d2.csv", "a,b,y\n1,2,3\n2,1,5\n3,3,3\n")},
	} {
		oneLine(t, cardreg(t, args...), 1, why, "tr '\\r' '\\n'")
	}
	crlf := writeFile(t, dir, "crlf.csv", strings.ReplaceAll(small, "\n", "\r\n"))
	require.Equal(t, 0, cardreg(t, "fit", "--lambda", "1", crlf).code)
	quoted := writeFile(t, dir, "q.csv", "a,\"b\rc\",y\n1,2,3\n")
	res := cardreg(t, "fit", "--lambda", "1", quoted)
	oneLine(t, res, 1, "control or invisible character")
	require.NotContains(t, res.stderr, why)
	// A CR at the end of a name is trimmed, as encoding/csv's reference
	// reads it.
	trimmed := writeFile(t, dir, "t.csv", "a\r,b,y\n1,2,3\n2,1,5\n3,3,3\n4,0,1\n")
	require.Equal(t, 0, cardreg(t, "fit", "--lambda", "1", trimmed).code)
}

// --table db.t names table t of database db (each part quoted, also in
// the fold query); it was sent as the one identifier `db.t`. A name with
// an empty part is a usage error.
func TestDBTableInAnotherDatabase(t *testing.T) {
	url, queries := fakeClickHouse(t, map[string]string{schemaQuery: "x1\ty\nFloat64\tFloat64\n"})
	cardreg(t, "fit", "--lambda", "1", "--db", url, "--table", "db.t")
	require.NotEmpty(t, *queries)
	for _, q := range *queries {
		require.Contains(t, q, "FROM `db`.`t`")
	}
	for _, bad := range []string{"db.", ".t", "."} {
		oneLine(t, cardreg(t, "fit", "--lambda", "1", "--db", url, "--table", bad), 2, "--table", "DATABASE.NAME")
	}
}
