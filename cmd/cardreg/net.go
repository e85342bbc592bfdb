package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/bounds"
	"github.com/cardsparse/cardreg/cardmat"
	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/deepreg"
	"github.com/cardsparse/cardreg/penalty"
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
	fs.StringVar(&f.penalty, "penalty", "none", "penalty on the columns of every weight matrix: cardinality, lasso, ridge or none")
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
		f.memory, err = parseBytes(s)
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
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		fs.Usage()
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
		fmt.Fprintf(stderr, "cardreg net: %v (see cardreg help net)\n", err)
		return 2
	}
	res, err := trainFile(pos[0], f, cfg, stderr)
	if err == nil && f.saveModel != "" {
		err = writeOutput("--save-model", f.saveModel, nil, func(w io.Writer) error { return writeJSON(w, res.model) })
	}
	if err == nil {
		err = writeOutput("--out", f.out, stdout, func(w io.Writer) error { return res.write(w, f.format) })
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
	for _, s := range strings.Split(f.arch, ",") {
		p, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || p < 1 {
			return nil, fmt.Errorf("--arch %q: want positive integer widths like 64,40,10", f.arch)
		}
		c.arch = append(c.arch, p)
	}
	if len(c.arch) < 2 {
		return nil, fmt.Errorf("--arch %q: want at least the input and output widths", f.arch)
	}
	names := strings.Split(f.activation, ",")
	if len(names) == 1 {
		names = slices.Repeat(names, len(c.arch)-2)
	}
	if len(names) != len(c.arch)-2 {
		return nil, fmt.Errorf("--activation: %d names for %d hidden layers", len(names), len(c.arch)-2)
	}
	for _, s := range names {
		a, err := deepreg.ParseActivation(s)
		if err != nil {
			return nil, fmt.Errorf("--activation: %v", err)
		}
		c.acts = append(c.acts, a)
	}
	switch f.loss {
	case "squared":
		c.loss = deepreg.SquaredError{}
	case "xent":
		c.loss = deepreg.CrossEntropy{}
	default:
		return nil, fmt.Errorf("--loss %q: want squared or xent", f.loss)
	}
	if err := checkNu(f.nu); err != nil {
		return nil, err
	}
	var err error
	if c.pen, c.nu, err = f.buildPenalty(c.arch); err != nil {
		return nil, err
	}
	switch {
	case f.project != "heuristic" && f.project != "exact":
		return nil, fmt.Errorf("--project %q: want heuristic or exact", f.project)
	case f.compressed != "auto" && f.compressed != "yes" && f.compressed != "no":
		return nil, fmt.Errorf("--compressed %q: want auto, yes or no", f.compressed)
	case f.format != "text" && f.format != "csv" && f.format != "json":
		return nil, fmt.Errorf("--format %q: want text, csv or json", f.format)
	case !validSep(&f.sep):
		return nil, fmt.Errorf(`--sep must be one character (or \t), got %q`, f.sep)
	case !(f.lambda >= 0) || math.IsInf(f.lambda, 0):
		return nil, fmt.Errorf("--lambda %v: want a finite number >= 0", f.lambda)
	case !(f.validation >= 0 && f.validation < 1):
		return nil, fmt.Errorf("--validation %v: want a share in [0, 1)", f.validation)
	case !(f.lr > 0) || math.IsInf(f.lr, 0):
		return nil, fmt.Errorf("--lr %v: want a finite number > 0", f.lr)
	case f.epochs < 1 || f.batch < 0 || f.patience < 0 || f.projectK < 0:
		return nil, errors.New("--epochs must be at least 1, and --batch, --patience and --project-k at least 0")
	case f.every < 1:
		return nil, fmt.Errorf("--every %d: want at least 1", f.every)
	}
	return c, nil
}

