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

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/datafit"
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
		return nil, fmt.Errorf("%s: %v", data.InputName(path), err)
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
		if text := jsonTextError(b, err); text != err {
			return nil, text
		}
		return nil, fmt.Errorf("not a cardreg model: %v", err)
	}
	if head.Format != modelFormat {
		return nil, fmt.Errorf("not a cardreg model (format %s, want %q)", data.ShortText([]byte(head.Format)), modelFormat)
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
	if err := decodeStrict(b, &m, required...); err != nil {
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

// knownFamily reports whether family is one of datafit's, spelt as it
// spells it, with its link.
func knownFamily(family, link string) bool {
	f, err := datafit.ByName(family)
	return err == nil && f.Name() == family && f.Link() == link
}

// check tests the values of a decoded model.
func (m *savedModel) check() error {
	switch {
	case !slices.Contains([]string{"cardinality", "grouped", "lasso", "ridge", "general"}, m.Penalty):
		return fmt.Errorf("unknown penalty %s", data.ShortText([]byte(m.Penalty)))
	case !(m.Lambda >= 0) || math.IsInf(m.Lambda, 0):
		return fmt.Errorf("lambda %v is not a finite number >= 0", m.Lambda)
	case m.Nu != nil && !(*m.Nu > 0):
		return fmt.Errorf("nu %v is not > 0", *m.Nu)
	case m.DualityGap != nil && !(*m.DualityGap >= 0):
		return fmt.Errorf("duality_gap %v is negative", *m.DualityGap)
	case !knownFamily(m.Family, m.Link):
		return fmt.Errorf("unknown family and link %s/%s", data.ShortText([]byte(m.Family)), data.ShortText([]byte(m.Link)))
	case m.Weights != "" && !slices.Contains([]string{"none", "normalised to sum to n", "as given"}, m.Weights):
		return fmt.Errorf("unknown weights %s", data.ShortText([]byte(m.Weights)))
	case m.OffsetColumn != "" && slices.Contains(m.Names, m.OffsetColumn):
		return fmt.Errorf("offset column %s is also a predictor", data.ShortText([]byte(m.OffsetColumn)))
	case strings.TrimSpace(m.Target) == "":
		return errors.New("empty target name")
	case m.N < 1:
		return fmt.Errorf("n = %d observations", m.N)
	case len(m.Names) == 0 || len(m.Names) != len(m.Coefficients):
		return fmt.Errorf("%d predictor names for %d coefficients", len(m.Names), len(m.Coefficients))
	}
	seen := map[string]bool{}
	for _, name := range m.Names {
		if strings.TrimSpace(name) == "" || seen[name] {
			return fmt.Errorf("predictor name %s is empty or repeated", data.ShortText([]byte(name)))
		}
		seen[name] = true
	}
	// JSON has no NaN or infinity, and a number beyond float64 fails to
	// decode, so every coefficient is finite here.
	return nil
}

func runPredict(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	modelPath := fs.String("model", "", "model file written by cardreg fit --save-model or cardreg net --save-model (- reads it from standard input, when the data are a file)")
	out := fs.String("out", "", "output file (default: standard output); written only when complete")
	sep := fs.String("sep", ",", "field separator of DATA.csv")
	typ := fs.String("type", "response", "what to predict (glmnet's type): link (the linear predictor), response (the fitted mean: a probability for binomial, a rate for poisson) or class (binomial: 1 when the probability exceeds 1/2)")
	fs.Usage = func() {
		fmt.Fprint(stdout, `Usage: cardreg predict --model MODEL.json [--out FILE] DATA.csv

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
		fs.SetOutput(stdout)
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	switch {
	case err != nil:
	case *modelPath == "":
		err = errors.New("--model is required")
	case len(pos) != 1:
		err = fmt.Errorf("expected one data file, got %d arguments", len(pos))
	case *modelPath == "-" && pos[0] == "-":
		err = errors.New("--model -: the model cannot come from standard input when the data do too; give one of them as a file")
	case !slices.Contains([]string{"link", "response", "class"}, *typ):
		err = fmt.Errorf("--type must be link, response or class, got %s", data.ShortText([]byte(*typ)))
	default:
		var r rune
		if r, err = parseSep(*sep); err == nil {
			*sep = string(r)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "cardreg predict: %v\n", err)
		return 2
	}
	if err := checkPaths([]string{pos[0], *modelPath}, "--out", *out); err != nil {
		fmt.Fprintf(stderr, "cardreg predict: %v\n", err)
		return 2
	}
	err = writeOutput("--out", *out, stdout, func(w io.Writer) error {
		return predictFile(w, *modelPath, pos[0], []rune(*sep)[0], *typ)
	})
	if err != nil {
		fmt.Fprintf(stderr, "cardreg predict: %v\n", err)
		return 1
	}
	return 0
}

// predictFile writes the CSV of predictions of the model for the rows of
// the data file: X·coefficients + intercept, streamed row by row in
// constant memory (only the model's columns are read), or the network's
// predictions.
func predictFile(w io.Writer, modelPath, dataPath string, sep rune, typ string) error {
	raw, err := readJSONFile(modelPath)
	if err != nil {
		return err
	}
	var head struct {
		Format string
		Names  []string
	}
	if json.Unmarshal(raw, &head) == nil && head.Format == netModelFormat {
		t, err := readTableWith(dataPath, data.Options{Sep: sep, Columns: needColumns(head.Names, "network", "input")})
		if err != nil {
			return err
		}
		pred, err := predictNetwork(raw, data.InputName(modelPath), t, dataPath)
		if err != nil {
			return err
		}
		_, err = io.WriteString(w, "prediction\n"+strings.Join(pred, "\n")+"\n")
		return err
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
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("prediction\n")
	var col []int // the table column of each coefficient
	need := m.Names
	pick := needColumns(m.Names, "model", "predictor")
	if m.OffsetColumn != "" {
		need = append(slices.Clone(need), m.OffsetColumn)
		names, offset := pick, needColumns([]string{m.OffsetColumn}, "model", "offset")
		pick = func(header []string) ([]bool, error) {
			keep, err := names(header)
			if err != nil {
				return nil, err
			}
			off, err := offset(header)
			for j, k := range off {
				keep[j] = keep[j] || k
			}
			return keep, err
		}
	}
	o := data.Options{Sep: sep, Columns: func(header []string) ([]bool, error) {
		keep, err := pick(header)
		var kept []string
		for j, k := range keep {
			if k {
				kept = append(kept, header[j])
			}
		}
		for _, name := range need {
			col = append(col, slices.Index(kept, name))
		}
		return keep, err
	}}
	rows := 0
	var buf []byte
	o.Row = func(v []float64, _ []string) error {
		rows++
		var pred float64
		for k, c := range m.Coefficients {
			pred += c * v[col[k]]
		}
		pred += m.Intercept
		if m.OffsetColumn != "" {
			pred += v[col[len(col)-1]]
		}
		pred = transformPrediction(fam, pred, typ)
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

// needColumns picks the named columns of a header, every one of which
// must be present.
func needColumns(names []string, what, role string) func([]string) ([]bool, error) {
	return func(header []string) ([]bool, error) {
		keep := make([]bool, len(header))
		for _, name := range names {
			j := slices.Index(header, name)
			if j < 0 {
				return nil, fmt.Errorf("the %s needs %s %s, which is not a column (columns: %s)", what, role, data.ShortText([]byte(name)), strings.Join(header, ", "))
			}
			keep[j] = true
		}
		return keep, nil
	}
}

// transformPrediction maps a linear predictor to what --type asks for.
func transformPrediction(fam datafit.Family, eta float64, typ string) float64 {
	switch typ {
	case "link":
		return eta
	case "class":
		if eta > 0 {
			return 1
		}
		return 0
	}
	return fam.Mean(eta)
}
