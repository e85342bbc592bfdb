package simulate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/cardsparse/cardreg/cardmat"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/tensorreg"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// TensorRegression is the source paper's tensor-regression timing (§6: "The
// input is a tensor of size 1000×16×16 and we applied 10 iterations for
// learning. Regression with sparse multiplication and standard
// multiplication takes 18.2 and 35 seconds respectively", with TensorLy on
// an 8-core laptop), followed by an accuracy comparison of the cardinality
// penalty with the lasso and ridge on tensor data.
//
// Input. As in the paper's matrix-multiplication section: every entry of
// the N×16×16 input tensor is an integer uniform on {1, …, 10} minus one
// standard normal draw common to all entries, so every column of the
// N×256 unfolding holds at most 10 distinct values. The columns are then
// centred (which keeps at most 10 distinct values per column) and the
// response centred, so the fit has an implicit intercept.
//
// Part "timing". "10 iterations" means here ten steps of the plain
// proximal gradient method (ISTA: no acceleration, no Gram form, no
// polishing) on ‖Y − XB‖²_F + λ·h(B), h the cardinality penalty on each
// column of the 256×Q coefficient unfolding, from B = 0 with step 1/L, L =
// 2λ_max(XᵀX) computed beforehand, and λ = 1 % of h*(2XᵀY). Each iteration
// takes one product X·B (N×256 times 256×Q) and one Xᵀ·R, then the exact
// prox. The products run once on the dense matrix (gonum, solver.DenseDesign)
// and once on the compressed one (cardmat.Matrix: Mul by the paper's tables,
// MulTrans by summing rows by code); nothing else differs, so the two
// coefficient tensors must agree to rounding: the run fails when their
// relative Frobenius difference exceeds 1e-9. Two response shapes are
// timed: a scalar response (Q = 1, as TensorLy's tensor regressors), where
// the products are matrix–vector products, and a 16×16 response (Q = 256,
// B of shape 16×16×16×16), where they are 1000×256×256 matrix products.
// Each backend's fit is repeated three times per seed, alternating, and the
// fastest is recorded; encoding the input (cardmat.Encode) is timed
// separately. The response is Y = ⟨X, B*⟩ + ε with B* as in part two.
//
// Part "estimation". A scalar response y = ⟨X, B*⟩ + σε on n = 500 training
// inputs of shape 16×16 (the same construction), σ = 5, with B* (16×16)
// holding k = 4 distinct values evenly spaced on [−2, 2] in balanced
// clusters at random positions. The cardinality penalty (plain and
// relaxed), the lasso and ridge are fitted on the 500×256 unfolding with λ
// by 5-fold cross-validation (λ_min of a 30-value grid), and scored by
// ‖B̂ − B*‖_F, the mean squared error on 1000 fresh inputs (with noise, and
// in excess of the truth), and the adjusted Rand index of the fitted
// clusters of coefficients against the true ones (and the number of
// distinct fitted values, per response column in both parts).
//
// CSV rows are per (seed, part, response, method). Columns that do not
// apply to a part hold 0: encode_seconds, mul_seconds, multrans_seconds and
// rel_diff for the estimation part, encode_seconds for dense fits, and
// unconverged_fits (the cross-validation's fits that stopped at the
// iteration cap, as in LinearGrid; summed per method in the summary) for
// the timing part, whose ten iterations are fixed.
func TensorRegression() Experiment {
	return Experiment{
		Name:         "tensor-regression",
		Summary:      "the paper's 1000×16×16 tensor regression: 10 iterations with compressed vs dense products; cardinality vs lasso vs ridge on tensor data",
		DefaultSeeds: 10,
		run:          runTensorRegression,
	}
}

// tensorPlan holds the sizes of the experiment.
type tensorPlan struct {
	N, Side, Levels int
	// Responses are the response sizes Q timed in part one.
	Responses []int
	Iters     int
	Reps      int
	// Part two.
	NTrain, NTest, K, Folds, NLambda int
	Sigma                            float64
	// LambdaFrac is λ of part one as a fraction of h*(2XᵀY).
	LambdaFrac float64
	// Tol is the largest relative difference allowed between the
	// compressed and the dense fit.
	Tol float64
}

