package main

import (
	"flag"

	"github.com/cardsparse/cardreg/penalty"
)

// givenFlags returns the names of the flags set on the command line.
func givenFlags(fs *flag.FlagSet) map[string]bool {
	given := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	return given
}

// flagRule says when a flag has no effect: off is true in the modes that
// ignore it, and why is the message that refuses it there.
type flagRule struct {
	flag string
	off  bool
	why  string
}

// checkEffect refuses a flag given on the command line that would have no
// effect in the mode cmd (fit, path or cv) runs in, so that no flag is
// silently ignored. It runs after validate.
func (f *fitFlags) checkEffect(cmd string) error {
	cv := cmd == "cv" || cmd == "fit" && f.lambda.onGrid()
	const cvOnly = "applies to cross-validation only (cardreg cv, or cardreg fit --lambda cv), not to "
	mode := map[string]string{"fit": "a fit at one lambda (--lambda " + f.lambda.text + ")", "path": "cardreg path", "cv": "cardreg cv"}[cmd]
	kind := f.penaltyKind() // known: checked by validatePenalty
	rules := []flagRule{
		{"folds", !cv, cvOnly + mode},
		{"seed", !cv, cvOnly + mode},
		{"foldid", !cv, cvOnly + mode},
		{"type-measure", !cv, cvOnly + mode},
		{"folds", f.given["foldid"], "does not combine with --foldid, which fixes the folds and their number (cv.glmnet ignores nfolds then): give one of them"},
		{"seed", f.given["foldid"], "does not combine with --foldid, which fixes the folds (--seed deals the rows to --folds folds at random)"},
		{"rule", cmd == "cv", "is for cardreg fit --lambda cv: cardreg cv prints both lambda_min and lambda_1se (column mark)"},
		{"rule", cmd != "cv" && !cv, "picks lambda_min or lambda_1se of cardreg fit --lambda cv, not of " + mode},
		{"sigma", cmd != "fit" || !f.lambda.theory(), "applies to cardreg fit --lambda theory only"},
		{"t", cmd != "fit" || !f.lambda.theory(), "applies to cardreg fit --lambda theory only"},
		{"save-model", cmd != "fit", "is for cardreg fit: " + cmd + " prints a table, not one model"},
		{"groups", kind.Needs != penalty.NeedsGroups, "applies to --penalty " + needing(penalty.NeedsGroups) + " only, not " + f.penalty},
		{"G", kind.Needs != penalty.NeedsG, "applies to --penalty " + needing(penalty.NeedsG) + " only, not " + f.penalty},
		{"nu", kind.Nu == penalty.NoNu, "has no role in the " + f.penalty + " penalty"},
		{"nu", f.fam.penaltyFactor != "", "does not combine with --penalty-factor, whose factors weigh each predictor's lasso penalty instead"},
		{"stream", f.db != "", "is for data files: with --db the statistics are computed in the database"},
		{"sep", f.db != "", "is for data files, not --db"},
		{"drop-missing", f.db != "", "is for data files: --db refuses rows with NULL, NaN or infinite values"},
		{"progress", f.progress && cmd == "fit" && !cv && !f.stream && !f.weightedStats(), "has no steps to show in " + mode + ": it draws the folds of --lambda cv, and the passes over the file with --stream"},
		{"progress", f.progress && f.familyFit() && !f.stream, "is not drawn yet for a " + f.fam.family + " fit in memory (the glm package reports no steps): add --stream to see its passes over the file"},
	}
	for _, r := range rules {
		if r.off && f.given[r.flag] {
			return usagef("--%s %s", r.flag, r.why)
		}
	}
	return nil
}

// checkGridFlags refuses --nlambda and --min-ratio beside a user grid
// (--lambda LIST): they shape the generated grid only.
func (f *pathFlags) checkGridFlags() error {
	for _, name := range []string{"nlambda", "min-ratio"} {
		if f.lambda.list != nil && f.given[name] {
			return usagef("--%s shapes the generated lambda grid: it has no effect with --lambda LIST", name)
		}
	}
	return nil
}

// weightedStats reports whether the fit reads its data in one pass into
// the sufficient statistics though not streamed (a weighted gaussian fit),
// a pass --progress draws.
func (f *fitFlags) weightedStats() bool { return f.weights != "" && !f.familyFit() }

// needing names the penalties that need the input in ("grouped").
func needing(in penalty.Input) string {
	return orList(penalty.Names(func(k penalty.Kind) bool { return k.Needs == in }))
}

// streamRefusal is the one refusal of what a fit by passes over the file
// (a family fit streamed, estimator.Stream) cannot do in the command cmd:
// choose λ in fit, score AUC, or take the flags the streamed engine does
// not support.
func (f *fitFlags) streamRefusal(cmd string) error {
	switch {
	case cmd == "fit" && !f.lambda.fixed():
		return usagef("a streamed %s fit takes --lambda NUMBER; choose it with cardreg cv --stream (passes per Newton step, λ and fold), or fit in memory with a larger --memory", f.fam.family)
	case cmd == "cv" && f.fam.typeMeasure == "auc":
		return usagef("a streamed cross-validation cannot score --type-measure auc (it needs every held-out prediction at once); use another measure, or cv in memory")
	case f.fam.exclude != "" || f.fam.penaltyFactor != "" || f.relax:
		return usagef("a streamed %s fit does not take --exclude, --penalty-factor or --relax yet", f.fam.family)
	}
	return nil
}
