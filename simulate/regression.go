package simulate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/cardsparse/cardreg/deepreg"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// regArch and regActs are the source paper's regression network: a scalar
// input, hidden widths 2, 10, 15, 20 with isru, identity, arctan, identity,
// a scalar output.
var (
	regArch = []int{1, 2, 10, 15, 20, 1}
	regActs = []deepreg.Activation{deepreg.ISRU{}, deepreg.Identity{}, deepreg.Arctan{}, deepreg.Identity{}}
)

// regSettings are the sizes and rules of the regression-vs-lasso experiment,
// written to the JSON file as its Params.
type regSettings struct {
	Arch                []int     `json:"arch"`
	Activations         []string  `json:"activations"`
	Bias                bool      `json:"bias"`
	NTrain              int       `json:"n_train"`
	NVal                int       `json:"n_val"`
	NTest               int       `json:"n_test"`
	Noise               float64   `json:"noise_sd"`
	Distinct            int       `json:"target_distinct_per_column"`
	TargetScale         float64   `json:"target_scale"`
	Target              string    `json:"target_rule"`
	Iterations          int       `json:"iterations"`
	LearningRate        float64   `json:"learning_rate"`
	Init                string    `json:"initialisation"`
	Lambdas             []float64 `json:"lambda_grid"`
	Selection           string    `json:"lambda_selection"`
	Nu                  float64   `json:"cardinality_nu"`
	LassoNu             float64   `json:"lasso_nu"`
	Objective           string    `json:"objective"`
	FigureRange         []float64 `json:"figure_x_range"`
	PaperErrorPenalised float64   `json:"paper_error_with_penalty"`
	PaperErrorPlain     float64   `json:"paper_error_without_penalty"`
}

// The paper's ‖Θ̂ − Θ*‖_F with and without the cardinality penalty.
const (
	paperErrorPenalised = 64.24
	paperErrorPlain     = 76.12
)

func regressionSettings(quick bool) regSettings {
	s := regSettings{
		Arch:         regArch,
		Activations:  []string{"isru", "identity", "arctan", "identity"},
		NTrain:       100,
		NVal:         100,
		NTest:        2000,
		Noise:        1,
		Distinct:     4,
		TargetScale:  2,
		Iterations:   1000,
		LearningRate: 0.02,
		Lambdas:      []float64{1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1},
		Nu:           1,
		LassoNu:      1,
		FigureRange:  []float64{-3, 3},
	}
	if quick {
		s.NTrain, s.NVal, s.NTest, s.Iterations = 40, 40, 200, 150
		s.Lambdas = []float64{1e-4, 1e-2}
	}
	s.Target = fmt.Sprintf("every column of every W^l (p_{l+1}×p_l) takes %d values drawn i.i.d. N(0, (%g)²/p_l) for that column; "+
		"each entry is one of them, chosen uniformly at random, so a column has at most %d distinct values (fewer when it has fewer rows)",
		s.Distinct, s.TargetScale, s.Distinct)
	s.Init = "deepreg.New: i.i.d. N(0, 1/p_l), no biases, from a seed drawn from the repetition's seed; the same initial weights for the three fits of a repetition (and for every λ)"
	s.Selection = fmt.Sprintf("every λ of the grid is fitted on the n_train rows; the λ with the smallest mean squared error on the n_val validation rows is kept; "+
		"the unpenalised fit has no λ. Test rows are fresh draws (x ~ N(0,1), noise N(0, %g²)).", s.Noise)
	s.Objective = "(1/n)Σ(y − g_Θ(x))² + λ·Σ_l h(W^l), h acting on the columns of every W^l (the last layer included); full-batch proximal gradient (deepreg.Train, no projection)"
	s.PaperErrorPenalised, s.PaperErrorPlain = paperErrorPenalised, paperErrorPlain
	return s
}

