package main

import (
	"errors"
	"io"
	"os"
	"time"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/internal/membudget"
)

// readTableWith reads a data file with data.Read, drawing a progress bar
// on stderr when it is a terminal and the load passes a second.
func readTableWith(path string, o data.Options) (*data.Table, error) {
	if o.Progress == nil {
		o.Progress = readProgress("reading " + path)
	}
	return data.Read(path, o)
}

// readProgress is the progress bar of a data file read into memory: on
// stderr when it is a terminal, after a second; nil otherwise.
func readProgress(label string) *data.Progress { return progressBar(os.Stderr, false, label) }

// progressBar is a progress bar labelled label on w: drawn at once when
// forced, after a second when stderr is a terminal; nil otherwise.
func progressBar(w io.Writer, force bool, label string) *data.Progress {
	switch {
	case force:
		return data.NewProgress(w, label, 0)
	case isTerminal(os.Stderr):
		return data.NewProgress(w, label, time.Second)
	}
	return nil
}

// readRows reads the data file's rows into memory as the flags say
// (data.ReadRows), check refusing sizes beyond the memory budget.
func readRows(path string, f *fitFlags, check func(n, p int) error) (*data.Rows, error) {
	spec := f.spec()
	spec.Progress = readProgress
	// Factors are read as indicator columns beside the numeric
	// predictors (data.RowsOptions.Design): the family engine fits the
	// columns as they are, O(n) per factor instead of a dense n×K block
	// (freMTPL2's nine variables: peak 1.09 GB dense, 0.40 GB as columns).
	// A design of factors alone stays dense (denseIfFactorsOnly): its rows
	// repeat (freMTPL2's five factors: 13,107 distinct of 678,013), and the
	// engine groups identical rows of a dense design only
	// (estimator.compressOf): the binned freMTPL2 path took 160 s of CPU
	// as columns, 69 s dense and grouped (main at 7e47eba).
	r, err := data.ReadRows(path, spec, data.RowsOptions{Check: check, Design: true})
	if err == nil {
		denseIfFactorsOnly(r)
	}
	var se *data.SpecError
	if errors.As(err, &se) {
		return nil, usagef("--responses names %q twice", se.Response)
	}
	return r, err
}

// constantColumns names the predictors that are constant, when the fit
// has an intercept (which they would duplicate); col writes predictor j's
// n values into buf and returns it.
func constantColumns(n int, names []string, noIntercept bool, col func(j int, buf []float64) []float64) []string {
	if noIntercept {
		return nil
	}
	var constant []string
	buf := make([]float64, n)
	for j, name := range names {
		if estimator.IsConstant(col(j, buf)) {
			constant = append(constant, name)
		}
	}
	return constant
}

// denseIfFactorsOnly holds r's design as a dense matrix when every
// predictor is a factor's dummy column (see readRows).
func denseIfFactorsOnly(r *data.Rows) {
	if r.Design == nil {
		return
	}
	dummies := 0
	for _, cols := range r.FactorCols {
		dummies += len(cols)
	}
	if _, p := r.Design.Dims(); dummies == p {
		r.X, r.Design = r.Design.Dense(), nil
	}
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// fitProgress returns a progress reporter for long path and CV runs on
// stderr, drawn when forced (--progress) or when stderr is a terminal and
// the run passes a second, and the function that erases it; both are
// no-ops otherwise.
func fitProgress(stderr io.Writer, force bool, label string) (func(done, total int), func()) {
	report, _, erase := stagedProgress(stderr, force, label)
	return report, erase
}

// stagedProgress is fitProgress with a third function that says, in place
// of the bar, what the run is doing before its first fit (its preparation
// can take seconds on a large design).
func stagedProgress(stderr io.Writer, force bool, label string) (func(done, total int), func(string), func()) {
	if !force && !isTerminal(stderr) {
		return nil, func(string) {}, func() {}
	}
	delay := time.Second
	if force {
		delay = 0
	}
	p := data.NewProgress(stderr, label, delay)
	return func(done, total int) { p.Report(int64(done), int64(total)) }, p.Stage, p.Done
}

// preparing is what a path or cross-validation says while it prepares.
const preparing = "preparing (checking and centring the data, the λ grid)"

// parseSep reads a --sep value (see data.ParseSep).
func parseSep(s string) (rune, error) {
	r, err := data.ParseSep(s)
	if err != nil {
		return 0, usagef("--sep %v", err)
	}
	return r, nil
}

// streamProgress is the progress bar of a pass over the data, labelled
// label, on f.stderr: when --progress asks (drawn at once), or when stderr
// is a terminal (after a second); nil otherwise.
func streamProgress(f *fitFlags, label string) *data.Progress {
	return progressBar(f.stderr, f.Progress, label)
}

// spec is how the flags read a data file for a fit. Its column choice
// (data.Spec.Choose) refuses names that are not columns, or a column with
// two roles, as usage errors.
func (f *fitFlags) spec() data.Spec {
	s := data.Spec{Sep: []rune(f.sep)[0], DropMissing: f.dropMissing,
		Predictors: splitList(f.predictors), Drop: splitList(f.drop),
		Weights: f.weights, Offset: f.fam.offset, FoldID: f.foldid,
		Flags: data.Flags{Target: "--target", Responses: "--target", Predictors: "--predictors", Drop: "--drop",
			Weights: "--weights", Offset: "--offset", FoldID: "--foldid"},
		Progress: func(label string) *data.Progress { return streamProgress(f, label) }}
	switch {
	case f.responses != "":
		s.Responses, s.Flags.Responses = splitList(f.responses), "--responses"
	case f.target != "":
		s.Responses = []string{f.target}
	}
	s.Factors, _ = f.factors.spec() // checked by validateFactors
	if b := membudget.Of(int64(f.Memory)); b.Bytes > 0 {
		// A record that cannot be read within the budget is refused as it
		// is read, not once it is held.
		s.Limits = data.Limits{Record: b.Bytes / data.RecordFactor, Budget: b.String()}
	}
	s.Select = func(header []string) ([]bool, error) {
		keep, err := s.Choose(header)
		if err != nil {
			return nil, usageError{err}
		}
		return keep, nil
	}
	return s
}
