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

// offsets700CSV returns n rows x1,x2,x3,off,wt,y of binomial responses
// unrelated to their offsets of ±700 (all but every tenth row when most),
// weights 1…4.
func offsets700CSV(n int, most bool) string {
	r := rand.New(rand.NewPCG(35, 11))
	var b strings.Builder
	b.WriteString("x1,x2,x3,off,wt,y\n")
	for i := range n {
		x1, x2, x3 := r.NormFloat64(), r.NormFloat64(), r.NormFloat64()
		o := 700.0
		if r.IntN(2) == 0 {
			o = -700
		}
		if most && i%10 == 0 {
			o = 0
		}
		y := 0
		if r.Float64() < 1/(1+math.Exp(-x1)) {
			y = 1
		}
		fmt.Fprintf(&b, "%g,%g,%g,%g,%d,%d\n", x1, x2, x3, o, 1+i%4, y)
	}
	return b.String()
}

// hugeCountCSV returns 200 rows x1…x4,y of N(0, 1) predictors and counts
// 0…5, row 18's 9e15.
func hugeCountCSV() string {
	r := rand.New(rand.NewPCG(35, 18))
	var b strings.Builder
	b.WriteString("x1,x2,x3,x4,y\n")
	for i := range 200 {
		y := fmt.Sprint(r.IntN(6))
		if i == 17 {
			y = "9e15"
		}
		fmt.Fprintf(&b, "%g,%g,%g,%g,%s\n", r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), y)
	}
	return b.String()
}

// TestExtremeDiagnosesCLI (issue 35 item 11): binomial offsets of ±700 on
// every row (|o| ≤ 709, legal) failed in memory with "the loss is NaN at
// iteration 1" or "the unpenalised predictors are collinear", and
// streamed stalled at a relative gap of 0.97; now the fits converge, with
// weights too, and cross-validation runs. A Poisson count of 9e15 at λ 1
// stalled as a "badly scaled problem?"; now the warning says the duality
// gap cannot be certified below the gradient's rounding and which λ is
// beyond it (JSON rounding_lambda), and at λ 1000 the streamed fit
// converges as the one in memory does.
func TestExtremeDiagnosesCLI(t *testing.T) {
	dir := t.TempDir()
	for _, most := range []bool{false, true} {
		data := writeFile(t, dir, fmt.Sprintf("off700_%v.csv", most), offsets700CSV(200, most))
		for _, extra := range [][]string{
			{"--lambda", "1"}, {"--lambda", "1", "--stream"},
			{"--lambda", "1", "--weights", "wt"}, {"--lambda", "1", "--weights", "wt", "--stream"},
		} {
			args := append([]string{"fit", "--family", "binomial", "--target", "y", "--offset", "off", "--drop", "wt"}, extra...)
			if len(extra) > 2 && extra[2] == "--weights" {
				args = append([]string{"fit", "--family", "binomial", "--target", "y", "--offset", "off"}, extra...)
			}
			res := cardreg(t, append(args, data)...)
			require.Equal(t, 0, res.code, "%v: %s", args, res.stderr)
			require.Empty(t, res.stderr, "%v", args)
		}
		res := cardreg(t, "fit", "--family", "binomial", "--target", "y", "--offset", "off", "--drop", "wt", "--lambda", "cv", data)
		require.Equal(t, 0, res.code, res.stderr)
		require.NotContains(t, res.stderr, "NaN")
	}
	data := writeFile(t, dir, "pois9e15.csv", hugeCountCSV())
	for _, stream := range []bool{false, true} {
		args := []string{"fit", "--family", "poisson", "--target", "y", "--lambda", "1", "--format", "json"}
		if stream {
			args = append(args, "--stream")
		}
		res := cardreg(t, append(args, data)...)
		require.Equal(t, 0, res.code, res.stderr)
		require.Contains(t, res.stderr, "the duality gap cannot be certified below the gradient's rounding at this λ", "stream %v", stream)
		require.NotContains(t, res.stderr, "badly scaled problem?", "stream %v", stream)
		var out struct {
			RoundingLambda float64 `json:"rounding_lambda"`
		}
		require.NoError(t, json.Unmarshal([]byte(res.stdout), &out))
		require.Greater(t, out.RoundingLambda, 1.0, "stream %v", stream)
		require.Contains(t, res.stderr, fmt.Sprintf("a λ above %.4g is beyond the rounding", out.RoundingLambda), "stream %v", stream)
		args[6] = "1000"
		res = cardreg(t, append(args, data)...)
		require.Equal(t, 0, res.code, res.stderr)
		require.Empty(t, res.stderr, "λ 1000 stream %v", stream)
	}
}
