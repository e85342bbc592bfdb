package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/cardsparse/cardreg/internal/membudget"
	"github.com/cardsparse/cardreg/internal/outfile"
	"github.com/cardsparse/cardreg/report"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/sqlstats"
	"github.com/cardsparse/cardreg/tensorreg"
	"gonum.org/v1/gonum/mat"
)

type fitFlags struct {
	penalty, rule, target, groups, format, out, sep, saveModel, gFile, responses string
	drop, predictors, db, table, query, weights, foldid                          string
	memory                                                                       int64
	tol, sigma, t                                                                float64
	lambda                                                                       lambdaSpec
	nu, alpha                                                                    optFloat
	folds, maxIter                                                               int
	seed                                                                         uint64
	noIntercept, standardize, relax, progress, dropMissing, stream               bool
	stderr                                                                       io.Writer
	fam                                                                          familyFlags
	factors                                                                      factorFlags
	given                                                                        map[string]bool // the flags set on the command line
	dbTimeout                                                                    dbTimeout
	// tooBig says the data file is streamed for its size (shouldStream).
	tooBig bool
}

func newFitFlags(stderr io.Writer) (*flag.FlagSet, *fitFlags) {
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := &fitFlags{stderr: stderr}
	fs.StringVar(&f.penalty, "penalty", "cardinality", "cardinality, grouped, lasso, ridge, elasticnet (with --alpha) or general (with --G); with factor predictors (text columns, --factor, --ordinal), each factor gets its own block and --penalty names the numeric predictors': cardinality, lasso or none")
	fs.StringVar(&f.lambda.text, "lambda", "cv", "a number (paper scale), cv for K-fold cross-validation, aic or bic (the smallest information criterion along the generated path: deviance + 2 df or log(n) df, gaussian n log(RSS/n) + ...; df the distinct non-zero coefficient values, per factor its distinct non-zero level effects, plus the unpenalised predictors), or theory (Theorem 2 of the source paper, see --sigma, --t: conservative, it over-shrinks)")
	fs.Float64Var(&f.sigma, "sigma", 0, "--lambda theory: noise standard deviation (default: estimated from the least-squares residuals, n > p + 1)")
	fs.Float64Var(&f.t, "t", 0.05, "--lambda theory: the bound holds with probability 1 - t")
	fs.StringVar(&f.rule, "rule", "min", "with --lambda cv: min (lambda_min) or 1se (lambda_1se)")
	fs.Var(&f.nu, "nu", "weight of the kernel term, > 0 (default 1 for lasso, 1/(1 - M_G) for cardinality and grouped)")
	fs.Var(&f.alpha, "alpha", "elasticnet: the mix alpha in [0, 1] of lambda[(1 - alpha)/2 ||b||^2 + alpha ||b||_1] (glmnet's alpha; default 1, the lasso; 0 is ridge)")
	fs.StringVar(&f.target, "target", "", "response column (default: the last column)")
	fs.StringVar(&f.responses, "responses", "", "several response columns, comma separated: a multi-response fit (the penalty acts per response)")
	fs.StringVar(&f.groups, "groups", "", "grouped penalty: one group label per predictor, comma separated, or a file with one label per line")
	fs.StringVar(&f.drop, "drop", "", "columns to leave out (an ID, a leaking label), comma separated; they may hold text")
	fs.StringVar(&f.predictors, "predictors", "", "the predictor columns, comma separated (default: every column but the response and --drop)")
	fs.StringVar(&f.gFile, "G", "", "general penalty: a CSV file holding G (no header; one row per row of G, one column per predictor)")
	fs.IntVar(&f.folds, "folds", estimator.DefaultFolds, "number of CV folds (cv.glmnet's default)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the CV fold assignment")
	fs.Float64Var(&f.tol, "tol", solver.DefaultTol, "relative duality-gap tolerance")
	fs.IntVar(&f.maxIter, "max-iter", solver.DefaultMaxIter, "iteration cap per fit (proximal gradient steps; for the lasso of binomial and Poisson fits, coordinate-descent sweeps per reweighted model, as glmnet's maxit)")
	fs.BoolVar(&f.noIntercept, "no-intercept", false, "fit without an intercept")
	fs.BoolVar(&f.relax, "relax", false, "refit by least squares on the fitted clusters (glmnet's relax): the penalty picks the clusters, least squares their values; CV scores the refits")
	fs.BoolVar(&f.standardize, "standardize", false, "scale predictors to unit standard deviation (off: equal coefficients then mean equal per-unit effects)")
	fs.StringVar(&f.format, "format", "text", "output format: text, json or csv (one row per coefficient)")
	fs.BoolVar(&f.dropMissing, "drop-missing", false, "leave out rows with an empty, NaN or infinite cell instead of failing (the count is reported)")
	fs.StringVar(&f.weights, "weights", "", "column of observation weights (finite, >= 0, any scale: rescaled to sum to n as glmnet does, the objective sums w_i times each row's deviance, and only the weights' ratios matter; frequency weights are fine, refused is only a weight the others cannot move, their sum below its rounding); gaussian fits go through the sufficient statistics")
	fs.StringVar(&f.foldid, "foldid", "", "column of cross-validation folds 1..K (glmnet's foldid), instead of --folds and --seed")
	fs.StringVar(&f.db, "db", "", "a ClickHouse HTTP URL (http://host:8123/): the statistics are computed there by SQL, no data file; with --table or --query")
	fs.StringVar(&f.table, "table", "", "with --db: the table to fit (DATABASE.NAME for one in another database)")
	fs.StringVar(&f.query, "query", "", "with --db: a SELECT whose rows to fit")
	fs.Var(&f.dbTimeout, "db-timeout", dbTimeoutUsage())
	fs.BoolVar(&f.stream, "stream", false, "stream the file: keep only the sufficient statistics (O(p^2) memory), not the rows; the same fit (gaussian: one pass; binomial and poisson: passes per Newton step)")
	fs.Func("memory", "memory budget in bytes (units allowed: 8GB, 512MiB) above which the data are streamed, and which O(p^2) statistics must fit in (default: half the machine's memory)", func(s string) (err error) {
		f.memory, err = membudget.ParseBytes(s)
		return err
	})
	fs.BoolVar(&f.progress, "progress", false, "draw progress on stderr even when it is not a terminal: the lambdas of a path and the folds of cross-validation (gaussian, in memory), the passes over the file with --stream; refused where nothing is drawn (a fit at one lambda in memory, a binomial or poisson fit in memory)")
	fs.StringVar(&f.out, "out", "", "output file (default: standard output); written only when complete")
	fs.StringVar(&f.saveModel, "save-model", "", "write the fitted model (JSON) to this file, for cardreg predict; written only when complete")
	fs.StringVar(&f.sep, "sep", ",", `field separator (one character; \t for a tab)`)
	f.fam.register(fs)
	f.factors.register(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: cardreg fit [flags] DATA.csv

Fits y = X b + b0 by minimising ||y - X b - b0||^2 + lambda * h(b) (no 1/(2n);
glmnet's lambda is lambda / (2n)). With --family binomial, poisson or gamma it minimises
the weighted deviance sum_i w_i d_i + lambda * h(b) instead (weights rescaled to
sum to n, as glmnet: lambda_glmnet = lambda / (2n) for every family). DATA.csv has a header row; the response is
the last column unless --target names another, the other columns are predictors
(less --drop, or only --predictors). DATA.csv may be gzip-compressed; - reads
standard input. --lambda theory is Theorem 2's lambda: a conservative
guarantee that over-shrinks (cross-validation predicts better).

Example:
  cardreg fit --penalty cardinality examples/cardinality.csv
  cardreg fit --penalty lasso --lambda 50 --format json examples/cardinality.csv
  cardreg fit --family binomial --relax --rule 1se examples/credit.csv
  cardreg fit --family poisson --offset log_exposure --drop exposure examples/claims.csv
  cardreg fit --family gamma examples/severity.csv

Flags:
`)
		fs.PrintDefaults()
	}
	return fs, f
}

func runFit(args []string, stdout, stderr io.Writer) int {
	fs, f := newFitFlags(stderr)
	// The flag package would print the whole usage after a bad flag; print
	// one line instead, and the usage only when asked for.
	fs.SetOutput(io.Discard)
	pos, err := parseInterleaved(fs, args)
	if helped(fs, err, stdout) {
		return 0
	}
	if err != nil {
		return usageFailure(stderr, "fit", err, seeHelp("fit"))
	}
	f.given = givenFlags(fs)
	if pos, err = f.dataArgs(pos); err != nil {
		return usageFailure(stderr, "fit", err, seeHelp("fit"))
	}
	err = f.validate()
	if err == nil {
		err = f.checkEffect("fit")
	}
	if err == nil {
		err = checkPaths(f.inputs(pos[0]), "--out", f.out, "--save-model", f.saveModel)
	}
	var res *report.Fit
	if err == nil {
		res, err = fitFile(pos[0], f)
	}
	if err == nil {
		warnFit(stderr, res, f.saveModel != "")
	}
	if err == nil && f.saveModel != "" {
		err = outfile.Write("--save-model", f.saveModel, nil, func(w io.Writer) error { return res.WriteModel(w) })
	}
	if err == nil {
		err = outfile.Write("--out", f.out, stdout, func(w io.Writer) error { return res.Write(w, f.format) })
	}
	return exitStatus(stderr, "fit", err)
}

// convergeAdvice says what may help a fit that did not converge: more
// iterations help one that hit --max-iter, not one that stalled (its
// objective and duality gap no longer improving: a badly scaled problem;
// noFactors: whether --standardize may rescale it).
func convergeAdvice(stalled, noFactors bool) string {
	if stalled {
		return "raise --tol (or λ, when it is many orders below the deviance's scale: the duality gap cannot be certified below its rounding), or " + rescaleAdvice(noFactors) + "; more --max-iter does not help a stalled fit"
	}
	return "raise --max-iter or --tol"
}

// roundingAdvice says what helps a fit whose duality gap cannot be
// certified at its λ (solver.Uncertifiable): a λ above lr, the gradient's
// rounding error in the penalty's dual norm.
func roundingAdvice(lr float64) string {
	return fmt.Sprintf("the gradient's rounding error can reach %.4g in the penalty's dual norm, so below λ = %.4g the duality gap may not be certifiable at all; a λ above %.4g is beyond the rounding; more --max-iter does not help", lr, lr, lr)
}

// rescaleAdvice says how to rescale the predictors: --standardize, which
// does not combine with factor predictors (noFactors false), or in the
// file.
func rescaleAdvice(noFactors bool) string {
	if noFactors {
		return "rescale the data (--standardize)"
	}
	return "rescale the numeric columns in the file (--standardize does not combine with factor predictors)"
}

// inputs lists the files the command reads: the data and the files --G,
// --groups and --penalty-factor may name (an inline list names none), so
// that no output overwrites one of them.
func (f *fitFlags) inputs(data string) []string {
	return []string{f.dataFile(data), f.gFile, f.groups, f.fam.penaltyFactor}
}

// warn prints one line on stderr when the fit did not converge or some of
// its cross-validation fits did not: the result is printed all the same.
func warnFit(stderr io.Writer, r *report.Fit, saving bool) {
	var parts []string
	status := r.Status
	if r.RelaxNote != "" {
		parts = append(parts, "--relax: "+r.RelaxNote)
		status = r.PenalisedStatus // the penalised fit's own status
	}
	if !r.Converged && status != "" {
		s := fmt.Sprintf("the fit did not converge (%s after %d iterations", status, r.Iterations)
		if r.RelaxNote != "" {
			s = fmt.Sprintf("the penalised fit did not converge either (%s after %d iterations", status, r.Iterations)
		}
		if r.DualityGap != nil {
			s += fmt.Sprintf(", relative duality gap %.3g", *r.DualityGap)
		}
		if r.RoundingLambda > 0 {
			s += "; " + roundingAdvice(r.RoundingLambda) + ")"
		} else {
			s += "; " + convergeAdvice(status == solver.Stalled.String(), len(r.Factors) == 0) + ")"
		}
		if saving {
			s += "; the saved model records converged: false"
		}
		parts = append(parts, s)
	}
	if r.CV != nil && r.CV.Unconverged > 0 {
		parts = append(parts, fmt.Sprintf("%d cross-validation fold fits did not converge (the CV curve includes them)", r.CV.Unconverged))
	}
	if len(parts) > 0 {
		fmt.Fprintf(stderr, "cardreg fit: warning: %s\n", strings.Join(parts, "; "))
	}
}

// dataArgs checks the positional arguments: one data file, or none with
// --db, and returns them (the source's name for --db).
func (f *fitFlags) dataArgs(pos []string) ([]string, error) {
	if f.db == "" {
		if len(pos) != 1 {
			return nil, usagef("expected one data file, got %d arguments", len(pos))
		}
		return pos, nil
	}
	if len(pos) != 0 {
		return nil, usagef("--db takes no data file, got %d arguments", len(pos))
	}
	if (f.table == "") == (f.query == "") {
		return nil, usagef("--db needs --table NAME or --query SELECT (one of them)")
	}
	if f.table != "" {
		if err := sqlstats.CheckTable(f.table); err != nil {
			return nil, usagef("--table: %v", err)
		}
	}
	name := redactURL(f.db) + " table " + f.table
	if f.query != "" {
		name = redactURL(f.db) + " query"
	}
	return []string{name}, nil
}

// validate checks the flags that do not depend on the data, before any
// work is done.
func (f *fitFlags) validate() error {
	sep, err := parseSep(f.sep)
	if err != nil {
		return err
	}
	f.sep = string(sep)
	for _, check := range []func() error{f.validatePenalty, f.validateResponses, f.validateLambda, f.validateSolver, f.validateFamily, f.validateFactors} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// validatePenalty checks --penalty, --groups and --nu.
func (f *fitFlags) validatePenalty() error {
	if f.penalty == factor.NumericNone {
		return checkNu(f.nu) // the numeric predictors' penalty beside factors
	}
	kind, err := lookupPenalty(f.penalty, "unknown --penalty", nil)
	if err != nil {
		return err
	}
	if kind.Needs == penalty.NeedsGroups && f.groups == "" {
		return usagef("--penalty grouped needs --groups with one label per predictor")
	}
	return checkNu(f.nu)
}

// validateResponses checks --responses and what it combines with.
func (f *fitFlags) validateResponses() error {
	if f.responses == "" {
		return nil
	}
	if len(splitList(f.responses)) == 0 {
		return usagef("--responses is empty: name the response columns, comma separated")
	}
	if f.saveModel != "" || f.lambda.theory() || f.target != "" {
		return usagef("--responses does not combine with --target, --save-model or --lambda theory (single-response for now)")
	}
	return nil
}

// validateLambda checks --lambda and the flags of its three forms.
func (f *fitFlags) validateLambda() error {
	kind := f.penaltyKind() // known: checked by validatePenalty
	if !kind.Grid && !f.lambda.fixed() {
		return usagef("--penalty %s has no closed-form dual norm, so no lambda grid or theory: give --lambda NUMBER", f.penalty)
	}
	switch {
	case f.lambda.theory():
		if f.sigma < 0 || !(f.t > 0 && f.t < 1) {
			return usagef("--lambda theory needs --sigma >= 0 (0: estimate) and 0 < --t < 1")
		}
		if !kind.Theory {
			return usagef("--lambda theory is defined for the %s penalties, not %s", joinNames(penalty.Names(func(k penalty.Kind) bool { return k.Theory }), "and"), f.penalty)
		}
	case f.lambda.onGrid():
		if f.folds < estimator.MinFolds {
			return usagef("--folds must be at least %d (as cv.glmnet), got %d", estimator.MinFolds, f.folds)
		}
	default:
		if err := f.lambda.parseFit(); err != nil {
			return err
		}
	}
	if f.rule != "min" && f.rule != "1se" {
		return usagef("--rule must be min or 1se, got %q", f.rule)
	}
	return nil
}

// validateSolver checks --tol, --max-iter and --format.
func (f *fitFlags) validateSolver() error {
	if !(f.tol > 0) || math.IsInf(f.tol, 0) {
		return usagef("--tol must be a positive number, got %v", f.tol)
	}
	if f.maxIter < 1 {
		return usagef("--max-iter must be at least 1, got %d", f.maxIter)
	}
	if f.format != "text" && f.format != "json" && f.format != "csv" {
		return usagef("unknown --format %q (text, json or csv)", f.format)
	}
	return nil
}

// splitList splits a comma-separated list of names, trimmed; "" is none.
func splitList(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// fitFile fits the model the flags ask for at one λ: the number given,
// Theorem 2's (gaussian), or λ_min or λ_1se of cross-validation (--rule).
func fitFile(path string, f *fitFlags) (*report.Fit, error) {
	pr, err := loadProblem(path, f, "fit")
	if err != nil {
		return nil, err
	}
	res := pr.result(f)
	var model *estimator.Model
	switch {
	case f.lambda.onGrid():
		model, err = pr.cvModel(path, f, res)
	case f.lambda.theory():
		model, err = pr.theoryModel(path, f, res)
	case f.lambda.criterion() != "":
		model, err = pr.criterionModel(path, f, res)
	default:
		model, err = estimator.Fit(pr.data, pr.pen, f.lambda.value, &pr.opts) // checked by validate
		err = pr.inFile(path, err)
	}
	if err != nil {
		return nil, err
	}
	res.Passes = pr.passes()
	if pr.scanner != nil {
		res.Scans = pr.scanner.Scans()
	}
	res.FillAll(model, pr.responses, f.standardize)
	pr.fillFactors(res, model, f)
	return res, nil
}

// result is the part of fit's result known before fitting.
func (pr *problem) result(f *fitFlags) *report.Fit {
	fam := pr.opts.Family
	res := &report.Fit{Family: fam.Name(), Link: fam.Link(), Penalty: f.penalty, NuNote: pr.note, N: pr.n, P: len(pr.names),
		Names: pr.names, Target: pr.target, Constant: pr.constant, DroppedRows: pr.dropped, Unpenalized: pr.excluded,
		OffsetColumn: f.fam.offset, WeightsColumn: f.weights}
	if p := len(pr.names); p >= pr.n && !pr.family {
		res.NuNote = strings.TrimSpace(res.NuNote + fmt.Sprintf(" p = %d ≥ n = %d: the penalty makes the fit well posed, but the minimiser need not be unique (the lasso's, for one, is not in general).", p, pr.n))
	}
	if pr.nu > 0 {
		nu := pr.nu
		res.Nu = &nu
	}
	return res
}

// passes counts the passes over a streamed file (0 otherwise).
func (pr *problem) passes() int {
	if pr.src == nil {
		return 0
	}
	return pr.src.Passes()
}

// cvModel cross-validates and returns the fit at λ_min or λ_1se (--rule),
// noting the choice in res.
func (pr *problem) cvModel(path string, f *fitFlags, res *report.Fit) (*estimator.Model, error) {
	progress, stage, erase := stagedProgress(f.stderr, f.progress, "cross-validating")
	stage(preparing)
	cv, err := pr.crossValidate(path, "fit", f, &estimator.PathOptions{Options: pr.opts}, progress)
	erase()
	if err != nil {
		return nil, err
	}
	if cv.OutOfRange != nil {
		fmt.Fprintf(f.stderr, "cardreg fit: warning: %v; the fit is right, its λ (and the cv λ values) cannot be printed\n", cv.OutOfRange)
	}
	k := cv.IndexMin
	if f.rule == "1se" {
		k = cv.IndexSE
	}
	res.LambdaRule = "cv, lambda_" + f.rule
	if pr.family {
		res.LambdaRule = "cv (" + cv.Measure + "), lambda_" + f.rule
	}
	res.CV = report.NewCVSummary(cv, f.folds)
	return cv.Path.Models[k], nil
}

// theoryModel fits at Theorem 2's λ (gaussian rows in memory).
func (pr *problem) theoryModel(path string, f *fitFlags, res *report.Fit) (*estimator.Model, error) {
	th, err := theoryLambda(pr.x, pr.y, pr.pen, pr.nu, f)
	if err == nil {
		err = theoryOverflow(th, len(pr.names), len(pr.responses))
	}
	if err != nil {
		return nil, data.InFile(path, err)
	}
	res.LambdaRule, res.Theory = "theory (Theorem 2)", th
	m, err := estimator.Fit(pr.data, pr.pen, th.Lambda, &pr.opts)
	return m, pr.inFile(path, err)
}

// checkFolds refuses more folds than rows in the command cmd, naming the
// file and a way out that works: fewer --folds (estimator.MaxFolds, never
// below estimator.MinFolds), else a fit at one λ, which needs no folds.
func checkFolds(path, cmd string, n, folds int) error {
	if n >= folds {
		return nil
	}
	other := "give --lambda NUMBER, aic or bic (no folds)"
	if cmd != "fit" {
		other = "fit without folds (cardreg path, or cardreg fit --lambda NUMBER, aic or bic)"
	}
	if k := estimator.MaxFolds(n); k > 0 {
		return fmt.Errorf("%s: %d folds for %d observations: use --folds %d or fewer, or %s", path, folds, n, k, other)
	}
	return fmt.Errorf("%s: %d observations are too few to cross-validate (%d at least, one per fold): %s", path, n, estimator.MinFolds, other)
}

// readMatrix reads a headerless numeric CSV with p columns: the G of the
// general penalty.
func readMatrix(path string, p int) (*mat.Dense, error) {
	if path == "" {
		return nil, usagef("--penalty general needs --G FILE")
	}
	t, err := readTableWith(path, data.Options{NoHeader: true})
	if err != nil {
		return nil, err
	}
	if len(t.Names()) != p {
		return nil, fmt.Errorf("%s: G has %d columns, the data has %d predictors", path, len(t.Names()), p)
	}
	return t.DenseExcept(-1), nil
}

func parseGroups(s string, p int) ([]int, error) {
	if s == "" {
		return nil, usagef("--penalty grouped needs --groups with one label per predictor")
	}
	parts, from, err := data.ReadList(s)
	if err != nil {
		return nil, usagef("--groups: %v", err)
	}
	if len(parts) != p {
		if from == "" && len(parts) == 1 {
			return nil, asUsage(data.NotAFile("--groups", s, p))
		}
		return nil, usagef("--groups%s has %d labels for %d predictors", from, len(parts), p)
	}
	return data.GroupIDs(parts), nil
}

// theoryLambda is tensorreg.TheoryLambda with the flags' σ and t.
func theoryLambda(x, y *mat.Dense, pen penalty.Penalty, nu float64, f *fitFlags) (*report.Theory, error) {
	th, err := tensorreg.TheoryLambda(x, y, pen, nu, f.sigma, f.t, f.noIntercept)
	if errors.Is(err, tensorreg.ErrNoSigma) {
		return nil, usagef("--lambda theory: %s; give --sigma", strings.TrimPrefix(err.Error(), "tensorreg: "))
	}
	if err != nil {
		return nil, err
	}
	from := th.SigmaFrom
	if from == "given" {
		from = "--sigma"
	}
	return &report.Theory{Lambda: th.Lambda, LambdaT: th.LambdaT, S: th.S, Equivalence: th.Equivalence, MG: th.MG,
		Sigma: th.Sigma, SigmaFrom: from, T: th.T}, nil
}