// RegressionVsLasso is the source paper's regression-versus-lasso experiment
// (§6, the figure "Regression" and the errors 64.24 with and 76.12 without
// the penalty): the network g_Θ(x) = W⁴ f⁴(W³ f³(W² f²(W¹ f¹(W⁰ x)))) with a
// scalar input, hidden widths 2, 10, 15, 20, activations isru, identity,
// arctan, identity, a scalar output and no biases, fitted by least squares
// without a penalty, with the lasso (penalty.L1, ν = 1) and with the
// cardinality penalty (penalty.Cardinality, ν = 1: the command line's default
// for networks, 1/(1 − 2/p) for the smallest width p ≥ 3, falls back to 1
// because the output width is 1).
//
// The paper leaves most of the design open; the choices here are:
//
//   - the target Θ*: every column of every W^l gets 4 values drawn i.i.d.
//     N(0, 4/p_l) (scale 2 over the fan-in, so that the true function varies
//     by several noise standard deviations over x ∈ [−3, 3]), and each entry
//     of the column is one of the 4, chosen uniformly, so every column has at
//     most 4 distinct values (the paper's "sparsity 4");
//   - data: x ~ N(0, 1), y = g_Θ*(x) + ε, ε ~ N(0, 1); 100 training, 100
//     validation and 2000 test rows, fresh for every repetition;
//   - training: deepreg.Train, full batch, 1000 proximal gradient steps of
//     size η = 0.02 from deepreg.New's N(0, 1/p_l) weights, the same initial
//     weights for the three fits of a repetition and for every λ;
//     (η = 0.05 diverges for some targets, whose function varies by up to 8
//     noise standard deviations);
//   - λ: each penalty's λ is picked from the grid 1e-5, 3e-5, …, 3e-2, 1e-1
//     by the mean squared error on the validation rows (0 is not on the grid,
//     so the penalised fits are penalised); a λ whose fit diverges
//     (deepreg.DivergedError, or a non-finite validation error) is skipped,
//     counted (diverged_fits) and listed in the summary (skipped_lambdas);
//   - a repetition in which a method has no fit (the unpenalised fit, or
//     every λ of a penalised one, diverged) is recorded, status
//     "diverged" for that method's row (its errors NA) and "excluded" for
//     the others, and left out of the summary and the figure, which say how
//     many repetitions were left out and which seeds (see diverge.go).
//
// Every repetition writes one CSV row per method with its status, the λ, ‖Θ̂ − Θ*‖_F
// (all weight matrices stacked), ‖Θ*‖_F, the test mean squared error against
// the noisy responses, the error of the fitted function against the true one
// on the test inputs, the training mean squared error and the wall time of
// the fit (of the whole λ grid for the penalised methods). The summary gives
// the mean, standard deviation and 95 % interval of the errors per method
// next to the paper's 64.24 and 76.12. The figure shows the true function
// and the three fits of the first repetition over [−3, 3] (true in black, as
// in the paper) and ‖Θ̂ − Θ*‖_F and the test error per method with their 95 %
// intervals.
//
// ‖Θ̂ − Θ*‖_F is the paper's figure of merit but the network is not
// identified: hidden units can be permuted, and the identity layers let
// W² W¹ and W⁴ W³ be refactored, so different weights give the same function.
// The function error is the better measure of the fit.
func RegressionVsLasso() Experiment {
	return Experiment{
		Name:         "regression-vs-lasso",
		Summary:      "the paper's 4-layer regression network: unpenalised, lasso and cardinality fits of a target with 4 values per column",
		DefaultSeeds: 20,
		run:          runRegression,
	}
}

// regMethods are the fits of a repetition, in the figures' order.
var regMethods = []string{"unpenalised", "lasso", "cardinality"}

// regData is one repetition's data.
type regData struct {
	target              *deepreg.Network
	xTrain, xVal, xTest *mat.Dense
	yTrain, yVal, yTest *mat.Dense
	fTest               *mat.Dense // the true function at xTest
	initSeed            uint64
	seed                uint64
}

// regTarget draws the target network: every column of every weight matrix
// holds at most s.Distinct distinct values.
func regTarget(s regSettings, rng *rand.Rand) *deepreg.Network {
	net, err := deepreg.New(s.Arch, regActs, false, rng.Uint64())
	if err != nil {
		panic(err)
	}
	vals := make([]float64, s.Distinct)
	for l, w := range net.Weights {
		r, c := w.Dims()
		sd := s.TargetScale / math.Sqrt(float64(s.Arch[l]))
		for j := 0; j < c; j++ {
			for k := range vals {
				vals[k] = sd * rng.NormFloat64()
			}
			for i := 0; i < r; i++ {
				w.Set(i, j, vals[rng.IntN(len(vals))])
			}
		}
	}
	return net
}

