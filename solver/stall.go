package solver

import "math"

// Progress watches a method's stopping checks for a stall: a run of
// checks in which neither the objective fell by more than rounding nor the
// criterion (duality gap or residual) by a meaningful fraction. A method
// that sees one stops with status Stalled instead of spending the rest of
// its iteration budget, which on a badly scaled problem (a λ below the
// gradient's rounding, weights spanning 300 orders of magnitude) can be
// minutes of work that changes nothing.
type Progress struct {
	window   int // iterations without improvement that make a stall
	last     int // the iteration of the last improvement
	since    int // checks since the last improvement
	bestObj  float64
	bestCrit float64
	started  bool
}

// stallRelObj is the relative decrease of the best objective that counts
// as progress: a few hundred ulps, above the objective's own rounding.
const stallRelObj = 1e-13

// stallRelCrit is the relative decrease of the best criterion that counts
// as progress.
const stallRelCrit = 0.01

// NewProgress returns a watcher that calls window iterations (and at
// least minChecks checks) without improvement a stall; with window ≤ 0
// only a non-finite objective.
func NewProgress(window int) *Progress {
	return &Progress{window: window}
}

// stallWindow returns window for an outer solve and 0 (no stall rule but
// a non-finite objective) for an inner one: stopping an inner solve early
// changes the outer method's whole path, and the outer rule catches a
// real stall.
func (s Settings) stallWindow(window int) int {
	if s.inner {
		return 0
	}
	return window
}

// minChecks is the fewest checks without improvement that make a stall.
const minChecks = 3

// Stalled records the check at iteration k of objective obj and criterion
// crit (NaN when there is none) and reports whether the method has
// stalled: a non-finite objective at once, else window iterations and
// minChecks checks without improvement.
func (pg *Progress) Stalled(k int, obj, crit float64) bool {
	if math.IsNaN(obj) || math.IsInf(obj, 0) {
		return true
	}
	if pg.window <= 0 {
		return false
	}
	if !pg.started {
		pg.started, pg.bestObj, pg.bestCrit, pg.last = true, obj, crit, k
		return false
	}
	improved := false
	if obj < pg.bestObj-stallRelObj*math.Abs(pg.bestObj) {
		pg.bestObj, improved = obj, true
	}
	if crit < (1-stallRelCrit)*pg.bestCrit || math.IsNaN(pg.bestCrit) && !math.IsNaN(crit) {
		pg.bestCrit, improved = crit, true
	}
	if improved {
		pg.since, pg.last = 0, k
		return false
	}
	pg.since++
	return pg.since >= minChecks && k-pg.last >= pg.window
}
