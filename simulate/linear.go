package simulate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// LinearGrid compares the cardinality penalty, its relaxed version, the
// lasso and ridge on linear data y = Xβ* + σε, varying one factor at a time
// around a base setting.
//
// Data. The rows of X are i.i.d. N(0, Σ) with the equicorrelation Σ = (1−ρ)I
// + ρ11ᵀ, drawn as x_ij = √(1−ρ)·z_ij + √ρ·w_i with z, w standard normal; ε
// is standard normal. β* has exactly k distinct values, evenly spaced on
// [−2, 2]: v_c = −2 + 4c/(k−1), c = 0…k−1 (so 0 is one of them when k is odd,
// and the spacing 4/(k−1) halves from one k level to the next). The
// coefficients are split into k clusters as equal in size as possible
// (⌊p/k⌋ or ⌈p/k⌉), coefficient j getting value (j mod k) before a random
// permutation of the positions. The true intercept is 0.
//
// Settings. The base is n = 100, p = 40, σ = 1, k = 5, ρ = 0; the factors
// varied are n ∈ {50, 100, 200, 400}, p ∈ {10, 20, 40, 80, 160} (160 > n),
// σ ∈ {0.25, 0.5, 1, 2, 4}, k ∈ {2, 3, 5, 9, 17} and ρ ∈ {0, 0.3, 0.6, 0.9}.
// The base setting is run once per seed (factor "base" in the CSV) and counts
// as a level of every factor in the summary and the figure.
//
// Fits. Every method fits an unpenalised intercept without standardising and
// picks λ by 5-fold cross-validation (estimator.CrossValidate, λ_min, a
// 50-value grid, folds seeded by the run's seed). "cardinality" is the
// penalised fit (penalty.Cardinality, ν = 1) at its λ_min;
// "cardinality-relaxed" cross-validates the least-squares refits on the
// penalised fits' clusters (Options.Relax) and reports the refit at its own
// λ_min; "lasso" is penalty.L1 and "ridge" penalty.Ridge.
//
// Metrics per (setting, seed, method): the estimation error ‖β̂ − β*‖₂; the
// test mean squared error on 1000 fresh rows with noise, and its excess over
// the truth, mean (ŷ − x'β*)²; the adjusted Rand index of the fitted clusters
// (equal fitted coefficients form one cluster, for every method, so ridge's
// clusters are essentially singletons) against the true ones; the number of
// distinct fitted values; the selected λ (objective ‖y − Xβ − b₀‖² + λh(β),
// no 1/(2n)); the number of the cross-validation's fits that stopped at the
// iteration cap (fold fits and the chosen fit: kept, counted in the rows and
// the summary's unconverged_fits); and the wall time of the
// cross-validation and fit. On the generated grid the paths stop early by
// glmnet's rules (package internal/pathstop), so λ_min is chosen among the
// λ the full-data path reached, as cv.glmnet chooses.
func LinearGrid() Experiment {
	return Experiment{
		Name:         "linear-grid",
		Summary:      "cardinality (plain and relaxed) vs lasso vs ridge on linear data, varying n, p, σ, k and ρ one at a time",
		DefaultSeeds: 10,
		run:          runLinearGrid,
	}
}

// linearSetting is one data-generating setting of the grid.
type linearSetting struct {
	Factor     string
	Level      float64
	N, P, K    int
	Sigma, Rho float64
}

// linearPlan is the grid: a base setting and the levels of every factor.
type linearPlan struct {
	Base                  linearSetting
	Levels                map[string][]float64
	NTest, Folds, NLambda int
}

// linearFactors orders the factors as the figure's columns.
var linearFactors = []string{"n", "p", "sigma", "k", "rho"}

// relaxedSuffix marks a method that cross-validates the relaxed refits of
// the penalty its name begins with ("cardinality-relaxed").
const relaxedSuffix = "-relaxed"

// linearMethods orders the methods as the figure's lines: names of the
// penalty table (built by it, with ν = 1), one with relaxedSuffix.
var linearMethods = []string{"cardinality", "cardinality-relaxed", "lasso", "ridge"}

