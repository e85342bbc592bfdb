package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/cardsparse/cardreg/simulate"
)

const simulateUsage = `Usage:
  cardreg simulate list
  cardreg simulate NAME|all --out DIR [--seeds N] [--seed S] [--quick] [--data DIR]

Runs an experiment comparing cardinality, lasso and ridge, or one of the
source paper's figures, and writes DIR/NAME.csv (one row per run), NAME.json
(configuration, seeds, versions, summary) and the figure NAME.png and
NAME.svg. Repetition i uses the seed S+i, so the same seed gives the same
numbers (wall times aside). The four files are written as the outputs of
fit are (unnamed until complete, links followed) and given their names only
when all are written, so a failed run (or a directory in the way of one of
them) leaves earlier outputs as they were and a killed one leaves no stray
file; only if naming them fails part way (a rename refused after others
succeeded) are the files named before it new, which the error lists. A network training that diverges in a repetition is a result: its
rows say so (column status), it is left out of the summary's means, and
the summary and the figures name its seed; the run fails only when every
repetition diverged. "all" runs every experiment in turn.

Flags:
  --out DIR      folder of the outputs (created when missing; required)
  --seeds N      repetitions (default: the experiment's, see list; memory
                 and bound have none)
  --seed S       base seed (default 1)
  --quick        reduced sizes (the test suite's), seconds instead of minutes
  --data DIR     folder of the real data sets (default ../shared/data)
  --progress     draw the progress bar even when stderr is not a terminal

Example:
  cardreg simulate regression-vs-lasso --out results --seeds 10
`

func runSimulate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("out", "", "output folder")
	seeds := fs.Int("seeds", 0, "repetitions")
	seed := fs.Uint64("seed", 1, "base seed")
	quick := fs.Bool("quick", false, "reduced sizes")
	data := fs.String("data", simulate.DefaultDataDir, "real data sets")
	force := fs.Bool("progress", false, "always draw the progress bar")
	fs.Usage = func() { fmt.Fprint(fs.Output(), simulateUsage) }
	pos, err := parseInterleaved(fs, args)
	if helped(fs, err, stdout) {
		return 0
	}
	if err == nil {
		err = checkSimulateArgs(pos, *out, *seeds)
	}
	if err != nil {
		return exitStatus(stderr, "simulate", asUsage(err))
	}
	if pos[0] == "list" {
		return exitStatus(stderr, "simulate", listExperiments(stdout))
	}
	exps := simulate.All()
	if pos[0] != "all" {
		e, err := simulate.Lookup(pos[0])
		if err == nil && !e.Repeated() && *seeds > 1 {
			err = fmt.Errorf("%s has no repetitions: drop --seeds", e.Name)
		}
		if err != nil {
			return exitStatus(stderr, "simulate", asUsage(err))
		}
		exps = []simulate.Experiment{e}
	}
	cfg := simulate.Config{Seed: *seed, Seeds: *seeds, Quick: *quick, DataDir: *data}
	var failed []error
	for _, e := range exps {
		cfg := cfg
		if len(exps) > 1 && !e.Repeated() {
			cfg.Seeds = 0 // --seeds is for the experiments with repetitions
		}
		if err := runExperiment(e, cfg, *out, *force, stdout, stderr); err != nil {
			failed = append(failed, err)
			fmt.Fprintf(stderr, "cardreg simulate: %v\n", err)
		}
	}
	if len(failed) > 0 {
		return 1
	}
	return 0
}

func checkSimulateArgs(pos []string, out string, seeds int) error {
	switch {
	case len(pos) != 1:
		return fmt.Errorf("expected one experiment name (or list, or all), got %d arguments", len(pos))
	case pos[0] == "list":
		return nil
	case out == "":
		return errors.New("--out DIR is required")
	case seeds < 0:
		return fmt.Errorf("--seeds %d must be positive", seeds)
	}
	return nil
}

func listExperiments(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, e := range simulate.All() {
		fmt.Fprintf(tw, "%s\t%s (seeds: %d)\n", e.Name, e.Summary, e.DefaultSeeds)
	}
	return tw.Flush()
}

// runExperiment runs one experiment with a progress bar and saves its files.
func runExperiment(e simulate.Experiment, cfg simulate.Config, out string, force bool, stdout, stderr io.Writer) error {
	var done func()
	cfg.Progress, done = fitProgress(stderr, force, e.Name)
	r, err := e.Run(cfg)
	done()
	if err != nil {
		return err
	}
	if err := r.Save(out); err != nil {
		return fmt.Errorf("%s: %w", e.Name, err)
	}
	fmt.Fprintf(stdout, "%s: wrote %s.{csv,json,png,svg} in %.1f s\n", e.Name, filepath.Join(out, e.Name), r.Elapsed)
	return nil
}