func regDraw(s regSettings, seed uint64) *regData {
	rng := rand.New(rand.NewPCG(seed, 0x7265672d6c6173))
	d := &regData{target: regTarget(s, rng), seed: seed}
	sample := func(n int) (*mat.Dense, *mat.Dense, *mat.Dense) {
		x := mat.NewDense(n, 1, nil)
		for i := 0; i < n; i++ {
			x.Set(i, 0, rng.NormFloat64())
		}
		f, err := d.target.Predict(x)
		if err != nil {
			panic(err)
		}
		y := mat.DenseCopyOf(f)
		for i := 0; i < n; i++ {
			y.Set(i, 0, f.At(i, 0)+s.Noise*rng.NormFloat64())
		}
		return x, y, f
	}
	d.xTrain, d.yTrain, _ = sample(s.NTrain)
	d.xVal, d.yVal, _ = sample(s.NVal)
	d.xTest, d.yTest, d.fTest = sample(s.NTest)
	d.initSeed = rng.Uint64()
	return d
}

// regFit trains a copy of start on the training rows with penalty h at λ.
func regFit(s regSettings, d *regData, start *deepreg.Network, h penalty.Penalty, lambda float64) (*deepreg.Network, error) {
	net := start.Clone()
	opts := &deepreg.Options{Loss: deepreg.SquaredError{}, LearningRate: s.LearningRate, Epochs: s.Iterations,
		ReportEvery: s.Iterations}
	if h != nil {
		opts.Penalty, opts.Lambda = h, lambda
	}
	if _, err := train(d.seed, net, solver.DenseDesign{X: d.xTrain}, d.yTrain, opts); err != nil {
		return nil, err
	}
	return net, nil
}

// mse returns the mean squared difference of the network's outputs on x and y.
func mse(net *deepreg.Network, x, y *mat.Dense) float64 {
	out, err := net.Predict(x)
	if err != nil {
		panic(err)
	}
	return deepreg.SquaredError{}.Metric(out, y)
}

// weightDistance returns ‖Θ̂ − Θ*‖_F over all weight matrices.
func weightDistance(a, b *deepreg.Network) float64 {
	var ss float64
	for l, w := range a.Weights {
		var d mat.Dense
		d.Sub(w, b.Weights[l])
		f := mat.Norm(&d, 2)
		ss += f * f
	}
	return math.Sqrt(ss)
}

// regFitResult is one method's fit of a repetition.
type regFitResult struct {
	method   string
	lambda   float64 // NaN for the unpenalised fit
	net      *deepreg.Network
	valMSE   float64
	seconds  float64
	diverged int          // fits of the λ grid that diverged
	skipped  []divergence // those fits, each λ named
	div      *divergence  // the method diverged at every λ: no fit (net nil)
}