func linearPlanFor(quick bool) linearPlan {
	if quick {
		return linearPlan{
			Base: linearSetting{Factor: "base", N: 40, P: 8, K: 3, Sigma: 1},
			Levels: map[string][]float64{
				"n": {30, 40}, "p": {8, 50}, "sigma": {0.5, 1}, "k": {2, 3}, "rho": {0, 0.5},
			},
			NTest: 100, Folds: 3, NLambda: 8,
		}
	}
	return linearPlan{
		Base: linearSetting{Factor: "base", N: 100, P: 40, K: 5, Sigma: 1},
		Levels: map[string][]float64{
			"n":     {50, 100, 200, 400},
			"p":     {10, 20, 40, 80, 160},
			"sigma": {0.25, 0.5, 1, 2, 4},
			"k":     {2, 3, 5, 9, 17},
			"rho":   {0, 0.3, 0.6, 0.9},
		},
		NTest: 1000, Folds: 5, NLambda: 50,
	}
}

// factorValue returns the value of a factor in a setting.
func (s linearSetting) factorValue(f string) float64 {
	switch f {
	case "n":
		return float64(s.N)
	case "p":
		return float64(s.P)
	case "sigma":
		return s.Sigma
	case "k":
		return float64(s.K)
	case "rho":
		return s.Rho
	}
	panic("simulate: unknown factor " + f)
}

// with returns the setting with one factor changed.
func (s linearSetting) with(f string, v float64) linearSetting {
	s.Factor, s.Level = f, v
	switch f {
	case "n":
		s.N = int(v)
	case "p":
		s.P = int(v)
	case "sigma":
		s.Sigma = v
	case "k":
		s.K = int(v)
	case "rho":
		s.Rho = v
	}
	return s
}

// settings lists the base first, then every level of every factor that
// differs from the base.
func (pl linearPlan) settings() []linearSetting {
	out := []linearSetting{pl.Base}
	for _, f := range linearFactors {
		for _, v := range pl.Levels[f] {
			if v != pl.Base.factorValue(f) {
				out = append(out, pl.Base.with(f, v))
			}
		}
	}
	return out
}

// cardinalityBeta returns a coefficient vector of length p with exactly k
// distinct values, evenly spaced on [−2, 2], in balanced clusters at random
// positions, and each coefficient's cluster (the index of its value). It
// needs 2 ≤ k ≤ p.
func cardinalityBeta(rng *rand.Rand, p, k int) (beta []float64, labels []int) {
	if k < 2 || k > p {
		panic(fmt.Sprintf("simulate: %d distinct values for %d coefficients", k, p))
	}
	labels = make([]int, p)
	for j := range labels {
		labels[j] = j % k
	}
	rng.Shuffle(p, func(i, j int) { labels[i], labels[j] = labels[j], labels[i] })
	beta = make([]float64, p)
	for j, c := range labels {
		beta[j] = -2 + 4*float64(c)/float64(k-1)
	}
	return beta, labels
}

// equicorrelated returns an n×p matrix whose rows are i.i.d. N(0, Σ) with
// Σ = (1−ρ)I + ρ11ᵀ, 0 ≤ ρ < 1.
func equicorrelated(rng *rand.Rand, n, p int, rho float64) *mat.Dense {
	a, b := math.Sqrt(1-rho), math.Sqrt(rho)
	x := mat.NewDense(n, p, nil)
	for i := range n {
		w := rng.NormFloat64()
		for j := range p {
			x.Set(i, j, a*rng.NormFloat64()+b*w)
		}
	}
	return x
}

// linearResponse returns X·β + σ·ε.
func linearResponse(rng *rand.Rand, x *mat.Dense, beta []float64, sigma float64) *mat.Dense {
	n, _ := x.Dims()
	y := mat.NewDense(n, 1, nil)
	y.Mul(x, mat.NewVecDense(len(beta), beta))
	for i := range n {
		y.Set(i, 0, y.At(i, 0)+sigma*rng.NormFloat64())
	}
	return y
}

// valueLabels labels the entries of v by their distinct values: equal
// entries share a label, labels numbered in increasing order of value.
func valueLabels(v []float64) []int {
	sorted := slices.Clone(v)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	out := make([]int, len(v))
	for i, x := range v {
		out[i], _ = slices.BinarySearch(sorted, x)
	}
	return out
}

