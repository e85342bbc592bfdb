// Package pathstop holds glmnet's rules for ending a generated λ path
// before the end of its grid, one home for every family and route (the
// least-squares fits of internal/lsfit, the other families' of
// internal/glm).
//
// glmnet (4.1-8, glmnetpp's elnet_path base.hpp, process_point_fit) stops
// after the fit at the m-th λ (1-based) when m ≥ mnlam = 5, the grid was
// generated (flmin < 1) and one of these holds:
//
//   - the deviance ratio moved too little: for gaussian, the last step
//     moved it by less than fdev = 1e-5 of itself, (r_m − r_{m−1})/r_m <
//     1e-5 (r_m = 0 never stops); for Poisson, the last four steps by less
//     than 1e-4 of itself, (r_m − r_{m−4})/r_m < 10·fdev; for the others
//     (binomial, and the IRLS of a family object such as gamma), the last
//     step by less than 1e-5, r_m − r_{m−1} < fdev;
//   - the deviance ratio exceeds devmax = 0.999;
//   - more predictors are non-zero than dfmax (and, in the fit itself,
//     more have ever been active than pmax): with glmnet's defaults
//     (dfmax = p + 1, pmax = min(2·dfmax + 20, p)) these never fire, and
//     cardreg has neither setting, so they are not here.
//
// glmnet's gaussian ratio r is the rsq its coordinate descent accumulates
// on the standardised response (1 − RSS/TSS of the iterate), cardreg's the
// R² of the fit it returns; both are within the solvers' tolerance of the
// exact R², so a step whose change sits within that tolerance of 1e-5·r
// can be judged differently (see the README).
package pathstop

import "fmt"

// DevMax is glmnet's devmax: a generated path stops once the deviance
// ratio passes it, where a logistic fit of separable data heads to
// infinity and the rest of the grid only chases it.
const DevMax = 0.999

// DevFrac is glmnet's fdev: a generated path stops once the deviance
// ratio stops moving (see Rule).
const DevFrac = 1e-5

// MinPath is glmnet's mnlam: a generated path never stops by these rules
// before this many λ.
const MinPath = 5

// Rule is how a family's path judges that the deviance ratio stopped
// moving.
type Rule int

const (
	// Absolute: the last step moved the ratio by less than DevFrac
	// (glmnet's binomial and any family without a rule of its own).
	Absolute Rule = iota
	// Relative: the last step moved it by less than DevFrac of itself
	// (glmnet's gaussian).
	Relative
	// Relative4: the last MinPath−1 steps moved it by less than
	// 10·DevFrac of itself (glmnet's Poisson).
	Relative4
)

// Stop reports whether a generated path stops after the deviance ratios
// dev (one per λ fitted so far, the last the newest) by rule, and why, in
// words for a note ("the deviance ratio moved by less than 1e-05 of
// itself"). It applies the DevMax rule too.
func Stop(rule Rule, dev []float64) (bool, string) {
	m := len(dev) - 1
	if m+1 < MinPath {
		return false, ""
	}
	last := dev[m]
	var settled bool
	var why string
	switch rule {
	case Relative:
		settled, why = last-dev[m-1] < DevFrac*last, fmt.Sprintf("the deviance ratio moved by less than %g of itself", DevFrac)
	case Relative4:
		settled, why = last-dev[m-MinPath+1] < 10*DevFrac*last, fmt.Sprintf("the deviance ratio moved by less than %g of itself over %d λ", 10*DevFrac, MinPath-1)
	default:
		settled, why = last-dev[m-1] < DevFrac, fmt.Sprintf("the deviance ratio moved by less than %g", DevFrac)
	}
	switch {
	case settled:
		return true, why
	case last > DevMax:
		return true, fmt.Sprintf("deviance ratio %.4f > %g, the fit is near-saturated", last, DevMax)
	}
	return false, ""
}

// Note is the note of a path that stopped after λ = lambda, the i-th
// (1-based) of a grid of n, for the reason why.
func Note(lambda float64, i, n int, why string) string {
	return fmt.Sprintf("stopped after λ = %.6g (%d of %d): %s (glmnet's rule)", lambda, i, n, why)
}
