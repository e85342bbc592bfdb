// Command fitbench times cardreg's fits on a CSV written by bench/gendata,
// for the side-by-side comparison with R glmnet and scikit-learn run by
// bench/anchors.sh.
//
// Usage:
//
//	go run ./bench/fitbench -data DATA.csv -lambda-glmnet L [-reps 5]
//	    [-admm [-admm-maxiter 20000]] [-cpuprofile FILE]
//	go run ./bench/fitbench -data DATA.csv -card-only [-reps 5] [-cpuprofile FILE]
//	go run ./bench/fitbench -data DATA.csv -path-only [-path-tol 1e-7] [-reps 5] [-cpuprofile FILE]
//	go run ./bench/fitbench -data DATA.csv -lambda-glmnet L -certify COEF
//
// -card-only times the cardinality fit at 0.05·λ_fuse alone and -path-only
// the 100-λ lasso path alone (bench/glmspeed.sh's rows; no -lambda-glmnet
// needed), with the same output names as the full run. -certify prints
// the relative duality gap of the lasso coefficients in COEF (intercept
// first, e.g. glmnet's from bench/glmnet.R; the intercept is refitted) at
// λ = 2n·L: the accuracy glmnet's thresh reaches.
//
// It prints machine-readable "name value" lines on stdout (progress goes to
// stderr). Only the fitting calls are timed, in-process, by wall time and by
// the process's CPU time (NAME_seconds and NAME_cpu_seconds, user + system
// of all threads); CSV parsing and compilation are not. Each time is the
// median of -reps runs after one warm-up, except the ADMM baseline (-admm), which is run once.
//
// Scales. glmnet minimises (1/(2n))‖y − b0 − Xβ‖² + L‖β‖₁; cardreg minimises
// ‖y − b0 − Xβ‖² + λh(β), so λ = 2n·L and cardreg's objectives are 2n times
// glmnet's.
//
// What is timed:
//
//   - for scale, the Gram product XᵀX alone (every dense fit with n ≥ p
//     forms it);
//   - lasso at one λ: estimator.Fit with penalty.L1, intercept, no
//     standardisation, relative duality gap 1e-7;
//   - lasso path: estimator.FitPath with 100 λ from λ_max to 1e-4·λ_max,
//     the grid given (fullGrid), so that all 100 are fitted where glmnet's
//     rules would end a generated path early;
//   - cardinality (ν = 1) at the same λ, relative gap 1e-6;
//   - cardinality at 0.05·λ_fuse, where λ_fuse is the top of the cardinality
//     path's grid (the smallest λ at which the fit is fully fused);
//   - with -admm, the same cardinality problem at 0.05·λ_fuse solved by ADMM
//     on penalty.NewGeneral(penalty.AllPairs(p), p, 1), the explicit
//     all-pairs baseline.
package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cardsparse/cardreg/bench/internal/clock"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

func main() {
	data := flag.String("data", "", "CSV file with header x1..xp,y (required)")
	lamG := flag.Float64("lambda-glmnet", math.NaN(), "λ on glmnet's scale (required); cardreg uses λ = 2n·L")
	reps := flag.Int("reps", 5, "timed repetitions after one warm-up (median reported)")
	admm := flag.Bool("admm", false, "also time ADMM with the explicit all-pairs matrix (slow for large p)")
	admmMaxIter := flag.Int("admm-maxiter", 20000, "iteration cap of the ADMM baseline")
	flag.StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile to this file: of the run after reading the data (with -card-only or -path-only: of the timed calls and their warm-up only)")
	flag.BoolVar(&cardOnly, "card-only", false, "time the cardinality fit at 0.05·λ_fuse only (gap 1e-6)")
	flag.BoolVar(&pathOnly, "path-only", false, "time the 100-λ lasso path only")
	flag.Float64Var(&pathTol, "path-tol", 1e-7, "relative duality gap of the lasso path")
	flag.StringVar(&certifyFile, "certify", "", "print the lasso's relative duality gap of the coefficients in this file (intercept first) at -lambda-glmnet, and nothing else")
	flag.BoolVar(&lassoOnly, "lasso-only", false, "time the one-λ lasso only (wide data, where the path and the cardinality fits are separate benchmarks)")
	flag.Float64Var(&lassoTol, "lasso-tol", 1e-7, "relative duality gap of the one-λ lasso")
	flag.StringVar(&cardMethod, "card-method", "", "solver of the -card-path fits: fista or cluster (default: the library's choice)")
	flag.IntVar(&cardPath, "card-path", 0, "with -lasso-only, also time a cardinality path of this many λ (gap 1e-6, timed once)")
	flag.Parse()

	single := cardOnly || pathOnly
	if *data == "" || (!single && (math.IsNaN(*lamG) || !(*lamG > 0))) || *reps < 1 || (cardOnly && pathOnly) {
		fmt.Fprintln(os.Stderr, "fitbench: need -data FILE and -lambda-glmnet L > 0 (or one of -card-only, -path-only), and -reps ≥ 1")
		flag.Usage()
		os.Exit(2)
	}
	err := run(*data, *lamG, *reps, *admm, *admmMaxIter)
	stopProfile()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fitbench:", err)
		os.Exit(1)
	}
}

