package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// gammaCSV returns n rows x1,x2,y,off of a gamma response times scale,
// with row 1's response set to first when first > 0 and row 1's offset
// to off1.
func gammaCSV(n int, scale, first, off1 float64) string {
	r := rand.New(rand.NewPCG(6, 6))
	var b strings.Builder
	b.WriteString("x1,x2,y,off\n")
	for i := range n {
		x1, x2 := r.NormFloat64(), r.NormFloat64()
		y := scale * math.Exp(0.5+0.3*x1-0.2*x2) * (r.ExpFloat64() + r.ExpFloat64()) / 2
		o := 0.0
		if i == 0 {
			o = off1
			if first > 0 {
				y = first
			}
		}
		fmt.Fprintf(&b, "%g,%g,%g,%g\n", x1, x2, y, o)
	}
	return b.String()
}

// poissonOffCSV returns n rows x1,x2,y,off of counts 0…4, row 1's offset
// off1 and the others' 0.
func poissonOffCSV(n int, off1 float64) string {
	r := rand.New(rand.NewPCG(7, 7))
	var b strings.Builder
	b.WriteString("x1,x2,y,off\n")
	for i := range n {
		o := 0.0
		if i == 0 {
			o = off1
		}
		fmt.Fprintf(&b, "%g,%g,%d,%g\n", r.NormFloat64(), r.NormFloat64(), r.IntN(5), o)
	}
	return b.String()
}

// TestExtremeGammaPoissonCLI: a gamma response 1e300 among ones gave
// "backtracking found no step" in memory and "the intercept-only model did
// not converge (separable data?)" streamed; a Poisson offset of 700 among
// zeros the same; and a streamed gamma ×1e300 was refused though the fit
// in memory handles it. Now the first two are refused up front naming the
// file, line and column, in memory and streamed, and the third fits
// streamed as in memory.
func TestExtremeGammaPoissonCLI(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, csv, family, column string
	}{
		{"gamma 1e300", gammaCSV(200, 1, 1e300, 0), "gamma", `y`},
		{"gamma offset -700", gammaCSV(200, 1, 0, -700), "gamma", `off`},
		{"poisson offset 700", poissonOffCSV(200, 700), "poisson", `off`},
	} {
		data := writeFile(t, dir, strings.ReplaceAll(c.name, " ", "_")+".csv", c.csv)
		for _, stream := range []bool{false, true} {
			args := []string{"fit", "--family", c.family, "--target", "y", "--offset", "off", "--lambda", "1"}
			if stream {
				args = append(args, "--stream")
			}
			res := cardreg(t, append(args, data)...)
			what := fmt.Sprintf("%s stream %v", c.name, stream)
			require.Equal(t, 1, res.code, "%s: %s", what, res.stdout)
			require.Contains(t, res.stderr, `column "`+c.column+`"`, what)
			require.Contains(t, res.stderr, "outweighs all the other rows' together", what)
			if stream {
				require.Contains(t, res.stderr, "data row 1", what)
			} else {
				require.Contains(t, res.stderr, ".csv:2:", what)
			}
		}
	}
	data := writeFile(t, dir, "scaled.csv", gammaCSV(200, 1e300, 0, 0))
	var icpt [2]string
	for k, stream := range []bool{false, true} {
		args := []string{"fit", "--family", "gamma", "--target", "y", "--drop", "off", "--lambda", "1", "--format", "csv"}
		if stream {
			args = append(args, "--stream")
		}
		res := cardreg(t, append(args, data)...)
		require.Equal(t, 0, res.code, res.stderr)
		require.Empty(t, res.stderr)
		icpt[k] = strings.Split(strings.Split(res.stdout, "\n")[1], ",")[2]
	}
	require.Equal(t, icpt[0][:8], icpt[1][:8], "the intercepts in memory and streamed")
}

// TestGammaSpreadNamesLines checks that the gamma spread refusal names
// the other row in the unit of its prefix: a file line in memory (line
// 12 beside "data row 12" read as one row), a data row when streamed.
func TestGammaSpreadNamesLines(t *testing.T) {
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := 0; i < 20; i++ {
		y := []string{"1", "1.1", "0.9"}[i%3]
		switch i {
		case 10:
			y = "1e-300"
		case 11:
			y = "1e300"
		}
		fmt.Fprintf(&b, "%d,%s\n", i%4, y)
	}
	path := writeFile(t, t.TempDir(), "gspread.csv", b.String())
	res := cardreg(t, "fit", "--family", "gamma", "--lambda", "1", path)
	require.NotEqual(t, 0, res.code)
	require.Contains(t, res.stderr, "gspread.csv:12: column \"y\": y·e^−o is e^-690.8, e^1382 below line 13's (e^690.8)")
	res = cardreg(t, "fit", "--family", "gamma", "--lambda", "1", "--stream", path)
	require.NotEqual(t, 0, res.code)
	require.Contains(t, res.stderr, "data row 11, column \"y\": y·e^−o is e^-690.8, e^1382 below data row 12's")
}
