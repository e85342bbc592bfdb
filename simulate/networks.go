package simulate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/cardsparse/cardreg/cardmat"
	"github.com/cardsparse/cardreg/deepreg"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot/plotter"
)

// curveVariant is one way of training a curve experiment's network.
type curveVariant struct {
	Name string `json:"name"`
	// Compressed trains on the cardmat encoding of the inputs (the
	// first layer's products in the compressed domain).
	Compressed bool `json:"compressed_input"`
	// ProjectK > 0 projects every column of every weight matrix onto at
	// most ProjectK distinct values after each step (the paper's
	// heuristic: sort, cut into k equal parts, take the means).
	ProjectK int `json:"project_k"`
}

// curveSettings are the settings of the digits and letter experiments,
// written to the JSON file as their Params.
type curveSettings struct {
	Data         string         `json:"data"`
	Rows         int            `json:"rows"`
	Inputs       string         `json:"inputs"`
	Arch         []int          `json:"arch"`
	Activation   string         `json:"activation"`
	Bias         bool           `json:"bias"`
	Loss         string         `json:"loss"`
	Targets      string         `json:"targets"`
	Training     string         `json:"training"`
	LearningRate float64        `json:"learning_rate"`
	Epochs       int            `json:"epochs"`
	ReportEvery  int            `json:"report_every"`
	Validation   float64        `json:"validation_share"`
	Init         string         `json:"initialisation"`
	Variants     []curveVariant `json:"variants"`
	Metric       string         `json:"metric"`
	Threshold    float64        `json:"threshold"`
	Timing       string         `json:"timing"`
	Figure       string         `json:"figure"`
	Deviations   string         `json:"deviations_from_paper"`
	// higher is true when a larger metric is better (accuracy).
	higher bool
	// classes and scale read the data set.
	classes int
	scale   float64 // divide the inputs by scale, or standardise them when 0
	file    string
	cols    int
	label   func(string) (int, error)
}

// curveVariants are the four trainings of the digits and letter
// experiments; the last is the paper's recipe.
func curveVariants(k int) []curveVariant {
	return []curveVariant{
		{Name: "dense", Compressed: false},
		{Name: "compressed", Compressed: true},
		{Name: fmt.Sprintf("dense, project %d", k), ProjectK: k},
		{Name: fmt.Sprintf("compressed, project %d", k), Compressed: true, ProjectK: k},
	}
}

const (
	curveTiming = "Epoch.Seconds of deepreg.Train: wall time since the first step, including the evaluation of the figures every report_every epochs " +
		"(one forward pass over the training and the held-out rows); the data are split and encoded before the clock starts. " +
		"The variants of a repetition run one after the other, in an order rotated by the repetition, on all cores (deepreg splits the batch over GOMAXPROCS goroutines)."
	projectDeviation = "deepreg projects every column of every weight matrix (the output layer's too), where the paper projects the hidden layer's weight matrix; "
)

func digitsSettings(quick bool) curveSettings {
	s := curveSettings{
		Data:         "digits.csv (1797 rows, 64 pixel columns 0..16, then the digit)",
		Inputs:       "pixels divided by 16 (x ∈ [0, 1]^64), no centring",
		Arch:         []int{64, 40, 10},
		Activation:   "relu",
		Loss:         "softmax cross-entropy",
		Targets:      "one-hot digits",
		Training:     "deepreg.Train, full batch, plain gradient steps W ← W − η∇ (no penalty, no momentum)",
		LearningRate: 0.1,
		Epochs:       600,
		ReportEvery:  5,
		Validation:   0.2,
		Init:         "deepreg.New: i.i.d. N(0, 1/p_l), no biases, from a seed drawn from the repetition's seed; the same for every variant",
		Variants:     curveVariants(8),
		Metric:       "accuracy (share of rows whose largest output is the digit)",
		Threshold:    0.9,
		Timing:       curveTiming,
		Figure:       "mean over the repetitions, at every reported epoch, of the accuracy and of the wall time",
		Deviations: projectDeviation + "the paper does not give k (8 here), the learning rate, the number of epochs or the initialisation; " +
			"20% of the rows are held out (the paper trains on all and reports training accuracy)",
		higher:  true,
		classes: 10,
		scale:   16,
		file:    "digits.csv",
		cols:    64,
	}
	s.label = func(v string) (int, error) {
		d, err := strconv.Atoi(v)
		if err != nil || d < 0 || d > 9 {
			return 0, fmt.Errorf("digit %q is not 0..9", v)
		}
		return d, nil
	}
	if quick {
		s.Epochs, s.ReportEvery = 30, 5
	}
	return s
}

