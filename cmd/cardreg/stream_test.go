package main

import (
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// --stream keeps only the statistics, and gives the fit, the path and the
// CV curve of the rows in memory.
func TestStreamEqualsMemory(t *testing.T) {
	data := "../../examples/cardinality.csv"
	close := func(t *testing.T, a, b float64) {
		t.Helper()
		require.InDelta(t, a, b, 1e-9*(math.Abs(a)+1e-3))
	}
	for _, args := range [][]string{
		{"--penalty", "cardinality"},
		{"--penalty", "cardinality", "--relax", "--rule", "1se"},
		{"--penalty", "lasso", "--standardize"},
		{"--penalty", "cardinality", "--lambda", "30", "--no-intercept"},
		{"--penalty", "grouped", "--groups", "a,a,a,a,b,b,b,b,c,c,c,c", "--lambda", "20"},
		{"--penalty", "ridge", "--lambda", "5"},
		{"--penalty", "lasso", "--drop", "x3", "--lambda", "40"},
	} {
		t.Run(args[1], func(t *testing.T) {
			base := append(append([]string{"fit", "--format", "json", "--tol", "1e-11"}, args...), data)
			mem := cardreg(t, base...)
			require.Equal(t, 0, mem.code, mem.stderr)
			str := cardreg(t, append([]string{"fit", "--stream"}, base[1:]...)...)
			require.Equal(t, 0, str.code, str.stderr)
			a, b := decodeFit(t, mem.stdout), decodeFit(t, str.stdout)
			close(t, a.Lambda, b.Lambda)
			close(t, a.Intercept, b.Intercept)
			close(t, *a.R2, *b.R2)
			close(t, a.Objective, b.Objective)
			require.Equal(t, a.Names, b.Names)
			for j := range a.Coefficients {
				close(t, a.Coefficients[j], b.Coefficients[j])
			}
			require.Equal(t, len(a.DistinctValues), len(b.DistinctValues))
		})
	}
	for _, cmd := range []string{"path", "cv"} {
		t.Run(cmd, func(t *testing.T) {
			mem := cardreg(t, cmd, "--nlambda", "6", "--tol", "1e-11", data)
			str := cardreg(t, cmd, "--stream", "--nlambda", "6", "--tol", "1e-11", data)
			require.Equal(t, 0, str.code, str.stderr)
			rm, rs := parseCSV(t, mem.stdout), parseCSV(t, str.stdout)
			require.Equal(t, len(rm), len(rs))
			require.Equal(t, rm[0], rs[0])
			for i := 1; i < len(rm); i++ {
				for j := range rm[i] {
					a, errA := strconv.ParseFloat(rm[i][j], 64)
					b, errB := strconv.ParseFloat(rs[i][j], 64)
					if errA != nil || errB != nil {
						require.Equal(t, rm[i][j], rs[i][j])
						continue
					}
					close(t, a, b)
				}
			}
		})
	}
	res := cardreg(t, "fit", "--stream", "--lambda", "theory", data)
	oneLine(t, res, 2, "--lambda theory")
}
