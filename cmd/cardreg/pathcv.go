package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/internal/outfile"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/plotting"
	"github.com/cardsparse/cardreg/report"
	"github.com/cardsparse/cardreg/solver"
)

// pathFlags are fit's flags plus the grid.
type pathFlags struct {
	*fitFlags
	nlambda  int
	minRatio float64
	plot     string
	merges   string
}

// runPathCV runs the path or cv command; both print CSV.
func runPathCV(cmd string, args []string, stdout, stderr io.Writer) int {
	fs, f := newPathFlags(cmd, stderr)
	pos, err := parseInterleaved(fs, args)
	if helped(fs, err, stdout) {
		return 0
	}
	f.given = givenFlags(fs)
	if err == nil {
		pos, err = f.check(cmd, pos)
	}
	if err != nil {
		return usageFailure(stderr, cmd, err, "")
	}
	out, warning, err := pathOrCV(cmd, pos[0], f)
	if warning != "" {
		fmt.Fprintf(stderr, "cardreg %s: warning: %s\n", cmd, warning)
	}
	if err == nil {
		err = outfile.Write("--out", f.out, stdout, func(w io.Writer) error { _, err := io.WriteString(w, out); return err })
	}
	return exitStatus(stderr, cmd, err)
}

// newPathFlags returns the flags of path or cv (cmd): fit's with the
// grid's and --plot.
func newPathFlags(cmd string, stderr io.Writer) (*flag.FlagSet, *pathFlags) {
	fs, ff := newFitFlags(stderr)
	f := &pathFlags{fitFlags: ff}
	fs.IntVar(&f.nlambda, "nlambda", 100, "number of lambda values")
	fs.Float64Var(&f.minRatio, "min-ratio", 0, "smallest/largest lambda (default 1e-4 when n ≥ p, else 1e-2, as glmnet)")
	fs.StringVar(&f.plot, "plot", "", "also draw it to FILE.png or FILE.svg")
	if cmd == "path" {
		fs.Lookup("plot").Usage = "also draw the coefficients along lambda to FILE.png or FILE.svg; with factor predictors also each factor's level effects along lambda, coloured by the level groups at the path's middle lambda, to FILE-factors.png or FILE-factors.svg"
		fs.StringVar(&f.merges, "merges", "", "with factor predictors: also write to FILE.csv, for each factor, the lambda at which each merge of its level groups happens")
	}
	fs.Lookup("lambda").Usage = "the lambda values to fit (paper scale), comma separated, each > 0, fitted in decreasing order as glmnet does (default: a generated grid of --nlambda values)"
	fs.Lookup("lambda").DefValue = ""
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), pathUsage[cmd]+"\nFlags:\n")
		fs.PrintDefaults()
	}
	// As fit: one line after a bad flag, the usage only when asked for.
	fs.SetOutput(io.Discard)
	return fs, f
}

// check checks the arguments and flags of path or cv (cmd) before any
// work is done and returns the data arguments.
func (f *pathFlags) check(cmd string, pos []string) ([]string, error) {
	pos, err := f.dataArgs(pos)
	if err != nil {
		return nil, err
	}
	checks := []func() error{
		func() error { return f.lambda.parseGrid(cmd, f.given["lambda"]) },
		f.validateCSV,
		func() error { return f.checkEffect(cmd) },
		f.checkGridFlags,
		func() error { return f.checkTable(cmd) },
		func() error {
			var factorPlot string // path's factor plot, written when the data hold factors
			if cmd == "path" && f.plot != "" {
				factorPlot = factorPlotFile(f.plot)
			}
			return checkPaths(f.inputs(pos[0]), "--out", f.out, "--plot", f.plot, "--plot (factors)", factorPlot, "--merges", f.merges)
		},
	}
	for _, c := range checks {
		if err := c(); err != nil {
			return nil, err
		}
	}
	return pos, nil
}

// validateCSV is validate for a command whose output is always CSV: its
// --format is checked by checkTable.
func (f *pathFlags) validateCSV() error {
	format := f.format
	f.format = "text"
	err := f.validate()
	f.format = format
	return err
}

// checkTable checks what a table along a grid needs: a grid of at least
// two λ, one response, a penalty with a grid, a --plot format and CSV.
func (f *pathFlags) checkTable(cmd string) error {
	kind := f.penaltyKind() // known: checked by validatePenalty
	switch {
	case f.nlambda < 2 || f.minRatio < 0 || f.minRatio >= 1:
		return usagef("--nlambda must be at least 2 and --min-ratio in [0, 1)")
	case f.responses != "":
		return usagef("%s is single-response for now: use --target (cardreg fit takes --responses)", cmd)
	case !kind.Grid:
		return usagef("%s needs a lambda grid, which --penalty %s (no closed-form dual norm) cannot give", cmd, f.penalty)
	}
	if f.plot != "" {
		if _, err := plotFormat(f.plot); err != nil {
			return err
		}
	}
	if f.format != "csv" && f.format != "text" {
		return usagef("--format must be csv for %s", cmd)
	}
	return nil
}