func tensorPlanFor(quick bool) tensorPlan {
	if quick {
		return tensorPlan{N: 100, Side: 4, Levels: 10, Responses: []int{1, 16}, Iters: 10, Reps: 1,
			NTrain: 60, NTest: 100, K: 3, Folds: 3, NLambda: 8, Sigma: 2, LambdaFrac: 0.01, Tol: 1e-9}
	}
	return tensorPlan{N: 1000, Side: 16, Levels: 10, Responses: []int{1, 256}, Iters: 10, Reps: 3,
		NTrain: 500, NTest: 1000, K: 4, Folds: 5, NLambda: 30, Sigma: 5, LambdaFrac: 0.01, Tol: 1e-9}
}

// paperTensor returns an n×side×side tensor of the paper's construction:
// integers uniform on {1, …, levels} minus one common standard normal draw.
func paperTensor(rng *rand.Rand, n, side, levels int) *tensorreg.Tensor {
	shift := rng.NormFloat64()
	data := make([]float64, n*side*side)
	for i := range data {
		data[i] = float64(1+rng.IntN(levels)) - shift
	}
	return tensorreg.NewTensor([]int{n, side, side}, data)
}

// centreColumns subtracts each column's mean in place and returns the means.
func centreColumns(m *mat.Dense) []float64 {
	r, c := m.Dims()
	means := make([]float64, c)
	for j := range c {
		var s float64
		for i := range r {
			s += m.At(i, j)
		}
		means[j] = s / float64(r)
		for i := range r {
			m.Set(i, j, m.At(i, j)-means[j])
		}
	}
	return means
}

// istaResult is a run of the plain proximal gradient method.
type istaResult struct {
	B                         *mat.Dense
	Total, MulSecs, TransSecs float64
}

// ista runs iters steps of B ← prox_{(λ/L)h}(B − (2/L)·Xᵀ(XB − Y)) from
// B = 0, timing the products.
func ista(x solver.Design, y *mat.Dense, pen penalty.Cardinality, lip, lambda float64, iters int) istaResult {
	n, p := x.Dims()
	_, q := y.Dims()
	b := mat.NewDense(p, q, nil)
	r := mat.NewDense(n, q, nil)
	g := mat.NewDense(p, q, nil)
	var res istaResult
	start := time.Now()
	for range iters {
		t0 := time.Now()
		x.Mul(r, b)
		t1 := time.Now()
		r.Sub(r, y)
		x.MulTrans(g, r)
		t2 := time.Now()
		res.MulSecs += t1.Sub(t0).Seconds()
		res.TransSecs += t2.Sub(t1).Seconds()
		g.Scale(-2/lip, g)
		g.Add(g, b)
		pen.Prox(b, g, lambda/lip)
	}
	res.Total = time.Since(start).Seconds()
	res.B = b
	return res
}

// relDiff returns ‖a − b‖_F / max(‖b‖_F, tiny).
func relDiff(a, b *mat.Dense) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return mat.Norm(&d, 2) / math.Max(mat.Norm(b, 2), math.SmallestNonzeroFloat64)
}

// tensorTruth returns a p×q coefficient matrix whose every column holds k
// distinct values evenly spaced on [−2, 2] in balanced random clusters, and
// each column's labels.
func tensorTruth(rng *rand.Rand, p, q, k int) (*mat.Dense, [][]int) {
	b := mat.NewDense(p, q, nil)
	labels := make([][]int, q)
	for j := range q {
		col, lab := cardinalityBeta(rng, p, k)
		b.SetCol(j, col)
		labels[j] = lab
	}
	return b, labels
}

// tensorResponse returns X·B + σ·noise.
func tensorResponse(rng *rand.Rand, x, b *mat.Dense, sigma float64) *mat.Dense {
	var y mat.Dense
	y.Mul(x, b)
	if sigma != 0 {
		n, q := y.Dims()
		for i := range n {
			for j := range q {
				y.Set(i, j, y.At(i, j)+sigma*rng.NormFloat64())
			}
		}
	}
	return &y
}