// fitMetrics are the per-fit numbers shared by the linear and tensor
// experiments.
type fitMetrics struct {
	EstError, TestMSE, Excess, ARI float64
	// Distinct is the number of distinct fitted values per response
	// (averaged over responses).
	Distinct        float64
	Lambda, Seconds float64
	// Unconverged counts the fits of the cross-validation that stopped at
	// the iteration cap: the fold fits (their errors are in the curve)
	// and the chosen full-data fit. They are results, kept, and counted
	// in the rows and the summary rather than averaged unsaid.
	Unconverged int
}

// cvFit cross-validates one method and returns the model at λ_min, the
// number of the cross-validation's fits that did not converge (folds and
// the model) and the wall time.
func cvFit(x solver.Design, y *mat.Dense, method string, folds, nlambda int, seed uint64) (*estimator.Model, int, float64, error) {
	opts := &estimator.CVOptions{Folds: folds, Seed: seed, PathOptions: estimator.PathOptions{NLambda: nlambda}}
	name, relax := strings.CutSuffix(method, relaxedSuffix)
	kind, ok := penalty.Lookup(name)
	if !ok {
		return nil, 0, 0, fmt.Errorf("unknown method %q", method)
	}
	_, p := x.Dims()
	pen, err := kind.NewFor(penalty.Inputs{P: p, Nu: 1})
	if err != nil {
		return nil, 0, 0, fmt.Errorf("%s: %w", method, err)
	}
	opts.Relax = relax
	start := time.Now()
	cv, err := estimator.CrossValidate(&estimator.Rows{X: x, Y: y}, pen, opts)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("%s: %w", method, err)
	}
	m := cv.Path.Models[cv.IndexMin]
	unconverged := cv.Unconverged
	if !m.Converged {
		unconverged++
	}
	return m, unconverged, time.Since(start).Seconds(), nil
}

// evaluate scores fitted coefficients (p×q) and intercepts against the
// true coefficients and a test set whose noiseless responses are truth =
// xTest·β*. Clusters are the groups of exactly equal fitted coefficients of
// each response, for every method.
func evaluate(coef *mat.Dense, intercept []float64, lambda float64, beta *mat.Dense, trueLabels [][]int, xTest, yTest, truth *mat.Dense) fitMetrics {
	var d mat.Dense
	d.Sub(coef, beta)
	var pred mat.Dense
	pred.Mul(xTest, coef)
	nt, q := pred.Dims()
	var mse, excess float64
	for i := range nt {
		for j := range q {
			yh := pred.At(i, j) + intercept[j]
			e := yh - yTest.At(i, j)
			f := yh - truth.At(i, j)
			mse += e * e
			excess += f * f
		}
	}
	var ari, distinct float64
	for j := range q {
		fitted := valueLabels(mat.Col(nil, j, coef))
		ari += AdjustedRand(trueLabels[j], fitted)
		distinct += float64(slices.Max(fitted) + 1)
	}
	return fitMetrics{
		EstError: mat.Norm(&d, 2), TestMSE: mse / float64(nt*q), Excess: excess / float64(nt*q),
		ARI: ari / float64(q), Distinct: distinct / float64(q), Lambda: lambda,
	}
}

// linearRun is one (setting, seed) of the grid: the data and every method's
// metrics.
func linearRun(s linearSetting, pl linearPlan, seed uint64, stream uint64) (map[string]fitMetrics, error) {
	rng := rand.New(rand.NewPCG(seed, stream))
	b, labels := cardinalityBeta(rng, s.P, s.K)
	x := equicorrelated(rng, s.N, s.P, s.Rho)
	y := linearResponse(rng, x, b, s.Sigma)
	xt := equicorrelated(rng, pl.NTest, s.P, s.Rho)
	truth := linearResponse(rng, xt, b, 0)
	yt := linearResponse(rng, xt, b, s.Sigma)
	beta := mat.NewDense(s.P, 1, b)
	out := map[string]fitMetrics{}
	for _, method := range linearMethods {
		m, unconv, secs, err := cvFit(solver.DenseDesign{X: x}, y, method, pl.Folds, pl.NLambda, seed)
		if err != nil {
			return nil, err
		}
		fm := evaluate(m.Coef, m.Intercept, m.Lambda, beta, [][]int{labels}, xt, yt, truth)
		fm.Seconds, fm.Unconverged = secs, unconv
		out[method] = fm
	}
	return out, nil
}

