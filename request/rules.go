package request

import (
	"fmt"
	"slices"

	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/penalty"
)

// Rule refuses Option on the routes On when Off holds, with the message
// "Option Why". A rule applies when the option was given, or, for a rule
// ByValue, whatever its value's origin (fit's lambda defaults to cv).
type Rule struct {
	Option  string
	On      Route
	Off     bool
	Why     string
	ByValue bool
}

// Rules is the one table of the options that would have no effect, or
// that the route cannot honour, in command cmd (fit, path or cv): the
// mode's rules (cross-validation, the λ grid, λ theory, the penalty's
// inputs) on every route, then each route's. Every option is either
// honoured or refused there, so none is silently ignored.
func (r *Request) Rules(cmd Command) []Rule {
	rules := slices.Concat(r.modeRules(cmd), r.streamRules(cmd), r.dbRules(cmd), r.factorRules(), r.sparseRules())
	// progress in memory points to the stream route only when that route
	// takes the other options given.
	return append(rules, r.memoryRules(cmd, r.Refusal(rules, OnStream) < 0)...)
}

// Refusal returns the index in rules of the first rule that refuses an
// option given on route rt, or -1.
func (r *Request) Refusal(rules []Rule, rt Route) int {
	for i, u := range rules {
		if u.On&rt != 0 && u.Off && (u.ByValue || r.Given[u.Option]) {
			return i
		}
	}
	return -1
}

// CheckEffect refuses an option that would have no effect in command
// cmd, or that the request's route cannot honour (Rules), before any data
// are read. It runs after Check.
func (r *Request) CheckEffect(cmd Command) error {
	rules := r.Rules(cmd)
	if i := r.Refusal(rules, r.route()); i >= 0 {
		return Error{fmt.Errorf("%s %s", r.Dialect.o(rules[i].Option), rules[i].Why)}
	}
	return nil
}

func (r *Request) route() Route {
	if r.Route == 0 {
		return InMemory
	}
	return r.Route
}

// cvMode reports whether cmd cross-validates, and names its mode for
// messages.
func (r *Request) cvMode(cmd Command) (bool, string) {
	d := r.Dialect
	cv := cmd == "cv" || cmd == "fit" && r.Lambda.OnGrid()
	mode := map[string]string{"fit": "a fit at one lambda (" + d.o(r.Lambda.name()) + " " + r.Lambda.Text + ")", "path": d.c("path"), "cv": d.c("cv")}[cmd]
	return cv, mode
}

// modeRules refuse, on every route, the options without effect in cmd's
// mode: cross-validation's, the generated grid's, λ theory's, the
// penalty's inputs.
func (r *Request) modeRules(cmd Command) []Rule {
	d, l := r.Dialect, &r.Lambda
	cv, mode := r.cvMode(cmd)
	cvOnly := "applies to cross-validation only (" + d.c("cv") + ", or " + d.c("fit") + " " + d.o("lambda") + " cv), not to "
	kind, _ := r.Kind() // known: checked by Check
	theory := "applies to " + d.c("fit") + " " + d.o("lambda") + " theory only"
	noGrid := l.Kind == Fixed || l.List != nil
	pf := r.Given["penalty-factor"]
	return []Rule{
		{Option: "folds", On: AnyRoute, Off: !cv, Why: cvOnly + mode},
		{Option: "seed", On: AnyRoute, Off: !cv, Why: cvOnly + mode},
		{Option: "foldid", On: AnyRoute, Off: !cv, Why: cvOnly + mode},
		{Option: "type-measure", On: AnyRoute, Off: !cv, Why: cvOnly + mode},
		{Option: "folds", On: AnyRoute, Off: r.Given["foldid"], Why: "does not combine with " + d.o("foldid") + ", which fixes the folds and their number (cv.glmnet ignores nfolds then): give one of them"},
		{Option: "seed", On: AnyRoute, Off: r.Given["foldid"], Why: "does not combine with " + d.o("foldid") + ", which fixes the folds (" + d.o("seed") + " deals the rows to " + d.o("folds") + " folds at random)"},
		{Option: "rule", On: AnyRoute, Off: cmd == "cv", Why: "is for " + d.c("fit") + " " + d.o("lambda") + " cv: " + d.c("cv") + " prints both lambda_min and lambda_1se (column mark)"},
		{Option: "rule", On: AnyRoute, Off: cmd != "cv" && !cv, Why: "picks lambda_min or lambda_1se of " + d.c("fit") + " " + d.o("lambda") + " cv, not of " + mode},
		{Option: "nlambda", On: AnyRoute, Off: noGrid, Why: "shapes the generated lambda grid: it has no effect with " + d.o("lambda") + " LIST or a number"},
		{Option: "min-ratio", On: AnyRoute, Off: noGrid, Why: "shapes the generated lambda grid: it has no effect with " + d.o("lambda") + " LIST or a number"},
		{Option: "sigma", On: AnyRoute, Off: cmd != "fit" || l.Kind != Theory, Why: theory},
		{Option: "t", On: AnyRoute, Off: cmd != "fit" || l.Kind != Theory, Why: theory},
		{Option: "save-model", On: AnyRoute, Off: cmd != "fit", Why: "is for " + d.c("fit") + ": " + cmd + " prints a table, not one model"},
		{Option: "groups", On: AnyRoute, Off: kind.Needs != penalty.NeedsGroups, Why: "applies to " + d.o("penalty") + " " + needing(penalty.NeedsGroups) + " only, not " + r.Penalty},
		{Option: "G", On: AnyRoute, Off: kind.Needs != penalty.NeedsG, Why: "applies to " + d.o("penalty") + " " + needing(penalty.NeedsG) + " only, not " + r.Penalty},
		{Option: "nu", On: AnyRoute, Off: kind.Nu == penalty.NoNu, Why: "has no role in the " + r.Penalty + " penalty"},
		{Option: "nu", On: AnyRoute, Off: pf, Why: "does not combine with " + d.o("penalty-factor") + ", whose factors weigh each predictor's lasso penalty instead"},
		{Option: "alpha", On: AnyRoute, Off: !kind.Alpha, Why: "applies to the " + OrList(penalty.Names(func(k penalty.Kind) bool { return k.Alpha })) + " penalty only, not " + r.Penalty},
		{Option: "penalty-factor", On: InMemory, Off: !kind.Factors, Why: "is for the " + factorsNames() + "; for " + r.Penalty + " use " + d.o("exclude") + " to leave predictors unpenalised"},
		// exclude is refused on the other routes (dbRules, streamRules).
		{Option: "penalty-factor", On: OnStream | OnDB, Off: !kind.Factors, Why: "is for the " + factorsNames() + "; for " + r.Penalty + ", " + d.o("exclude") + " leaves predictors unpenalised, in memory only (not with " + d.o("stream") + " or " + d.o("db") + ")"},
		{Option: "lambda", On: AnyRoute, Off: l.Kind == Theory && r.Weighted, Why: "theory needs the unweighted rows in memory: leave out " + d.o("weights")},
	}
}