// lipschitz returns 2λ_max(XᵀX).
func lipschitz(x *mat.Dense) (float64, error) {
	var g mat.SymDense
	g.SymOuterK(1, x.T())
	var eig mat.EigenSym
	if !eig.Factorize(&g, false) {
		return 0, fmt.Errorf("eigendecomposition of XᵀX failed")
	}
	return 2 * slices.Max(eig.Values(nil)), nil
}

// timingRow is one backend's result for one (seed, response).
type timingRow struct {
	Q                                    int
	Method                               string
	Secs, EncodeSecs, MulSecs, TransSecs float64
	RelDiff                              float64
	Metrics                              fitMetrics
}

// tensorTiming runs part one for one seed and response size q.
func tensorTiming(pl tensorPlan, seed uint64, q int) ([]timingRow, error) {
	rng := rand.New(rand.NewPCG(seed, 1000+uint64(q)))
	p := pl.Side * pl.Side
	xt := paperTensor(rng, pl.N, pl.Side, pl.Levels)
	x := mat.DenseCopyOf(xt.Matrix(1))
	centreColumns(x)
	k := min(4, p)
	bstar, labels := tensorTruth(rng, p, q, k)
	y := tensorResponse(rng, x, bstar, 1)
	centreColumns(y)
	encStart := time.Now()
	cm, err := cardmat.Encode(x)
	if err != nil {
		return nil, err
	}
	encSecs := time.Since(encStart).Seconds()
	for j, mj := range cm.Distinct() {
		if mj > pl.Levels {
			return nil, fmt.Errorf("column %d of the centred input has %d distinct values, more than %d", j, mj, pl.Levels)
		}
	}
	lip, err := lipschitz(x)
	if err != nil {
		return nil, err
	}
	pen := penalty.Cardinality{}
	var g mat.Dense
	g.Mul(x.T(), y)
	g.Scale(2, &g)
	lambda := pl.LambdaFrac * pen.DualNorm(&g)
	dense := solver.DenseDesign{X: x}
	best := map[string]istaResult{}
	for range pl.Reps {
		for _, name := range []string{"compressed", "dense"} {
			var d solver.Design = dense
			if name == "compressed" {
				d = cm
			}
			res := ista(d, y, pen, lip, lambda, pl.Iters)
			if b, ok := best[name]; !ok || res.Total < b.Total {
				best[name] = res
			}
		}
	}
	diff := relDiff(best["compressed"].B, best["dense"].B)
	if !(diff <= pl.Tol) {
		return nil, fmt.Errorf("response size %d: the compressed and dense %d-iteration fits differ by %.3g (relative), more than %g", q, pl.Iters, diff, pl.Tol)
	}
	// Score the 10-iteration fit (the same for both backends) on fresh data.
	xtest := mat.DenseCopyOf(paperTensor(rng, pl.NTest, pl.Side, pl.Levels).Matrix(1))
	centreColumns(xtest)
	truth := tensorResponse(rng, xtest, bstar, 0)
	ytest := tensorResponse(rng, xtest, bstar, 1)
	var rows []timingRow
	for _, name := range []string{"compressed", "dense"} {
		res := best[name]
		fm := evaluate(res.B, make([]float64, q), lambda, bstar, labels, xtest, ytest, truth)
		enc := 0.0
		if name == "compressed" {
			enc = encSecs
		}
		rows = append(rows, timingRow{Q: q, Method: name, Secs: res.Total, EncodeSecs: enc,
			MulSecs: res.MulSecs, TransSecs: res.TransSecs, RelDiff: diff, Metrics: fm})
	}
	return rows, nil
}

