package main

import (
	"flag"
	"slices"

	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/penalty"
)

// givenFlags returns the names of the flags set on the command line.
func givenFlags(fs *flag.FlagSet) map[string]bool {
	given := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	return given
}

// route is the way the rows of fit, path and cv reach the fit, as the
// flags choose it: read into memory, streamed from the file (--stream),
// or aggregated by SQL in ClickHouse (--db). A set of routes is their
// bitwise or.
type route uint8

const (
	inMemory route = 1 << iota
	onStream
	onDB
	anyRoute = inMemory | onStream | onDB
)

// route is the route the flags ask for. A file streamed for its size
// (shouldStream) is not asked for: form streams it only when the table
// refuses nothing on the stream route.
func (f *fitFlags) route() route {
	switch {
	case f.db != "":
		return onDB
	case f.stream:
		return onStream
	}
	return inMemory
}

// flagRule refuses flag on the routes on when off holds, with the message
// "--flag why". A rule applies when the flag was given, or, for a rule
// byValue, whatever its value's origin (fit's --lambda defaults to cv).
type flagRule struct {
	flag    string
	on      route
	off     bool
	why     string
	byValue bool
}

// factorFlagNames are the names of the flags of factor predictors, as
// factorFlags.register defines them: refused wherever the rows are not
// read into memory, a flag added there included.
func factorFlagNames() []string {
	fs := flag.NewFlagSet("factors", flag.ContinueOnError)
	new(factorFlags).register(fs)
	var names []string
	fs.VisitAll(func(fl *flag.Flag) { names = append(names, fl.Name) })
	return names
}

// flagRules is the one table of the flags that would have no effect, or
// that the route cannot honour, in the command cmd (fit, path or cv): the
// mode's rules (cross-validation, λ theory, the penalty's inputs) on
// every route, then each route's. Every flag is either honoured or
// refused there, so none is silently ignored; TestFlagRulesTable walks it
// and TestEveryFlagHasARoute checks that every flag is placed.
func (f *fitFlags) flagRules(cmd string) []flagRule {
	rules := slices.Concat(f.modeRules(cmd), f.streamRules(cmd), f.dbRules(cmd), f.factorRules())
	// --progress in memory points to --stream only when the stream route
	// takes the other flags given.
	return append(rules, f.memoryRules(cmd, f.refusal(rules, onStream) < 0)...)
}

// cvMode reports whether cmd cross-validates, and names its mode for
// messages.
func (f *fitFlags) cvMode(cmd string) (bool, string) {
	cv := cmd == "cv" || cmd == "fit" && f.lambda.onGrid()
	mode := map[string]string{"fit": "a fit at one lambda (--lambda " + f.lambda.text + ")", "path": "cardreg path", "cv": "cardreg cv"}[cmd]
	return cv, mode
}