func runLinearGrid(cfg Config) (*Result, error) {
	pl := linearPlanFor(cfg.Quick)
	settings := pl.settings()
	r := &Result{
		Columns: []string{"factor", "n", "p", "sigma", "k", "rho", "seed", "method",
			"est_error", "test_mse", "excess_mse", "ari", "distinct", "lambda", "unconverged_fits", "seconds"},
		Timing: []string{"seconds"},
		Params: map[string]any{
			"base":         pl.Base,
			"levels":       pl.Levels,
			"n_test":       pl.NTest,
			"folds":        pl.Folds,
			"nlambda":      pl.NLambda,
			"lambda_rule":  "K-fold CV λ_min (estimator.CrossValidate, folds seeded by the run's seed); relaxed cardinality cross-validates the relaxed refits",
			"objective":    "‖y − Xβ − b₀‖² + λ·h(β), no 1/(2n), intercept unpenalised, no standardisation",
			"beta":         "k values evenly spaced on [−2, 2], balanced clusters at random positions, intercept 0",
			"design":       "rows N(0, (1−ρ)I + ρ11ᵀ), noise N(0, σ²)",
			"methods":      linearMethods,
			"cardinality":  "penalty.Cardinality{ν = 1}; 'cardinality' is the penalised fit (Relax off), 'cardinality-relaxed' is Options.Relax = true",
			"base_in_rows": "the base setting is run once per seed with factor \"base\" and is a level of every factor in the summary and figure",
		},
	}
	metrics := map[linearKey][]fitMetrics{}
	total, done := len(settings)*cfg.Seeds, 0
	for si, s := range settings {
		for i := range cfg.Seeds {
			seed := cfg.SeedFor(i)
			res, err := linearRun(s, pl, seed, uint64(si))
			if err != nil {
				return nil, fmt.Errorf("%s=%g, seed %d: %w", s.Factor, s.Level, seed, err)
			}
			for _, method := range linearMethods {
				fm := res[method]
				r.Add(s.Factor, s.N, s.P, s.Sigma, s.K, s.Rho, seed, method,
					fm.EstError, fm.TestMSE, fm.Excess, fm.ARI, fm.Distinct, fm.Lambda, fm.Unconverged, fm.Seconds)
				metrics[linearKey{si, method}] = append(metrics[linearKey{si, method}], fm)
			}
			done++
			cfg.progress(done, total)
		}
	}
	summary, curves := linearSummary(pl, settings, metrics)
	r.Summary = summary
	fig, err := linearFigure(pl, curves)
	if err != nil {
		return nil, err
	}
	r.Figure = fig
	return r, nil
}

// linearKey identifies the runs of one setting (an index into the plan's
// settings) and method.
type linearKey struct {
	setting int
	method  string
}

// linearCell identifies one curve of the figure: a factor and a method.
type linearCell struct {
	factor, method string
}

// levelSummary is the summary of one method at one level of one factor.
type levelSummary struct {
	Factor   string  `json:"factor"`
	Level    float64 `json:"level"`
	Base     bool    `json:"base"`
	Method   string  `json:"method"`
	EstError Stat    `json:"est_error"`
	TestMSE  Stat    `json:"test_mse"`
	Excess   Stat    `json:"excess_mse"`
	ARI      Stat    `json:"ari"`
	Distinct Stat    `json:"distinct"`
	Lambda   Stat    `json:"lambda"`
	Seconds  Stat    `json:"seconds"`
	// Unconverged sums the runs' unconverged fits (fitMetrics).
	Unconverged int `json:"unconverged_fits"`
}

