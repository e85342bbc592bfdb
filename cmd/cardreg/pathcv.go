package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/glm"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/plotting"
	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/tensorreg"
	"gonum.org/v1/gonum/mat"
)

// pathFlags are fit's flags plus the grid.
type pathFlags struct {
	*fitFlags
	nlambda  int
	minRatio float64
	plot     string
}

// runPathCV runs the path or cv command; both print CSV.
func runPathCV(cmd string, args []string, stdout, stderr io.Writer) int {
	fs, ff := newFitFlags(stderr)
	f := &pathFlags{fitFlags: ff}
	fs.IntVar(&f.nlambda, "nlambda", 100, "number of lambda values")
	fs.Float64Var(&f.minRatio, "min-ratio", 0, "smallest/largest lambda (default 1e-4 when n ≥ p, else 1e-2, as glmnet)")
	fs.StringVar(&f.plot, "plot", "", "also draw it to FILE.png or FILE.svg")
	fs.Lookup("lambda").Usage = "the lambda values to fit (paper scale), comma separated, each > 0, fitted in decreasing order as glmnet does (default: a generated grid of --nlambda values)"
	fs.Lookup("lambda").DefValue = ""
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), pathUsage[cmd]+"\nFlags:\n")
		fs.PrintDefaults()
	}
	// As fit: one line after a bad flag, the usage only when asked for.
	fs.SetOutput(io.Discard)
	pos, err := parseInterleaved(fs, args)
	if helped(fs, err, stdout) {
		return 0
	}
	f.given = givenFlags(fs)
	if err == nil {
		pos, err = f.dataArgs(pos)
	}
	if err == nil {
		err = f.lambda.parseGrid(cmd, f.given["lambda"])
	}
	if err == nil {
		// The output is always CSV; validate the rest.
		format := f.format
		f.format = "text"
		err = f.validate()
		f.format = format
	}
	if err == nil {
		err = f.checkEffect(cmd)
	}
	if err == nil {
		err = f.checkGridFlags()
	}
	if err == nil && (f.nlambda < 2 || f.minRatio < 0 || f.minRatio >= 1) {
		err = usagef("--nlambda must be at least 2 and --min-ratio in [0, 1)")
	}
	if err == nil && f.responses != "" {
		err = usagef("%s is single-response for now: use --target (cardreg fit takes --responses)", cmd)
	}
	if kind, _ := penalty.Lookup(f.penalty); err == nil && !kind.Grid {
		err = usagef("%s needs a lambda grid, which --penalty %s (no closed-form dual norm) cannot give", cmd, f.penalty)
	}
	if err == nil && f.plot != "" {
		_, err = plotFormat(f.plot)
	}
	if err == nil && f.format != "csv" && f.format != "text" {
		err = usagef("--format must be csv for %s", cmd)
	}
	if err == nil {
		err = checkPaths(f.inputs(pos[0]), "--out", f.out, "--plot", f.plot)
	}
	if err != nil {
		return usageFailure(stderr, cmd, err, "")
	}
	if f.usesGLM() {
		out, warning, err := glmPathCV(cmd, pos[0], f)
		if warning != "" {
			fmt.Fprintf(stderr, "cardreg %s: warning: %s\n", cmd, warning)
		}
		if err == nil {
			err = writeOutput("--out", f.out, stdout, func(w io.Writer) error { _, err := io.WriteString(w, out); return err })
		}
		return exitStatus(stderr, cmd, err)
	}
	pr, err := loadProblem(pos[0], f.fitFlags)
	if err == nil && cmd == "cv" {
		err = checkFolds(pos[0], pr.rows(), f.folds)
	}
	var out, warning string
	if err == nil {
		report, erase := fitProgress(stderr, f.progress, "fitting the "+cmd)
		defer erase()
		po := tensorreg.PathOptions{Options: pr.opts, NLambda: f.nlambda, MinRatio: f.minRatio, Lambdas: f.lambda.list, Progress: report}
		if cmd == "path" {
			out, warning, err = pathCSV(pr, &po, f.plot)
		} else {
			out, warning, err = cvCSV(pr, &tensorreg.CVOptions{PathOptions: po, Folds: f.folds, Seed: f.seed}, f.plot)
		}
		if err != nil {
			err = pr.explain(pos[0], err, f.fitFlags, f.lambda.list == nil)
		}
	}
	if warning != "" {
		fmt.Fprintf(stderr, "cardreg %s: warning: %s\n", cmd, warning)
	}
	if err == nil {
		err = writeOutput("--out", f.out, stdout, func(w io.Writer) error { _, err := io.WriteString(w, out); return err })
	}
	return exitStatus(stderr, cmd, err)
}

