package main

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/datafit"
	dsg "github.com/cardsparse/cardreg/design"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/glmscan"
	"github.com/cardsparse/cardreg/internal/membudget"
	"github.com/cardsparse/cardreg/request"
	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/suffstat"
	"gonum.org/v1/gonum/mat"
)

// problem is what fit, path and cv fit: one estimator.Data (the rows in
// memory, their sufficient statistics per fold, or a file read once per
// pass) with the penalty and the options of every fit (fit, built: the
// request's), the names and the notes the outputs print. loadProblem
// builds it from the flags.
type problem struct {
	data  estimator.Data
	fit   *request.Problem
	built *request.Built
	// n is the number of observations.
	n int
	// names are the predictors', responses the responses' (target the
	// first), constant the constant predictors.
	names, responses, constant []string
	target                     string
	dropped                    int
	// foldID holds --foldid's folds (0-based) of rows in memory, or nil.
	foldID []int
	// x and y are the rows in memory (nil otherwise): --lambda theory's.
	x, y *mat.Dense
	// src is the file read once per pass, or nil.
	src *data.FileSource
	// scanner scans a --db table for a binomial or Poisson fit, or nil.
	scanner glmscan.Scanner
	// design says which predictors are factors' dummy columns (nil
	// without factors).
	design *factor.Design
	// cols holds the rows' predictors by columns when they hold factors
	// (data.RowsOptions.Design; x is then nil).
	cols *dsg.Matrix
	// family says the output is a family fit's (deviances, the measure
	// named, the deviance ratio of a path): fitFlags.familyFit.
	family bool
}

// form is how a problem holds its data.
type form int

const (
	inRows   form = iota // the rows in memory (estimator.Rows)
	inStats              // sufficient statistics from one pass (estimator.Stats)
	inPasses             // a file read once per pass (estimator.Stream)
	inDB                 // statistics computed by SQL (estimator.Stats)
	inSparse             // a sparse file's columns in memory (estimator.Rows)
)

// form decides, once, how the data of the command cmd are read: by SQL
// with --db; a gaussian fit with weights, or one streamed (shouldStream),
// into sufficient statistics; a family fit streamed when asked (--stream)
// or, when the flags table refuses none of its flags on the stream route
// (request.Request.Rules), above the memory budget.
func (f *fitFlags) form(path, cmd string) form {
	switch {
	case f.db != "":
		return inDB
	case f.Input.Sparse():
		return inSparse
	case !f.FamilyFit():
		if f.weights != "" || shouldStream(path, f) {
			return inStats
		}
	case f.stream:
		return inPasses
	case f.Family != "gaussian" && f.Refusal(f.Rules(cmd), request.OnStream) < 0 && shouldStream(path, f):
		return inPasses
	}
	return inRows
}

// loadProblem reads the data as form decides and builds the penalty and
// the options the flags ask for: the one problem of fit, path and cv.
func loadProblem(path string, f *fitFlags, cmd string) (*problem, error) {
	var pr *problem
	var err error
	switch f.form(path, cmd) {
	case inDB:
		pr, err = loadDB(path, f)
	case inStats:
		pr, err = loadStats(path, f)
		switch {
		case !errors.Is(err, data.ErrFactorsInMemory):
		case !f.stream && !f.tooBig:
			// Weighted gaussian statistics, chosen for their O(p²) memory,
			// not because the file is large: factors are read in memory.
			pr, err = loadRows(path, f)
		default:
			// One pass cannot gather factors' statistics before their
			// levels are known: a stream learns them first.
			pr, err = loadStream(path, f, cmd)
		}
	case inPasses:
		pr, err = loadStream(path, f, cmd)
	case inSparse:
		pr, err = loadSparse(path, f)
	default:
		pr, err = loadRows(path, f)
	}
	if err != nil {
		return nil, err
	}
	pr.family = f.FamilyFit()
	return pr, pr.build(f)
}

