package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/modelfile"
	"github.com/cardsparse/cardreg/internal/testfiles"
	"github.com/stretchr/testify/require"
)

// policiesFit are the flags of a Poisson fit of the policies example with
// a nominal (region, fuel) and an ordinal (vehicle_age) factor.
var policiesFit = []string{"fit", "--family", "poisson", "--offset", "log_exposure", "--drop", "exposure",
	"--ordinal", "vehicle_age=0-2,3-5,6-9,10-14,15+", "--lambda", "4"}

// saveFactorModel fits with args and saves the model in dir; it returns
// the model's path.
func saveFactorModel(t *testing.T, dir string, args ...string) string {
	t.Helper()
	model := filepath.Join(dir, "model.json")
	res := cardreg(t, append(append(args[:len(args)-1:len(args)-1], "--save-model", model), args[len(args)-1])...)
	require.Equal(t, 0, res.code, res.stderr)
	return model
}

// savedModel is the saved JSON as the test reads it, without modelfile.
type savedModel struct {
	Names        []string  `json:"names"`
	Coefficients []float64 `json:"coefficients"`
	Intercept    float64   `json:"intercept"`
	Offset       string    `json:"offset_column"`
	Factors      []struct {
		Column, Reference string
		Levels            []string
		Numeric           bool
	} `json:"factors"`
}

// linkByHand computes intercept + Σ coef·x (+ offset) for each row of the
// CSV file path from the saved model at modelPath: a factor's dummy
// NAME=LEVEL is 1 when the row's cell is LEVEL (canon maps a cell of a
// numeric-coded factor to its level).
func linkByHand(t *testing.T, modelPath, path string, canon func(column, cell string) string) []float64 {
	t.Helper()
	raw, err := os.ReadFile(modelPath)
	require.NoError(t, err)
	var m savedModel
	require.NoError(t, json.Unmarshal(raw, &m))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	col := map[string]int{}
	for j, name := range records[0] {
		col[name] = j
	}
	var out []float64
	for _, rec := range records[1:] {
		eta := m.Intercept
		for k, name := range m.Names {
			if j, ok := col[name]; ok {
				v, err := strconv.ParseFloat(rec[j], 64)
				require.NoError(t, err)
				eta += m.Coefficients[k] * v
				continue
			}
			factor, level, ok := strings.Cut(name, "=")
			require.True(t, ok, name)
			if canon(factor, rec[col[factor]]) == level {
				eta += m.Coefficients[k]
			}
		}
		if m.Offset != "" {
			v, err := strconv.ParseFloat(rec[col[m.Offset]], 64)
			require.NoError(t, err)
			eta += v
		}
		out = append(out, eta)
	}
	return out
}

// predictions parses predict's output.
func predictions(t *testing.T, out string) []float64 {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Equal(t, "prediction", lines[0])
	var p []float64
	for _, l := range lines[1:] {
		v, err := strconv.ParseFloat(l, 64)
		require.NoError(t, err)
		p = append(p, v)
	}
	return p
}

func requireClose(t *testing.T, want, got []float64) {
	t.Helper()
	require.Equal(t, len(want), len(got))
	for i := range want {
		require.InDelta(t, want[i], got[i], 1e-12*(1+math.Abs(want[i])), "row %d", i+1)
	}
}

func identityCell(_, cell string) string { return cell }

// zoneData is a gaussian data set with a text factor (colour), an ordinal
// one (size) and a numeric-coded one (zone, --factor), cells written as
// cell says.
func zoneData(n int, cell func(zone int) string) string {
	var b strings.Builder
	b.WriteString("colour,size,zone,x,y\n")
	rng := rand.New(rand.NewPCG(3, 4))
	colours, sizes, zones := []string{"red", "green", "blue"}, []string{"S", "M", "L"}, []int{1, 2, 10, 30}
	effect := map[int]float64{1: 0, 2: 1, 10: -1, 30: 2}
	for i := range n {
		c, s, z := i%3, (i/3)%3, zones[(i/9)%4]
		x := rng.NormFloat64()
		y := float64(c) - 0.5*float64(s) + effect[z] + 0.7*x + 0.3*rng.NormFloat64()
		fmt.Fprintf(&b, "%s,%s,%s,%.4f,%.4f\n", colours[c], sizes[s], cell(z), x, y)
	}
	return b.String()
}

var zoneFit = []string{"fit", "--factor", "zone", "--ordinal", "size=S,M,L", "--lambda", "2"}