func letterSettings(quick bool) curveSettings {
	s := curveSettings{
		Data:         "letter_recognition.csv (20000 rows, 16 integer features 0..15, then the letter)",
		Inputs:       "features standardised to mean 0 and standard deviation 1 over all 20000 rows (dividing by 15 leaves plain gradient descent on the squared error stuck near the all-zero prediction, MSE 0.034 after 200 epochs)",
		Arch:         []int{16, 40, 26},
		Activation:   "relu",
		Loss:         "squared error (1/n)Σ‖y_i − g(x_i)‖²",
		Targets:      "one-hot letters (26 columns)",
		Training:     "deepreg.Train, full batch, plain gradient steps W ← W − η∇ (no penalty, no momentum)",
		LearningRate: 0.1,
		Epochs:       200,
		ReportEvery:  5,
		Validation:   0.2,
		Init:         "deepreg.New: i.i.d. N(0, 1/p_l), no biases, from a seed drawn from the repetition's seed; the same for every variant",
		Variants:     curveVariants(8),
		Metric:       "mean squared error per entry, (1/(26n))Σ(y − g(x))², as the paper reports",
		Threshold:    0.03,
		Timing:       curveTiming,
		Figure:       "mean over the repetitions, at every reported epoch, of the mean squared error and of the wall time",
		Deviations: projectDeviation + "the paper gives no architecture, loss details, learning rate, epochs or k; " +
			"16-40-26 relu without biases (as for digits), squared error on one-hot targets, standardised inputs, η = 0.1 (0.2 diverges for some initial weights), 200 epochs and k = 8 are cardreg's choices; 20% of the rows are held out",
		classes: 26,
		file:    "letter_recognition.csv",
		cols:    16,
	}
	s.label = func(v string) (int, error) {
		if len(v) != 1 || v[0] < 'A' || v[0] > 'Z' {
			return 0, fmt.Errorf("letter %q is not A..Z", v)
		}
		return int(v[0] - 'A'), nil
	}
	if quick {
		s.Epochs, s.ReportEvery = 10, 5
	}
	return s
}

// Digits is the source paper's digits experiment (§6, the figure
// "Accuracy"): a 64-40-10 relu network without biases trained by full-batch
// gradient descent (η = 0.1, 600 epochs, softmax cross-entropy) on the 8×8
// digits, pixels divided by 16, with training accuracy against wall time.
// Four variants start from the same weights: the dense input; the compressed
// input (cardmat, the first layer's products in the compressed domain, the
// paper's Algorithms 1 and 2); and both with the projection of the weight
// columns onto k = 8 distinct values after every step (the paper's sort, cut
// and average heuristic). The compressed input with the projection is the
// paper's recipe.
//
// Choices the paper leaves open: k = 8, η = 0.1, 600 epochs, deepreg.New's
// N(0, 1/p_l) weights, 20 % of the rows held out (the training accuracy is
// on the other 80 %). deepreg projects every weight matrix, the 10×40 output
// layer too, where the paper projects the hidden layer's. The figures are
// evaluated every 5 epochs and that evaluation is inside the timed loop.
//
// One CSV row per (seed, variant, reported epoch) with its status, the wall
// time (the Timing column), the loss, the training and held-out accuracy; a
// training that diverged has one row, status "diverged", at the epoch it
// diverged, and its repetition is left out of the summary and the figure
// (the other variants' rows say "excluded"; see diverge.go). The figure
// plots the accuracy, averaged over the repetitions, against the averaged
// wall time and against the epoch. The summary gives, per variant, the time
// and epoch at which the training accuracy first reaches 90 %, the final
// accuracies and the seconds per epoch.
func Digits() Experiment {
	return Experiment{
		Name:         "digits",
		Summary:      "the paper's digits network: training accuracy against wall time, dense and compressed input, with and without projection onto 8 values",
		DefaultSeeds: 5,
		run:          func(cfg Config) (*Result, error) { return runCurves(cfg, digitsSettings(cfg.Quick)) },
	}
}