// buildPenalty returns the penalty and its ν (0 when it has none).
func (f *netFlags) buildPenalty(arch []int) (penalty.Penalty, float64, error) {
	switch f.penalty {
	case "none":
		if f.lambda != 0 {
			return nil, 0, errors.New("--lambda needs a --penalty")
		}
		return nil, 0, nil
	case "lasso":
		return penalty.L1{Nu: f.nuOr(1)}, f.nuOr(1), nil
	case "ridge":
		return penalty.Ridge{}, 0, nil
	case "cardinality":
		nu := 1.0
		m, _ := bounds.PenaltyKernel(penalty.Cardinality{}, slices.Min(arch[1:]), 1)
		if v, ok := bounds.NuMin(m); ok {
			nu = v
		}
		nu = f.nuOr(nu)
		return penalty.Cardinality{Nu: nu}, nu, nil
	case "grouped":
		return nil, 0, errors.New("--penalty grouped: row groups differ per layer; not available for networks from the command line (use the deepreg package)")
	}
	return nil, 0, fmt.Errorf("--penalty %q: want cardinality, lasso, ridge or none", f.penalty)
}

func (f *netFlags) nuOr(def float64) float64 { return f.nu.or(def) }

// netResult is a trained network with its history.
type netResult struct {
	model   *netModel
	history []deepreg.Epoch
	note    string
}