// cpuProfile, cardOnly, pathOnly and pathTol are the -cpuprofile,
// -card-only, -path-only and -path-tol flags; stopProfile ends the profile
// startProfile began.
var (
	cpuProfile         string
	cardOnly, pathOnly bool
	pathTol            float64
	certifyFile        string
	stopProfile        = func() {}
)

// startProfile starts the CPU profile of -cpuprofile, if asked for.
func startProfile() error {
	if cpuProfile == "" {
		return nil
	}
	f, err := os.Create(cpuProfile)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return err
	}
	stopProfile = func() {
		pprof.StopCPUProfile()
		f.Close()
	}
	return nil
}

// lassoOnly, lassoTol and cardPath are the -lasso-only, -lasso-tol and
// -card-path flags.
var (
	lassoOnly bool
	lassoTol  float64
	cardPath  int

	cardMethod string
)

// readCSV reads the header and the rows of a gendata file: all columns but
// the last are X, the last is y.
func readCSV(path string) (*mat.Dense, *mat.Dense, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.ReuseRecord = true
	head, err := r.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("reading the header: %w", err)
	}
	cols := len(head)
	if cols < 2 {
		return nil, nil, errors.New("need at least one predictor and the response")
	}
	r.FieldsPerRecord = cols
	var vals []float64
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		for _, s := range rec {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, nil, err
			}
			vals = append(vals, v)
		}
	}
	n, p := len(vals)/cols, cols-1
	if n == 0 {
		return nil, nil, errors.New("no data rows")
	}
	x := mat.NewDense(n, p, nil)
	y := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i++ {
		row := vals[i*cols : (i+1)*cols]
		copy(x.RawRowView(i), row[:p])
		y.Set(i, 0, row[p])
	}
	return x, y, nil
}

// median times reps calls of f after one warm-up call: the median wall
// and the median process CPU seconds (bench/internal/clock).
func median(reps int, f func() error) (clock.Times, error) {
	return clock.Median(reps, f)
}

// objective returns ‖y − b0 − Xβ‖² + λh(β) recomputed from the model's
// residuals and coefficients, independently of the solver's bookkeeping.
func objective(m *estimator.Model, pen penalty.Penalty, lambda float64) float64 {
	var rss float64
	n, _ := m.Residuals.Dims()
	for i := 0; i < n; i++ {
		r := m.Residuals.At(i, 0)
		rss += r * r
	}
	return rss + lambda*pen.Value(m.Coef)
}

func nonzero(m *estimator.Model) int {
	k := 0
	for _, v := range mat.Col(nil, 0, m.Coef) {
		if v != 0 {
			k++
		}
	}
	return k
}

// distinctWithin counts the groups of sorted values whose neighbours differ
// by at most tol: the cluster count of an approximate (ADMM) solution.
func distinctWithin(v []float64, tol float64) int {
	v = slices.Clone(v)
	slices.Sort(v)
	k := 0
	for i := range v {
		if i == 0 || v[i]-v[i-1] > tol {
			k++
		}
	}
	return k
}