// modeRules refuse, on every route, the flags without effect in cmd's
// mode: cross-validation's, λ theory's, the penalty's inputs.
func (f *fitFlags) modeRules(cmd string) []flagRule {
	cv, mode := f.cvMode(cmd)
	const cvOnly = "applies to cross-validation only (cardreg cv, or cardreg fit --lambda cv), not to "
	kind := f.penaltyKind() // known: checked by validatePenalty
	return []flagRule{
		{flag: "folds", on: anyRoute, off: !cv, why: cvOnly + mode},
		{flag: "seed", on: anyRoute, off: !cv, why: cvOnly + mode},
		{flag: "foldid", on: anyRoute, off: !cv, why: cvOnly + mode},
		{flag: "type-measure", on: anyRoute, off: !cv, why: cvOnly + mode},
		{flag: "folds", on: anyRoute, off: f.given["foldid"], why: "does not combine with --foldid, which fixes the folds and their number (cv.glmnet ignores nfolds then): give one of them"},
		{flag: "seed", on: anyRoute, off: f.given["foldid"], why: "does not combine with --foldid, which fixes the folds (--seed deals the rows to --folds folds at random)"},
		{flag: "rule", on: anyRoute, off: cmd == "cv", why: "is for cardreg fit --lambda cv: cardreg cv prints both lambda_min and lambda_1se (column mark)"},
		{flag: "rule", on: anyRoute, off: cmd != "cv" && !cv, why: "picks lambda_min or lambda_1se of cardreg fit --lambda cv, not of " + mode},
		{flag: "sigma", on: anyRoute, off: cmd != "fit" || !f.lambda.theory(), why: "applies to cardreg fit --lambda theory only"},
		{flag: "t", on: anyRoute, off: cmd != "fit" || !f.lambda.theory(), why: "applies to cardreg fit --lambda theory only"},
		{flag: "save-model", on: anyRoute, off: cmd != "fit", why: "is for cardreg fit: " + cmd + " prints a table, not one model"},
		{flag: "groups", on: anyRoute, off: kind.Needs != penalty.NeedsGroups, why: "applies to --penalty " + needing(penalty.NeedsGroups) + " only, not " + f.penalty},
		{flag: "G", on: anyRoute, off: kind.Needs != penalty.NeedsG, why: "applies to --penalty " + needing(penalty.NeedsG) + " only, not " + f.penalty},
		{flag: "nu", on: anyRoute, off: kind.Nu == penalty.NoNu, why: "has no role in the " + f.penalty + " penalty"},
		{flag: "alpha", on: anyRoute, off: !kind.Alpha, why: "applies to --penalty " + orList(penalty.Names(func(k penalty.Kind) bool { return k.Alpha })) + " only, not " + f.penalty},
		{flag: "nu", on: anyRoute, off: f.fam.penaltyFactor != "", why: "does not combine with --penalty-factor, whose factors weigh each predictor's lasso penalty instead"},
		{flag: "penalty-factor", on: inMemory, off: !kind.Factors, why: "is for the " + orList(penalty.Names(func(k penalty.Kind) bool { return k.Factors })) + "; for " + f.penalty + " use --exclude to leave predictors unpenalised"},
		// --exclude is refused on the other routes (dbRules, streamRules).
		{flag: "penalty-factor", on: onStream | onDB, off: !kind.Factors, why: "is for the " + orList(penalty.Names(func(k penalty.Kind) bool { return k.Factors })) + "; for " + f.penalty + ", --exclude leaves predictors unpenalised, in memory only (not with --stream or --db)"},
		{flag: "lambda", on: anyRoute, off: f.lambda.theory() && f.weights != "", why: "theory needs the unweighted rows in memory: leave out --weights"},
	}
}

// memoryRules refuse on the file routes the flags of --db, and in memory
// a --progress with nothing to draw (streams: whether the stream route
// takes the flags given, so that --stream may be suggested).
func (f *fitFlags) memoryRules(cmd string, streams bool) []flagRule {
	cv, mode := f.cvMode(cmd)
	passes, stream := "", ""
	if streams {
		passes, stream = ", and the passes over the file with --stream", ": add --stream to see its passes over the file"
	}
	return []flagRule{
		{flag: "table", on: inMemory | onStream, off: true, why: "needs --db (the ClickHouse server holding the table)"},
		{flag: "query", on: inMemory | onStream, off: true, why: "needs --db (the ClickHouse server to run it)"},
		{flag: "db-timeout", on: inMemory | onStream, off: true, why: "needs --db (it bounds the waits for the server)"},

		{flag: "progress", on: inMemory, off: f.progress && f.familyFit(), why: "is not drawn yet for a " + f.fam.family + " fit in memory (the glm package reports no steps)" + stream},
		{flag: "progress", on: inMemory, off: f.progress && cmd == "fit" && !cv && !f.weightedStats(), why: "has no steps to show in " + mode + ": it draws the folds of --lambda cv" + passes},
	}
}

// streamRules refuse what a stream cannot do: the rows are never held,
// and a family fit takes passes over the file per Newton step.
func (f *fitFlags) streamRules(cmd string) []flagRule {
	family := f.fam.family
	return []flagRule{
		{flag: "lambda", on: onStream, off: f.lambda.theory(), why: "theory needs the unweighted rows in memory: leave out --stream"},
		{flag: "lambda", on: onStream, byValue: true, off: f.familyFit() && cmd == "fit" && !f.lambda.fixed(),
			why: f.lambda.text + ": a streamed " + family + " fit takes --lambda NUMBER; choose it with cardreg cv --stream (passes per Newton step, λ and fold), or fit in memory with a larger --memory"},
		{flag: "type-measure", on: onStream, off: f.fam.typeMeasure == "auc", why: "auc cannot score a streamed cross-validation (it needs every held-out prediction at once); use another measure, or cv in memory"},
		{flag: "exclude", on: onStream, off: true, why: "is not supported by a streamed " + family + " fit yet: fit in memory (leave out --stream)"},
		{flag: "penalty-factor", on: onStream, off: true, why: "is not supported by a streamed " + family + " fit yet: fit in memory (leave out --stream)"},
		{flag: "relax", on: onStream, off: f.familyFit(), why: "is not supported by a streamed " + family + " fit yet: fit in memory (leave out --stream)"},
	}
}