// estimationRun runs part two for one seed.
func estimationRun(pl tensorPlan, seed uint64) (map[string]fitMetrics, error) {
	rng := rand.New(rand.NewPCG(seed, 2000))
	p := pl.Side * pl.Side
	// One draw split into training and test rows, so both share the
	// construction's common shift.
	all := mat.DenseCopyOf(paperTensor(rng, pl.NTrain+pl.NTest, pl.Side, pl.Levels).Matrix(1))
	x := all.Slice(0, pl.NTrain, 0, p).(*mat.Dense)
	xtest := all.Slice(pl.NTrain, pl.NTrain+pl.NTest, 0, p).(*mat.Dense)
	bstar, labels := tensorTruth(rng, p, 1, pl.K)
	y := tensorResponse(rng, x, bstar, pl.Sigma)
	truth := tensorResponse(rng, xtest, bstar, 0)
	ytest := tensorResponse(rng, xtest, bstar, pl.Sigma)
	out := map[string]fitMetrics{}
	for _, method := range linearMethods {
		m, unconv, secs, err := cvFit(solver.DenseDesign{X: x}, y, method, pl.Folds, pl.NLambda, seed)
		if err != nil {
			return nil, err
		}
		fm := evaluate(m.Coef, m.Intercept, m.Lambda, bstar, labels, xtest, ytest, truth)
		fm.Seconds, fm.Unconverged = secs, unconv
		out[method] = fm
	}
	return out, nil
}

// paperTensorSeconds are the source paper's times for 10 iterations of
// TensorLy's regression on the 1000×16×16 input, with the sparse and the
// standard multiplication.
var paperTensorSeconds = map[string]float64{"compressed": 18.2, "dense": 35}

func runTensorRegression(cfg Config) (*Result, error) {
	pl := tensorPlanFor(cfg.Quick)
	r := &Result{
		Columns: []string{"seed", "part", "response", "method", "n", "p", "q",
			"seconds", "encode_seconds", "mul_seconds", "multrans_seconds", "rel_diff",
			"est_error", "test_mse", "excess_mse", "ari", "distinct", "lambda", "unconverged_fits"},
		Timing: []string{"seconds", "encode_seconds", "mul_seconds", "multrans_seconds"},
		Params: map[string]any{
			"plan":  pl,
			"input": fmt.Sprintf("N×%d×%d, integers uniform on 1…%d minus one common N(0,1) draw; columns of the unfolding centred", pl.Side, pl.Side, pl.Levels),
			"timing": fmt.Sprintf("%d iterations of plain proximal gradient (ISTA) on ‖Y − XB‖²_F + λ·h_card(B) from B = 0, step 1/L, L = 2λ_max(XᵀX), λ = %g·h*(2XᵀY); "+
				"one X·B and one Xᵀ·R per iteration, dense (gonum) or compressed (cardmat.Matrix); fastest of %d repetitions; fits must agree to relative %g",
				pl.Iters, pl.LambdaFrac, pl.Reps, pl.Tol),
			"timing_truth": "Y = ⟨X, B*⟩ + N(0,1) noise, every column of B* with 4 values evenly spaced on [−2, 2]",
			"estimation": fmt.Sprintf("scalar response, n = %d, σ = %g, B* with %d values evenly spaced on [−2, 2]; λ by %d-fold CV (λ_min, %d values); test set of %d",
				pl.NTrain, pl.Sigma, pl.K, pl.Folds, pl.NLambda, pl.NTest),
			"paper": map[string]any{"compressed_seconds": 18.2, "dense_seconds": 35.0, "ratio": round(35/18.2, 3),
				"software": "TensorLy, MacBook Pro with 8 cores", "input": "1000×16×16, 10 iterations"},
			"not_applicable_cells": "0",
		},
	}
	p := pl.Side * pl.Side
	timings := map[tensorKey][]timingRow{}
	est := map[string][]fitMetrics{}
	total, done := cfg.Seeds*(len(pl.Responses)+1), 0
	for i := range cfg.Seeds {
		seed := cfg.SeedFor(i)
		for _, q := range pl.Responses {
			rows, err := tensorTiming(pl, seed, q)
			if err != nil {
				return nil, fmt.Errorf("seed %d: %w", seed, err)
			}
			for _, t := range rows {
				fm := t.Metrics
				r.Add(seed, "timing", responseName(pl, t.Q), t.Method, pl.N, p, t.Q, t.Secs, t.EncodeSecs, t.MulSecs, t.TransSecs, t.RelDiff,
					fm.EstError, fm.TestMSE, fm.Excess, fm.ARI, fm.Distinct, fm.Lambda, fm.Unconverged)
				timings[tensorKey{q, t.Method}] = append(timings[tensorKey{q, t.Method}], t)
			}
			done++
			cfg.progress(done, total)
		}
		res, err := estimationRun(pl, seed)
		if err != nil {
			return nil, fmt.Errorf("seed %d: %w", seed, err)
		}
		for _, method := range linearMethods {
			fm := res[method]
			r.Add(seed, "estimation", "scalar", method, pl.NTrain, p, 1, fm.Seconds, 0.0, 0.0, 0.0, 0.0,
				fm.EstError, fm.TestMSE, fm.Excess, fm.ARI, fm.Distinct, fm.Lambda, fm.Unconverged)
			est[method] = append(est[method], fm)
		}
		done++
		cfg.progress(done, total)
	}

	r.Summary = tensorSummary(pl, timings, est)
	fig, err := tensorFigure(pl, timings, est)
	if err != nil {
		return nil, err
	}
	r.Figure = fig
	return r, nil
}