// loadRows reads the rows into memory and checks them: the gaussian
// fit's responses are not constant, the families' responses, weights and
// offsets are valid (checkFamily).
func loadRows(path string, f *fitFlags) (*problem, error) {
	check := func(n, p int) error { return f.CheckMemory(n, p, true, "drop columns (--predictors, --drop)") }
	r, err := readRows(path, f, check)
	if err != nil {
		return nil, err
	}
	for _, note := range r.Notes {
		fmt.Fprintf(f.stderr, "cardreg %s: note: %s\n", f.cmd, note)
	}
	n, _ := r.Y.Dims()
	design, err := designOf(r)
	if err != nil {
		return nil, err
	}
	rows := &estimator.Rows{Y: r.Y, Weights: r.Weights, Offset: r.Offset}
	pr := &problem{design: design, data: rows,
		n: n, names: r.Names, responses: r.Responses, target: r.Responses[0], dropped: r.Dropped, foldID: r.FoldID, x: r.X, y: r.Y}
	if r.Design != nil { // factors, held as indicator columns
		rows.X, pr.cols = r.Design, r.Design
		pr.constant = constantColumns(n, r.Names, f.NoIntercept, func(j int, buf []float64) []float64 { return r.Design.Col(j).Values(buf) })
	} else {
		rows.X = solver.DenseDesign{X: r.X}
		pr.constant = constantColumns(n, r.Names, f.NoIntercept, func(j int, buf []float64) []float64 { return mat.Col(buf, j, r.X) })
	}
	if err := checkRows(path, n); err != nil {
		return nil, err
	}
	if f.FamilyFit() {
		return pr, pr.checkFamily(path, f, r.Places)
	}
	for k, name := range r.Responses {
		if estimator.IsConstant(mat.Col(nil, k, r.Y)) {
			return nil, fmt.Errorf("%s: the response %q is constant: there is nothing to fit", path, name)
		}
	}
	return pr, nil
}

// loadStats reads the file once, row by row, into per-fold statistics of
// (predictors, responses) on the folds of cross-validation
// (data.ReadStats): the rows are never held.
func loadStats(path string, f *fitFlags) (*problem, error) {
	if f.Lambda.Kind == request.Theory {
		// --stream and --weights are refused by the flags table; here the
		// file's size chose the statistics.
		return nil, usagef("--lambda theory needs the unweighted rows in memory: raise --memory (the file is streamed for its size)")
	}
	k := 1
	if f.Lambda.OnGrid() {
		k = f.Folds
	}
	check := func(d, k int) error { return checkStreamed(d, k, f) }
	st, err := data.ReadStats(path, f.spec(), data.StatsOptions{Folds: k, Seed: f.Seed, Check: check})
	if err != nil {
		return nil, err
	}
	pr := &problem{names: st.Names, responses: st.Responses, target: st.Responses[0], dropped: st.Dropped}
	return pr, pr.finishStreamed(path, f, st.Folds)
}

// loadStream opens the file for a fit by passes (estimator.Stream), after
// a first pass that learns the predictors and counts the rows.
func loadStream(path string, f *fitFlags, cmd string) (*problem, error) {
	if err := rereadable(path, f.Family); err != nil {
		return nil, err
	}
	src := data.NewFileSource(path, f.spec())
	src.Check = func(p int) error { return checkNewton(p, f) }
	if k := roundsFolds(f, cmd); k > 0 {
		// A path or cv of these families streams in rounds (estimator),
		// which holds more than a Newton step.
		src.Check = func(p int) error {
			if err := checkNewton(p, f); err != nil {
				return err
			}
			return checkRounds(p, k, f)
		}
	}
	if f.Family == "gaussian" {
		// estimator fits a gaussian stream (here: one with an offset)
		// from its statistics, one set per fold, gathered in one pass.
		k := 1
		if cmd == "cv" || f.Lambda.OnGrid() {
			k = f.Folds
		}
		src.Check = func(p int) error { return checkStreamed(p+1, k, f) }
	}
	n, err := src.Scan()
	if err != nil {
		return nil, err
	}
	if err := checkRows(path, n); err != nil {
		return nil, err
	}
	names := src.Names()
	pr := &problem{data: &estimator.Stream{Source: src, P: len(names)}, src: src, n: n,
		names: names, responses: []string{src.Target()}, target: src.Target()}
	if factors, cols := src.Factors(); len(factors) > 0 {
		if pr.design, err = factor.NewDesign(names, factors, cols); err != nil {
			return nil, err
		}
	}
	if f.foldid != "" {
		pr.foldID, err = data.StreamFoldIDs(path, f.spec())
	}
	return pr, err
}

