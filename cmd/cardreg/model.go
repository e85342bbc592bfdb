package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/deepreg"
	"github.com/cardsparse/cardreg/internal/jsonx"
	"github.com/cardsparse/cardreg/internal/names"
	"github.com/cardsparse/cardreg/penalty"
)

// modelFormat names the saved-model format; the version changes when
// fields change meaning. Version 2 added converged and duality_gap,
// version 3 family, link, offset_column and weights; older files (least
// squares, without them) are still read.
const (
	modelFormat  = "cardreg-model"
	modelVersion = 3
)

// savedModel is what fit --save-model writes and predict reads: enough to
// predict (names, coefficients, intercept on the data's scale) and to say
// what was fitted.
type savedModel struct {
	Format       string    `json:"format"`
	Version      int       `json:"version"`
	Penalty      string    `json:"penalty"`
	Lambda       float64   `json:"lambda"`
	Nu           *float64  `json:"nu"`
	Target       string    `json:"target"`
	Names        []string  `json:"names"`
	Coefficients []float64 `json:"coefficients"`
	Intercept    float64   `json:"intercept"`
	Relaxed      bool      `json:"relaxed"`
	N            int       `json:"n"`
	// Converged and DualityGap are the penalised fit's certificate
	// (the gap is null for ridge, which has no dual norm here).
	Converged  bool     `json:"converged"`
	DualityGap *float64 `json:"duality_gap"`
	// Family and Link say how the linear predictor maps to the response
	// (gaussian and identity in versions 1 and 2). OffsetColumn names the
	// column predict adds to the linear predictor ("" for none). Weights
	// says how observation weights entered the fit: "none", or
	// "normalised to sum to n" (every family; "as given" in models saved
	// before gaussian weights were rescaled, read as it was written).
	Family       string `json:"family,omitempty"`
	Link         string `json:"link,omitempty"`
	OffsetColumn string `json:"offset_column,omitempty"`
	Weights      string `json:"weights,omitempty"`
}

// modelRequired are the keys a saved model must hold, not null; version 2
// adds converged.
var modelRequired = []string{"format", "version", "penalty", "lambda", "target", "names", "coefficients", "intercept", "relaxed", "n"}

func saveModel(w io.Writer, r *fitResult) error {
	// Every family's weights are rescaled to sum to n (glmnet's
	// convention; gaussian too since 47631b4). "as given" is still read in
	// models saved before that.
	weights := "none"
	if r.WeightsColumn != "" {
		weights = "normalised to sum to n"
	}
	if math.IsInf(r.Lambda, 0) || math.IsNaN(r.Lambda) {
		return fmt.Errorf("λ on the data's scale is %v, beyond float64 (λ grows as the predictors' magnitude times the response's): a saved model needs a finite λ; rescale the data", r.Lambda)
	}
	return writeJSON(w, savedModel{Format: modelFormat, Version: modelVersion, Penalty: r.Penalty, Lambda: r.Lambda,
		Nu: r.Nu, Target: r.Target, Names: r.Names, Coefficients: r.Coefficients, Intercept: r.Intercept,
		Relaxed: r.Relaxed, N: r.N, Converged: r.Converged, DualityGap: r.DualityGap,
		Family: r.Family, Link: r.Link, OffsetColumn: r.OffsetColumn, Weights: weights})
}

// parseModelFrom reads back the model file path (or standard input, "-")
// saved by fit, whose text is b, refusing one that was cut short, edited
// or corrupted (see parseModel); its errors start with the file's name.
func parseModelFrom(path string, b []byte) (*savedModel, error) {
	m, err := parseModel(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", inputName(path), err)
	}
	return m, nil
}

// parseModel decodes and checks a saved model, refusing text that is not
// complete JSON, a missing, null, duplicated or unknown field, a value out
// of its range, predictor names empty or repeated.
func parseModel(b []byte) (*savedModel, error) {
	var head struct {
		Format  string
		Version int
	}
	if err := json.Unmarshal(b, &head); err != nil {
		if text := jsonx.TextError(b, err); text != err {
			return nil, text
		}
		return nil, fmt.Errorf("not a cardreg model: %v", err)
	}
	if head.Format != modelFormat {
		return nil, fmt.Errorf("not a cardreg model (format %s, want %q)", shortText([]byte(head.Format)), modelFormat)
	}
	required := modelRequired
	switch head.Version {
	case 1:
	case 2:
		required = append(slices.Clone(required), "converged")
	case modelVersion:
		required = append(slices.Clone(required), "converged", "family", "link", "weights")
	default:
		return nil, fmt.Errorf("model version %d, this cardreg reads versions 1 to %d", head.Version, modelVersion)
	}
	var m savedModel
	if err := jsonx.DecodeStrict(b, &m, required...); err != nil {
		return nil, fmt.Errorf("corrupted cardreg model: %v", err)
	}
	if head.Version < 3 {
		m.Family, m.Link = "gaussian", "identity"
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("corrupted cardreg model: %v", err)
	}
	return &m, nil
}

