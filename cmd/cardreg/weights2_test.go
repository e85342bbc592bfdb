package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

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

// gaussianRows returns n rows (x1, x2, y) of a noisy linear model.
func gaussianRows(n int) [][3]float64 {
	rows := make([][3]float64, n)
	for i := range rows {
		x1, x2 := math.Sin(float64(i)), math.Cos(float64(3*i))
		rows[i] = [3]float64{x1, x2, 2*x1 - x2 + 0.3*math.Sin(float64(7*i))}
	}
	return rows
}

// writeWeighted writes rows with weights w (as written by %v) to a CSV.
func writeWeighted(t *testing.T, rows [][3]float64, w []string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("x1,x2,w,y\n")
	for i, r := range rows {
		fmt.Fprintf(&b, "%v,%v,%s,%v\n", r[0], r[1], w[i], r[2])
	}
	return writeFile(t, t.TempDir(), "w.csv", b.String())
}

// wls returns the intercept and slopes of the weighted least squares fit.
func wls(t *testing.T, rows [][3]float64, w []float64) []float64 {
	t.Helper()
	var a mat.Dense
	a.ReuseAs(3, 3)
	rhs := mat.NewVecDense(3, nil)
	for i, r := range rows {
		x := []float64{1, r[0], r[1]}
		for j := range 3 {
			rhs.SetVec(j, rhs.AtVec(j)+w[i]*x[j]*r[2])
			for k := range 3 {
				a.Set(j, k, a.At(j, k)+w[i]*x[j]*x[k])
			}
		}
	}
	var b mat.VecDense
	require.NoError(t, b.SolveVec(&a, rhs))
	return b.RawVector().Data
}

// gaussianFit runs a gaussian fit with weights at a tiny λ (the least
// squares fit) and returns the intercept and slopes.
func gaussianFit(t *testing.T, path string, extra ...string) []float64 {
	t.Helper()
	args := append([]string{"fit", "--lambda", "1e-9", "--weights", "w", "--format", "json"}, extra...)
	res := cardreg(t, append(args, path)...)
	require.Equal(t, 0, res.code, "%v: %s", args, res.stderr)
	var f fitJSON
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &f), res.stdout)
	return append([]float64{f.Intercept}, f.Coefficients...)
}

// TestGaussianWeightsAnyScale: the gaussian route (statistics, in memory
// and streamed) refused weights outside [2^-64, 2^64]: one row of 1e-30
// among ones ("weight 1e-30 is below 5.42e-20"), though binomial took it,
// and weights of 1e20 and 2e20 ("above 1.84e+19"), though only their
// ratios matter. Now the weights are put on one power-of-two scale: each
// fit equals the weighted least squares fit with the same weights, and
// 1e20/2e20 equal 1/2.
func TestGaussianWeightsAnyScale(t *testing.T) {
	rows := gaussianRows(120)
	for _, c := range []struct {
		name string
		w    func(i int) float64
	}{
		{"1e-30 first", func(i int) float64 { return map[bool]float64{true: 1e-30, false: 1}[i == 0] }},
		{"1e-30 later", func(i int) float64 { return map[bool]float64{true: 1e-30, false: 1}[i == 50] }},
		{"1e-320 first", func(i int) float64 { return map[bool]float64{true: 1e-320, false: 1}[i == 0] }},
		{"1e20 and 2e20", func(i int) float64 { return float64(1+i%2) * 1e20 }},
		{"1e300 and 1e-300 halves", func(i int) float64 { return map[bool]float64{true: 1e300, false: 1e-300}[i%2 == 0] }},
		// the scale moves up some fifteen times, 2^64 or more at a time
		{"rising 1e-300 to 1", func(i int) float64 { return math.Pow(10, float64(min(5*i-300, 0))) }},
		{"rising 1 to 1e300", func(i int) float64 { return math.Pow(10, float64(min(5*i, 300))) }},
		{"falling 1e300 to 1e-100", func(i int) float64 { return math.Pow(10, float64(300-5*max(0, i-40))) }},
	} {
		w := make([]float64, len(rows))
		text := make([]string, len(rows))
		for i := range w {
			w[i] = c.w(i)
			text[i] = fmt.Sprint(w[i])
		}
		path := writeWeighted(t, rows, text)
		want := wls(t, rows, scaledWeights(w))
		for _, extra := range [][]string{{"--stream=false"}, {"--stream"}} {
			got := gaussianFit(t, path, extra...)
			for j := range want {
				require.InDelta(t, want[j], got[j], 1e-6*(1+math.Abs(want[j])), "%s %v: coefficient %d: %v, want %v", c.name, extra, j, got, want)
			}
		}
	}
}

// scaledWeights divides the weights by their largest (as a reference in
// float64, exactly by a power of two: the ratios are what matter).
func scaledWeights(w []float64) []float64 {
	var top float64
	for _, v := range w {
		top = math.Max(top, v)
	}
	_, e := math.Frexp(top)
	s := make([]float64, len(w))
	for i, v := range w {
		s[i] = math.Ldexp(v, -e)
	}
	return s
}