// roundsFolds returns the folds of a streamed path (1) or cv (--folds)
// of command cmd whose family may run in rounds
// (estimator.StreamInRounds), else 0.
func roundsFolds(f *fitFlags, cmd string) int {
	fam, err := datafit.ByName(f.Family)
	switch {
	case err != nil || !estimator.StreamInRounds(fam):
		return 0
	case cmd == "cv":
		return f.Folds
	case cmd == "path":
		return 1
	}
	return 0
}

// rereadable refuses to stream a family fit from standard input or
// another file that cannot be read twice (a pipe): such a fit reads its
// data once per Newton step.
func rereadable(path, family string) error {
	what := data.OnlyOnce(path)
	if what == "" {
		return nil
	}
	return usagef("a streamed %s fit reads its data once per Newton step, but %s can be read only once: write the data to a file and give its name, or leave out --stream to fit in memory", family, what)
}

// named names the columns of an estimator.ScaleError.
func (pr *problem) named(err error) error {
	var se *estimator.ScaleError
	if errors.As(err, &se) {
		return fmt.Errorf("predictors %s (%s %.3g) and %s (%.3g) differ in scale by more than float64 can fit at once: %s",
			data.ShortText(pr.names[se.Small]), se.Size(), se.SmallMax, data.ShortText(pr.names[se.Big]), se.BigMax, rescaleAdvice(pr.design == nil))
	}
	return err
}

// inFile names the file (and the row, for a stream) in the error of a fit.
func (pr *problem) inFile(path string, err error) error {
	if pr.src != nil {
		return pr.src.Explain(err)
	}
	return data.InFile(path, pr.named(err))
}

// checkRows refuses fewer than 2 data rows (a fit needs a spread), in
// memory and streamed alike.
func checkRows(path string, n int) error {
	switch n {
	case 0:
		return fmt.Errorf("%s: no data rows; at least 2 are needed", path)
	case 1:
		return fmt.Errorf("%s: 1 data row; at least 2 are needed", path)
	}
	return nil
}

