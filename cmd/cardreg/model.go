package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/deepreg"
	"github.com/cardsparse/cardreg/internal/jsonx"
	"github.com/cardsparse/cardreg/internal/modelfile"
	"github.com/cardsparse/cardreg/internal/outfile"
	"github.com/cardsparse/cardreg/internal/predict"
)

// parseModelFrom reads back the model file path (or standard input, "-")
// saved by fit, whose text is b, refusing one that was cut short, edited
// or corrupted (see modelfile.Parse); its errors start with the file's name.
func parseModelFrom(path string, b []byte) (*modelfile.Linear, error) {
	m, err := modelfile.Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", data.InputName(path), err)
	}
	return m, nil
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
	err = outfile.Write("--out", f.out, stdout, func(w io.Writer) error {
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
		return fmt.Errorf("--type must be link, response or class, got %s", data.ShortText([]byte(f.typ)))
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
	o := data.Options{Sep: sep, Progress: readProgress("reading " + dataPath)}
	return predict.Linear(w, m, dataPath, o, func(eta float64) float64 { return datafit.Predict(fam, eta, pred) })
}

// predictNetworkFile writes the predictions of the saved network raw
// (whose inputs are names) for the rows of the data file.
func predictNetworkFile(w io.Writer, raw []byte, names []string, modelPath, dataPath string, sep rune) error {
	t, err := readTableWith(dataPath, data.Options{Sep: sep, Columns: predict.Need(names, "network", "input")})
	if err != nil {
		return err
	}
	pred, err := predict.Network(raw, data.InputName(modelPath), t, dataPath)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, "prediction\n"+strings.Join(pred, "\n")+"\n")
	return err
}
