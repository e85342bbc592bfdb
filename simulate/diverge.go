package simulate

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cardsparse/cardreg/deepreg"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// A network's training can diverge for one draw of the data or of the
// initial weights at a learning rate that suits the others. That is a
// result of the experiment, not a failure of the run: the repetition is
// recorded (its rows say "diverged" in the status column), left out of the
// summary's means and of the figures, and the summary and the figures say
// how many repetitions were left out and which seeds. Only a run in which
// every repetition diverged has nothing to report, and fails.

// Row statuses of the experiments that train networks.
const (
	statusOK       = "ok"       // the fit is in the summary
	statusDiverged = "diverged" // the fit diverged; its figures are NA
	// statusExcluded: the fit finished, but another fit of the same
	// repetition diverged, so the repetition is left out of the summary
	// (the methods are compared on the same repetitions).
	statusExcluded = "excluded"
)

// divergence is one fit of a repetition that diverged.
type divergence struct {
	Seed uint64 `json:"seed"`
	// Fit names the method or variant.
	Fit string `json:"fit"`
	// Epoch is the epoch at which the divergence was seen (0: after
	// training, in a figure computed from the fitted network).
	Epoch int `json:"epoch"`
	// What is deepreg's description of what was seen.
	What string `json:"what"`
}

// asDivergence returns the divergence that err reports, or false when err
// is not a diverged training (a failure of the run).
func asDivergence(seed uint64, fit string, err error) (divergence, bool) {
	var de *deepreg.DivergedError
	if !errors.As(err, &de) {
		return divergence{}, false
	}
	return divergence{Seed: seed, Fit: fit, Epoch: de.Epoch, What: de.What}, true
}

// perturb, when set (only by tests), changes a repetition's training
// options before it trains: the tests make chosen repetitions diverge for
// real with it (a learning rate far too large).
var perturb func(seed uint64, o *deepreg.Options)

// train is deepreg.Train for the repetition of the given seed.
func train(seed uint64, net *deepreg.Network, x solver.Design, y *mat.Dense, o *deepreg.Options) (*deepreg.Result, error) {
	if perturb != nil {
		cp := *o
		perturb(seed, &cp)
		o = &cp
	}
	return deepreg.Train(net, x, y, o)
}

// repetitions counts an experiment's repetitions and the diverged ones,
// for the JSON summary.
type repetitions struct {
	// Run is the number of repetitions run, Summarised the number in the
	// summary's means and the figures.
	Run        int `json:"run"`
	Summarised int `json:"summarised"`
	// Diverged is Run − Summarised; DivergedSeeds lists their seeds and
	// Fits every fit that diverged in them.
	Diverged      int          `json:"diverged"`
	DivergedSeeds []uint64     `json:"diverged_seeds"`
	Fits          []divergence `json:"diverged_fits"`
}

// newRepetitions returns the count of a run of n repetitions.
func newRepetitions(n int) *repetitions {
	return &repetitions{Run: n, DivergedSeeds: []uint64{}, Fits: []divergence{}}
}

// add records one repetition and its diverged fits (none: summarised).
func (r *repetitions) add(seed uint64, div []divergence) {
	if len(div) == 0 {
		r.Summarised++
		return
	}
	r.Diverged++
	r.DivergedSeeds = append(r.DivergedSeeds, seed)
	r.Fits = append(r.Fits, div...)
}

// check returns an error when no repetition can be summarised.
func (r *repetitions) check() error {
	if r.Summarised > 0 {
		return nil
	}
	d := r.Fits[0]
	return fmt.Errorf("every repetition diverged (%d of %d; the first: seed %d, %s, epoch %d: %s)",
		r.Diverged, r.Run, d.Seed, d.Fit, d.Epoch, d.What)
}

// caption says over how many seeds the figures are: "20 seeds", or
// "19 of 20 seeds; seed 20 diverged".
func (r *repetitions) caption() string {
	if r.Diverged == 0 {
		return plural(r.Run, "seed")
	}
	seeds := make([]string, len(r.DivergedSeeds))
	for i, s := range r.DivergedSeeds {
		seeds[i] = fmt.Sprint(s)
	}
	return fmt.Sprintf("%d of %s; %s %s diverged", r.Summarised, plural(r.Run, "seed"),
		map[bool]string{true: "seed", false: "seeds"}[r.Diverged == 1], strings.Join(seeds, ", "))
}

// plural writes "1 seed" or "n seeds".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
