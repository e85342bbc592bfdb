package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/cardsparse/cardreg/bounds"
	"github.com/cardsparse/cardreg/internal/jsonx"
	"github.com/cardsparse/cardreg/report"
)

// boundFlags are the flags of cardreg bound.
type boundFlags struct {
	maxRows, parts int
	cols, format   string
	seed           uint64
	progress       bool
	counts         []int // --cols, read by validate
}

func newBoundFlags() (*flag.FlagSet, *boundFlags) {
	fs := flag.NewFlagSet("bound", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := &boundFlags{}
	fs.IntVar(&f.maxRows, "max-rows", 12, "largest number of rows n (the LP method solves 2^(n-1) programs; 12 takes about a minute)")
	fs.StringVar(&f.cols, "cols", "4", "comma-separated column counts of the layer (P = rows × cols)")
	fs.IntVar(&f.parts, "partitions", 4, "random grouped partitions to check")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the random partitions")
	fs.StringVar(&f.format, "format", "text", "text or json")
	fs.BoolVar(&f.progress, "progress", false, "draw the progress bar on stderr even when it is not a terminal")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: cardreg bound [--max-rows 12] [--cols 4] [--partitions 4] [--seed 1] [--format text|json] [--progress]

Checks the source paper's bound M_A <= 2/sqrt(P) numerically: for every n = 2..max-rows and
each column count c, M_G of the weighted all-pairs matrix sqrt(P)*A_n (P = n*c) is computed by
linear programs over sign vectors, not by the closed form 2/(n sqrt P), and compared with
2/sqrt(P); random grouped partitions are checked against max_k 2/sqrt(P_k). Exits 1 if any
computed value exceeds its bound. A progress bar is drawn on stderr when it is a terminal
(always with --progress).

Example:
  cardreg bound --max-rows 8 --cols 1,4
`)
	}
	return fs, f
}

func runBound(args []string, stdout, stderr io.Writer) int {
	fs, f := newBoundFlags()
	err := parseNoArgs(fs, args)
	if helped(fs, err, stdout) {
		return 0
	}
	if err == nil {
		err = f.validate()
	}
	if err != nil {
		return usageFailure(stderr, "bound", err, "")
	}
	tick, erase := fitProgress(stderr, f.progress, "solving the linear programs")
	rows, err := bounds.LemmaChecks(f.maxRows, f.counts, f.parts, f.seed, tick)
	erase()
	if err != nil {
		fmt.Fprintf(stderr, "cardreg bound: %v\n", err)
		return 1
	}
	if f.format == "json" {
		jsonx.Write(stdout, rows)
	} else {
		report.WriteLemmaChecks(stdout, rows)
	}
	for _, r := range rows {
		if !r.Holds {
			fmt.Fprintf(stderr, "cardreg bound: %s n=%d cols=%d: M_G = %.6g exceeds its bound %.6g\n", r.Kind, r.Rows, r.Cols, r.MG, r.Bound)
			return 1
		}
	}
	return 0
}

// validate checks the flags.
func (f *boundFlags) validate() error {
	var err error
	if f.counts, err = parseCounts(f.cols); err != nil {
		return err
	}
	switch {
	case f.maxRows < 2 || f.maxRows > bounds.MaxExactColumns:
		return fmt.Errorf("--max-rows must be between 2 and %d (the LP method is exponential)", bounds.MaxExactColumns)
	case f.parts < 0:
		return errors.New("--partitions must be non-negative")
	case f.format != "text" && f.format != "json":
		return fmt.Errorf("unknown --format %q (text or json)", f.format)
	}
	return nil
}

// parseCounts reads --cols.
func parseCounts(s string) ([]int, error) {
	out, bad, ok := positiveInts(s)
	if !ok {
		return nil, fmt.Errorf("--cols: %q is not a positive integer", bad)
	}
	return out, nil
}