// predict --type link on the training file reproduces the fitted linear
// predictor, computed here from the saved JSON: nominal, ordinal and
// numeric-coded factors, with an offset, from CSV and from Parquet.
func TestPredictFactorsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	t.Run("policies", func(t *testing.T) {
		model := saveFactorModel(t, dir, append(policiesFit, policies)...)
		res := cardreg(t, "predict", "--type", "link", "--model", model, policies)
		require.Equal(t, 0, res.code, res.stderr)
		require.Empty(t, res.stderr)
		requireClose(t, linkByHand(t, model, policies, identityCell), predictions(t, res.stdout))
		// The response scale is e^η.
		res2 := cardreg(t, "predict", "--model", model, policies)
		require.Equal(t, 0, res2.code, res2.stderr)
		for i, eta := range predictions(t, res.stdout)[:50] {
			require.InDelta(t, math.Exp(eta), predictions(t, res2.stdout)[i], 1e-12)
		}
	})
	t.Run("numeric-coded", func(t *testing.T) {
		sub := t.TempDir()
		train := writeFile(t, sub, "train.csv", zoneData(180, strconv.Itoa))
		model := saveFactorModel(t, sub, append(zoneFit, train)...)
		raw, err := os.ReadFile(model)
		require.NoError(t, err)
		m, err := modelfile.Parse(raw)
		require.NoError(t, err)
		require.Len(t, m.Factors, 3)
		require.Equal(t, modelfile.Factor{Column: "zone", Levels: []string{"1", "2", "10", "30"}, Reference: "1", Numeric: true}, m.Factors[2])
		require.True(t, m.Factors[1].Ordinal)
		want := linkByHand(t, model, train, identityCell)
		res := cardreg(t, "predict", "--type", "link", "--model", model, train)
		require.Equal(t, 0, res.code, res.stderr)
		requireClose(t, want, predictions(t, res.stdout))
		// "02", "2.0" and "1e1" are the levels 2 and 10 of a numeric-coded
		// factor.
		spelt := writeFile(t, sub, "spelt.csv", zoneData(180, func(z int) string {
			return map[int]string{1: "01", 2: "2.0", 10: "1e1", 30: " 30 "}[z]
		}))
		res = cardreg(t, "predict", "--type", "link", "--model", model, spelt)
		require.Equal(t, 0, res.code, res.stderr)
		requireClose(t, want, predictions(t, res.stdout))
		// The same rows from Parquet: text columns, and zone as integers.
		type row struct {
			Colour string  `parquet:"colour"`
			Size   string  `parquet:"size"`
			Zone   int64   `parquet:"zone"`
			X      float64 `parquet:"x"`
			Y      float64 `parquet:"y"`
		}
		f, err := os.Open(train)
		require.NoError(t, err)
		records, err := csv.NewReader(f).ReadAll()
		f.Close()
		require.NoError(t, err)
		var rows []row
		for _, r := range records[1:] {
			z, _ := strconv.ParseInt(r[2], 10, 64)
			x, _ := strconv.ParseFloat(r[3], 64)
			rows = append(rows, row{Colour: r[0], Size: r[1], Zone: z, X: x})
		}
		pq := testfiles.WriteParquet(t, sub, "train.parquet", rows)
		res = cardreg(t, "predict", "--type", "link", "--model", model, pq)
		require.Equal(t, 0, res.code, res.stderr)
		requireClose(t, want, predictions(t, res.stdout))
	})
}

// An unseen level is an error naming the file, the line, the column and
// the level, exit 1, nothing written; --unseen reference predicts such
// rows at the reference level with one warning counting them.
func TestPredictUnseenLevel(t *testing.T) {
	dir := t.TempDir()
	model := saveFactorModel(t, dir, append(policiesFit, policies)...)
	raw, err := os.ReadFile(policies)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	lines[3] = strings.Replace(lines[3], lines[3][:strings.Index(lines[3], ",")], "R99", 1)
	lines[7] = strings.Replace(lines[7], ",Diesel,", ",Hydrogen,", 1)
	lines[7] = strings.Replace(lines[7], ",Regular,", ",Hydrogen,", 1)
	data := writeFile(t, dir, "new.csv", strings.Join(lines, "\n")+"\n")
	out := filepath.Join(dir, "pred.csv")
	oneLine(t, cardreg(t, "predict", "--model", model, "--out", out, data), 1,
		data+`:4: column "region": level "R99" is not one of the factor's 12 levels ("R01", "R02"`, "--unseen reference")
	require.NoFileExists(t, out)

	res := cardreg(t, "predict", "--type", "link", "--unseen", "reference", "--model", model, data)
	require.Equal(t, 0, res.code, res.stderr)
	require.Equal(t, `cardreg predict: warning: 2 row(s) hold a factor level the model does not have, predicted at the reference level (--unseen reference); the first: data row 3, column "region", level "R99"`+"\n", res.stderr)
	// Those rows are predicted as if at the reference level.
	want := linkByHand(t, model, data, func(_, cell string) string {
		switch cell {
		case "R99":
			return "R01"
		case "Hydrogen":
			return "Diesel"
		}
		return cell
	})
	requireClose(t, want, predictions(t, res.stdout))

	oneLine(t, cardreg(t, "predict", "--unseen", "ref", "--model", model, data), 2, "--unseen must be error or reference")
}

