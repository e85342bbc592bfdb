package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/internal/outfile"
	"github.com/cardsparse/cardreg/plotting"
	"github.com/cardsparse/cardreg/report"
	"github.com/cardsparse/cardreg/request"
	"github.com/cardsparse/cardreg/solver"
)

// pathFlags are fit's flags plus the grid.
type pathFlags struct {
	*fitFlags
	plot   string
	merges string
}

// runPathCV runs the path or cv command; both print CSV.
func runPathCV(cmd string, args []string, stdout, stderr io.Writer) int {
	fs, f := newPathFlags(cmd, stderr)
	pos, err := parseInterleaved(fs, args)
	if helped(fs, err, stdout) {
		return 0
	}
	f.Given = givenFlags(fs)
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
	ff.cmd = cmd
	fs.IntVar(&f.NLambda, "nlambda", 100, "number of lambda values")
	fs.Float64Var(&f.MinRatio, "min-ratio", 0, "smallest/largest lambda (default 1e-4 when n ≥ p, else 1e-2, as glmnet)")
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
		f.validateCSV,
		func() error { return f.CheckEffect(cmd) },
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

// checkTable checks what a table along a grid needs: one response, a
// --plot format and CSV (the grid is the request's).
func (f *pathFlags) checkTable(cmd string) error {
	if f.responses != "" {
		return usagef("%s is single-response for now: use --target (cardreg fit takes --responses)", cmd)
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
	progress, stage, erase := stagedProgress(f.stderr, f.Progress, "fitting the "+cmd)
	defer erase()
	if !isTerminal(f.stderr) {
		// On a terminal the read draws its own bar (after a second).
		stage("reading and checking " + file)
	}
	pr, err := loadProblem(file, f.fitFlags, cmd)
	if err != nil {
		return "", "", err
	}
	pr.noteNumeric(f.fitFlags)
	stage(preparing)
	rp := pr.request(file, f.fitFlags, progress)
	if cmd == "path" {
		return pr.pathCSV(file, rp, f)
	}
	return pr.cvCSV(file, rp, f)
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
func (pr *problem) pathCSV(file string, rp *request.Problem, f *pathFlags) (string, string, error) {
	if f.merges != "" && pr.design == nil {
		return "", "", usagef("--merges lists the merges of factor levels, and the data hold no factor (a text column, --factor or --ordinal)")
	}
	path, err := f.Path(rp)
	if err != nil {
		return "", "", err
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
func (pr *problem) cvCSV(file string, rp *request.Problem, f *pathFlags) (string, string, error) {
	cv, err := f.CrossValidate(rp, "cv")
	if err == nil && cv.OutOfRange != nil { // the curve cannot be printed
		err = pr.inFile(file, cv.OutOfRange)
	}
	if err != nil {
		return "", "", err
	}
	if f.plot != "" {
		if err := plotCV(plotting.FromCV(cv, pr.fit.Opts.Family.Name()), f.plot); err != nil {
			return "", "", err
		}
	}
	pr.sayPasses(f, "cv", file)
	return report.CVCSV(cv, pr.n), pathWarning(cv.Path, cv.Unconverged, pr.design == nil), nil
}
