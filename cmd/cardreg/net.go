package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/cardsparse/cardreg/bounds"
	"github.com/cardsparse/cardreg/cardmat"
	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/deepreg"
	"github.com/cardsparse/cardreg/internal/jsonx"
	"github.com/cardsparse/cardreg/internal/membudget"
	"github.com/cardsparse/cardreg/internal/outfile"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/report"
	"github.com/cardsparse/cardreg/request"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// netFlags are the flags of cardreg net.
type netFlags struct {
	arch, activation, penalty, loss, target, project, compressed string
	format, out, saveModel, sep                                  string
	lambda, lr, validation                                       float64
	nu                                                           optFloat
	projectK, epochs, batch, patience, every                     int
	seed                                                         uint64
	memory                                                       int64
	adam, bias, standardize, progress                            bool
}

func newNetFlags() (*flag.FlagSet, *netFlags) {
	fs := flag.NewFlagSet("net", flag.ContinueOnError)
	f := &netFlags{}
	fs.StringVar(&f.arch, "arch", "", "layer widths p0,p1,...,p(L+1): p0 = number of predictors, last = classes (xent) or 1 (squared); required")
	fs.StringVar(&f.activation, "activation", "relu", "hidden activation: relu, leaky-relu[:slope], identity, isru, arctan, tanh; or one per hidden layer, comma separated")
	fs.StringVar(&f.penalty, "penalty", "none", "penalty on the columns of every weight matrix: "+request.OrList(netPenalties()))
	fs.Float64Var(&f.lambda, "lambda", 0, "penalty weight: the objective is loss + lambda * sum_l h(W^l)")
	fs.Var(&f.nu, "nu", "cardinality: weight of the kernel term, > 0 (default 1/(1 - 2/p) for the smallest layer width p >= 3, else 1)")
	fs.IntVar(&f.projectK, "project-k", 0, "after every step, project each weight column onto at most k distinct values (0: off)")
	fs.StringVar(&f.project, "project", "heuristic", "projection: heuristic (the source paper's: sort, k equal parts, means) or exact (optimal 1-D k-means)")
	fs.StringVar(&f.loss, "loss", "squared", "squared (mean squared error, the theory's) or xent (softmax cross-entropy; the target's distinct values are the classes)")
	fs.StringVar(&f.target, "target", "", "response column (default: the last column)")
	fs.IntVar(&f.epochs, "epochs", 100, "passes over the training rows")
	fs.Float64Var(&f.lr, "lr", 0.1, "learning rate")
	fs.IntVar(&f.batch, "batch", 0, "rows per step (0: full batch)")
	fs.BoolVar(&f.adam, "adam", false, "proximal Adam instead of proximal gradient steps")
	fs.BoolVar(&f.bias, "bias", false, "add biases (unpenalised; off by default as in the theory)")
	fs.BoolVar(&f.standardize, "standardize", false, "centre and scale predictors to unit standard deviation (kept in the model for predict)")
	fs.Float64Var(&f.validation, "validation", 0, "share of rows held out for validation figures and early stopping")
	fs.IntVar(&f.patience, "patience", 0, "with --validation: stop after this many epochs without a lower validation loss (0: never)")
	fs.IntVar(&f.every, "every", 1, "report every this many epochs")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the initial weights, batches and validation split")
	fs.StringVar(&f.compressed, "compressed", "auto", "first layer on the compressed input: auto (when every predictor has at most 32 distinct values), yes or no")
	fs.StringVar(&f.format, "format", "text", "per-epoch figures as text, csv or json")
	fs.BoolVar(&f.progress, "progress", false, "show a progress bar on stderr even when it is not a terminal")
	fs.StringVar(&f.out, "out", "", "output file (default: standard output); written only when complete")
	fs.StringVar(&f.saveModel, "save-model", "", "write the trained network (JSON) for cardreg predict; written only when complete")
	fs.StringVar(&f.sep, "sep", ",", "field separator")
	fs.Func("memory", "memory budget in bytes (units allowed: 8GB, 512MiB) the training must fit in (default: half the machine's memory, or of the cgroup's limit)", func(s string) (err error) {
		f.memory, err = membudget.ParseBytes(s)
		return err
	})
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: cardreg net --arch P0,...,PL [flags] DATA.csv

Trains the feed-forward network g(x) = W^L f(... W^1 f(W^0 x)) by proximal
gradient descent on loss + lambda * sum_l h(W^l), h acting on the columns of
every weight matrix (no 1/(2n) in the penalty; the loss is a mean over rows).
DATA.csv has a header row; the target is the last column unless --target
names another, the other columns are the inputs. Prints loss, penalty,
accuracy (xent) or mean squared error, and wall time per reported epoch.

Example:
  cardreg net --arch 64,40,10 --activation relu --penalty cardinality --lambda 0.001 \
    --project-k 8 --epochs 1000 --loss xent --target digit --standardize \
    --save-model digits-net.json ../shared/data/digits.csv
  cardreg predict --model digits-net.json ../shared/data/digits.csv

Flags:
`)
		fs.PrintDefaults()
	}
	return fs, f
}

func runNet(args []string, stdout, stderr io.Writer) int {
	fs, f := newNetFlags()
	fs.SetOutput(io.Discard)
	pos, err := parseInterleaved(fs, args)
	if helped(fs, err, stdout) {
		return 0
	}
	if err == nil && len(pos) != 1 {
		err = fmt.Errorf("expected one data file, got %d arguments", len(pos))
	}
	var cfg *netConfig
	if err == nil {
		cfg, err = f.config()
	}
	if err == nil {
		err = checkPaths([]string{pos[0]}, "--out", f.out, "--save-model", f.saveModel)
	}
	if err != nil {
		return usageFailure(stderr, "net", err, seeHelp("net"))
	}
	res, err := trainFile(pos[0], f, cfg, stderr)
	if err == nil && f.saveModel != "" {
		err = outfile.Write("--save-model", f.saveModel, nil, func(w io.Writer) error { return jsonx.Write(w, res.Model) })
	}
	if err == nil {
		err = outfile.Write("--out", f.out, stdout, func(w io.Writer) error { return res.Write(w, f.format) })
	}
	return exitStatus(stderr, "net", err)
}

// netConfig is what the flags say, checked before the data are read.
type netConfig struct {
	arch []int
	acts []deepreg.Activation
	loss deepreg.Loss
	pen  penalty.Penalty
	nu   float64
}

// config checks the flags that do not depend on the data.
func (f *netFlags) config() (*netConfig, error) {
	c := &netConfig{}
	var err error
	if c.arch, err = parseWidths(f.arch); err != nil {
		return nil, err
	}
	if c.acts, err = parseActivations(f.activation, len(c.arch)-2); err != nil {
		return nil, err
	}
	if c.loss, err = parseLoss(f.loss); err != nil {
		return nil, err
	}
	if err := checkNu(f.nu); err != nil {
		return nil, err
	}
	if c.pen, c.nu, err = f.buildPenalty(c.arch); err != nil {
		return nil, err
	}
	if err := f.checkChoices(); err != nil {
		return nil, err
	}
	return c, f.checkNumbers()
}

// parseWidths reads --arch: positive integer widths, at least two.
func parseWidths(arch string) ([]int, error) {
	widths, _, ok := positiveInts(arch)
	if !ok {
		return nil, fmt.Errorf("--arch %q: want positive integer widths like 64,40,10", arch)
	}
	if len(widths) < 2 {
		return nil, fmt.Errorf("--arch %q: want at least the input and output widths", arch)
	}
	return widths, nil
}

// parseActivations reads --activation: one name for every hidden layer,
// or one per hidden layer.
func parseActivations(list string, hidden int) ([]deepreg.Activation, error) {
	names := strings.Split(list, ",")
	if len(names) == 1 {
		names = slices.Repeat(names, hidden)
	}
	if len(names) != hidden {
		return nil, fmt.Errorf("--activation: %d names for %d hidden layers", len(names), hidden)
	}
	var acts []deepreg.Activation
	for _, s := range names {
		a, err := deepreg.ParseActivation(s)
		if err != nil {
			return nil, fmt.Errorf("--activation: %v", err)
		}
		acts = append(acts, a)
	}
	return acts, nil
}

// parseLoss reads --loss.
func parseLoss(name string) (deepreg.Loss, error) {
	switch name {
	case "squared":
		return deepreg.SquaredError{}, nil
	case "xent":
		return deepreg.CrossEntropy{}, nil
	}
	return nil, fmt.Errorf("--loss %q: want squared or xent", name)
}

// checkChoices checks the flags that name one of a few choices.
func (f *netFlags) checkChoices() error {
	switch {
	case f.project != "heuristic" && f.project != "exact":
		return fmt.Errorf("--project %q: want heuristic or exact", f.project)
	case f.compressed != "auto" && f.compressed != "yes" && f.compressed != "no":
		return fmt.Errorf("--compressed %q: want auto, yes or no", f.compressed)
	case f.format != "text" && f.format != "csv" && f.format != "json":
		return fmt.Errorf("--format %q: want text, csv or json", f.format)
	}
	r, err := parseSep(f.sep) // fit's check and message
	f.sep = string(r)
	return err
}

// checkNumbers checks the numeric flags' ranges.
func (f *netFlags) checkNumbers() error {
	switch {
	case !(f.lambda >= 0) || math.IsInf(f.lambda, 0):
		return fmt.Errorf("--lambda %v: want a finite number >= 0", f.lambda)
	case !(f.validation >= 0 && f.validation < 1):
		return fmt.Errorf("--validation %v: want a share in [0, 1)", f.validation)
	case !(f.lr > 0) || math.IsInf(f.lr, 0):
		return fmt.Errorf("--lr %v: want a finite number > 0", f.lr)
	case f.epochs < 1 || f.batch < 0 || f.patience < 0 || f.projectK < 0:
		return errors.New("--epochs must be at least 1, and --batch, --patience and --project-k at least 0")
	case f.every < 1:
		return fmt.Errorf("--every %d: want at least 1", f.every)
	}
	return nil
}

// buildPenalty returns the penalty and its ν (0 when it has none): one
// of penalty.Lookup's table acting on the columns of every weight matrix,
// its default ν the theory's for the smallest layer width.
func (f *netFlags) buildPenalty(arch []int) (penalty.Penalty, float64, error) {
	if f.penalty == "none" {
		if f.lambda != 0 {
			return nil, 0, errors.New("--lambda needs a --penalty")
		}
		return nil, 0, nil
	}
	kind, ok := penalty.Lookup(f.penalty)
	if ok && kind.Needs == penalty.NeedsGroups {
		return nil, 0, fmt.Errorf("--penalty %s: row groups differ per layer; not available for networks from the command line (use the deepreg package)", f.penalty)
	}
	if !ok || !kind.Networks {
		return nil, 0, fmt.Errorf("--penalty %q: want %s", f.penalty, request.OrList(netPenalties()))
	}
	pen, nu, err := bounds.Build(kind, penalty.Inputs{P: slices.Min(arch[1:]), Nu: f.nu.v}, f.nu.set)
	return pen, nu.Value, err
}

// trainFile reads the data, trains, and returns the result.
func trainFile(path string, f *netFlags, cfg *netConfig, stderr io.Writer) (*report.Training, error) {
	var target string
	o := data.Options{Sep: []rune(f.sep)[0]}
	o.Columns = func(h []string) ([]bool, error) {
		target = h[len(h)-1]
		if f.target != "" {
			if !slices.Contains(h, f.target) {
				return nil, usagef("--target: no column named %s (columns: %s)", data.ShortText(f.target), strings.Join(h, ", "))
			}
			target = f.target
		}
		return slices.Repeat([]bool{true}, len(h)), nil
	}
	if f.loss == "xent" {
		// Class labels may be text (cat, dog) or numbers (0…9).
		o.Labels = func(name string) bool { return name == target }
	}
	t, err := readTableWith(path, o)
	if err != nil {
		return nil, err
	}
	ti, _ := t.Index(target)
	m := &deepreg.Saved{Format: deepreg.SavedFormat, Version: deepreg.SavedVersion, Target: t.Names()[ti], Loss: cfg.loss.String(),
		Penalty: f.penalty, Lambda: f.lambda, Nu: cfg.nu}
	x, y, err := prepareNet(m, t, ti, cfg, f.standardize, path)
	if err != nil {
		return nil, err
	}
	if err := checkNetMemory(cfg.arch, t.Rows(), membudget.Of(f.memory).OrAssumed()); err != nil {
		return nil, err
	}
	net, err := deepreg.New(cfg.arch, cfg.acts, f.bias, f.seed)
	if err != nil {
		return nil, err
	}
	design, note, err := f.design(x)
	if err != nil {
		return nil, err
	}
	tick, done := fitProgress(stderr, f.progress, "training")
	opts := &deepreg.Options{Loss: cfg.loss, Penalty: cfg.pen, Lambda: f.lambda, LearningRate: f.lr,
		Epochs: f.epochs, BatchSize: f.batch, Adam: f.adam, ProjectK: f.projectK, ProjectExact: f.project == "exact",
		Seed: f.seed, Validation: f.validation, Patience: f.patience, ReportEvery: f.every}
	if tick != nil {
		opts.Progress = func(e deepreg.Epoch) { tick(e.Epoch, f.epochs) }
	}
	res, err := deepreg.Train(net, design, y, opts)
	done()
	if err != nil {
		if d := (*deepreg.DivergedError)(nil); errors.As(err, &d) {
			d.Remedy = f.divergedRemedy()
		}
		return nil, data.InFile(path, err)
	}
	m.SetNetwork(net)
	return &report.Training{Model: m, History: res.History, Input: note}, nil
}

// divergedRemedy is what to try when training diverged, in flags.
func (f *netFlags) divergedRemedy() string {
	s := fmt.Sprintf("lower --lr (now %g; try %.3g)", f.lr, f.lr/10)
	if !f.standardize {
		s += " or add --standardize"
	}
	if f.saveModel != "" {
		s += "; the model was not saved"
	}
	return s
}

// checkNetMemory refuses an architecture whose training on n rows would
// not fit in the budget b (deepreg.TrainingBytes).
func checkNetMemory(arch []int, n int, b membudget.Budget) error {
	need, weights := deepreg.TrainingBytes(arch, n)
	if need > float64(b.Bytes) {
		return usagef("--arch %v needs about %s to train on %d rows (%.3g million weights), more than %s",
			arch, membudget.FormatBytes(need), n, weights/1e6, b)
	}
	return nil
}

// design returns the input as a dense or compressed design.
func (f *netFlags) design(x *mat.Dense) (solver.Design, string, error) {
	if f.compressed == "no" {
		return solver.DenseDesign{X: x}, "dense input", nil
	}
	c, err := cardmat.Encode(x)
	if err != nil {
		return nil, "", err
	}
	if f.compressed == "auto" && slices.Max(c.Distinct()) > 32 {
		return solver.DenseDesign{X: x}, "dense input (a predictor has more than 32 distinct values)", nil
	}
	return c, fmt.Sprintf("compressed input (at most %d distinct values per predictor)", slices.Max(c.Distinct())), nil
}

// prepareNet builds the inputs (standardised when asked, the centre and
// scale kept in m) and the targets (one-hot classes for xent, the classes
// kept in m), checking the widths.
func prepareNet(m *deepreg.Saved, t *data.Table, ti int, cfg *netConfig, standardize bool, path string) (*mat.Dense, *mat.Dense, error) {
	n := t.Rows()
	if len(t.Names()) < 2 {
		return nil, nil, fmt.Errorf("%s: need at least one input column besides the target", path)
	}
	x := t.DenseExcept(ti)
	m.SetInputs(x, slices.Delete(slices.Clone(t.Names()), ti, ti+1), standardize)
	if cfg.arch[0] != len(m.Names) {
		return nil, nil, usagef("--arch starts with %d inputs but %s has %d input columns", cfg.arch[0], path, len(m.Names))
	}
	out := cfg.arch[len(cfg.arch)-1]
	if m.Loss == "squared" {
		if out != 1 {
			return nil, nil, usagef("--arch ends with %d outputs; --loss squared fits the one target column, so it must end with 1", out)
		}
		return x, mat.NewDense(n, 1, slices.Clone(t.Col(ti))), nil
	}
	labels := m.SetClasses(t.Text(ti), func(s string) (float64, bool) {
		v, err := data.ParseNumber([]byte(s))
		return v, err == nil
	})
	if out != m.NumClasses() {
		return nil, nil, usagef("--arch ends with %d outputs but the target %q has %d classes", out, t.Names()[ti], m.NumClasses())
	}
	return x, deepreg.OneHot(labels, m.NumClasses()), nil
}

// netPenalties names the penalties of networks: the table's, and none.
func netPenalties() []string {
	return append(penalty.Names(func(k penalty.Kind) bool { return k.Networks }), "none")
}