// pathOrCV runs path or cv (cmd) on the data file and returns its table
// and a warning.
func pathOrCV(cmd, file string, f *pathFlags) (string, string, error) {
	progress, stage, erase := stagedProgress(f.stderr, f.progress, "fitting the "+cmd)
	defer erase()
	if !isTerminal(f.stderr) {
		// On a terminal the read draws its own bar (after a second).
		stage("reading and checking " + file)
	}
	pr, err := loadProblem(file, f.fitFlags, cmd)
	if err != nil {
		return "", "", err
	}
	stage(preparing)
	po := &estimator.PathOptions{Options: pr.opts, NLambda: f.nlambda, MinRatio: f.minRatio, Lambdas: f.lambda.list}
	if cmd == "path" {
		po.Progress = progress
		return pr.pathCSV(file, po, f)
	}
	return pr.cvCSV(file, po, f, progress)
}

// crossValidate runs cv.glmnet's cross-validation of the command cmd (fit
// or cv) with the folds of --foldid, or of --folds and --seed, drawing it
// with progress.
func (pr *problem) crossValidate(path, cmd string, f *fitFlags, po *estimator.PathOptions, progress func(done, total int)) (*estimator.CV, error) {
	if f.foldid == "" { // else the folds are the column's, on every route
		if err := checkFolds(path, cmd, pr.n, f.folds); err != nil {
			return nil, err
		}
	}
	co := &estimator.CVOptions{PathOptions: *po, Folds: f.folds, Seed: f.seed, FoldID: pr.foldID, Measure: f.fam.typeMeasure}
	co.Progress = progress
	cv, err := estimator.CrossValidate(pr.data, pr.pen, co)
	if err != nil {
		return nil, pr.explain(path, foldHint(err, f), f, po.Lambdas == nil)
	}
	return cv, nil
}

// explain names the file in the error of a fit, and when the grid was
// generated, the input that made it fail: the one whose λ_max overflows
// (gridOverflow, from rows in memory), or --nu (nuOverflow, which fits the
// grid's top alone).
func (pr *problem) explain(path string, err error, f *fitFlags, generated bool) error {
	err = pr.named(err)
	if generated {
		if e := pr.gridError(err, f); e != nil {
			return data.InFile(path, e)
		}
	}
	return pr.inFile(path, err)
}

// gridError is the input that made the generated grid fail, or nil.
func (pr *problem) gridError(err error, f *fitFlags) error {
	if r, ok := pr.data.(*estimator.Rows); ok {
		if len(pr.responses) != 1 {
			return nil
		}
		lmax := func(pen penalty.Penalty) float64 {
			v, _, err := estimator.LambdaMax(r, pen, &pr.opts)
			if err != nil {
				return 0
			}
			return v
		}
		return gridOverflow(lmax, pr.pen, len(pr.names)-len(pr.excluded), f)
	}
	top := func(pen penalty.Penalty) bool {
		_, err := estimator.FitPath(pr.data, pen, &estimator.PathOptions{Options: pr.opts, NLambda: 1})
		return err == nil
	}
	return nuOverflow(top, pr.pen, len(pr.names), f, err)
}

var pathUsage = map[string]string{
	"path": `Usage: cardreg path [flags] DATA.csv

Fits the model along a decreasing lambda grid (warm starts) and prints CSV:
lambda, objective, distinct values, converged, then each coefficient by name
(with --relax a column relaxed after converged: the objective is the penalised
fit's, dev_ratio and the coefficients the refit's where relaxed is true).
The objective is ||y - X b - b0||^2 + lambda h(b) (no 1/(2n); glmnet's lambda is
lambda / (2n)). For the cardinality penalty the grid starts where the fit is
fully fused. Takes fit's flags (penalty, nu, target, groups, ...) plus
--nlambda, --min-ratio and --plot FILE.png|svg; --lambda L1,L2,... fits those
lambda values instead of the generated grid (in decreasing order, as glmnet).
With factor predictors, --plot also draws FILE-factors.png|svg: one panel per
factor, each level's effect along lambda, coloured by the level groups at the
path's middle lambda (the dotted line), the reference black and the levels
fused with it grey; --merges FILE.csv lists the merges.

Example:
  cardreg path --penalty cardinality --nlambda 30 examples/cardinality.csv
`,
	"cv": `Usage: cardreg cv [flags] DATA.csv

K-fold cross-validation along the lambda grid; prints CSV: lambda (paper
scale), lambda_glmnet (= lambda / (2n)), mean held-out mean squared error, its
standard error, the number of distinct coefficient values of the full-data fit,
and a mark for lambda_min and lambda_1se (the largest lambda within one
standard error of the minimum).
Takes fit's flags plus --nlambda, --min-ratio and --plot FILE.png|svg; --folds
and --seed, or --foldid, fix the folds; --lambda L1,L2,... cross-validates
those lambda values instead of the generated grid (in decreasing order).

Example:
  cardreg cv --penalty cardinality --folds 5 --seed 1 examples/cardinality.csv
`,
}