// explain is glmProblem.explain for a least-squares problem: when the
// grid was generated, it names the input that made λ_max overflow, if it
// did (gridOverflow on the rows; on streamed statistics nuOverflow, which
// can name --nu only).
func (pr *problem) explain(path string, err error, f *fitFlags, generated bool) error {
	if generated && pr.x != nil && len(pr.responses) == 1 {
		y := mat.Col(nil, 0, pr.y)
		opts := glm.Options{NoIntercept: f.noIntercept, Standardize: f.standardize}
		lmax := func(pen penalty.Penalty) float64 {
			v, _, err := glm.LambdaMax(pr.x, y, pen, &opts)
			if err != nil {
				return 0
			}
			return v
		}
		if e := gridOverflow(lmax, pr.pen, len(pr.names), f); e != nil {
			return data.InFile(path, e)
		}
	}
	if generated && pr.stats != nil {
		top := func(pen penalty.Penalty) bool {
			_, err := tensorreg.FitPathStats(pr.stats.All(), len(pr.responses), pen, &tensorreg.PathOptions{Options: pr.opts, NLambda: 1})
			return err == nil
		}
		if e := nuOverflow(top, pr.pen, len(pr.names), f, err); e != nil {
			return data.InFile(path, e)
		}
	}
	return data.InFile(path, err)
}

var pathUsage = map[string]string{
	"path": `Usage: cardreg path [flags] DATA.csv

Fits the model along a decreasing lambda grid (warm starts) and prints CSV:
lambda, objective, distinct values, converged, then each coefficient by name.
The objective is ||y - X b - b0||^2 + lambda h(b) (no 1/(2n); glmnet's lambda is
lambda / (2n)). For the cardinality penalty the grid starts where the fit is
fully fused. Takes fit's flags (penalty, nu, target, groups, ...) plus
--nlambda, --min-ratio and --plot FILE.png|svg; --lambda L1,L2,... fits those
lambda values instead of the generated grid (in decreasing order, as glmnet).

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

func pathCSV(pr *problem, po *tensorreg.PathOptions, plotFile string) (string, string, error) {
	path, err := pr.path(po)
	if err == nil {
		err = path.OutOfRange // the grid cannot be printed
	}
	if err != nil {
		return "", "", err
	}
	if plotFile != "" {
		if err := plotPath(plotting.TensorPath(path), pr.names, plotFile); err != nil {
			return "", "", err
		}
	}
	var b strings.Builder
	b.WriteString("lambda,objective,distinct_values,converged," + strings.Join(csvNames(pr.names), ",") + "\n")
	for _, m := range path.Models {
		row := []string{num(m.Lambda), num(m.Objective), strconv.Itoa(len(m.DistinctValues(0))), strconv.FormatBool(m.Converged)}
		for i := range pr.names {
			row = append(row, num(m.Coef.At(i, 0)))
		}
		b.WriteString(strings.Join(row, ",") + "\n")
	}
	return b.String(), unconverged(path, 0), nil
}

// unconverged says how many fits of the path (and of the CV folds) hit
// the iteration cap, or "" when none did.
func unconverged(path *tensorreg.Path, folds int) string {
	k, stalled := 0, false
	for _, m := range path.Models {
		if !m.Converged {
			k++
			stalled = stalled || m.Status == solver.Stalled
		}
	}
	var parts []string
	if k > 0 {
		parts = append(parts, fmt.Sprintf("%d of the %d path fits did not converge (column converged)", k, len(path.Models)))
	}
	if folds > 0 {
		parts = append(parts, fmt.Sprintf("%d cross-validation fold fits did not converge (the curve includes them)", folds))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + "; " + convergeAdvice(stalled)
}

// cvCSV prints the curve: λ on both scales, the mean held-out error and
// its standard error, the number of distinct coefficient values of the
// full-data fit at that λ, and the marks of λ_min and λ_1se.
func cvCSV(pr *problem, co *tensorreg.CVOptions, plotFile string) (string, string, error) {
	cv, err := pr.crossValidate(co)
	if err == nil {
		err = cv.OutOfRange // the curve cannot be printed
	}
	if err != nil {
		return "", "", err
	}
	if plotFile != "" {
		if err := plotCV(plotting.TensorCV(cv), plotFile); err != nil {
			return "", "", err
		}
	}
	n := pr.rows()
	var b strings.Builder
	b.WriteString("lambda,lambda_glmnet,mean_error,std_error,distinct_values,mark\n")
	for k, lam := range cv.Lambdas {
		distinct := len(cv.Path.Models[k].DistinctValues(0))
		b.WriteString(strings.Join([]string{num(lam), num(datafit.GlmnetLambda(lam, n)), num(cv.MeanError[k]), num(cv.StdError[k]),
			strconv.Itoa(distinct), mark(k, cv.IndexMin, cv.IndexSE)}, ",") + "\n")
	}
	return b.String(), unconverged(cv.Path, cv.Unconverged), nil
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }

// csvNames quotes names that need it in a CSV header.
func csvNames(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		if strings.ContainsAny(n, ",\"\n") {
			n = `"` + strings.ReplaceAll(n, `"`, `""`) + `"`
		}
		out[i] = n
	}
	return out
}
