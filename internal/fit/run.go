package fit

import (
	"sync"

	"github.com/cardsparse/cardreg/internal/pathstop"
	"github.com/cardsparse/cardreg/solver"
)

// RunPath fits along a decreasing grid, each fit by fitAt (which
// warm-starts itself at the previous solution), and ends the path early:
//
//   - on a generated grid, by glmnet's rule on the penalised fits' deviance
//     ratios (Engine.PathRatio; package pathstop), not on their relaxed
//     refits, whose deviance is flat between changes of the support
//     (glmnet's relax = TRUE also refits along the penalised path): why is
//     then the rule's reason, for pathstop.Note once the λ are on the
//     data's scale;
//   - on any grid, where halt (nil: never) returns a note for fit i.
//
// The last λ of the grid is fitted without either test. RunPath returns
// the fits (one per λ of the grid's head) and why or note.
func RunPath(grid []float64, generated bool, rule pathstop.Rule, fitAt func(lambda float64) (*Model, error), halt func(i int, m *Model) string) (models []*Model, why, note string, err error) {
	var devs []float64
	for i, l := range grid {
		m, err := fitAt(l)
		if err != nil {
			return nil, "", "", err
		}
		models = append(models, m)
		devs = append(devs, m.eng.PathRatio)
		if i == len(grid)-1 {
			break
		}
		if stop, why := pathstop.Stop(rule, devs); generated && stop {
			return models, why, "", nil
		}
		if halt != nil {
			if note := halt(i, m); note != "" {
				return models, "", note, nil
			}
		}
	}
	return models, "", "", nil
}

// RunFolds runs fold(f) for the folds f = 0…k−1 of a cross-validation,
// two at a time (the default methods keep no state), or one at a time
// when method, the caller's solver, is not nil (it may keep state: ADMM
// caches its factor). It returns the first failing fold, in fold order,
// and its error; −1 and nil when none failed.
func RunFolds(k int, method solver.Method, fold func(f int) error) (int, error) {
	workers := 2
	if method != nil {
		workers = 1
	}
	fail := make([]error, k)
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for f := range k {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			fail[f] = fold(f)
		}()
	}
	wg.Wait()
	for f, err := range fail {
		if err != nil {
			return f, err
		}
	}
	return -1, nil
}

// FoldGrid is the grid a fold's training rows are fitted on: λ·share, the
// share of the weight (rows, or observations) they hold. The objective
// sums over rows, so the same λ on fewer rows would penalise each row
// harder than the final fit does (1.25× for 5 folds); scaled, every fold
// solves the problem glmnet's fold does at the same λ_glmnet = λ/(2n), and
// cardreg's curve, λ_min and λ_1se are cv.glmnet's.
func FoldGrid(grid []float64, share float64) []float64 {
	out := make([]float64, len(grid))
	for i, l := range grid {
		out[i] = l * share
	}
	return out
}
