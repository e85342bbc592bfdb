package simulate

import (
	"fmt"
	"math"

	"github.com/cardsparse/cardreg/bounds"
	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// Bound checks the source paper's bound M_A ≤ 2/√P numerically: for the
// all-pairs difference matrix A on n rows with the paper's weight √P, it
// computes M_A = max{‖y‖₁ : y ⊥ ker A, ‖Ay‖₁ ≤ 1} by linear programs
// (bounds.KernelOf: exact for n ≤ bounds.MaxExactColumns, solving 2^(n−1)
// programs, here up to n = 12; beyond, its certified interval) and
// sets it beside the closed form 2/(n√P) and the paper's bound 2/√P, over n
// and for P = 16 and 100. Every computed value or interval must contain the
// closed form; the run fails otherwise.
func Bound() Experiment {
	return Experiment{
		Name:         "bound",
		Summary:      "M_A computed by linear programs against 2/(n√P) and the paper's 2/√P, over n",
		DefaultSeeds: 1,
		fixed:        true,
		run:          runBound,
	}
}

// boundGrid returns the n of the exact computations (n ≤
// bounds.MaxExactColumns) and of the certified intervals beyond.
func boundGrid(quick bool) (exact, interval []int) {
	if quick {
		return []int{2, 3, 4, 5, 6}, []int{16}
	}
	return []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 12}, []int{16, 20, 24}
}

func runBound(cfg Config) (*Result, error) {
	r := &Result{
		Columns: []string{"P", "n", "method", "lower", "upper", "closed_form", "paper_bound"},
		Params: map[string]any{
			"matrix": "all-pairs differences on n rows, weighted by √P",
			"exact":  "linear programs over the 2^(n-1) sign vectors (bounds.KernelOf, n ≤ 12 here)",
			"beyond": "certified interval: upper ‖A⁺‖₁→₁, lower from the columns of A⁺ and one linear program",
		},
	}
	exact, interval := boundGrid(cfg.Quick)
	ns := append(append([]int{}, exact...), interval...)
	ps := []int{16, 100}
	total, done := len(ps)*len(ns), 0
	worst := 0.0
	for _, p := range ps {
		w := math.Sqrt(float64(p))
		for _, n := range ns {
			g := penalty.AllPairs(n)
			g.Scale(w, g)
			k, err := bounds.KernelOf(g)
			if err != nil {
				return nil, fmt.Errorf("at P = %d, n = %d: %w", p, n, err)
			}
			closed := 2 / (float64(n) * w)
			if tol := 1e-9 * closed; k.Lower > closed+tol || k.Upper < closed-tol {
				return nil, fmt.Errorf("at P = %d, n = %d: computed M_A in [%g, %g] misses 2/(n√P) = %g", p, n, k.Lower, k.Upper, closed)
			}
			worst = math.Max(worst, k.Upper*w/2)
			method := "interval"
			if k.Exact {
				method = "exact"
			}
			r.Add(p, n, method, k.Lower, k.Upper, closed, 2/w)
			done++
			cfg.progress(done, total)
		}
	}
	r.Summary = map[string]any{
		"closed_form_within_computed": true,
		"max_upper_over_paper_bound":  worst,
		"note":                        "M_A = 2/(n√P) ≤ 2/√P for every n ≥ 1; the paper's bound is attained at n = 1 only",
	}
	fig, err := boundFigure(r, ps)
	if err != nil {
		return nil, err
	}
	r.Figure = fig
	return r, nil
}

func boundFigure(r *Result, ps []int) (*Figure, error) {
	pc, _ := r.Floats("P")
	nc, _ := r.Floats("n")
	up, _ := r.Floats("upper")
	lo, _ := r.Floats("lower")
	var panels []*plot.Plot
	for _, p := range ps {
		var comp, closed, paper Series
		comp.Name, closed.Name, paper.Name = "computed M_A (LP)", "2/(n√P)", "paper: 2/√P"
		for i := range pc {
			if int(pc[i]) != p {
				continue
			}
			mid := (lo[i] + up[i]) / 2
			comp.XY = append(comp.XY, plotter.XY{X: nc[i], Y: mid})
			comp.Low, comp.High = append(comp.Low, lo[i]), append(comp.High, up[i])
			closed.XY = append(closed.XY, plotter.XY{X: nc[i], Y: 2 / (nc[i] * math.Sqrt(float64(p)))})
			paper.XY = append(paper.XY, plotter.XY{X: nc[i], Y: 2 / math.Sqrt(float64(p))})
		}
		pl, err := LinePanel(fmt.Sprintf("M_A for P = %d", p), "n (rows of the group)", "M_A", true, true, paper, closed, comp)
		if err != nil {
			return nil, err
		}
		pl.Legend.Top, pl.Legend.Left = false, true
		panels = append(panels, pl)
	}
	return NewFigure(len(panels), panels...), nil
}
