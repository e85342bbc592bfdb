package main

import (
	"fmt"
	"os"
	"runtime"
	"slices"

	"github.com/cardsparse/cardreg/simulate"
)

// runPaper runs the simulate experiments matmul, powers and markov (the
// source paper's settings; they are defined there, not here) and prints
// their summaries as Markdown tables; with out set, it also saves each
// experiment's CSV, JSON, PNG and SVG there.
func runPaper(reps int, seed uint64, data, out string) error {
	fmt.Printf("# cardreg matmul benchmarks (cardreg simulate matmul, powers, markov): median over %d repetitions, new matrices in each, ms; preprocessing (encoding, packing) included; GOMAXPROCS %d\n",
		reps, runtime.GOMAXPROCS(0))
	for _, e := range []simulate.Experiment{simulate.Matmul(), simulate.Powers(), simulate.Markov()} {
		r, err := e.Run(simulate.Config{Seed: seed, Seeds: reps, DataDir: data,
			Progress: func(done, total int) { fmt.Fprintf(os.Stderr, "\r%s: %d/%d", e.Name, done, total) }})
		fmt.Fprintln(os.Stderr)
		if err != nil {
			return err
		}
		if out != "" {
			if err := r.Save(out); err != nil {
				return err
			}
		}
		var panels []simulate.TimingPanel
		switch s := r.Summary.(type) {
		case []simulate.TimingPanel:
			panels = s
		case *simulate.ChainSummary:
			panels = []simulate.TimingPanel{thin(s.Cumulative)}
		default:
			return fmt.Errorf("%s: unexpected summary %T", e.Name, r.Summary)
		}
		if err := simulate.WriteTimingMarkdown(os.Stdout, panels); err != nil {
			return err
		}
		fmt.Printf("\n(%s: %.0f s)\n", e.Name, r.Elapsed)
	}
	return nil
}

// thin keeps the first, last and a few round points of a cumulative panel.
func thin(p simulate.TimingPanel) simulate.TimingPanel {
	keep := []int{0, 1, 2, 5, 10, 20, 30, 50, 100}
	last := p.Points[len(p.Points)-1].X
	var pts []simulate.TimingPoint
	for _, pt := range p.Points {
		if slices.Contains(keep, pt.X) || pt.X == last {
			pts = append(pts, pt)
		}
	}
	p.Points = pts
	return p
}
