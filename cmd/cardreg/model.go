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
	model, out, sep, typ, unseen string
	// format and base read a sparse data file (--input-format,
	// --index-base).
	format, base string
	// typeGiven says --type was given: a network has no --type to honour.
	typeGiven bool
}

func newPredictFlags() (*flag.FlagSet, *predictFlags) {
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := &predictFlags{}
	fs.StringVar(&f.model, "model", "", "model file written by cardreg fit --save-model or cardreg net --save-model (- reads it from standard input, when the data are a file)")
	fs.StringVar(&f.out, "out", "", "output file (default: standard output); written only when complete")
	fs.StringVar(&f.sep, "sep", ",", "field separator of DATA.csv")
	fs.StringVar(&f.unseen, "unseen", "error", "a factor level the model does not have: error (name the row, the column and the level; write nothing) or reference (predict such rows at the factor's reference level, with one warning counting them)")
	fs.StringVar(&f.format, "input-format", "", "DATA's format: "+data.FormatNames+"; default: by its extension ("+data.Extensions()+"), else CSV or Parquet; a sparse file's columns are x1...xp, p the model's")
	fs.StringVar(&f.base, "index-base", "auto", "svmlight: the column indices' base, 1, 0 or auto (as cardreg fit reads it: give the base the fit was given)")
	fs.StringVar(&f.typ, "type", "response", "what to predict (glmnet's type): link (the linear predictor), response (the fitted mean: a probability for binomial, a rate for poisson) or class (binomial: 1 when the probability exceeds 1/2)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: cardreg predict --model MODEL.json [--out FILE] DATA.csv

Prints one prediction per row of DATA.csv as CSV with the header "prediction":
the fitted value (--type: the fitted mean, the linear predictor or, for a
logistic model, the class), or for a network trained with --loss xent the
predicted class. DATA.csv must hold every predictor column of the model, by
name, and the offset column of a model fitted with --offset; other columns (the
response, extra columns) are ignored.
DATA may instead be a sparse file (svmlight, Matrix Market: by its extension
or --input-format), read as columns x1...xp, p the model's (a larger index is
an error): for a model fitted on such a file.

A model fitted with factors (text columns, --factor, --ordinal) reads each
factor's column by name as text, its levels as fit read them (with --factor or
an ordinal's numbers, "02" and "2.0" are the level "2"), and puts each row's
level in its dummy column (NAME=LEVEL; the reference level has none). A level
the model does not have is an error naming the file, the line, the column and
the level, unless --unseen reference predicts such rows at the reference level
(a warning counts them); a missing value (empty, NA, NaN) is an error unless
the fit made it a level (--na-level).

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
		f.typeGiven = givenFlags(fs)["type"]
		err = f.validate(pos)
	}
	if err == nil {
		err = checkPaths([]string{pos[0], f.model}, "--out", f.out)
	}
	if err != nil {
		return usageFailure(stderr, "predict", err, "")
	}
	var unseen *predict.Unseen
	if f.unseen == "reference" {
		unseen = &predict.Unseen{}
	}
	err = outfile.Write("--out", f.out, stdout, func(w io.Writer) error {
		return predictFile(w, f.model, pos[0], []rune(f.sep)[0], f, unseen)
	})
	if err != nil {
		return exitStatus(stderr, "predict", err) // 2 for what the model cannot take (--type)
	}
	if unseen != nil && unseen.Rows > 0 {
		fmt.Fprintf(stderr, "cardreg predict: warning: %d row(s) hold a factor level the model does not have, predicted at the reference level (--unseen reference); the first: %s\n", unseen.Rows, unseen.First)
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
	if f.unseen != "error" && f.unseen != "reference" {
		return fmt.Errorf("--unseen must be error or reference, got %s", data.ShortText(f.unseen))
	}
	if _, ok := datafit.PredictionByName(f.typ); !ok {
		return fmt.Errorf("--type must be link, response or class, got %s", data.ShortText(f.typ))
	}
	if _, err := data.FormatOf(pos[0], f.format); err != nil {
		return fmt.Errorf("--input-format: %v", err)
	}
	if _, err := data.ParseBase(f.base); err != nil {
		return fmt.Errorf("--index-base %v", err)
	}
	r, err := parseSep(f.sep)
	if err == nil {
		f.sep = string(r)
	}
	return err
}

// predictFile writes the CSV of predictions of the model for the rows of
// the data file: X·coefficients + intercept, streamed row by row in
// constant memory (only the model's columns are read; unseen as
// predict.Linear takes it; f.typ the prediction's type), or the network's
// predictions, which take no --type.
func predictFile(w io.Writer, modelPath, dataPath string, sep rune, f *predictFlags, unseen *predict.Unseen) error {
	typ := f.typ
	raw, err := jsonx.ReadFile(modelPath)
	if err != nil {
		return err
	}
	var head struct {
		Format string
		Names  []string
	}
	if json.Unmarshal(raw, &head) == nil && head.Format == deepreg.SavedFormat {
		if in, _ := data.FormatOf(dataPath, f.format); in.Sparse() {
			return fmt.Errorf("%s: a network (cardreg net) predicts from CSV or Parquet files, not %s", data.InputName(dataPath), in.Describe())
		}
		if f.typeGiven {
			return usagef("--type is for models saved by cardreg fit: %s is a network (cardreg net), which predicts its fitted value, or its class when trained with --loss xent", data.InputName(modelPath))
		}
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
	pred, err := datafit.PredictionFor(fam, typ)
	if err != nil {
		return usagef("--type %v", err)
	}
	if in, _ := data.FormatOf(dataPath, f.format); in.Sparse() { // checked by validate
		return predictSparse(w, m, dataPath, in, f, func(eta float64) float64 { return datafit.Predict(fam, eta, pred) })
	}
	o := data.Options{Sep: sep, Progress: readProgress("reading " + dataPath)}
	return predict.Linear(w, m, dataPath, o, func(eta float64) float64 { return datafit.Predict(fam, eta, pred) }, unseen)
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