// tensorSummary summarises the timings per response shape and the
// estimation errors per method over the seeds.
func tensorSummary(pl tensorPlan, timings map[tensorKey][]timingRow, est map[string][]fitMetrics) map[string]any {
	var timingSummary []map[string]any
	for _, q := range pl.Responses {
		c, d := timings[tensorKey{q, "compressed"}], timings[tensorKey{q, "dense"}]
		ratios := make([]float64, len(c))
		for i := range c {
			ratios[i] = d[i].Secs / c[i].Secs
		}
		timingSummary = append(timingSummary, map[string]any{
			"response":                 responseName(pl, q),
			"q":                        q,
			"compressed_seconds":       Summarize(timingColumn(c, func(t timingRow) float64 { return t.Secs })),
			"dense_seconds":            Summarize(timingColumn(d, func(t timingRow) float64 { return t.Secs })),
			"dense_over_compressed":    Summarize(ratios),
			"compressed_mul_seconds":   Summarize(timingColumn(c, func(t timingRow) float64 { return t.MulSecs })),
			"dense_mul_seconds":        Summarize(timingColumn(d, func(t timingRow) float64 { return t.MulSecs })),
			"compressed_trans_seconds": Summarize(timingColumn(c, func(t timingRow) float64 { return t.TransSecs })),
			"dense_trans_seconds":      Summarize(timingColumn(d, func(t timingRow) float64 { return t.TransSecs })),
			"encode_seconds":           Summarize(timingColumn(c, func(t timingRow) float64 { return t.EncodeSecs })),
			"max_rel_diff":             slices.Max(timingColumn(c, func(t timingRow) float64 { return t.RelDiff })),
			"est_error_10_iterations":  Summarize(timingColumn(c, func(t timingRow) float64 { return t.Metrics.EstError })),
		})
	}
	estSummary := map[string]any{}
	for _, method := range linearMethods {
		fs := est[method]
		get := func(f func(fitMetrics) float64) Stat {
			xs := make([]float64, len(fs))
			for i, m := range fs {
				xs[i] = f(m)
			}
			return Summarize(xs)
		}
		unconv := 0
		for _, m := range fs {
			unconv += m.Unconverged
		}
		estSummary[method] = map[string]any{
			"unconverged_fits": unconv,
			"est_error":        get(func(m fitMetrics) float64 { return m.EstError }),
			"test_mse":         get(func(m fitMetrics) float64 { return m.TestMSE }),
			"excess_mse":       get(func(m fitMetrics) float64 { return m.Excess }),
			"ari":              get(func(m fitMetrics) float64 { return m.ARI }),
			"distinct":         get(func(m fitMetrics) float64 { return m.Distinct }),
			"lambda":           get(func(m fitMetrics) float64 { return m.Lambda }),
			"seconds":          get(func(m fitMetrics) float64 { return m.Seconds }),
		}
	}
	return map[string]any{
		"timing":     timingSummary,
		"estimation": estSummary,
		"paper": map[string]float64{"compressed_seconds": paperTensorSeconds["compressed"], "dense_seconds": paperTensorSeconds["dense"],
			"dense_over_compressed": round(paperTensorSeconds["dense"]/paperTensorSeconds["compressed"], 3)},
	}

}

