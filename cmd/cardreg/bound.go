package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/cardsparse/cardreg/bounds"
	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// boundRow is one check of M_G ≤ bound, M_G computed by the LP method.
type boundRow struct {
	Kind    string  `json:"kind"` // "all-pairs" or "grouped"
	Rows    int     `json:"rows"`
	Cols    int     `json:"cols"`
	P       int     `json:"P"`
	Groups  []int   `json:"group_sizes,omitempty"`
	MG      float64 `json:"M_G_lp"`
	Closed  float64 `json:"closed_form"`
	Bound   float64 `json:"bound"`
	Ratio   float64 `json:"ratio"`
	Holds   bool    `json:"holds"`
	Message string  `json:"-"`
}

func runBound(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bound", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	maxRows := fs.Int("max-rows", 12, "largest number of rows n (the LP method solves 2^(n-1) programs; 12 takes about a minute)")
	cols := fs.String("cols", "4", "comma-separated column counts of the layer (P = rows × cols)")
	parts := fs.Int("partitions", 4, "random grouped partitions to check")
	seed := fs.Uint64("seed", 1, "seed of the random partitions")
	format := fs.String("format", "text", "text or json")
	progress := fs.Bool("progress", false, "draw the progress bar on stderr even when it is not a terminal")
	fs.Usage = func() {
		fmt.Fprint(stdout, `Usage: cardreg bound [--max-rows 12] [--cols 4] [--partitions 4] [--seed 1] [--format text|json] [--progress]

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
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	cs, cerr := parseCounts(*cols)
	switch {
	case err != nil:
	case cerr != nil:
		err = cerr
	case *maxRows < 2 || *maxRows > bounds.MaxExactColumns:
		err = fmt.Errorf("--max-rows must be between 2 and %d (the LP method is exponential)", bounds.MaxExactColumns)
	case *parts < 0:
		err = errors.New("--partitions must be non-negative")
	case *format != "text" && *format != "json":
		err = fmt.Errorf("unknown --format %q (text or json)", *format)
	}
	if err != nil {
		fmt.Fprintf(stderr, "cardreg bound: %v\n", err)
		return 2
	}
	tick, erase := fitProgress(stderr, *progress, "solving the linear programs")
	rows, err := boundRows(*maxRows, cs, *parts, *seed, tick)
	erase()
	if err != nil {
		fmt.Fprintf(stderr, "cardreg bound: %v\n", err)
		return 1
	}
	if *format == "json" {
		writeJSON(stdout, rows)
	} else {
		writeBoundTable(stdout, rows)
	}
	for _, r := range rows {
		if !r.Holds {
			fmt.Fprintf(stderr, "cardreg bound: %s n=%d cols=%d: M_G = %.6g exceeds its bound %.6g\n", r.Kind, r.Rows, r.Cols, r.MG, r.Bound)
			return 1
		}
	}
	return 0
}

func parseCounts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || c < 1 {
			return nil, fmt.Errorf("--cols: %q is not a positive integer", f)
		}
		out = append(out, c)
	}
	return out, nil
}

// boundCheck is one check before its linear programs: the row without
// M_G, the ratio and the verdict, the matrix G, and the absolute slack of
// the verdict on top of the relative tolerance 1e-9 (the LP's rounding).
type boundCheck struct {
	row   boundRow
	g     *mat.Dense
	slack float64
}

// boundRows computes every check, calling tick (when not nil) after each
// with the linear programs solved so far and in all.
func boundRows(maxRows int, cols []int, parts int, seed uint64, tick func(done, total int)) ([]boundRow, error) {
	checks := append(allPairsChecks(maxRows, cols), groupedChecks(maxRows, cols, parts, seed)...)
	total, done := 0, 0
	for _, c := range checks {
		total += programs(c.g)
	}
	out := make([]boundRow, len(checks))
	for i, c := range checks {
		k, err := bounds.KernelOf(c.g)
		if err != nil {
			return nil, err
		}
		r := c.row
		r.MG, r.Holds = k.Upper, k.Upper <= r.Bound*(1+1e-9)+c.slack
		if r.Bound > 0 {
			r.Ratio = k.Upper / r.Bound
		}
		out[i] = r
		if done += programs(c.g); tick != nil {
			tick(done, total)
		}
	}
	return out, nil
}

// programs is the number of linear programs bounds.KernelOf solves on g
// (one when it bounds M_G by an interval instead).
func programs(g *mat.Dense) int {
	if _, p := g.Dims(); p <= bounds.MaxExactColumns {
		return 1 << (p - 1)
	}
	return 1
}

// allPairsChecks are the checks of the weighted all-pairs matrices √P·A_n.
func allPairsChecks(maxRows int, cols []int) []boundCheck {
	var out []boundCheck
	for n := 2; n <= maxRows; n++ {
		for _, c := range cols {
			p := n * c
			w := math.Sqrt(float64(p))
			a := penalty.AllPairs(n)
			a.Scale(w, a)
			out = append(out, boundCheck{g: a, row: boundRow{Kind: "all-pairs", Rows: n, Cols: c, P: p,
				Closed: bounds.AllPairs(n, w), Bound: 2 / w}})
		}
	}
	return out
}

// groupedChecks are the checks of random grouped partitions of 4–10 rows
// into at most 3 groups.
func groupedChecks(maxRows int, cols []int, parts int, seed uint64) []boundCheck {
	var out []boundCheck
	rng := rand.New(rand.NewPCG(seed, 7))
	for t := 0; t < parts; t++ {
		lo, hi := min(4, maxRows), min(maxRows, 10) // partitions of 4–10 rows
		n := lo + rng.IntN(hi-lo+1)
		labels := make([]int, n)
		for i := range labels {
			labels[i] = rng.IntN(3)
		}
		c := cols[t%len(cols)]
		g := penalty.NewGrouped(labels, 1)
		var sizes []int
		var weights []float64
		bound := 0.0
		for j, rows := range g.Groups() {
			sizes = append(sizes, len(rows))
			weights = append(weights, g.Weight(j, c))
			if len(rows) >= 2 {
				bound = math.Max(bound, 2/g.Weight(j, c))
			}
		}
		out = append(out, boundCheck{g: penalty.GroupedMatrix(g, c), slack: 1e-12, row: boundRow{Kind: "grouped",
			Rows: n, Cols: c, P: n * c, Groups: sizes, Closed: bounds.Grouped(sizes, weights), Bound: bound}})
	}
	return out
}

func writeBoundTable(w io.Writer, rows []boundRow) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kind\trows n\tcols\tP\tM_G (LP)\tclosed form\tbound\tratio\tholds\t")
	for _, r := range rows {
		kind := r.Kind
		if r.Groups != nil {
			kind = fmt.Sprintf("grouped %v", r.Groups)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.10f\t%.10f\t%.10f\t%.4f\t%v\t\n", kind, r.Rows, r.Cols, r.P, r.MG, r.Closed, r.Bound, r.Ratio, r.Holds)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nall-pairs: bound 2/sqrt(P), closed form 2/(n sqrt(P)); grouped: bound max_k 2/sqrt(P_k), closed form max_k 2/(|B_k| sqrt(P_k)).")
}