// knownPenalty reports whether name is in penalty.Lookup's table.
func knownPenalty(name string) bool {
	_, ok := penalty.Lookup(name)
	return ok
}

// check tests the values of a decoded model.
func (m *savedModel) check() error {
	if err := m.checkFit(); err != nil {
		return err
	}
	if err := m.checkData(); err != nil {
		return err
	}
	// JSON has no NaN or infinity, and a number beyond float64 fails to
	// decode, so every coefficient is finite here.
	return names.Unique(m.Names, "predictor")
}

// checkFit tests what was fitted: the penalty, λ, ν, the gap, the family.
func (m *savedModel) checkFit() error {
	switch {
	case !knownPenalty(m.Penalty):
		return fmt.Errorf("unknown penalty %s", shortText([]byte(m.Penalty)))
	case !(m.Lambda >= 0) || math.IsInf(m.Lambda, 0):
		return fmt.Errorf("lambda %v is not a finite number >= 0", m.Lambda)
	case m.Nu != nil && !(*m.Nu > 0):
		return fmt.Errorf("nu %v is not > 0", *m.Nu)
	case m.DualityGap != nil && !(*m.DualityGap >= 0):
		return fmt.Errorf("duality_gap %v is negative", *m.DualityGap)
	case !slices.Contains([]string{"gaussian/identity", "binomial/logit", "poisson/log"}, m.Family+"/"+m.Link):
		return fmt.Errorf("unknown family and link %s/%s", shortText([]byte(m.Family)), shortText([]byte(m.Link)))
	}
	return nil
}

// checkData tests what the model was fitted on: weights, offset,
// target, n, names and coefficients.
func (m *savedModel) checkData() error {
	switch {
	case m.Weights != "" && !slices.Contains([]string{"none", "normalised to sum to n", "as given"}, m.Weights):
		return fmt.Errorf("unknown weights %s", shortText([]byte(m.Weights)))
	case m.OffsetColumn != "" && slices.Contains(m.Names, m.OffsetColumn):
		return fmt.Errorf("offset column %s is also a predictor", shortText([]byte(m.OffsetColumn)))
	case strings.TrimSpace(m.Target) == "":
		return errors.New("empty target name")
	case m.N < 1:
		return fmt.Errorf("n = %d observations", m.N)
	case len(m.Names) == 0 || len(m.Names) != len(m.Coefficients):
		return fmt.Errorf("%d predictor names for %d coefficients", len(m.Names), len(m.Coefficients))
	}
	return nil
}

// predictFlags are the flags of cardreg predict.
type predictFlags struct {
	model, out, sep, typ string
}