// tensorFigure draws one timing panel per response shape, then the
// estimation and excess test errors per method.
func tensorFigure(pl tensorPlan, timings map[tensorKey][]timingRow, est map[string][]fitMetrics) (*Figure, error) {
	p := pl.Side * pl.Side
	var panels []*plot.Plot
	for _, q := range pl.Responses {
		var bars []barValue
		for _, name := range []string{"compressed", "dense"} {
			bars = append(bars, barValue{Label: name, Stat: Summarize(timingColumn(timings[tensorKey{q, name}], func(t timingRow) float64 { return t.Secs }))})
		}
		title := fmt.Sprintf("%d iterations, %d×%d×%d input, %s response", pl.Iters, pl.N, pl.Side, pl.Side, responseName(pl, q))
		if q > 1 {
			title += fmt.Sprintf(" (%d×%d)", p, q)
		}
		panel, err := barPanel(title, "seconds (fastest of repeats)", bars, []int{0, 1})
		if err != nil {
			return nil, err
		}
		panels = append(panels, panel)
	}
	for _, metric := range []struct {
		label string
		get   func(fitMetrics) float64
	}{
		{"‖B̂ − B*‖ (Frobenius)", func(m fitMetrics) float64 { return m.EstError }},
		{"excess test MSE", func(m fitMetrics) float64 { return m.Excess }},
	} {
		var bars []barValue
		var colours []int
		for i, method := range linearMethods {
			xs := make([]float64, len(est[method]))
			for j, m := range est[method] {
				xs[j] = metric.get(m)
			}
			bars = append(bars, barValue{Label: method, Stat: Summarize(xs)})
			colours = append(colours, i)
		}
		title := fmt.Sprintf("%s, n = %d, %d×%d coefficients, %d values, σ = %g", metric.label, pl.NTrain, pl.Side, pl.Side, pl.K, pl.Sigma)
		panel, err := barPanel(title, metric.label, bars, colours)
		if err != nil {
			return nil, err
		}
		panels = append(panels, panel)
	}
	return NewFigure(2, panels...), nil
}

// timingColumn returns one field of every timing row.
func timingColumn(rows []timingRow, f func(timingRow) float64) []float64 {
	out := make([]float64, len(rows))
	for i, t := range rows {
		out[i] = f(t)
	}
	return out
}

// tensorKey identifies the timing rows of one response width and method.
type tensorKey struct {
	q      int
	method string
}

func responseName(pl tensorPlan, q int) string {
	if q == 1 {
		return "scalar"
	}
	s := int(math.Round(math.Sqrt(float64(q))))
	if s*s == q {
		return fmt.Sprintf("%dx%d", s, s)
	}
	return fmt.Sprint(q)
}

// barValue is one bar: a mean with its 95 % interval.
type barValue struct {
	Label string
	Stat  Stat
}

// barPanel draws one bar per value, coloured from Palette by the given
// indices, with the 95 % intervals as error bars.
func barPanel(title, ylabel string, vals []barValue, colours []int) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = ylabel
	p.Add(plotter.NewGrid())
	names := make([]string, len(vals))
	var pts plotter.XYs
	var low, high []float64
	for i, v := range vals {
		bars, err := plotter.NewBarChart(plotter.Values{v.Stat.Mean}, vg.Points(30))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", v.Label, err)
		}
		bars.XMin = float64(i)
		bars.Color = Palette[colours[i]%len(Palette)]
		bars.LineStyle.Width = 0
		p.Add(bars)
		names[i] = v.Label
		pts = append(pts, plotter.XY{X: float64(i), Y: v.Stat.Mean})
		low = append(low, v.Stat.Low)
		high = append(high, v.Stat.High)
	}
	eb, err := plotter.NewYErrorBars(intervalXY{pts, low, high})
	if err != nil {
		return nil, err
	}
	eb.LineStyle.Width = vg.Points(1.5)
	p.Add(eb)
	p.NominalX(names...)
	p.Y.Min = 0
	return p, nil
}