// memoryRules refuse on the file routes the options of the database, and
// in memory a progress with nothing to draw (streams: whether the stream
// route takes the options given, so that it may be suggested).
func (r *Request) memoryRules(cmd Command, streams bool) []Rule {
	d := r.Dialect
	cv, mode := r.cvMode(cmd)
	passes, stream := "", ""
	if streams {
		passes, stream = ", and the passes over the file with "+d.o("stream"), ": add "+d.o("stream")+" to see its passes over the file"
	}
	weightedStats := r.Weighted && !r.FamilyFit()
	return []Rule{
		{Option: "table", On: InMemory | OnStream, Off: true, Why: "needs " + d.o("db") + " (the ClickHouse server holding the table)"},
		{Option: "query", On: InMemory | OnStream, Off: true, Why: "needs " + d.o("db") + " (the ClickHouse server to run it)"},
		{Option: "db-timeout", On: InMemory | OnStream, Off: true, Why: "needs " + d.o("db") + " (it bounds the waits for the server)"},

		{Option: "progress", On: InMemory, Off: r.Progress && r.FamilyFit(), Why: "is not drawn yet for a " + r.Family + " fit in memory (the glm package reports no steps)" + stream},
		{Option: "progress", On: InMemory, Off: r.Progress && cmd == "fit" && !cv && !weightedStats, Why: "has no steps to show in " + mode + ": it draws the folds of " + d.o("lambda") + " cv" + passes},
	}
}

// streamRules refuse what a stream cannot do: the rows are never held,
// and a family fit takes passes over the file per Newton step.
func (r *Request) streamRules(cmd Command) []Rule {
	d, l, family := r.Dialect, &r.Lambda, r.Family
	notYet := "is not supported by a streamed " + family + " fit yet: fit in memory (leave out " + d.o("stream") + ")"
	return []Rule{
		{Option: "lambda", On: OnStream, Off: l.Kind == Theory, Why: "theory needs the unweighted rows in memory: leave out " + d.o("stream")},
		{Option: "lambda", On: OnStream, ByValue: true, Off: r.FamilyFit() && cmd == "fit" && l.Kind != Fixed,
			Why: l.Text + ": a streamed " + family + " fit takes " + d.o("lambda") + " NUMBER; choose it with " + d.c("cv") + " " + d.o("stream") + " (passes per Newton step, λ and fold), or fit in memory with a larger " + d.o("memory")},
		{Option: "type-measure", On: OnStream, Off: r.TypeMeasure == "auc", Why: "auc cannot score a streamed cross-validation (it needs every held-out prediction at once); use another measure, or cv in memory"},
		{Option: "exclude", On: OnStream, Off: true, Why: notYet},
		{Option: "penalty-factor", On: OnStream, Off: true, Why: notYet},
		{Option: "relax", On: OnStream, Off: r.FamilyFit(), Why: notYet},
	}
}