func run(path string, lamG float64, reps int, doADMM bool, admmMaxIter int) error {
	x, y, err := readCSV(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	n, p := x.Dims()
	design := solver.DenseDesign{X: x}
	rows := &estimator.Rows{X: design, Y: y}
	if f := only(lamG, reps); f != nil {
		return f(rows)
	}
	if err := startProfile(); err != nil {
		return err
	}
	lambda := estimator.FromGlmnet(lamG, n)

	out, timing := printer()
	short := func(s float64) string { return strconv.FormatFloat(s, 'g', 6, 64) }
	logf := func(format string, a ...any) { fmt.Fprintf(os.Stderr, "fitbench: "+format+"\n", a...) }

	out("cardreg_go_version", runtime.Version())
	out("cardreg_gomaxprocs", runtime.GOMAXPROCS(0))
	out("cardreg_n", n)
	out("cardreg_p", p)
	out("cardreg_reps", reps)
	out("cardreg_lambda_glmnet", lamG)
	out("cardreg_lambda_paper", lambda)

	// ---- for scale: the Gram matrix XᵀX alone ------------------------------
	// Every Fit on a dense design with n ≥ p forms XᵀX of the centred X
	// (least squares in Gram form); this is that product by itself.
	if !lassoOnly {
		t, err := median(reps, func() error {
			var h mat.SymDense
			design.Gram(&h)
			return nil
		})
		if err != nil {
			return err
		}
		timing("cardreg_gram", t)
	}

	// ---- lasso, one λ ----------------------------------------------------
	l1 := penalty.L1{}
	lassoOpts := &estimator.Options{Settings: solver.Settings{Tol: lassoTol}}
	var lasso *estimator.Model
	logf("lasso, one λ = %g", lambda)
	t, err := median(reps, func() (err error) {
		lasso, err = estimator.Fit(rows, l1, lambda, lassoOpts)
		return err
	})
	if err != nil {
		return err
	}
	timing("cardreg_lasso_one_lambda", t)
	out("cardreg_lasso_objective", lasso.Objective)
	out("cardreg_lasso_objective_recomputed", objective(lasso, l1, lambda))
	out("cardreg_lasso_gap", lasso.Gap)
	out("cardreg_lasso_iterations", lasso.Iterations)
	out("cardreg_lasso_converged", lasso.Converged)
	out("cardreg_lasso_nonzero", nonzero(lasso))
	out("cardreg_lasso_intercept", lasso.Intercept[0])
	if lassoOnly {
		if cardPath > 0 {
			return cardinalityPath(rows, out)
		}
		return nil
	}

	// ---- lasso path --------------------------------------------------------
	logf("lasso path, 100 λ")
	grid, err := fullGrid(rows, l1, nil, 100)
	if err != nil {
		return err
	}
	var lpath *estimator.Path
	t, err = median(reps, func() (err error) {
		lpath, err = estimator.FitPath(rows, l1, &estimator.PathOptions{Options: estimator.Options{Settings: solver.Settings{Tol: pathTol}}, Lambdas: grid})
		return err
	})
	if err != nil {
		return err
	}
	timing("cardreg_lasso_path", t)
	out("cardreg_lasso_path_nlambda", len(lpath.Lambdas))
	out("cardreg_lasso_path_lambda_max_paper", lpath.LambdaMax)
	out("cardreg_lasso_path_lambda_max_glmnet", estimator.LambdaGlmnet(lpath.LambdaMax, n))
	pathSummary("cardreg_lasso_path", lpath, out)

	// ---- cardinality, same λ ----------------------------------------------
	card := penalty.Cardinality{Nu: 1}
	cardOpts := &estimator.Options{Settings: solver.Settings{Tol: 1e-6}}
	var cm *estimator.Model
	logf("cardinality, one λ = %g", lambda)
	t, err = median(reps, func() (err error) {
		cm, err = estimator.Fit(rows, card, lambda, cardOpts)
		return err
	})
	if err != nil {
		return err
	}
	timing("cardreg_cardinality_one_lambda", t)
	out("cardreg_cardinality_objective", cm.Objective)
	out("cardreg_cardinality_gap", cm.Gap)
	out("cardreg_cardinality_iterations", cm.Iterations)
	out("cardreg_cardinality_distinct", len(cm.DistinctValues(0)))
	out("cardreg_cardinality_converged", cm.Converged)

	// ---- cardinality in the interesting range -------------------------------
	// The top of the cardinality path's grid is λ_fuse; a one-point path is
	// the exported way to get it (it also fits at λ_fuse: not timed).
	fp, err := estimator.FitPath(rows, card, &estimator.PathOptions{Options: *cardOpts, NLambda: 1})
	if err != nil {
		return err
	}
	lamFuse := fp.LambdaFuse
	lamMid := 0.05 * lamFuse
	out("cardreg_cardinality_lambda_max", fp.LambdaMax)
	out("cardreg_cardinality_fuse_lambda", lamFuse)
	out("cardreg_cardinality_mid_lambda", lamMid)
	logf("cardinality, λ = 0.05·λ_fuse = %g", lamMid)
	var mid *estimator.Model
	t, err = median(reps, func() (err error) {
		mid, err = estimator.Fit(rows, card, lamMid, cardOpts)
		return err
	})
	if err != nil {
		return err
	}
	midObj := objective(mid, card, lamMid)
	timing("cardreg_cardinality_mid", t)
	out("cardreg_cardinality_mid_objective", mid.Objective)
	out("cardreg_cardinality_mid_objective_recomputed", midObj)
	out("cardreg_cardinality_mid_gap", mid.Gap)
	out("cardreg_cardinality_mid_iterations", mid.Iterations)
	out("cardreg_cardinality_mid_distinct", len(mid.DistinctValues(0)))
	out("cardreg_cardinality_mid_converged", mid.Converged)

	if !doADMM {
		return nil
	}

	// ---- ADMM baseline with the explicit all-pairs matrix -------------------
	logf("ADMM baseline: building A (%d×%d) and the General penalty", p*(p-1)/2, p)
	t0 := time.Now()
	a := penalty.AllPairs(p)
	tA := time.Since(t0).Seconds()
	t0 = time.Now()
	gen, err := penalty.NewGeneral(a, p, 1)
	if err != nil {
		return err
	}
	tGen := time.Since(t0).Seconds()
	out("cardreg_admm_allpairs_seconds", short(tA))
	out("cardreg_admm_newgeneral_seconds", short(tGen))
	out("cardreg_admm_setup_seconds", short(tA+tGen))

	logf("ADMM solve at λ = %g (MaxIter %d)", lamMid, admmMaxIter)
	admmOpts := &estimator.Options{
		Settings: solver.Settings{Tol: 1e-6, MaxIter: admmMaxIter},
		Method:   &solver.ADMM{},
	}
	t0 = time.Now()
	am, err := estimator.Fit(rows, gen, lamMid, admmOpts)
	if err != nil {
		return err
	}
	tSolve := time.Since(t0).Seconds()
	out("cardreg_admm_solve_seconds", short(tSolve))
	out("cardreg_admm_seconds_per_iteration", short(tSolve/float64(am.Iterations)))
	out("cardreg_admm_max_iter", admmMaxIter)
	out("cardreg_admm_iterations", am.Iterations)
	out("cardreg_admm_converged", am.Converged)
	out("cardreg_admm_status", strings.ReplaceAll(am.Status.String(), " ", "_"))
	out("cardreg_admm_objective", am.Objective)
	admmObj := objective(am, card, lamMid)
	out("cardreg_admm_objective_recomputed", admmObj)
	out("cardreg_admm_objective_rel_to_fista", (admmObj-midObj)/math.Abs(midObj))
	var diff mat.Dense
	diff.Sub(am.Coef, mid.Coef)
	maxAbs := 0.0
	for _, v := range mat.Col(nil, 0, &diff) {
		maxAbs = math.Max(maxAbs, math.Abs(v))
	}
	out("cardreg_admm_max_abs_coef_diff", maxAbs)
	out("cardreg_admm_fista_max_abs_coef", mat.Norm(mid.Coef, math.Inf(1)))
	out("cardreg_admm_distinct_exact", len(am.DistinctValues(0)))
	out("cardreg_admm_distinct_within_1e-6", distinctWithin(mat.Col(nil, 0, am.Coef), 1e-6))
	return nil
}

// fullGrid returns the generated grid of nlambda values for pen (from
// λ_max, or λ_fuse for the cardinality penalty, down to solver.MinRatio of
// it), to be given as PathOptions.Lambdas: a given grid is fitted to its
// end, where glmnet's rules (internal/pathstop) may end a generated one,
// and the benchmarks time a fixed number of fits. The top comes from a
// one-point path (not timed).
func fullGrid(rows *estimator.Rows, pen penalty.Penalty, opts *estimator.Options, nlambda int) ([]float64, error) {
	po := &estimator.PathOptions{NLambda: 1}
	if opts != nil {
		po.Options = *opts
	}
	top, err := estimator.FitPath(rows, pen, po)
	if err != nil {
		return nil, err
	}
	n, p := rows.X.Dims()
	return solver.Grid(top.Lambdas[0], nlambda, 0, n, p)
}

// cardinalityPath times one cardinality path of cardPath λ (gap 1e-6) and
// prints its certificates.
func cardinalityPath(rows *estimator.Rows, out func(string, any)) error {
	opts := &estimator.PathOptions{NLambda: cardPath, Options: estimator.Options{Settings: solver.Settings{Tol: 1e-6}}}
	grid, err := fullGrid(rows, penalty.Cardinality{Nu: 1}, &opts.Options, cardPath)
	if err != nil {
		return err
	}
	opts.Lambdas = grid
	switch cardMethod {
	case "fista":
		opts.Method = &solver.FISTA{}
	case "cluster":
		opts.Method = solver.ClusterCD{}
	case "":
	default:
		return fmt.Errorf("-card-method %q: want fista or cluster", cardMethod)
	}
	var path *estimator.Path
	t, err := clock.Once(func() (err error) {
		path, err = estimator.FitPath(rows, penalty.Cardinality{Nu: 1}, opts)
		return err
	})
	if err != nil {
		return err
	}
	out("cardreg_card_path_seconds", t.Wall)
	out("cardreg_card_path_cpu_seconds", t.CPU)
	for k, m := range path.Models {
		fmt.Fprintf(os.Stderr, "fitbench: cardinality path fit %d: %d iterations, %d distinct values\n", k, m.Iterations, distinctWithin(mat.Col(nil, 0, m.Coef), 0))
	}
	out("cardreg_card_path_nlambda", len(path.Lambdas))
	pathSummary("cardreg_card_path", path, out)
	last := path.Models[len(path.Models)-1]
	out("cardreg_card_path_last_distinct", distinctWithin(mat.Col(nil, 0, last.Coef), 0))
	return nil
}

// pathSummary prints a path's largest gap, total iterations and number of
// unconverged fits under the prefix.
func pathSummary(prefix string, path *estimator.Path, out func(string, any)) {
	worst, iters, unconv := 0.0, 0, 0
	for _, m := range path.Models {
		worst = math.Max(worst, m.Gap)
		iters += m.Iterations
		if !m.Converged {
			unconv++
		}
	}
	out(prefix+"_max_gap", worst)
	out(prefix+"_total_iterations", iters)
	out(prefix+"_unconverged", unconv)
}

// printer returns fitbench's "name value" printer and its timing printer
// (NAME_seconds, the median wall, and NAME_cpu_seconds, the median process
// CPU, both cores counted).
func printer() (func(string, any), func(string, clock.Times)) {
	out := func(name string, v any) {
		switch t := v.(type) {
		case float64:
			fmt.Printf("%s %s\n", name, strconv.FormatFloat(t, 'g', 17, 64))
		default:
			fmt.Printf("%s %v\n", name, t)
		}
	}
	short := func(s float64) string { return strconv.FormatFloat(s, 'g', 6, 64) }
	timing := func(name string, t clock.Times) {
		out(name+"_seconds", short(t.Wall))
		out(name+"_cpu_seconds", short(t.CPU))
	}
	return out, timing
}

// cardinalityMid is -card-only: the cardinality fit (ν = 1, gap 1e-6) at
// 0.05·λ_fuse, timed as in the full run, with the profile (if any) of the
// timed calls alone; λ_fuse comes from an untimed one-point path.
func cardinalityMid(rows *estimator.Rows, reps int) error {
	out, timing := printer()
	card := penalty.Cardinality{Nu: 1}
	cardOpts := &estimator.Options{Settings: solver.Settings{Tol: 1e-6}}
	fp, err := estimator.FitPath(rows, card, &estimator.PathOptions{Options: *cardOpts, NLambda: 1})
	if err != nil {
		return err
	}
	lamMid := 0.05 * fp.LambdaFuse
	out("cardreg_gomaxprocs", runtime.GOMAXPROCS(0))
	out("cardreg_cardinality_fuse_lambda", fp.LambdaFuse)
	out("cardreg_cardinality_mid_lambda", lamMid)
	if err := startProfile(); err != nil {
		return err
	}
	var mid *estimator.Model
	t, err := median(reps, func() (err error) {
		mid, err = estimator.Fit(rows, card, lamMid, cardOpts)
		return err
	})
	stopProfile()
	if err != nil {
		return err
	}
	timing("cardreg_cardinality_mid", t)
	out("cardreg_cardinality_mid_gap", mid.Gap)
	out("cardreg_cardinality_mid_iterations", mid.Iterations)
	out("cardreg_cardinality_mid_distinct", len(mid.DistinctValues(0)))
	out("cardreg_cardinality_mid_converged", mid.Converged)
	return nil
}

// lassoPath is -path-only: the lasso path of 100 λ (the full grid, as in
// the full run) at gap -path-tol, with the profile (if any) of the timed
// calls alone.
func lassoPath(rows *estimator.Rows, reps int) error {
	out, timing := printer()
	l1 := penalty.L1{}
	grid, err := fullGrid(rows, l1, nil, 100)
	if err != nil {
		return err
	}
	if err := startProfile(); err != nil {
		return err
	}
	var lpath *estimator.Path
	po := &estimator.PathOptions{Options: estimator.Options{Settings: solver.Settings{Tol: pathTol}}, Lambdas: grid}
	t, err := median(reps, func() (err error) {
		lpath, err = estimator.FitPath(rows, l1, po)
		return err
	})
	stopProfile()
	if err != nil {
		return err
	}
	n, _ := rows.X.Dims()
	timing("cardreg_lasso_path", t)
	out("cardreg_lasso_path_nlambda", len(lpath.Lambdas))
	out("cardreg_lasso_path_lambda_max_glmnet", estimator.LambdaGlmnet(lpath.LambdaMax, n))
	pathSummary("cardreg_lasso_path", lpath, out)
	return nil
}

// only returns the run of -certify, -card-only or -path-only, or nil for
// the full run.
func only(lamG float64, reps int) func(*estimator.Rows) error {
	switch {
	case certifyFile != "":
		return func(rows *estimator.Rows) error {
			n, _ := rows.X.Dims()
			return certifyLasso(rows, estimator.FromGlmnet(lamG, n))
		}
	case cardOnly:
		return func(rows *estimator.Rows) error { return cardinalityMid(rows, reps) }
	case pathOnly:
		return func(rows *estimator.Rows) error { return lassoPath(rows, reps) }
	}
	return nil
}

// certifyLasso is -certify: the lasso's relative duality gap at λ of the
// coefficients in -certify's file (the intercept, then one per predictor;
// the intercept is refitted by estimator.Certify).
func certifyLasso(rows *estimator.Rows, lambda float64) error {
	b, err := os.ReadFile(certifyFile)
	if err != nil {
		return err
	}
	f := strings.Fields(string(b))
	_, p := rows.X.Dims()
	if len(f) != p+1 {
		return fmt.Errorf("%s: %d values, want the intercept and %d coefficients", certifyFile, len(f), p)
	}
	beta := make([]float64, p)
	for j := range beta {
		if beta[j], err = strconv.ParseFloat(f[j+1], 64); err != nil {
			return err
		}
	}
	gap, err := estimator.Certify(rows, penalty.L1{}, lambda, beta, nil)
	if err != nil {
		return err
	}
	fmt.Printf("glmnet_lasso_gap %.3g\n", gap)
	return nil
}