// shouldStream says whether to stream path: when asked (--stream), or when
// the file as float64 (about its size in bytes for CSV numbers) times the
// peak factor passes the budget (--memory, else half the machine's
// memory); that automatic switch is said in one line on stderr.
func shouldStream(path string, f *fitFlags) bool {
	if f.stream {
		return true
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	b := membudget.Of(int64(f.Memory))
	if b.Bytes <= 0 || fi.Size()*membudget.InMemoryFactor <= b.Bytes {
		return false
	}
	f.tooBig = true
	fmt.Fprintf(f.stderr, "cardreg: %s: streaming (%s as float64 × %d > %s)\n",
		path, membudget.FormatBytes(float64(fi.Size())), membudget.InMemoryFactor, b)
	return true
}

// streamAdvice is what to do when streamed statistics on k folds do not
// fit: fewer columns, fewer folds when there are more than
// estimator.MinFolds (from --folds, or the --foldid column's), or the
// rows in memory when --stream asked for streaming (not the file's size).
func streamAdvice(f *fitFlags, k int) string {
	ways := []string{"drop columns (--predictors, --drop)"}
	if f.stream {
		ways = append(ways, "fit in memory without --stream when the rows are few")
	}
	switch {
	case k <= estimator.MinFolds:
	case f.foldid != "":
		ways = append(ways, fmt.Sprintf("number fewer folds in the --foldid column (%d at least)", estimator.MinFolds))
	default:
		ways = append(ways, fmt.Sprintf("use fewer --folds (%d at least)", estimator.MinFolds))
	}
	last := len(ways) - 1
	if last == 0 {
		return ways[0]
	}
	return strings.Join(ways[:last], ", ") + " or " + ways[last]
}

// checkStreamed refuses streamed statistics of d variables on k folds
// that would not fit in the budget, before they are allocated.
func checkStreamed(d, k int, f *fitFlags) error {
	return checkStats("the streamed statistics", d, k, f)
}

// checkStats refuses statistics (named by kind) of d variables on k folds
// that would not fit in the budget, before they are allocated.
func checkStats(kind string, d, k int, f *fitFlags) error {
	what := fmt.Sprintf("%s of %d variables on %d folds", kind, d, k)
	if k == 1 {
		what = fmt.Sprintf("%s of %d variables", kind, d)
	}
	return membudget.CheckSquares(what, membudget.StreamMatrices(k), d, membudget.Of(int64(f.Memory)), streamAdvice(f, k))
}

// checkNewton refuses a streamed generalised linear fit of p predictors
// whose Newton statistics would not fit in the budget.
func checkNewton(p int, f *fitFlags) error {
	what := fmt.Sprintf("the streamed Newton statistics of %d predictors", p)
	return membudget.CheckSquares(what, membudget.NewtonMatrices, p+1, membudget.Of(int64(f.Memory)), streamAdvice(f, 1))
}

// checkRounds refuses a binomial or Poisson fit in rounds of p predictors
// on k folds whose matrices and sample would not fit in the budget.
func checkRounds(p, k int, f *fitFlags) error {
	return membudget.CheckRounds(p, k, estimator.RoundsSampleSize, membudget.Of(int64(f.Memory)), streamAdvice(f, k))
}

// finishStreamed checks the statistics st as loadRows checks the rows
// (with weights, rescaled to sum to n) and makes them the problem's data.
func (pr *problem) finishStreamed(path string, f *fitFlags, st *suffstat.Folds) error {
	if len(pr.names) == 0 {
		return data.NoPredictors(path, "")
	}
	all := st.All()
	if err := checkRows(path, int(all.N)); err != nil {
		return err
	}
	if f.weights != "" {
		// The weights are rescaled to sum to n, as on every route, so
		// that λ_glmnet = λ/(2n) holds for weighted fits too.
		if err := estimator.SumToN(st); err != nil {
			return fmt.Errorf("%s: column %s: every weight is 0 (--weights)", path, data.ShortText(f.weights))
		}
		all = st.All()
	}
	if err := all.Check(); err != nil {
		return pr.rangeError(path, err)
	}
	p := len(pr.names)
	for j, name := range pr.names {
		if estimator.ConstantVariable(all, j) && !f.NoIntercept {
			pr.constant = append(pr.constant, name)
		}
	}
	for j, name := range pr.responses {
		if estimator.ConstantVariable(all, p+j) {
			return fmt.Errorf("%s: the response %q is constant: there is nothing to fit", path, name)
		}
	}
	pr.data, pr.n = &estimator.Stats{Folds: st, Q: len(pr.responses)}, int(all.N)
	return nil
}

// rangeError names the column whose statistics left float64's range.
func (pr *problem) rangeError(path string, err error) error {
	var re *suffstat.RangeError
	if !errors.As(err, &re) {
		return fmt.Errorf("%s: %v", path, err)
	}
	name := slices.Concat(pr.names, pr.responses)[re.Var]
	return fmt.Errorf("%s: column %s: its weighted %s is %v, beyond float64: streamed statistics need values below about 1e154 (their squares are summed); divide the column by a power of ten (unweighted fits in memory rescale by themselves)", path, data.ShortText(name), re.What, re.Value)
}