// dbRules refuse what the database route cannot do: it aggregates
// numeric columns by SQL (gaussian), or scans them in rounds (binomial
// and Poisson).
func (r *Request) dbRules(cmd Command) []Rule {
	d, family := r.Dialect, r.Family
	cv, mode := r.cvMode(cmd)
	fileRows := ": fit the rows from a file"
	notFamily := "is not supported for a " + family + " fit from " + d.o("db") + " yet" + fileRows
	return []Rule{
		{Option: "stream", On: OnDB, Off: true, Why: "is for data files: with " + d.o("db") + " the statistics are computed in the database"},
		{Option: "sep", On: OnDB, Off: true, Why: "is for data files, not " + d.o("db")},
		{Option: "drop-missing", On: OnDB, Off: true, Why: "is for data files: " + d.o("db") + " refuses rows with NULL, NaN or infinite values"},
		{Option: "lambda", On: OnDB, Off: r.Lambda.Kind == Theory, Why: "theory needs the rows: not available with " + d.o("db")},
		// Every family but gaussian writes its formulas in SQL
		// (datafit.SQLWriter) for the scans; sqlstats refuses one that
		// does not by name, before any query.
		{Option: "offset", On: OnDB, Off: family == "gaussian", Why: "is for a " + d.o("family") + " other than gaussian with " + d.o("db") + ": a gaussian fit from " + d.o("db") + " is made from sums of squares, which take no offset (subtract it from the response in " + d.o("query") + ")"},
		{Option: "penalty-factor", On: OnDB, Off: family == "gaussian", Why: "is for a " + d.o("family") + " other than gaussian with " + d.o("db") + " (a gaussian fit from " + d.o("db") + " takes none yet)" + fileRows},
		{Option: "type-measure", On: OnDB, Off: family == "gaussian" && r.TypeMeasure != "mse", Why: r.TypeMeasure + " is not scored for a gaussian fit from " + d.o("db") + ": it scores mse (the sums of squares give no other)"},
		{Option: "type-measure", On: OnDB, Off: r.TypeMeasure == "auc", Why: "auc needs every held-out prediction at once: not with " + d.o("db")},
		{Option: "exclude", On: OnDB, Off: true, Why: "is not supported with " + d.o("db") + " yet" + fileRows},
		{Option: "relax", On: OnDB, Off: r.FamilyFit(), Why: notFamily},
		{Option: "no-intercept", On: OnDB, Off: r.FamilyFit(), Why: notFamily},
		{Option: "progress", On: OnDB, Off: r.Progress && cmd == "fit" && !cv, Why: "has no steps to show in " + mode + " from " + d.o("db") + ": it draws the folds of " + d.o("lambda") + " cv"},
		{Option: "progress", On: OnDB, Off: r.Progress && r.FamilyFit(), Why: "is not drawn yet for a " + family + " fit from " + d.o("db") + " (its scans report no steps)"},
	}
}

// factorRules refuse on the database route the options of factor
// predictors, which SQL does not aggregate, and on the stream route what
// its fits of factors cannot do: leave the numeric predictors
// unpenalised (a stream fits every predictor penalised).
func (r *Request) factorRules() []Rule {
	d := r.Dialect
	notDB := "the rows of a file (" + d.o("db") + " aggregates numeric columns by SQL, with no factors yet): export the rows to a file and fit it, in memory or with " + d.o("stream")
	var rules []Rule
	for _, name := range d.FactorOptions {
		rules = append(rules, Rule{Option: name, On: OnDB, Off: true, Why: "needs " + notDB})
	}
	none := r.Penalty == factor.NumericNone
	return append(rules,
		Rule{Option: "penalty", On: OnStream, Off: none, Why: "none leaves the numeric predictors beside factors unpenalised, which a streamed fit does not do yet (it penalises every predictor): leave out " + d.o("stream") + ", or use " + d.o("penalty") + " lasso"},
		Rule{Option: "penalty", On: OnDB, Off: none, Why: "none names the numeric predictors' penalty beside factors, which need " + notDB},
		Rule{Option: "merges", On: OnDB, Off: true, Why: "lists the merges of factor levels, which need " + notDB},
	)
}

// needing names the penalties that need the input in ("grouped").
func needing(in penalty.Input) string {
	return OrList(penalty.Names(func(k penalty.Kind) bool { return k.Needs == in }))
}

// factorsNames names the penalties that take penalty factors (the lasso
// and the elastic net).
func factorsNames() string {
	return OrList(penalty.Names(func(k penalty.Kind) bool { return k.Factors }))
}