// Letter is the source paper's letter experiment (§6, the figure
// "MSELetter"): a network trained on letter_recognition.csv (16 integer
// features, standardised; standardising keeps every column's 16 distinct
// values) with squared error on one-hot targets, the mean squared error
// against wall time, with and without cardinality sparsity. The paper gives
// no architecture; this is a 16-40-26 relu network without biases (the
// digits network's shape), full batch, η = 0.1, 200 epochs, and
// the same four variants as Digits (dense or compressed input, with or
// without the projection onto k = 8 values per weight column after every
// step), from the same initial weights. 20 % of the rows are held out.
//
// One CSV row per (seed, variant, reported epoch) with its status, the wall
// time, the loss and the training and held-out mean squared error per
// entry; diverged trainings as for Digits. The
// figure plots the mean squared error, averaged over the repetitions,
// against the averaged wall time and against the epoch. The summary gives,
// per variant, the time and epoch at which the training mean squared error
// first falls to 0.03, the final errors and the seconds per epoch.
func Letter() Experiment {
	return Experiment{
		Name:         "letter",
		Summary:      "the paper's letter experiment: squared-error network, MSE against wall time with and without cardinality sparsity",
		DefaultSeeds: 3,
		run:          func(cfg Config) (*Result, error) { return runCurves(cfg, letterSettings(cfg.Quick)) },
	}
}

// curveData reads the data set with one-hot targets: inputs divided by
// s.scale (digits: to [0, 1]) or, when s.scale is 0 (letter), standardised
// with the mean and standard deviation of all rows, the held-out rows
// included.
func curveData(cfg Config, s *curveSettings) (*mat.Dense, *mat.Dense, error) {
	path := cfg.dataFile(s.file)
	d, err := LoadCSV(path, s.cols)
	if err != nil {
		return nil, nil, err
	}
	n, p := d.X.Dims()
	if p != s.cols || len(d.Labels) != n {
		return nil, nil, fmt.Errorf("%s: want %d numeric columns and a label column", path, s.cols)
	}
	labels := make([]int, n)
	for i, v := range d.Labels {
		if labels[i], err = s.label(v); err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %w", path, i+2, err)
		}
	}
	x := mat.DenseCopyOf(d.X)
	if s.scale > 0 {
		x.Scale(1/s.scale, x)
	} else {
		for j := 0; j < p; j++ {
			col := mat.Col(nil, j, x)
			m, sd := stat.MeanStdDev(col, nil)
			if sd == 0 {
				sd = 1
			}
			for i, v := range col {
				x.Set(i, j, (v-m)/sd)
			}
		}
	}
	s.Rows = n
	return x, deepreg.OneHot(labels, s.classes), nil
}

// curveRun is one variant's training of one repetition.
type curveRun struct {
	history []deepreg.Epoch
	div     *divergence // the training diverged: no history
}

func runCurves(cfg Config, s curveSettings) (*Result, error) {
	x, y, err := curveData(cfg, &s)
	if err != nil {
		return nil, err
	}
	cx, err := cardmat.Encode(x)
	if err != nil {
		return nil, err
	}
	metric, valMetric := "train_mse", "heldout_mse"
	var loss deepreg.Loss = deepreg.SquaredError{}
	if s.higher {
		metric, valMetric = "train_accuracy", "heldout_accuracy"
		loss = deepreg.CrossEntropy{}
	}
	r := &Result{
		Columns: []string{"seed", "variant", "status", "compressed", "project_k", "epoch", "seconds", "loss", metric, "heldout_loss", valMetric},
		Timing:  []string{"seconds"},
		Params:  s,
	}
	nv := len(s.Variants)
	runs := make([][]curveRun, nv) // runs[v][summarised repetition]
	reps := newRepetitions(cfg.Seeds)
	total := cfg.Seeds * nv
	for i := 0; i < cfg.Seeds; i++ {
		seed := cfg.SeedFor(i)
		rep, divs, err := curveRepetition(cfg, s, curveInputs{x, cx, y, loss}, seed, i, total)
		if err != nil {
			return nil, err
		}
		reps.add(seed, divs)
		for v, run := range rep {
			vr := s.Variants[v]
			status := statusOK
			switch {
			case run.div != nil:
				status = statusDiverged
				r.Add(seed, vr.Name, status, vr.Compressed, vr.ProjectK, run.div.Epoch, math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN())
				continue
			case len(divs) > 0:
				status = statusExcluded
			}
			for _, e := range run.history {
				r.Add(seed, vr.Name, status, vr.Compressed, vr.ProjectK, e.Epoch, e.Seconds, e.Loss, e.Metric, e.ValLoss, e.ValMetric)
			}
			if len(divs) == 0 {
				runs[v] = append(runs[v], run)
			}
		}
	}
	if err := reps.check(); err != nil {
		return nil, err
	}
	r.Summary = curveSummary(s, runs)
	r.Summary.(map[string]any)["repetitions"] = reps
	fig, err := curveFigure(s, runs, reps)
	if err != nil {
		return nil, err
	}
	r.Figure = fig
	return r, nil
}