func newPredictFlags() (*flag.FlagSet, *predictFlags) {
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := &predictFlags{}
	fs.StringVar(&f.model, "model", "", "model file written by cardreg fit --save-model or cardreg net --save-model (- reads it from standard input, when the data are a file)")
	fs.StringVar(&f.out, "out", "", "output file (default: standard output); written only when complete")
	fs.StringVar(&f.sep, "sep", ",", "field separator of DATA.csv")
	fs.StringVar(&f.typ, "type", "response", "what to predict (glmnet's type): link (the linear predictor), response (the fitted mean: a probability for binomial, a rate for poisson) or class (binomial: 1 when the probability exceeds 1/2)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: cardreg predict --model MODEL.json [--out FILE] DATA.csv

Prints one prediction per row of DATA.csv as CSV with the header "prediction":
the fitted value (--type: the fitted mean, the linear predictor or, for a
logistic model, the class), or for a network trained with --loss xent the
predicted class. DATA.csv must hold every predictor column of the model, by
name, and the offset column of a model fitted with --offset; other columns (the
response, extra columns) are ignored.

Example:
  cardreg fit --save-model model.json examples/cardinality.csv
  cardreg predict --model model.json examples/cardinality.csv

Flags:
`)
		fs.PrintDefaults()
	}
	return fs, f
}

func runPredict(args []string, stdout, stderr io.Writer) int {
	fs, f := newPredictFlags()
	pos, err := parseInterleaved(fs, args)
	if helped(fs, err, stdout) {
		return 0
	}
	if err == nil {
		err = f.validate(pos)
	}
	if err == nil {
		err = checkPaths([]string{pos[0], f.model}, "--out", f.out)
	}
	if err != nil {
		return usageFailure(stderr, "predict", err, "")
	}
	err = writeOutput("--out", f.out, stdout, func(w io.Writer) error {
		return predictFile(w, f.model, pos[0], []rune(f.sep)[0], f.typ)
	})
	if err != nil {
		fmt.Fprintf(stderr, "cardreg predict: %v\n", err)
		return 1
	}
	return 0
}

// validate checks the flags and the positional arguments.
func (f *predictFlags) validate(pos []string) error {
	switch {
	case f.model == "":
		return errors.New("--model is required")
	case len(pos) != 1:
		return fmt.Errorf("expected one data file, got %d arguments", len(pos))
	case f.model == "-" && pos[0] == "-":
		return errors.New("--model -: the model cannot come from standard input when the data do too; give one of them as a file")
	}
	if _, ok := datafit.PredictionByName(f.typ); !ok {
		return fmt.Errorf("--type must be link, response or class, got %s", shortText([]byte(f.typ)))
	}
	r, err := parseSep(f.sep)
	if err == nil {
		f.sep = string(r)
	}
	return err
}

// predictFile writes the CSV of predictions of the model for the rows of
// the data file: X·coefficients + intercept, streamed row by row in
// constant memory (only the model's columns are read), or the network's
// predictions.
func predictFile(w io.Writer, modelPath, dataPath string, sep rune, typ string) error {
	raw, err := jsonx.ReadFile(modelPath)
	if err != nil {
		return err
	}
	var head struct {
		Format string
		Names  []string
	}
	if json.Unmarshal(raw, &head) == nil && head.Format == deepreg.SavedFormat {
		return predictNetworkFile(w, raw, head.Names, modelPath, dataPath, sep)
	}
	m, err := parseModelFrom(modelPath, raw)
	if err != nil {
		return err
	}
	fam, err := datafit.ByName(m.Family)
	if err != nil {
		return err
	}
	if _, ok := fam.(datafit.Binomial); typ == "class" && !ok {
		return usagef("--type class is for binomial models; this one is %s", m.Family)
	}
	pred, _ := datafit.PredictionByName(typ) // checked by runPredict
	return m.predictRows(w, dataPath, sep, func(eta float64) float64 { return datafit.Predict(fam, eta, pred) })
}

// predictNetworkFile writes the predictions of the saved network raw
// (whose inputs are names) for the rows of the data file.
func predictNetworkFile(w io.Writer, raw []byte, names []string, modelPath, dataPath string, sep rune) error {
	t, err := readTableWith(dataPath, readOptions{sep: sep, columns: needColumns(names, "network", "input")})
	if err != nil {
		return err
	}
	pred, err := predictNetwork(raw, inputName(modelPath), t, dataPath)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, "prediction\n"+strings.Join(pred, "\n")+"\n")
	return err
}

// predictRows streams the data file's rows and writes, for each, the
// model's linear predictor mapped by out.
func (m *savedModel) predictRows(w io.Writer, dataPath string, sep rune, out func(eta float64) float64) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("prediction\n")
	var col []int // the kept column of each coefficient, then of the offset
	o := readOptions{sep: sep, columns: m.columns(&col)}
	rows := 0
	var buf []byte
	x := make([]float64, len(m.Coefficients))
	o.row = func(v []float64, _ []string) error {
		rows++
		for k := range x {
			x[k] = v[col[k]]
		}
		offset := 0.0
		if m.OffsetColumn != "" {
			offset = v[col[len(col)-1]]
		}
		pred := out(datafit.LinearPredictor(m.Coefficients, x, m.Intercept, offset))
		if math.IsInf(pred, 0) || math.IsNaN(pred) {
			return fmt.Errorf("the prediction of data row %d overflows float64", rows)
		}
		buf = strconv.AppendFloat(buf[:0], pred, 'g', 17, 64)
		buf = append(buf, '\n')
		_, err := bw.Write(buf)
		return err
	}
	if _, err := readTableWith(dataPath, o); err != nil {
		return err
	}
	return bw.Flush()
}

// columns picks the model's predictor columns (and its offset column) of
// a header, every one of which must be present, and sets *col to the
// index of each among the columns kept.
func (m *savedModel) columns(col *[]int) func([]string) ([]bool, error) {
	need := m.Names
	pick := needColumns(m.Names, "model", "predictor")
	if m.OffsetColumn != "" {
		need = append(slices.Clone(need), m.OffsetColumn)
		pick = unionColumns(pick, needColumns([]string{m.OffsetColumn}, "model", "offset"))
	}
	return func(header []string) ([]bool, error) {
		keep, err := pick(header)
		var kept []string
		for j, k := range keep {
			if k {
				kept = append(kept, header[j])
			}
		}
		for _, name := range need {
			*col = append(*col, slices.Index(kept, name))
		}
		return keep, err
	}
}

// unionColumns keeps the columns either a or b keeps, with a's error
// first.
func unionColumns(a, b func([]string) ([]bool, error)) func([]string) ([]bool, error) {
	return func(header []string) ([]bool, error) {
		keep, err := a(header)
		if err != nil {
			return nil, err
		}
		other, err := b(header)
		for j, k := range other {
			keep[j] = keep[j] || k
		}
		return keep, err
	}
}

// needColumns picks the named columns of a header, every one of which
// must be present.
func needColumns(names []string, what, role string) func([]string) ([]bool, error) {
	return func(header []string) ([]bool, error) {
		keep := make([]bool, len(header))
		for _, name := range names {
			j := slices.Index(header, name)
			if j < 0 {
				return nil, fmt.Errorf("the %s needs %s %s, which is not a column (columns: %s)", what, role, shortText([]byte(name)), strings.Join(header, ", "))
			}
			keep[j] = true
		}
		return keep, nil
	}
}