// dbRules refuse what --db cannot do: it aggregates numeric columns by
// SQL (gaussian), or scans them in rounds (binomial and Poisson).
func (f *fitFlags) dbRules(cmd string) []flagRule {
	cv, mode := f.cvMode(cmd)
	family := f.fam.family
	return []flagRule{
		{flag: "stream", on: onDB, off: true, why: "is for data files: with --db the statistics are computed in the database"},
		{flag: "sep", on: onDB, off: true, why: "is for data files, not --db"},
		{flag: "drop-missing", on: onDB, off: true, why: "is for data files: --db refuses rows with NULL, NaN or infinite values"},
		{flag: "lambda", on: onDB, off: f.lambda.theory(), why: "theory needs the rows: not available with --db"},
		{flag: "family", on: onDB, off: family != "gaussian" && family != "binomial" && family != "poisson", why: family + ": --db fits gaussian, binomial and poisson models"},
		{flag: "offset", on: onDB, off: family == "gaussian", why: "is for --family binomial or poisson with --db: a gaussian fit from --db is made from sums of squares, which take no offset (subtract it from the response in --query)"},
		{flag: "penalty-factor", on: onDB, off: family == "gaussian", why: "is for --family binomial or poisson with --db (a gaussian fit from --db takes none yet): fit the rows from a file"},
		{flag: "type-measure", on: onDB, off: family == "gaussian" && f.fam.typeMeasure != "mse", why: f.fam.typeMeasure + " is not scored for a gaussian fit from --db: it scores mse (the sums of squares give no other)"},
		{flag: "type-measure", on: onDB, off: f.fam.typeMeasure == "auc", why: "auc needs every held-out prediction at once: not with --db"},
		{flag: "exclude", on: onDB, off: true, why: "is not supported with --db yet: fit the rows from a file"},
		{flag: "relax", on: onDB, off: f.familyFit(), why: "is not supported for a " + family + " fit from --db yet: fit the rows from a file"},
		{flag: "no-intercept", on: onDB, off: f.familyFit(), why: "is not supported for a " + family + " fit from --db yet: fit the rows from a file"},
		{flag: "progress", on: onDB, off: f.progress && cmd == "fit" && !cv, why: "has no steps to show in " + mode + " from --db: it draws the folds of --lambda cv"},
		{flag: "progress", on: onDB, off: f.progress && f.familyFit(), why: "is not drawn yet for a " + family + " fit from --db (its scans report no steps)"},
	}
}

// factorRules refuse on the stream and --db routes the flags of factor
// predictors, which are read from a file into memory only.
func (f *fitFlags) factorRules() []flagRule {
	const notStreamed = "the rows in memory (factor columns are not streamed yet): leave out --stream"
	const notDB = "the rows in memory (--db aggregates numeric columns by SQL, with no factors): export the rows to a file and fit it"
	var rules []flagRule
	for _, name := range factorFlagNames() {
		rules = append(rules, flagRule{flag: name, on: onStream, off: true, why: "needs " + notStreamed}, flagRule{flag: name, on: onDB, off: true, why: "needs " + notDB})
	}
	none := f.penalty == factor.NumericNone
	return append(rules,
		flagRule{flag: "penalty", on: onStream, off: none, why: "none names the numeric predictors' penalty beside factors, which need " + notStreamed},
		flagRule{flag: "penalty", on: onDB, off: none, why: "none names the numeric predictors' penalty beside factors, which need " + notDB},
		flagRule{flag: "merges", on: onStream, off: true, why: "lists the merges of factor levels, which need " + notStreamed},
		flagRule{flag: "merges", on: onDB, off: true, why: "lists the merges of factor levels, which need " + notDB},
	)
}

// refusal returns the index in rules of the first rule that refuses a
// flag of the command line on the route rt, or -1.
func (f *fitFlags) refusal(rules []flagRule, rt route) int {
	for i, r := range rules {
		if r.on&rt != 0 && r.off && (r.byValue || f.given[r.flag]) {
			return i
		}
	}
	return -1
}

// checkEffect refuses a flag that would have no effect in the mode cmd
// (fit, path or cv) runs in, or that the route of the data cannot honour
// (flagRules), before any data are read or any server is reached. It runs
// after validate.
func (f *fitFlags) checkEffect(cmd string) error {
	rules := f.flagRules(cmd)
	if i := f.refusal(rules, f.route()); i >= 0 {
		return usagef("--%s %s", rules[i].flag, rules[i].why)
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