// curveInputs are the rows a curve experiment trains on, dense (x) and
// compressed (cx), the targets and the loss.
type curveInputs struct {
	x    *mat.Dense
	cx   solver.Design
	y    *mat.Dense
	loss deepreg.Loss
}

// curveRepetition trains every variant of repetition i (seed) and returns
// their runs and the divergences among them; only an error that is not a
// divergence is returned as one.
func curveRepetition(cfg Config, s curveSettings, in curveInputs, seed uint64, i, total int) ([]curveRun, []divergence, error) {
	rng := rand.New(rand.NewPCG(seed, 0x6375727665))
	initSeed, splitSeed := rng.Uint64(), rng.Uint64()
	start, err := deepreg.New(s.Arch, []deepreg.Activation{deepreg.ReLU{}}, false, initSeed)
	if err != nil {
		return nil, nil, err
	}
	nv := len(s.Variants)
	rep := make([]curveRun, nv)
	var divs []divergence
	for k := range nv {
		v := (i + k) % nv // rotate the order so no variant always runs first
		vr := s.Variants[v]
		var design solver.Design = solver.DenseDesign{X: in.x}
		if vr.Compressed {
			design = in.cx
		}
		opts := &deepreg.Options{Loss: in.loss, LearningRate: s.LearningRate, Epochs: s.Epochs, ReportEvery: s.ReportEvery,
			Validation: s.Validation, Seed: splitSeed, ProjectK: vr.ProjectK}
		res, err := train(seed, start.Clone(), design, in.y, opts)
		if err == nil {
			rep[v] = curveRun{history: res.History, div: nonFinite(seed, vr.Name, res.History)}
		} else if dv, ok := asDivergence(seed, vr.Name, err); ok {
			rep[v] = curveRun{div: &dv}
		} else {
			return nil, nil, fmt.Errorf("seed %d, %s: %w", seed, vr.Name, err)
		}
		if rep[v].div != nil {
			divs = append(divs, *rep[v].div)
		}
		cfg.progress(i*nv+k+1, total)
	}
	return rep, divs, nil
}

// nonFinite returns the divergence of a history with a figure that is not
// a finite number (a held-out loss that overflows), or nil.
func nonFinite(seed uint64, name string, h []deepreg.Epoch) *divergence {
	for _, e := range h {
		for _, f := range []float64{e.Loss, e.Metric, e.ValLoss, e.ValMetric} {
			if !isFinite(f) {
				return &divergence{Seed: seed, Fit: name, Epoch: e.Epoch, What: fmt.Sprintf("a training or held-out figure is %v", f)}
			}
		}
	}
	return nil
}

// reached returns the first epoch whose training metric reaches the
// threshold, and false when none does.
func (s curveSettings) reached(h []deepreg.Epoch) (deepreg.Epoch, bool) {
	for _, e := range h {
		if s.higher && e.Metric >= s.Threshold || !s.higher && e.Metric <= s.Threshold {
			return e, true
		}
	}
	return deepreg.Epoch{}, false
}