// trainFile reads the data, trains, and returns the result.
func trainFile(path string, f *netFlags, cfg *netConfig, stderr io.Writer) (*netResult, error) {
	var target string
	o := data.Options{Sep: []rune(f.sep)[0]}
	o.Columns = func(h []string) ([]bool, error) {
		target = h[len(h)-1]
		if f.target != "" {
			if !slices.Contains(h, f.target) {
				return nil, usagef("--target: no column named %s (columns: %s)", data.ShortText([]byte(f.target)), strings.Join(h, ", "))
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
	m := &netModel{Format: netModelFormat, Version: netModelVersion, Target: t.Names()[ti], Loss: cfg.loss.String(),
		Penalty: f.penalty, Lambda: f.lambda, Nu: cfg.nu}
	x, y, err := m.prepare(t, ti, cfg, f.standardize, path)
	if err != nil {
		return nil, err
	}
	if err := checkNetMemory(cfg.arch, len(t.Cols()[0]), memoryBudget(f.memory).orAssumed()); err != nil {
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
	m.setNetwork(net)
	return &netResult{model: m, history: res.History, note: note}, nil
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

// checkNetMemory refuses an architecture whose training would not fit in
// the budget b: about eight copies of the weights (weights, gradients,
// Adam's moments, the best network kept, the prox's work) and three of the
// activations of n rows. Sizes are summed in float64, so absurd widths
// cannot overflow.
func checkNetMemory(arch []int, n int, b budget) error {
	var params, units float64
	for l := 0; l+1 < len(arch); l++ {
		params += float64(arch[l]) * float64(arch[l+1])
	}
	for _, w := range arch {
		units += float64(w)
	}
	need := 8 * (8*params + 3*units*float64(n))
	if need > float64(b.bytes) {
		return usagef("--arch %v needs about %s to train on %d rows (%.3g million weights), more than %s",
			arch, formatBytes(need), n, params/1e6, b)
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

// write prints the per-epoch figures.
func (r *netResult) write(w io.Writer, format string) error {
	metric := "mse"
	if r.model.Loss == "xent" {
		metric = "accuracy"
	}
	header := []string{"epoch", "loss", "penalty", "objective", metric, "val_loss", "val_" + metric, "seconds"}
	rows := make([][]float64, len(r.history))
	for k, e := range r.history {
		rows[k] = []float64{float64(e.Epoch), e.Loss, e.Penalty, e.Objective, e.Metric, e.ValLoss, e.ValMetric, e.Seconds}
	}
	switch format {
	case "json":
		var hist []map[string]any
		for _, row := range rows {
			e := map[string]any{}
			for k, name := range header {
				if !math.IsNaN(row[k]) {
					e[name] = row[k]
				}
			}
			hist = append(hist, e)
		}
		return writeJSON(w, map[string]any{"model": r.model, "input": r.note, "history": hist})
	case "csv":
		buf := []byte(strings.Join(header, ",") + "\n")
		for _, row := range rows {
			for k, v := range row {
				if k > 0 {
					buf = append(buf, ',')
				}
				if !math.IsNaN(v) {
					buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
				}
			}
			buf = append(buf, '\n')
		}
		_, err := w.Write(buf)
		return err
	}
	m := r.model
	fmt.Fprintf(w, "network %v, activations %s, %s loss, penalty %s (lambda %g), %s\n",
		m.Arch, strings.Join(m.Activations, ","), m.Loss, m.Penalty, m.Lambda, r.note)
	fmt.Fprintf(w, "%6s %12s %12s %12s %10s %12s %10s %9s\n", "epoch", "loss", "penalty", "objective", metric, "val_loss", "val_"+metric, "seconds")
	for _, row := range rows {
		fmt.Fprintf(w, "%6.0f %12.6g %12.6g %12.6g %10.4g %12s %10s %9.3f\n", row[0], row[1], row[2], row[3], row[4],
			orDash(row[5], "%.6g"), orDash(row[6], "%.4g"), row[7])
	}
	return nil
}

// The saved network's format; predict tells it from a linear model by
// Format.
const (
	netModelFormat  = "cardreg-network"
	netModelVersion = 1
)

// netModel is what net --save-model writes and predict reads.
type netModel struct {
	Format      string        `json:"format"`
	Version     int           `json:"version"`
	Target      string        `json:"target"`
	Loss        string        `json:"loss"`
	Penalty     string        `json:"penalty"`
	Lambda      float64       `json:"lambda"`
	Nu          float64       `json:"nu,omitempty"`
	Names       []string      `json:"names"`
	Classes     []float64     `json:"classes,omitempty"`
	ClassLabels []string      `json:"class_labels,omitempty"`
	Center      []float64     `json:"center,omitempty"`
	Scale       []float64     `json:"scale,omitempty"`
	Arch        []int         `json:"arch"`
	Activations []string      `json:"activations"`
	Weights     [][][]float64 `json:"weights"`
	Biases      [][]float64   `json:"biases,omitempty"`
}

// prepare builds the inputs (standardised when asked, the centre and scale
// kept) and the targets (one-hot classes for xent), checking the widths.
func (m *netModel) prepare(t *data.Table, ti int, cfg *netConfig, standardize bool, path string) (*mat.Dense, *mat.Dense, error) {
	n := len(t.Cols()[0])
	if len(t.Names()) < 2 {
		return nil, nil, fmt.Errorf("%s: need at least one input column besides the target", path)
	}
	x := mat.NewDense(n, len(t.Names())-1, nil)
	for j, col := range t.Cols() {
		if j == ti {
			continue
		}
		col = slices.Clone(col)
		if standardize {
			c, s := meanSD(col)
			for i := range col {
				col[i] = (col[i] - c) / s
			}
			m.Center, m.Scale = append(m.Center, c), append(m.Scale, s)
		}
		x.SetCol(len(m.Names), col)
		m.Names = append(m.Names, t.Names()[j])
	}
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
	labels := m.setClasses(t.Text(ti))
	if out != m.classes() {
		return nil, nil, usagef("--arch ends with %d outputs but the target %q has %d classes", out, t.Names()[ti], m.classes())
	}
	return x, deepreg.OneHot(labels, m.classes()), nil
}

// setClasses sets the model's classes from the target's labels and
// returns each row's class index. Labels that all read as numbers are
// numeric classes (Classes, sorted by value, as 0…9 on digits); otherwise
// they are text classes (ClassLabels, sorted), and predict prints them.
func (m *netModel) setClasses(text []string) []int {
	nums, numeric := data.Numbers(text)
	labels := make([]int, len(text))
	if numeric {
		m.Classes = slices.Compact(slices.Sorted(slices.Values(nums)))
		for i, v := range nums {
			labels[i], _ = slices.BinarySearch(m.Classes, v)
		}
		return labels
	}
	m.ClassLabels = slices.Compact(slices.Sorted(slices.Values(text)))
	for i, s := range text {
		labels[i], _ = slices.BinarySearch(m.ClassLabels, s)
	}
	return labels
}

// classes is the number of classes.
func (m *netModel) classes() int { return len(m.Classes) + len(m.ClassLabels) }

// meanSD returns the mean and standard deviation of a column (a constant
// column gets scale 1).
func meanSD(col []float64) (float64, float64) {
	// On the column divided by its largest magnitude, so that neither the
	// sum nor the squares overflow (columns near 1e200 had an infinite
	// scale, which zeroed them) or underflow.
	var size float64
	for _, v := range col {
		size = math.Max(size, math.Abs(v))
	}
	if size == 0 {
		return 0, 1
	}
	var s float64
	for _, v := range col {
		s += v / size
	}
	mean := s / float64(len(col))
	var ss float64
	for _, v := range col {
		d := v/size - mean
		ss += d * d
	}
	sd := math.Sqrt(ss/float64(len(col))) * size
	if sd == 0 {
		sd = 1
	}
	return mean * size, sd
}

func (m *netModel) setNetwork(net *deepreg.Network) {
	m.Arch = net.Arch()
	for _, a := range net.Activations {
		m.Activations = append(m.Activations, a.String())
	}
	for _, w := range net.Weights {
		r, _ := w.Dims()
		rows := make([][]float64, r)
		for i := range rows {
			rows[i] = mat.Row(nil, i, w)
		}
		m.Weights = append(m.Weights, rows)
	}
	for _, b := range net.Biases {
		m.Biases = append(m.Biases, mat.Col(nil, 0, b))
	}
}

// network rebuilds the network of a saved model, checking its shapes.
func (m *netModel) network() (*deepreg.Network, error) {
	if len(m.Arch) < 2 || len(m.Weights) != len(m.Arch)-1 || len(m.Activations) != len(m.Arch)-2 {
		return nil, errors.New("inconsistent architecture, weights and activations")
	}
	for _, p := range m.Arch {
		if p < 1 || p > 1<<20 {
			return nil, fmt.Errorf("layer width %d out of range", p)
		}
	}
	net := &deepreg.Network{}
	for _, s := range m.Activations {
		a, err := deepreg.ParseActivation(s)
		if err != nil {
			return nil, err
		}
		net.Activations = append(net.Activations, a)
	}
	for l, rows := range m.Weights {
		w := mat.NewDense(m.Arch[l+1], m.Arch[l], nil)
		if len(rows) != m.Arch[l+1] {
			return nil, fmt.Errorf("weight matrix %d has %d rows, the architecture says %d", l, len(rows), m.Arch[l+1])
		}
		for i, row := range rows {
			if len(row) != m.Arch[l] {
				return nil, fmt.Errorf("weight matrix %d, row %d has %d entries, the architecture says %d", l, i, len(row), m.Arch[l])
			}
			w.SetRow(i, row)
		}
		net.Weights = append(net.Weights, w)
	}
	for l, b := range m.Biases {
		if len(b) != m.Arch[l+1] {
			return nil, fmt.Errorf("bias %d has %d entries, the architecture says %d", l, len(b), m.Arch[l+1])
		}
		net.Biases = append(net.Biases, mat.NewVecDense(len(b), slices.Clone(b)))
	}
	if len(m.Biases) != 0 && len(m.Biases) != len(m.Weights) {
		return nil, errors.New("inconsistent biases")
	}
	if len(m.Names) != m.Arch[0] || (m.Center != nil && len(m.Center) != m.Arch[0]) || (m.Scale != nil && len(m.Scale) != m.Arch[0]) ||
		(m.Center == nil) != (m.Scale == nil) {
		return nil, errors.New("input names, centre and scale do not match the input width")
	}
	for _, s := range m.Scale {
		if !(s > 0) {
			return nil, errors.New("input scales must be positive")
		}
	}
	return net, nil
}

// parseNetModel decodes a saved network strictly (see decodeStrict) and
// checks it: shapes, the loss and its classes, names and scales.
func parseNetModel(raw []byte) (*netModel, *deepreg.Network, error) {
	var m netModel
	if err := decodeStrict(raw, &m, "format", "version", "target", "loss", "penalty", "lambda", "names", "arch", "activations", "weights"); err != nil {
		return nil, nil, fmt.Errorf("corrupted cardreg network: %v", err)
	}
	if m.Format != netModelFormat || m.Version != netModelVersion {
		return nil, nil, fmt.Errorf("network format %s version %d, this cardreg reads %q version %d", data.ShortText([]byte(m.Format)), m.Version, netModelFormat, netModelVersion)
	}
	net, err := m.network()
	if err == nil {
		err = m.checkValues()
	}
	if err != nil {
		return nil, nil, fmt.Errorf("corrupted cardreg network: %v", err)
	}
	return &m, net, nil
}

// checkValues tests what network() does not: the loss and its classes,
// the input names, λ and ν.
func (m *netModel) checkValues() error {
	out := m.Arch[len(m.Arch)-1]
	switch m.Loss {
	case "squared":
		if m.classes() != 0 || out != 1 {
			return errors.New("a squared-loss network has one output and no classes")
		}
	case "xent":
		if len(m.Classes) > 0 && len(m.ClassLabels) > 0 || m.classes() != out {
			return fmt.Errorf("%d classes for %d outputs", m.classes(), out)
		}
		for i := 1; i < len(m.Classes); i++ {
			if !(m.Classes[i] > m.Classes[i-1]) {
				return errors.New("classes not strictly increasing")
			}
		}
		for i := 1; i < len(m.ClassLabels); i++ {
			if !(m.ClassLabels[i] > m.ClassLabels[i-1]) {
				return errors.New("class labels not strictly increasing")
			}
		}
	default:
		return fmt.Errorf("unknown loss %s", data.ShortText([]byte(m.Loss)))
	}
	seen := map[string]bool{}
	for _, name := range m.Names {
		if strings.TrimSpace(name) == "" || seen[name] {
			return fmt.Errorf("input name %s is empty or repeated", data.ShortText([]byte(name)))
		}
		seen[name] = true
	}
	if !(m.Lambda >= 0) || m.Nu < 0 {
		return fmt.Errorf("lambda %v and nu %v must be >= 0", m.Lambda, m.Nu)
	}
	return nil
}

// predictNetwork returns one prediction per row, as text: the output
// (squared) or the class with the largest output (xent), a number or a
// label.
func predictNetwork(raw []byte, modelPath string, t *data.Table, dataPath string) ([]string, error) {
	m, net, err := parseNetModel(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", modelPath, err)
	}
	n := t.Rows()
	x := mat.NewDense(n, len(m.Names), nil)
	for k, name := range m.Names {
		j, err := t.Index(name)
		if err != nil {
			return nil, fmt.Errorf("%s: the network needs input %q: %v", dataPath, name, err)
		}
		col := slices.Clone(t.Col(j))
		if m.Center != nil {
			for i := range col {
				col[i] = (col[i] - m.Center[k]) / m.Scale[k]
			}
		}
		x.SetCol(k, col)
	}
	out, err := net.Predict(x)
	if err != nil {
		return nil, err
	}
	pred := make([]string, n)
	for i := range pred {
		row := out.RawRowView(i)
		for _, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%s: the network's output for data row %d is %v (the inputs overflow it)", dataPath, i+1, v)
			}
		}
		if m.Loss != "xent" {
			pred[i] = strconv.FormatFloat(row[0], 'g', 17, 64)
			continue
		}
		best := 0
		for k, v := range row {
			if v > row[best] {
				best = k
			}
		}
		if m.ClassLabels != nil {
			pred[i] = csvNames([]string{m.ClassLabels[best]})[0]
		} else {
			pred[i] = strconv.FormatFloat(m.Classes[best], 'g', 17, 64)
		}
	}
	return pred, nil
}

// orDash formats v, or "-" when it is NaN (no validation rows).
func orDash(v float64, format string) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf(format, v)
}