// regRepetition runs the three fits of one repetition. A λ whose fit
// diverges is skipped (and counted); a method that diverges at every λ
// has no fit and says why in div. Only an error that is not a divergence
// is returned.
func regRepetition(s regSettings, d *regData) ([]regFitResult, error) {
	start, err := deepreg.New(s.Arch, regActs, false, d.initSeed)
	if err != nil {
		return nil, err
	}
	pens := []penalty.Penalty{nil, penalty.L1{Nu: s.LassoNu}, penalty.Cardinality{Nu: s.Nu}}
	out := make([]regFitResult, len(pens))
	for m, h := range pens {
		t0 := time.Now()
		best := regFitResult{method: regMethods[m], lambda: math.NaN(), valMSE: math.Inf(1)}
		grid := []float64{0}
		if h != nil {
			grid = s.Lambdas
		}
		for _, lam := range grid {
			net, err := regFit(s, d, start, h, lam)
			v := math.NaN()
			if err == nil {
				v = mse(net, d.xVal, d.yVal)
			}
			dv, diverged := asDivergence(d.seed, regMethods[m], err)
			switch {
			case err != nil && !diverged:
				return nil, err
			case err == nil && !isFinite(v):
				dv, diverged = divergence{Seed: d.seed, Fit: regMethods[m], What: fmt.Sprintf("the validation error is %v", v)}, true
			}
			if diverged {
				best.diverged++
				if h != nil {
					dv.What = fmt.Sprintf("at λ = %g: %s", lam, dv.What)
				}
				best.skipped = append(best.skipped, dv)
				continue
			}
			if v < best.valMSE {
				best.net, best.valMSE = net, v
				if h != nil {
					best.lambda = lam
				}
			}
		}
		if best.net == nil {
			dv := best.skipped[0] // the first λ that diverged
			if h != nil {
				dv.What = fmt.Sprintf("every λ of the grid diverged (learning rate %g); %s", s.LearningRate, dv.What)
			}
			best.div, best.valMSE = &dv, math.NaN()
		}
		best.seconds = time.Since(t0).Seconds()
		out[m] = best
	}
	return out, nil
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// regScores are the errors of one fit: the weight error and the test,
// function and training errors (NaN for a fit that diverged).
type regScores struct{ weight, test, function, train float64 }

// regScore scores a fit, and turns it into a divergence when a score is
// not finite (the fitted network overflows on the test inputs).
func regScore(f *regFitResult, d *regData) regScores {
	if f.net == nil {
		return regScores{math.NaN(), math.NaN(), math.NaN(), math.NaN()}
	}
	sc := regScores{weightDistance(f.net, d.target), mse(f.net, d.xTest, d.yTest), mse(f.net, d.xTest, d.fTest),
		mse(f.net, d.xTrain, d.yTrain)}
	for _, v := range []float64{sc.weight, sc.test, sc.function, sc.train} {
		if !isFinite(v) {
			f.div = &divergence{Seed: d.seed, Fit: f.method, What: "a test or training error of the fitted network is not finite"}
			return regScores{math.NaN(), math.NaN(), math.NaN(), math.NaN()}
		}
	}
	return sc
}

func runRegression(cfg Config) (*Result, error) {
	s := regressionSettings(cfg.Quick)
	r := &Result{
		Columns: []string{"seed", "method", "status", "lambda", "weight_error_fro", "target_norm_fro", "test_mse", "test_function_mse",
			"val_mse", "train_mse", "diverged_fits", "seconds"},
		Timing: []string{"seconds"},
		Params: s,
	}
	werr := map[string][]float64{}
	tmse := map[string][]float64{}
	fmse := map[string][]float64{}
	lams := map[string][]float64{}
	diverged := map[string]int{}
	skipped := []divergence{}
	var tnorms []float64
	reps := newRepetitions(cfg.Seeds)
	var first []regFitResult
	var firstData *regData
	for i := 0; i < cfg.Seeds; i++ {
		seed := cfg.SeedFor(i)
		d := regDraw(s, seed)
		fits, err := regRepetition(s, d)
		if err != nil {
			return nil, fmt.Errorf("seed %d: %w", seed, err)
		}
		tnorm := weightDistance(d.target, zeroLike(d.target))
		scores := make([]regScores, len(fits))
		var divs []divergence
		for k := range fits {
			scores[k] = regScore(&fits[k], d)
			if fits[k].div != nil {
				divs = append(divs, *fits[k].div)
			}
		}
		reps.add(seed, divs)
		for k, f := range fits {
			sc := scores[k]
			status := statusOK
			switch {
			case f.div != nil:
				status = statusDiverged
			case len(divs) > 0:
				status = statusExcluded
			}
			r.Add(seed, f.method, status, f.lambda, sc.weight, tnorm, sc.test, sc.function, f.valMSE, sc.train, f.diverged, f.seconds)
			diverged[f.method] += f.diverged
			if f.div == nil {
				skipped = append(skipped, f.skipped...)
			}
			if len(divs) > 0 {
				continue
			}
			werr[f.method] = append(werr[f.method], sc.weight)
			tmse[f.method] = append(tmse[f.method], sc.test)
			fmse[f.method] = append(fmse[f.method], sc.function)
			lams[f.method] = append(lams[f.method], f.lambda)
		}
		if len(divs) == 0 {
			tnorms = append(tnorms, tnorm)
			if first == nil {
				first, firstData = fits, d
			}
		}
		cfg.progress(i+1, cfg.Seeds)
	}
	if err := reps.check(); err != nil {
		return nil, err
	}
	methods := map[string]any{}
	for _, m := range regMethods {
		entry := map[string]any{
			"weight_error_fro":  Summarize(werr[m]),
			"test_mse":          Summarize(tmse[m]),
			"test_function_mse": Summarize(fmse[m]),
			"diverged_fits":     diverged[m],
		}
		if m != "unpenalised" {
			entry["lambdas"] = lams[m]
			entry["weight_error_ratio_to_unpenalised"] = round(Summarize(werr[m]).Mean/Summarize(werr["unpenalised"]).Mean, 4)
			entry["function_mse_ratio_to_unpenalised"] = round(Summarize(fmse[m]).Mean/Summarize(fmse["unpenalised"]).Mean, 4)
			entry["weight_error_below_unpenalised"] = countBelow(werr[m], werr["unpenalised"])
			entry["function_mse_below_unpenalised"] = countBelow(fmse[m], fmse["unpenalised"])
		}
		methods[m] = entry
	}
	r.Summary = map[string]any{
		"paper_weight_error": map[string]float64{"with_penalty": paperErrorPenalised, "without_penalty": paperErrorPlain,
			"ratio": round(paperErrorPenalised/paperErrorPlain, 4)},
		"repetitions":     reps,
		"skipped_lambdas": skipped,
		"target_norm_fro": Summarize(tnorms),
		"methods":         methods,
		"cardinality_vs_lasso": map[string]any{
			"weight_error_below_lasso": countBelow(werr["cardinality"], werr["lasso"]),
			"function_mse_below_lasso": countBelow(fmse["cardinality"], fmse["lasso"]),
		},
	}
	fig, err := regressionFigure(s, firstData, first, werr, fmse, reps)
	if err != nil {
		return nil, err
	}
	r.Figure = fig
	return r, nil
}

// countBelow reports in how many repetitions a[i] < b[i], as "k of n".
func countBelow(a, b []float64) string {
	k := 0
	for i := range a {
		if a[i] < b[i] {
			k++
		}
	}
	return fmt.Sprintf("%d of %d", k, len(a))
}

// zeroLike returns a network of the same shape with zero weights.
func zeroLike(n *deepreg.Network) *deepreg.Network {
	z := n.Clone()
	for _, w := range z.Weights {
		w.Zero()
	}
	return z
}

// regressionFigure draws the true function and the three fits of the first
// repetition, and the weight and function errors per method with their 95 %
// intervals.
func regressionFigure(s regSettings, d *regData, fits []regFitResult, werr, fmse map[string][]float64, reps *repetitions) (*Figure, error) {
	const points = 61
	lo, hi := s.FigureRange[0], s.FigureRange[1]
	grid := mat.NewDense(points, 1, nil)
	for i := 0; i < points; i++ {
		grid.Set(i, 0, lo+(hi-lo)*float64(i)/float64(points-1))
	}
	curve := func(name string, net *deepreg.Network) (Series, error) {
		out, err := net.Predict(grid)
		if err != nil {
			return Series{}, err
		}
		xy := make(plotter.XYs, points)
		for i := range xy {
			xy[i].X, xy[i].Y = grid.At(i, 0), out.At(i, 0)
		}
		return Series{Name: name, XY: xy}, nil
	}
	truth, err := curve("true function", d.target)
	if err != nil {
		return nil, err
	}
	series := []Series{truth}
	for _, f := range fits {
		name := f.method
		if !math.IsNaN(f.lambda) {
			name = fmt.Sprintf("%s, λ = %g", f.method, f.lambda)
		}
		c, err := curve(name, f.net)
		if err != nil {
			return nil, err
		}
		series = append(series, c)
	}
	p1, err := LinePanel(fmt.Sprintf("True function and fits, seed %d", d.seed), "x", "g(x)", false, false, series...)
	if err != nil {
		return nil, err
	}
	// The error panels: one point per method at x = 1, 2, 3 with its
	// interval; the first (empty) series keeps black for the truth.
	methodPanel := func(title, ylabel string, vals map[string][]float64) (*plot.Plot, error) {
		ss := []Series{{}}
		for k, m := range regMethods {
			st := Summarize(vals[m])
			ss = append(ss, Series{Name: m, XY: plotter.XYs{{X: float64(k), Y: st.Mean}}, Low: []float64{st.Low}, High: []float64{st.High}})
		}
		p, err := LinePanel(title, "", ylabel, false, false, ss...)
		if err != nil {
			return nil, err
		}
		p.Legend = plot.NewLegend() // the axis names the methods
		p.NominalX(regMethods...)
		p.X.Min, p.X.Max = -0.5, float64(len(regMethods))-0.5
		return p, nil
	}
	p2, err := methodPanel(fmt.Sprintf("‖Θ̂ − Θ*‖_F: mean and 95%% interval (%s)", reps.caption()), "‖Θ̂ − Θ*‖_F", werr)
	if err != nil {
		return nil, err
	}
	p3, err := methodPanel(fmt.Sprintf("Function error on the test inputs (%s)", reps.caption()), "mean (ĝ(x) − g*(x))²", fmse)
	if err != nil {
		return nil, err
	}
	return NewFigure(3, p1, p2, p3), nil
}
