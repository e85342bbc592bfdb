package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/bounds"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestSaveModelThenPredict: fit --save-model then predict reproduces the
// predictions of the same fit made in process.
func TestSaveModelThenPredict(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "model.json")
	data := "../../examples/cardinality.csv"
	res := cardreg(t, "fit", "--lambda", "50", "--save-model", model, data)
	require.Equal(t, 0, res.code, res.stderr)
	pred := cardreg(t, "predict", "--model", model, data)
	require.Equal(t, 0, pred.code, pred.stderr)
	lines := strings.Split(strings.TrimSpace(pred.stdout), "\n")
	require.Equal(t, "prediction", lines[0])
	require.Len(t, lines, 401)

	d := loadCSV(t, data)
	x := mat.NewDense(400, 12, nil)
	for j := 0; j < 12; j++ {
		x.SetCol(j, d.col(t, "x"+strconv.Itoa(j+1)))
	}
	y := mat.NewDense(400, 1, d.col(t, "y"))
	card, _ := penalty.Lookup("cardinality")
	dnu, _ := bounds.DefaultNu(card, penalty.Inputs{P: 12})
	nu := dnu.Value
	m, err := estimator.Fit(&estimator.Rows{X: solver.DenseDesign{X: x}, Y: y}, penalty.Cardinality{Nu: nu}, 50, &estimator.Options{Settings: solver.Settings{Tol: 1e-7}})
	require.NoError(t, err)
	want := m.Response(x, nil)
	for i := 0; i < 400; i++ {
		got, err := strconv.ParseFloat(lines[i+1], 64)
		require.NoError(t, err)
		require.InDelta(t, want.At(i, 0), got, 1e-9, "row %d", i+1)
	}

	// Columns are matched by name: a reordered file with an extra column
	// gives the same predictions.
	reordered := writeFile(t, dir, "re.csv", reorder(t, data))
	again := cardreg(t, "predict", "--model", model, reordered)
	require.Equal(t, 0, again.code, again.stderr)
	require.Equal(t, pred.stdout, again.stdout)

	out := filepath.Join(dir, "pred.csv")
	require.Equal(t, 0, cardreg(t, "predict", "--model", model, "--out", out, data).code)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, pred.stdout, string(b))
}

// reorder returns the CSV with its columns reversed and a constant column
// added.
func reorder(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var sb strings.Builder
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Split(line, ",")
		for l, r := 0, len(f)-1; l < r; l, r = l+1, r-1 {
			f[l], f[r] = f[r], f[l]
		}
		extra := "7"
		if i == 0 {
			extra = "extra"
		}
		sb.WriteString(strings.Join(append(f, extra), ",") + "\n")
	}
	return sb.String()
}

func TestPredictErrors(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "model.json")
	require.Equal(t, 0, cardreg(t, "fit", "--lambda", "50", "--save-model", model, "../../examples/cardinality.csv").code)
	missing := writeFile(t, dir, "m.csv", "x1,x2\n1,2\n")
	bogus := writeFile(t, dir, "bogus.json", `{"format":"other"}`)
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"predict", "../../examples/cardinality.csv"}, 2, "--model is required"},
		{[]string{"predict", "--model", model}, 2, "expected one data file"},
		{[]string{"predict", "--model", model, missing}, 1, `needs predictor "x3"`},
		{[]string{"predict", "--model", bogus, missing}, 1, "not a cardreg model"},
		{[]string{"predict", "--model", filepath.Join(dir, "none.json"), missing}, 1, "none.json"},
	} {
		r := cardreg(t, c.args...)
		require.Equal(t, c.code, r.code, "%v: %s", c.args, r.stderr)
		require.Contains(t, r.stderr, c.msg)
		require.Equal(t, 1, strings.Count(r.stderr, "\n"))
	}
	// A failed fit leaves an existing model file untouched.
	before, err := os.ReadFile(model)
	require.NoError(t, err)
	require.Equal(t, 1, cardreg(t, "fit", "--save-model", model, missing).code)
	after, err := os.ReadFile(model)
	require.NoError(t, err)
	require.Equal(t, before, after)
}

// TestGeneralPenalty: --penalty general --G FILE with G = A on three
// predictors... here G fuses x1 with x2 and x3 with x4 only; with G = the
// all-pairs matrix of the predictors it agrees with --penalty cardinality.
func TestGeneralPenalty(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", "a,b,c,y\n1,0,2,3.1\n0,1,1,1.9\n2,1,0,3.2\n1,1,1,3.0\n0,2,1,2.2\n3,0,1,4.1\n")
	g := writeFile(t, dir, "g.csv", "1,-1,0\n1,0,-1\n0,1,-1\n")
	gen := decodeFit(t, cardreg(t, "fit", "--penalty", "general", "--G", g, "--nu", "1.5", "--lambda", "0.5", "--tol", "1e-12", "--max-iter", "200000", "--format", "json", data).stdout)
	card := decodeFit(t, cardreg(t, "fit", "--penalty", "cardinality", "--nu", "1.5", "--lambda", "0.5", "--tol", "1e-12", "--format", "json", data).stdout)
	require.InDeltaSlice(t, card.Coefficients, gen.Coefficients, 1e-5)
	// The ν default comes from M_G by linear programs: 2/3 for A on 3 rows.
	def := decodeFit(t, cardreg(t, "fit", "--penalty", "general", "--G", g, "--lambda", "0.5", "--format", "json", data).stdout)
	require.InDelta(t, 3, *def.Nu, 1e-6)
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--penalty", "general", "--lambda", "1", data}, 2, "needs --G"},
		{[]string{"--penalty", "general", "--G", g, data}, 2, "give --lambda NUMBER"},
		{[]string{"--penalty", "general", "--G", writeFile(t, dir, "g2.csv", "1,-1\n"), "--lambda", "1", data}, 1, "g2.csv: G has 2 columns"},
		{[]string{"--penalty", "general", "--G", writeFile(t, dir, "g3.csv", "1,x,0\n"), "--lambda", "1", data}, 1, `cannot parse "x"`},
	} {
		r := cardreg(t, append([]string{"fit"}, c.args...)...)
		require.Equal(t, c.code, r.code, "%v: %s", c.args, r.stderr)
		require.Contains(t, r.stderr, c.msg)
	}
}