// linearSummary summarises every factor level and method over the seeds,
// the base setting counted as a level of every factor, and returns the
// summaries also grouped into the figure's curves.
func linearSummary(pl linearPlan, settings []linearSetting, metrics map[linearKey][]fitMetrics) ([]levelSummary, map[linearCell][]levelSummary) {
	pick := func(fs []fitMetrics, f func(fitMetrics) float64) Stat {
		xs := make([]float64, len(fs))
		for i, m := range fs {
			xs[i] = f(m)
		}
		return Summarize(xs)
	}
	var summary []levelSummary
	curves := map[linearCell][]levelSummary{}
	for _, f := range linearFactors {
		levels := slices.Clone(pl.Levels[f])
		slices.Sort(levels)
		for _, v := range levels {
			si := 0
			if v != pl.Base.factorValue(f) {
				si = slices.IndexFunc(settings, func(s linearSetting) bool { return s.Factor == f && s.Level == v })
			}
			for _, method := range linearMethods {
				fs := metrics[linearKey{si, method}]
				ls := levelSummary{
					Factor: f, Level: v, Base: si == 0, Method: method,
					EstError: pick(fs, func(m fitMetrics) float64 { return m.EstError }),
					TestMSE:  pick(fs, func(m fitMetrics) float64 { return m.TestMSE }),
					Excess:   pick(fs, func(m fitMetrics) float64 { return m.Excess }),
					ARI:      pick(fs, func(m fitMetrics) float64 { return m.ARI }),
					Distinct: pick(fs, func(m fitMetrics) float64 { return m.Distinct }),
					Lambda:   pick(fs, func(m fitMetrics) float64 { return m.Lambda }),
					Seconds:  pick(fs, func(m fitMetrics) float64 { return m.Seconds }),
				}
				for _, m := range fs {
					ls.Unconverged += m.Unconverged
				}
				summary = append(summary, ls)
				curves[linearCell{f, method}] = append(curves[linearCell{f, method}], ls)
			}
		}
	}
	return summary, curves
}

// linearFigure draws one column per factor and three rows: estimation
// error, excess test error and the adjusted Rand index, each with 95 %
// intervals.
func linearFigure(pl linearPlan, curves map[linearCell][]levelSummary) (*Figure, error) {
	rows := []struct {
		label string
		get   func(levelSummary) Stat
		log   bool
	}{
		{"‖β̂ − β*‖₂", func(l levelSummary) Stat { return l.EstError }, true},
		{"excess test MSE", func(l levelSummary) Stat { return l.Excess }, true},
		{"ARI vs true clusters", func(l levelSummary) Stat { return l.ARI }, false},
	}
	var panels []*plot.Plot
	for _, row := range rows {
		for _, f := range linearFactors {
			var series []Series
			logX := f == "n" || f == "p" || f == "sigma" || f == "k"
			for _, method := range linearMethods {
				s := Series{Name: method}
				for _, l := range curves[linearCell{f, method}] {
					st := row.get(l)
					low, high := st.Low, st.High
					if row.log {
						// Keep log-scale error bars positive.
						low = math.Max(low, st.Mean/10)
					}
					s.XY = append(s.XY, plotter.XY{X: l.Level, Y: st.Mean})
					s.Low = append(s.Low, low)
					s.High = append(s.High, high)
				}
				series = append(series, s)
			}
			title := fmt.Sprintf("%s vs %s (base %s)", row.label, factorLabel(f), strconv.FormatFloat(pl.Base.factorValue(f), 'g', -1, 64))
			p, err := LinePanel(title, factorLabel(f), row.label, logX, row.log, series...)
			if err != nil {
				return nil, err
			}
			p.Legend.Left = legendLeft(series)
			panels = append(panels, p)
		}
	}
	return NewFigure(len(linearFactors), panels...), nil
}

// legendLeft reports whether the legend should go top left: when the
// lines end higher on the right than they start on the left.
func legendLeft(series []Series) bool {
	var left, right float64
	for _, s := range series {
		if len(s.XY) > 0 {
			left = math.Max(left, s.High[0])
			right = math.Max(right, s.High[len(s.High)-1])
		}
	}
	return right > left
}

func factorLabel(f string) string {
	switch f {
	case "sigma":
		return "σ"
	case "rho":
		return "ρ"
	}
	return f
}