// A missing value in a factor is an error, unless the fit made it a level
// (--na-level).
func TestPredictFactorMissing(t *testing.T) {
	dir := t.TempDir()
	train := writeFile(t, dir, "train.csv", zoneData(90, strconv.Itoa))
	model := saveFactorModel(t, dir, append(zoneFit, train)...)
	holed := writeFile(t, dir, "holed.csv", "colour,size,zone,x\nred,S,1,0.5\n,M,2,0\n")
	oneLine(t, cardreg(t, "predict", "--model", model, holed), 1, holed+`:3: column "colour": missing value`, "no level for it")

	// NA in rows after the first (whose text makes colour a factor).
	na := zoneData(90, strconv.Itoa)
	first := strings.Index(na, "\nred,") + 1
	na = na[:first] + strings.Replace(na[first:], "\nred,", "\nNA,", 10)
	naModel := saveFactorModel(t, t.TempDir(), append(append(zoneFit[:1:1], "--na-level"), append(zoneFit[1:], writeFile(t, dir, "na.csv", na))...)...)
	res := cardreg(t, "predict", "--type", "link", "--model", naModel, holed)
	require.Equal(t, 0, res.code, res.stderr)
	var m savedModel
	raw, _ := os.ReadFile(naModel)
	require.NoError(t, json.Unmarshal(raw, &m))
	require.Contains(t, m.Names, "colour=NA")
	require.Len(t, predictions(t, res.stdout), 2)
}

// A model whose factor levels were edited to disagree with its names is
// refused, one line naming the file and what is wrong.
func TestPredictFactorModelEdited(t *testing.T) {
	dir := t.TempDir()
	model := saveFactorModel(t, dir, append(policiesFit, policies)...)
	raw, err := os.ReadFile(model)
	require.NoError(t, err)
	for edit, want := range map[[2]string]string{
		{`"R12"`, `"R13"`}:                                  `factor "region": its dummy column "region=R13" is not among the predictor names`,
		{`"reference": "R01"`, `"reference": "R02"`}:        `factor "region": its dummy column "region=R01" is not among the predictor names`,
		{`"15+"` + "\n", `"15+",` + "\n" + `"20+"` + "\n"}:  `its dummy column "vehicle_age=20+" is not among the predictor names`,
		{`"version": 4`, `"version": 3`}:                    "factors and numeric_penalty are fields of version 4",
		{`"penalty": "factor"`, `"penalty": "cardinality"`}: `a model with factors has penalty "factor"`,
		{`"na_level": false`, `"na_level": true`}:           `na_level is true but "NA" is not one of its levels`,
	} {
		edited := strings.Replace(string(raw), edit[0], edit[1], 1)
		require.NotEqual(t, string(raw), edited, edit[0])
		path := writeFile(t, dir, "edited.json", edited)
		oneLine(t, cardreg(t, "predict", "--model", path, policies), 1, path+": corrupted cardreg model: ", want)
	}
	// A level dropped from the levels: its dummy column is left without a
	// factor.
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &m))
	var factors []map[string]any
	require.NoError(t, json.Unmarshal(m["factors"], &factors))
	factors[0]["levels"] = factors[0]["levels"].([]any)[:11]
	m["factors"], _ = json.Marshal(factors)
	b, _ := json.Marshal(m)
	oneLine(t, cardreg(t, "predict", "--model", writeFile(t, dir, "dropped.json", string(b)), policies), 1,
		`predictor "region=R12" is a dummy column of factor "region", whose levels (but the reference) do not include "R12"`)
}