// TestMultiResponse: --responses fits all responses at once; each equals the
// single fit of that response alone, and the JSON keys become arrays.
func TestMultiResponse(t *testing.T) {
	dir := t.TempDir()
	rows := [][]string{{"a", "b", "c", "y1", "y2"}, {"1", "0", "2", "3.1", "1"}, {"0", "1", "1", "1.9", "2.2"},
		{"2", "1", "0", "3.2", "0.4"}, {"1", "1", "1", "3.0", "1.5"}, {"0", "2", "1", "2.2", "3.1"},
		{"3", "0", "1", "4.1", "0.2"}, {"1", "2", "2", "3.4", "2.9"}, {"2", "2", "0", "3.9", "1.8"}}
	write := func(name string, keep []int) string {
		var sb strings.Builder
		for _, r := range rows {
			var f []string
			for _, k := range keep {
				f = append(f, r[k])
			}
			sb.WriteString(strings.Join(f, ",") + "\n")
		}
		return writeFile(t, dir, name, sb.String())
	}
	both := write("both.csv", []int{0, 1, 2, 3, 4})
	res := cardreg(t, "fit", "--responses", "y1,y2", "--lambda", "1", "--tol", "1e-12", "--format", "json", both)
	require.Equal(t, 0, res.code, res.stderr)
	var multi struct {
		Responses    []string     `json:"responses"`
		Intercept    []float64    `json:"intercept"`
		Coefficients [][]float64  `json:"coefficients"`
		Clusters     [][][]string `json:"clusters"`
		R2           []float64    `json:"r2"`
		Names        []string     `json:"names"`
	}
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &multi))
	require.Equal(t, []string{"y1", "y2"}, multi.Responses)
	require.Equal(t, []string{"a", "b", "c"}, multi.Names)
	require.Len(t, multi.Clusters, 2)
	for j, file := range []string{write("y1.csv", []int{0, 1, 2, 3}), write("y2.csv", []int{0, 1, 2, 4})} {
		one := decodeFit(t, cardreg(t, "fit", "--lambda", "1", "--tol", "1e-12", "--format", "json", file).stdout)
		require.InDeltaSlice(t, one.Coefficients, multi.Coefficients[j], 1e-7, "response %d", j)
		require.InDelta(t, one.Intercept, multi.Intercept[j], 1e-7)
		require.InDelta(t, *one.R2, multi.R2[j], 1e-9)
	}
	text := cardreg(t, "fit", "--responses", "y1,y2", "--lambda", "1", both)
	require.Contains(t, text.stdout, "== response y2 (2 of 2) ==")
	for _, bad := range [][]string{{"--responses", "y1,zz"}, {"--responses", "y1,y1"}, {"--responses", "y1,y2", "--save-model", filepath.Join(dir, "m.json")}} {
		r := cardreg(t, append(append([]string{"fit", "--lambda", "1"}, bad...), both)...)
		require.Equal(t, 2, r.code, "%v: %s", bad, r.stderr)
	}
}

// TestDropMissing: rows with empty, NaN or infinite cells are errors, or
// left out and counted with --drop-missing; the fit then equals the fit of
// the complete rows alone. Text that is not a number stays an error.
func TestDropMissing(t *testing.T) {
	dir := t.TempDir()
	full := "a,b,y\n1,0,3.1\n0,1,1.9\n2,1,3.2\n1,1,3.0\n0,2,2.2\n3,0,4.1\n"
	holes := writeFile(t, dir, "holes.csv", full+"4,,5\n1,NaN,2\n2,3,Inf\n")
	clean := writeFile(t, dir, "clean.csv", full)
	r := cardreg(t, "fit", "--lambda", "1", holes)
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "empty cell")
	var got, want struct {
		Coefficients []float64 `json:"coefficients"`
		Dropped      int       `json:"dropped_rows"`
		N            int       `json:"n"`
	}
	r = cardreg(t, "fit", "--lambda", "1", "--drop-missing", "--format", "json", holes)
	require.Equal(t, 0, r.code, r.stderr)
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got))
	require.NoError(t, json.Unmarshal([]byte(cardreg(t, "fit", "--lambda", "1", "--format", "json", clean).stdout), &want))
	require.Equal(t, 3, got.Dropped)
	require.Equal(t, 6, got.N)
	require.Equal(t, want.Coefficients, got.Coefficients)
	text := writeFile(t, dir, "text.csv", full+"4,abc,5\n")
	r = cardreg(t, "fit", "--lambda", "1", "--drop-missing", text)
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, `cannot parse "abc" as a number`)
	all := writeFile(t, dir, "all.csv", "a,y\n,1\n2,\n")
	r = cardreg(t, "fit", "--drop-missing", all)
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "no data rows left after dropping 2")
}