func curveSummary(s curveSettings, runs [][]curveRun) map[string]any {
	name := "train_mse"
	if s.higher {
		name = "train_accuracy"
	}
	variants := map[string]any{}
	for v, vr := range s.Variants {
		var secs, epochs, final, finalVal, perEpoch []float64
		for _, run := range runs[v] {
			last := run.history[len(run.history)-1]
			final = append(final, last.Metric)
			finalVal = append(finalVal, last.ValMetric)
			perEpoch = append(perEpoch, last.Seconds/float64(last.Epoch))
			if e, ok := s.reached(run.history); ok {
				secs = append(secs, e.Seconds)
				epochs = append(epochs, float64(e.Epoch))
			}
		}
		entry := map[string]any{
			"final_" + name:         Summarize(final),
			"final_heldout":         Summarize(finalVal),
			"seconds_per_epoch":     Summarize(perEpoch),
			"reached_threshold":     fmt.Sprintf("%d of %d", len(secs), len(runs[v])),
			"seconds_to_threshold":  nil,
			"epoch_at_threshold":    nil,
			"threshold_description": fmt.Sprintf("first reported epoch with %s %s %g", name, map[bool]string{true: "≥", false: "≤"}[s.higher], s.Threshold),
		}
		if len(secs) > 0 {
			entry["seconds_to_threshold"] = Summarize(secs)
			entry["epoch_at_threshold"] = Summarize(epochs)
		}
		variants[vr.Name] = entry
	}
	// The mean curves at a few epochs, for the report.
	at := map[string]any{}
	for v, vr := range s.Variants {
		mean := meanCurve(runs[v])
		pts := map[string]any{}
		for _, q := range []int{s.Epochs / 6, s.Epochs / 3, s.Epochs / 2, s.Epochs} {
			for _, e := range mean {
				if e.Epoch >= q {
					pts[strconv.Itoa(e.Epoch)] = map[string]float64{name: sig(e.Metric), "heldout": sig(e.ValMetric), "seconds": sig(e.Seconds)}
					break
				}
			}
		}
		at[vr.Name] = pts
	}
	return map[string]any{"variants": variants, "mean_curve_at": at}
}

// meanCurve averages the repetitions' histories epoch by epoch (every
// repetition reports the same epochs).
func meanCurve(runs []curveRun) []deepreg.Epoch {
	if len(runs) == 0 {
		return nil
	}
	out := make([]deepreg.Epoch, len(runs[0].history))
	for j := range out {
		out[j].Epoch = runs[0].history[j].Epoch
		for _, run := range runs {
			e := run.history[j]
			out[j].Seconds += e.Seconds / float64(len(runs))
			out[j].Metric += e.Metric / float64(len(runs))
			out[j].ValMetric += e.ValMetric / float64(len(runs))
			out[j].Loss += e.Loss / float64(len(runs))
		}
	}
	return out
}

func curveFigure(s curveSettings, runs [][]curveRun, reps *repetitions) (*Figure, error) {
	ylabel, what := "training mean squared error", "Mean squared error"
	if s.higher {
		ylabel, what = "training accuracy", "Training accuracy"
	}
	var byTime, byEpoch []Series
	for v, vr := range s.Variants {
		mean := meanCurve(runs[v])
		t := make(plotter.XYs, len(mean))
		e := make(plotter.XYs, len(mean))
		for j, m := range mean {
			t[j] = plotter.XY{X: m.Seconds, Y: m.Metric}
			e[j] = plotter.XY{X: float64(m.Epoch), Y: m.Metric}
		}
		byTime = append(byTime, Series{Name: vr.Name, XY: t})
		byEpoch = append(byEpoch, Series{Name: vr.Name, XY: e})
	}
	// Palette[0] is black; start the variants at orange so that the
	// paper's recipe and the dense run are easy to tell apart.
	byTime = append([]Series{{}}, byTime...)
	byEpoch = append([]Series{{}}, byEpoch...)
	p1, err := LinePanel(fmt.Sprintf("%s against wall time (mean of %s)", what, reps.caption()), "seconds", ylabel, false, false, byTime...)
	if err != nil {
		return nil, err
	}
	p2, err := LinePanel(fmt.Sprintf("%s against epoch (mean of %s)", what, reps.caption()), "epoch", ylabel, false, false, byEpoch...)
	if err != nil {
		return nil, err
	}
	if s.higher {
		p1.Legend.Top, p1.Legend.Left = false, false
		p2.Legend.Top, p2.Legend.Left = false, false
	}
	return NewFigure(2, p1, p2), nil
}