// pathCSV fits the path and prints it: one row per λ with the objective,
// the number of distinct values, convergence (and for a family fit the
// deviance ratio), then each coefficient.
func (pr *problem) pathCSV(file string, po *estimator.PathOptions, f *pathFlags) (string, string, error) {
	if f.merges != "" && pr.design == nil {
		return "", "", usagef("--merges lists the merges of factor levels, and the data hold no factor (a text column, --factor or --ordinal)")
	}
	path, err := estimator.FitPath(pr.data, pr.pen, po)
	if err == nil {
		err = path.OutOfRange // the grid cannot be printed
	}
	if err != nil {
		return "", "", pr.explain(file, err, f.fitFlags, po.Lambdas == nil)
	}
	if f.plot != "" {
		if err := plotPath(plotting.FromPath(path), pr.names, f.plot); err != nil {
			return "", "", err
		}
		if pr.design != nil {
			if err := plotFactors(plotting.FromFactors(path, pr.design, 0), f.plot); err != nil {
				return "", "", err
			}
		}
	}
	if err := pr.writeMerges(path, f.merges); err != nil {
		return "", "", err
	}
	pr.sayPasses(f, "path", file)
	return report.PathCSV(path, pr.names, pr.family), pathWarning(path, 0, pr.design == nil), nil
}

// sayPasses says on stderr how many passes over a streamed file a path or
// cv took (every pass begun, the check's included), or how many scans of
// a --db table.
func (pr *problem) sayPasses(f *pathFlags, cmd, file string) {
	switch {
	case pr.src != nil:
		fmt.Fprintf(f.stderr, "cardreg %s: streamed %s in %d passes\n", cmd, file, pr.src.Passes())
	case pr.scanner != nil:
		fmt.Fprintf(f.stderr, "cardreg %s: %d scans of %s\n", cmd, pr.scanner.Scans(), file)
	}
}

// pathWarning says why a path stopped early, how many of its fits (and
// of the cross-validation folds') did not converge and what may help
// (noFactors: whether --standardize may), or "" when all is well.
func pathWarning(p *estimator.Path, folds int, noFactors bool) string {
	var parts []string
	if p.Note != "" {
		parts = append(parts, "the path "+p.Note)
	}
	k, relax, note, stalled := 0, 0, "", false
	for _, m := range p.Models {
		switch {
		case m.RelaxNote != "":
			relax, note = relax+1, m.RelaxNote
		case !m.Converged:
			k++
			stalled = stalled || m.Status == solver.Stalled || m.Status == solver.Uncertifiable
		}
	}
	if k > 0 {
		parts = append(parts, fmt.Sprintf("%d of the %d path fits did not converge (column converged)", k, len(p.Models)))
	}
	if relax > 0 {
		parts = append(parts, fmt.Sprintf("--relax: at %d of the %d λ (column converged false) %s", relax, len(p.Models), note))
	}
	if folds > 0 {
		parts = append(parts, fmt.Sprintf("%d cross-validation fold fits did not converge (the curve includes them)", folds))
	}
	if k > 0 || folds > 0 {
		parts = append(parts, convergeAdvice(stalled, noFactors))
	}
	return strings.Join(parts, "; ")
}

// cvCSV cross-validates and prints the curve: λ on both scales, the mean
// held-out measure and its standard error, the number of distinct
// coefficient values of the full-data fit at that λ, and the marks of
// λ_min and λ_1se.
func (pr *problem) cvCSV(file string, po *estimator.PathOptions, f *pathFlags, progress func(done, total int)) (string, string, error) {
	cv, err := pr.crossValidate(file, "cv", f.fitFlags, po, progress)
	if err == nil && cv.OutOfRange != nil { // the curve cannot be printed
		err = pr.explain(file, cv.OutOfRange, f.fitFlags, po.Lambdas == nil)
	}
	if err != nil {
		return "", "", err
	}
	if f.plot != "" {
		if err := plotCV(plotting.FromCV(cv, pr.opts.Family.Name()), f.plot); err != nil {
			return "", "", err
		}
	}
	pr.sayPasses(f, "cv", file)
	return report.CVCSV(cv, pr.n), pathWarning(cv.Path, cv.Unconverged, pr.design == nil), nil
}
