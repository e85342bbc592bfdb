package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/internal/membudget"
	"github.com/cardsparse/cardreg/internal/outfile"
	"github.com/cardsparse/cardreg/report"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/request"
	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/sqlstats"
	"gonum.org/v1/gonum/mat"
)

// fitFlags are the flags of fit, path and cv: the request they decode
// into (request.Request; the options' names are the flags'), and the
// flags that say where the data are and how to read and write them.
type fitFlags struct {
	request.Request
	// cmd is fit, path or cv.
	cmd                                                                             string
	target, groups, format, out, sep, saveModel, gFile, responses, drop, predictors string
	db, table, query, weights, foldid                                               string
	nu, alpha                                                                       optFloat
	stream, dropMissing                                                             bool
	stderr                                                                          io.Writer
	fam                                                                             familyFlags
	factors                                                                         factorFlags
	dbTimeout                                                                       dbTimeout
	sparse                                                                          sparseFlags
	// tooBig says the data file is streamed for its size (shouldStream).
	tooBig bool
}

func newFitFlags(stderr io.Writer) (*flag.FlagSet, *fitFlags) {
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := &fitFlags{stderr: stderr, cmd: "fit"}
	f.Dialect = request.CommandLine
	f.Dialect.FactorOptions = factorFlagNames()
	f.NLambda = solver.DefaultNLambda // fit's cv, aic and bic grid (path and cv: --nlambda)
	fs.StringVar(&f.Penalty, "penalty", "cardinality", request.OrList(penalty.Names(nil))+" (general with --G); with factor predictors (text columns, --factor, --ordinal), each factor gets its own block and --penalty names the numeric predictors': "+request.OrList(factor.NumericPenalties))
	fs.StringVar(&f.Lambda.Text, "lambda", "cv", "a number (paper scale), cv for K-fold cross-validation, aic or bic (the smallest information criterion along the generated path: deviance + 2 df or log(n) df, gaussian n log(RSS/n) + ...; df the distinct non-zero coefficient values, per factor its distinct non-zero level effects, plus the unpenalised predictors), or theory (Theorem 2 of the source paper, see --sigma, --t: conservative, it over-shrinks)")
	fs.StringVar(&f.LambdaGlmnet.Text, "lambda-glmnet", "", "instead of --lambda, lambda on glmnet's scale, lambda / (2n): a number (path and cv: a list, comma separated)")
	fs.Float64Var(&f.Sigma, "sigma", 0, "--lambda theory: noise standard deviation (default: estimated from the least-squares residuals, n > p + 1)")
	fs.Float64Var(&f.T, "t", 0.05, "--lambda theory: the bound holds with probability 1 - t")
	fs.StringVar(&f.Rule, "rule", "min", "with --lambda cv: min (lambda_min) or 1se (lambda_1se)")
	fs.Var(&f.nu, "nu", "weight of the kernel term, > 0 (default 1 for lasso, 1/(1 - M_G) for cardinality and grouped)")
	fs.Var(&f.alpha, "alpha", "the elastic net's mix alpha in [0, 1] of lambda[(1 - alpha)/2 ||b||^2 + alpha ||b||_1] (glmnet's alpha; default 1, the lasso; 0 is ridge)")
	fs.StringVar(&f.target, "target", "", "response column (default: the last column)")
	fs.StringVar(&f.responses, "responses", "", "several response columns, comma separated: a multi-response fit (the penalty acts per response)")
	fs.StringVar(&f.groups, "groups", "", "grouped penalty: one group label per predictor, comma separated, or a file with one label per line")
	fs.StringVar(&f.drop, "drop", "", "columns to leave out (an ID, a leaking label), comma separated; they may hold text")
	fs.StringVar(&f.predictors, "predictors", "", "the predictor columns, comma separated (default: every column but the response and --drop)")
	fs.StringVar(&f.gFile, "G", "", "general penalty: a CSV file holding G (no header; one row per row of G, one column per predictor)")
	fs.IntVar(&f.Folds, "folds", estimator.DefaultFolds, "number of CV folds (cv.glmnet's default)")
	fs.Uint64Var(&f.Seed, "seed", 1, "seed of the CV fold assignment")
	fs.Float64Var(&f.Tol, "tol", solver.DefaultTol, "relative duality-gap tolerance")
	fs.IntVar(&f.MaxIter, "max-iter", solver.DefaultMaxIter, "iteration cap per fit (proximal gradient steps; for the lasso of binomial and Poisson fits, coordinate-descent sweeps per reweighted model, as glmnet's maxit)")
	fs.BoolVar(&f.NoIntercept, "no-intercept", false, "fit without an intercept")
	fs.BoolVar(&f.Relax, "relax", false, "refit by least squares on the fitted clusters (glmnet's relax): the penalty picks the clusters, least squares their values; CV scores the refits")
	fs.BoolVar(&f.Standardize, "standardize", false, "scale predictors to unit standard deviation (off: equal coefficients then mean equal per-unit effects)")
	fs.StringVar(&f.format, "format", "text", "output format: text, json or csv (one row per coefficient)")
	fs.BoolVar(&f.dropMissing, "drop-missing", false, "leave out rows with an empty, NaN or infinite cell instead of failing (the count is reported)")
	fs.StringVar(&f.weights, "weights", "", "column of observation weights (finite, >= 0, any scale: rescaled to sum to n as glmnet does, the objective sums w_i times each row's deviance, and only the weights' ratios matter; frequency weights are fine, refused is only a weight the others cannot move, their sum below its rounding); gaussian fits go through the sufficient statistics")
	fs.StringVar(&f.foldid, "foldid", "", "column of cross-validation folds 1..K (glmnet's foldid), instead of --folds and --seed")
	fs.StringVar(&f.db, "db", "", "a ClickHouse HTTP URL (http://host:8123/): the statistics are computed there by SQL, no data file; with --table or --query")
	fs.StringVar(&f.table, "table", "", "with --db: the table to fit (DATABASE.NAME for one in another database)")
	fs.StringVar(&f.query, "query", "", "with --db: a SELECT whose rows to fit")
	fs.Var(&f.dbTimeout, "db-timeout", dbTimeoutUsage())
	fs.BoolVar(&f.stream, "stream", false, "stream the file: keep only the sufficient statistics (O(p^2) memory), not the rows; the same fit (gaussian: one pass; binomial and poisson: passes per Newton step, or rounds; factors: one more pass first, for their levels)")
	fs.Func("memory", "memory budget in bytes (units allowed: 8GB, 512MiB) above which the data are streamed, and which O(p^2) statistics must fit in (default: half the machine's memory)", func(s string) (err error) {
		b, err := membudget.ParseBytes(s)
		f.Memory = request.Bytes(b)
		return err
	})
	fs.BoolVar(&f.Progress, "progress", false, "draw progress on stderr even when it is not a terminal: the lambdas of a path and the folds of cross-validation (gaussian, in memory), the passes over the file with --stream; refused where nothing is drawn (a fit at one lambda in memory, a binomial or poisson fit in memory)")
	fs.StringVar(&f.out, "out", "", "output file (default: standard output); written only when complete")
	fs.StringVar(&f.saveModel, "save-model", "", "write the fitted model (JSON) to this file, for cardreg predict; written only when complete")
	fs.StringVar(&f.sep, "sep", ",", `field separator (one character; \t for a tab)`)
	f.fam.register(fs, &f.Request)
	f.factors.register(fs, &f.Request)
	f.sparse.register(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: cardreg fit [flags] DATA.csv

Fits y = X b + b0 by minimising ||y - X b - b0||^2 + lambda * h(b) (no 1/(2n);
glmnet's lambda is lambda / (2n)). With any other --family (binomial, poisson, gamma, tweedie:P, negbin:THETA) it minimises
the weighted deviance sum_i w_i d_i + lambda * h(b) instead (weights rescaled to
sum to n, as glmnet: lambda_glmnet = lambda / (2n) for every family). DATA.csv has a header row; the response is
the last column unless --target names another, the other columns are predictors
(less --drop, or only --predictors). DATA.csv may be gzip-compressed; - reads
standard input. DATA may instead be a sparse file, read into memory as sparse
columns x1...xp (p: the largest index, or --features): svmlight/libsvm, its
labels the response, or Matrix Market with the response in --response FILE;
told by the extension (.svm, .svmlight, .libsvm, .mtx, .mm, with or without
.gz) or --input-format. --lambda theory is Theorem 2's lambda: a conservative
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
	f.Given = givenFlags(fs)
	if pos, err = f.dataArgs(pos); err != nil {
		return usageFailure(stderr, "fit", err, seeHelp("fit"))
	}
	err = f.validate()
	if err == nil {
		err = f.CheckEffect("fit")
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
	return []string{f.dataFile(data), f.gFile, f.groups, f.fam.penaltyFactor, f.sparse.response}
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
		return pos, f.resolveFormat(pos[0])
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

// validate reads --lambda and checks the flags that do not depend on
// the data, before any work is done: the request's values
// (request.Request.Check) and the flags of reading and writing.
func (f *fitFlags) validate() error {
	sep, err := parseSep(f.sep)
	if err != nil {
		return err
	}
	f.sep = string(sep)
	f.Route, f.Weighted, f.Offset = f.route(), f.weights != "", f.fam.offset != ""
	if f.nu.set {
		f.Nu = &f.nu.v
	}
	if f.alpha.set {
		f.Alpha = &f.alpha.v
	}
	if err := f.ParseLambda(f.cmd); err != nil {
		return usageError{err}
	}
	for _, check := range []func() error{f.validateResponses, func() error { return asUsage(f.Check(f.cmd)) }, f.validateFormat, f.validateFactors} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// validateResponses checks --responses and what it combines with.
func (f *fitFlags) validateResponses() error {
	if f.responses == "" {
		return nil
	}
	if len(splitList(f.responses)) == 0 {
		return usagef("--responses is empty: name the response columns, comma separated")
	}
	if f.saveModel != "" || f.Lambda.Kind == request.Theory || f.target != "" {
		return usagef("--responses does not combine with --target, --save-model or --lambda theory (single-response for now)")
	}
	if f.Lambda.Criterion() != "" {
		return usagef("--lambda %s is single-response: use --target", f.Lambda.Text)
	}
	if f.FamilyFit() {
		what := "--family " + f.Family
		if f.Family == "gaussian" {
			what = "--offset, --penalty-factor, --exclude and --type-measure"
		}
		return usagef("%s: one response at a time (--target)", what)
	}
	return nil
}

// validateFormat checks --format.
func (f *fitFlags) validateFormat() error {
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
// Theorem 2's (gaussian), λ_min or λ_1se of cross-validation (--rule),
// or the smallest AIC or BIC (request.Request.Choose).
func fitFile(path string, f *fitFlags) (*report.Fit, error) {
	pr, err := loadProblem(path, f, "fit")
	if err != nil {
		return nil, err
	}
	res := pr.result(f)
	var progress func(done, total int)
	erase := func() {}
	if f.Lambda.Kind == request.CV {
		var stage func(string)
		progress, stage, erase = stagedProgress(f.stderr, f.Progress, "cross-validating")
		stage(preparing)
	}
	model, err := f.Choose(pr.request(path, f, progress), res)
	erase()
	if err != nil {
		return nil, err
	}
	res.Passes = pr.passes()
	if pr.scanner != nil {
		res.Scans = pr.scanner.Scans()
	}
	res.FillAll(model, pr.responses, f.Standardize)
	pr.fillFactors(res, model, f)
	return res, nil
}

// request is the problem the request's λ rule fits (request.Problem),
// its errors worded for the file path, its folds drawn by progress.
func (pr *problem) request(path string, f *fitFlags, progress func(done, total int)) *request.Problem {
	rp := *pr.fit
	rp.FoldID, rp.Progress, rp.MultiResponse, rp.X, rp.Y = pr.foldID, progress, len(pr.responses) != 1, pr.x, pr.y
	rp.Explain = func(err error, _ bool) error { return pr.inFile(path, foldHint(err, f)) }
	rp.Warn = func(err error) {
		fmt.Fprintf(f.stderr, "cardreg %s: warning: %v; the fit is right, its λ (and the cv λ values) cannot be printed\n", f.cmd, err)
	}
	return &rp
}

// result is the part of fit's result known before fitting.
func (pr *problem) result(f *fitFlags) *report.Fit {
	res := f.Report(pr.built, pr.fit.Opts.Family, pr.n, pr.names, pr.target)
	res.Constant, res.DroppedRows, res.OffsetColumn, res.WeightsColumn = pr.constant, pr.dropped, f.fam.offset, f.weights
	if p := len(pr.names); p >= pr.n && !pr.family {
		res.NuNote = strings.TrimSpace(res.NuNote + fmt.Sprintf(" p = %d ≥ n = %d: the penalty makes the fit well posed, but the minimiser need not be unique (the lasso's, for one, is not in general).", p, pr.n))
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