// Random edits of a factor model never panic: predict refuses the file
// (exit 1, one line) or predicts every row.
func TestPredictFactorModelRandomEdits(t *testing.T) {
	dir := t.TempDir()
	train := writeFile(t, dir, "train.csv", zoneData(90, strconv.Itoa))
	model := saveFactorModel(t, dir, append(zoneFit, train)...)
	raw, err := os.ReadFile(model)
	require.NoError(t, err)
	tokens := []string{`"`, `,`, `[`, `]`, `{`, `}`, `null`, `true`, `false`, `0`, `-1`, `"NA"`, `""`, `"zone=2"`, `"red"`, `"x"`, `1e400`, `"factor"`}
	rng := rand.New(rand.NewPCG(1, 2))
	accepted := 0
	for i := range 400 {
		b := []byte(string(raw))
		for range 1 + rng.IntN(3) {
			at := rng.IntN(len(b))
			switch rng.IntN(3) {
			case 0: // delete a run
				b = append(b[:at], b[min(len(b), at+1+rng.IntN(8)):]...)
			case 1: // insert a token
				tok := tokens[rng.IntN(len(tokens))]
				b = append(b[:at], append([]byte(tok), b[at:]...)...)
			case 2: // swap two lines
				ls := strings.Split(string(b), "\n")
				j, k := rng.IntN(len(ls)), rng.IntN(len(ls))
				ls[j], ls[k] = ls[k], ls[j]
				b = []byte(strings.Join(ls, "\n"))
			}
		}
		path := writeFile(t, dir, fmt.Sprintf("edit%d.json", i%4), string(b))
		res := cardreg(t, "predict", "--model", path, train)
		if res.code == 0 {
			accepted++
			require.Len(t, predictions(t, res.stdout), 90)
			continue
		}
		require.Equal(t, 1, res.code, res.stderr)
		require.Equal(t, 1, strings.Count(res.stderr, "\n"), res.stderr)
	}
	t.Logf("%d of 400 edits accepted", accepted)
}

// predict's help tells how factors are read and what --unseen does.
func TestPredictHelpFactors(t *testing.T) {
	res := cardreg(t, "predict", "--help")
	require.Equal(t, 0, res.code)
	for _, want := range []string{"factors", "--unseen reference", "NAME=LEVEL", "-unseen string"} {
		require.Contains(t, res.stdout, want)
	}
}

// A level a cell can give is saved and read back exactly, whatever it
// holds: a separator, quotes, a line break, non-ASCII, 4000 bytes, an
// inner space, "=", or a number's text in a text factor ("1", "1.0" and
// "01" are three levels). fit's CSV output quotes them as needed and its
// text output quotes those a space-separated list would lose.
func TestPredictAwkwardLevels(t *testing.T) {
	levels := []string{"a,b", `say "hi"`, "two\nlines", "é", strings.Repeat("long", 1000), "1", "1.0", "01", "x y", "g=h"}
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write([]string{"g", "x", "y"})
	rng := rand.New(rand.NewPCG(8, 1))
	for i := range 8 * len(levels) {
		c := i % len(levels)
		x := rng.NormFloat64()
		w.Write([]string{levels[c], strconv.FormatFloat(x, 'g', -1, 64), strconv.FormatFloat(float64(c%3)+0.5*x+0.2*rng.NormFloat64(), 'g', -1, 64)})
	}
	w.Flush()
	dir := t.TempDir()
	train := writeFile(t, dir, "train.csv", b.String())
	model := saveFactorModel(t, dir, "fit", "--lambda", "0.5", train)
	raw, err := os.ReadFile(model)
	require.NoError(t, err)
	m, err := modelfile.Parse(raw)
	require.NoError(t, err)
	require.ElementsMatch(t, levels, m.Factors[0].Levels)
	res := cardreg(t, "predict", "--type", "link", "--model", model, train)
	require.Equal(t, 0, res.code, res.stderr)
	requireClose(t, linkByHand(t, model, train, identityCell), predictions(t, res.stdout))

	res = cardreg(t, "fit", "--lambda", "0.5", "--format", "csv", train)
	require.Equal(t, 0, res.code, res.stderr)
	records, err := csv.NewReader(strings.NewReader(res.stdout)).ReadAll()
	require.NoError(t, err)
	var names []string
	for _, r := range records[2:] {
		names = append(names, r[1])
	}
	for _, l := range levels {
		if "g="+l != "g="+m.Factors[0].Reference {
			require.Contains(t, names, "g="+l)
		}
	}
	res = cardreg(t, "fit", "--lambda", "0.5", train)
	require.Equal(t, 0, res.code, res.stderr)
	require.Contains(t, res.stdout, `"two\nlines"`)
	require.Contains(t, res.stdout, `"say \"hi\""`)
	require.Contains(t, res.stdout, `"x y"`)
	require.NotContains(t, res.stdout, "two\nlines")
}
