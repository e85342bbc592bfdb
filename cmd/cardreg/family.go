package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/glm"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/plotting"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// familyFlags are the flags of generalised linear models, shared by fit,
// path and cv.
type familyFlags struct {
	family, offset, penaltyFactor, exclude, typeMeasure string
}

func (g *familyFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&g.family, "family", "gaussian", "response distribution: gaussian (least squares), binomial (logistic; response 0/1), poisson (log-linear; counts) or gamma (log link; positive amounts)")
	fs.StringVar(&g.offset, "offset", "", "column of offsets added to the linear predictor (glmnet's offset; e.g. log exposure for poisson)")
	fs.StringVar(&g.penaltyFactor, "penalty-factor", "", "lasso: one factor >= 0 per predictor (inline, comma separated, or a file with one per line); rescaled to sum to p as glmnet does; 0 leaves a predictor unpenalised")
	fs.StringVar(&g.exclude, "exclude", "", "predictors left out of the penalty (fitted unpenalised, outside the fusion), comma separated")
	fs.StringVar(&g.typeMeasure, "type-measure", "", "cross-validation measure (cv.glmnet's type.measure): deviance, mse, mae, and for binomial class, auc (default: mse for gaussian, deviance otherwise)")
}

// usesGLM reports whether the fit needs the generalised linear model
// route (package glm): a non-gaussian family, an offset, penalty factors,
// excluded predictors or a measure other than the gaussian MSE.
func (f *fitFlags) usesGLM() bool {
	g := f.fam
	return g.family != "gaussian" || g.offset != "" || g.penaltyFactor != "" || g.exclude != "" ||
		g.typeMeasure != "" && g.typeMeasure != "mse"
}

// validateFamily checks the family flags and what they combine with.
func (f *fitFlags) validateFamily() error {
	fam, err := datafit.ByName(f.fam.family)
	if err != nil {
		return usagef("unknown --family %q (%s)", f.fam.family, strings.Join(datafit.Names(), ", "))
	}
	if m := f.fam.typeMeasure; m != "" && !slices.Contains(glm.Measures(fam), m) {
		return usagef("--type-measure %s is not one of %s for --family %s", m, strings.Join(glm.Measures(fam), ", "), fam.Name())
	}
	if f.fam.penaltyFactor != "" && f.penalty != "lasso" {
		return usagef("--penalty-factor is for the lasso; for %s use --exclude to leave predictors unpenalised", f.penalty)
	}
	if !f.usesGLM() {
		return nil
	}
	what := "--family " + fam.Name()
	if fam.Name() == "gaussian" {
		what = "--offset, --penalty-factor, --exclude and --type-measure"
	}
	kind, _ := penalty.Lookup(f.penalty) // known: checked by validatePenalty
	switch {
	case !kind.GLM:
		return usagef("%s: --penalty %s is not supported yet (%s)", what, f.penalty, strings.Join(penalty.Names(func(k penalty.Kind) bool { return k.GLM }), ", "))
	case kind.Needs == penalty.NeedsGroups && f.fam.exclude != "":
		return usagef("--exclude does not combine with --penalty grouped yet: leave the predictors out of --groups' data instead")
	case f.lambda.theory():
		return usagef("%s: --lambda theory is least-squares theory; use cv or a number", what)
	case f.responses != "":
		return usagef("%s: one response at a time (--target)", what)
	case f.db != "":
		return usagef("%s: --db fits gaussian models only so far", what)
	}
	return nil
}

// glmProblem is a data file read for package glm.
type glmProblem struct {
	x          *mat.Dense
	y          []float64
	names      []string
	target     string
	dropped    int
	place      func(row int) string // where a data row is in the file (table.place)
	foldID     []int
	excluded   []string
	pen        penalty.Penalty
	nu         float64
	note       string
	opts       glm.Options
	constant   []string
	family     datafit.Family
	offsetName string
}

// loadGLM reads the data file and builds the options of a generalised
// linear model.
func loadGLM(path string, f *fitFlags) (*glmProblem, error) {
	r, err := readRows(path, f, nil)
	if err != nil {
		return nil, err
	}
	fam, _ := datafit.ByName(f.fam.family)
	gp := &glmProblem{family: fam, dropped: r.Dropped, offsetName: f.fam.offset, place: r.Places.Of,
		x: r.X, y: r.Y.RawMatrix().Data, names: r.Names, target: r.Responses[0], foldID: r.FoldID,
		constant: constantColumns(r.X, r.Names, f.noIntercept)}
	gp.opts.Weights, gp.opts.Offset = r.Weights, r.Offset
	if err := checkRows(path, len(gp.y)); err != nil {
		return nil, err
	}
	if err := gp.check(path, f); err != nil {
		return nil, err
	}
	return gp, gp.build(f)
}

// check validates the response, weights and offsets row by row, naming the
// file, the data row and the column.
func (gp *glmProblem) check(path string, f *fitFlags) error {
	d := &datafit.Data{X: gp.x, Y: gp.y, Weights: gp.opts.Weights, Offset: gp.opts.Offset, NoIntercept: f.noIntercept}
	err := d.Check(gp.family)
	if err == nil && !f.standardize {
		err = d.CheckScale()
	}
	var ce *datafit.ColumnError
	if errors.As(err, &ce) {
		return fmt.Errorf("%s: column %s: %v", path, data.ShortText([]byte(gp.names[ce.Col])), ce.Err)
	}
	var re *datafit.RowError
	if errors.As(err, &re) {
		spec := f.spec()
		return fmt.Errorf("%s: %s", gp.place(re.Row), spec.RowErrorText(re, gp.target))
	}
	if err != nil {
		return fmt.Errorf("%s: %v", path, strings.TrimPrefix(err.Error(), "datafit: "))
	}
	return nil
}

// build sets the penalty, the unpenalised predictors and the options.
func (gp *glmProblem) build(f *fitFlags) error {
	p := len(gp.names)
	var free []int
	for _, name := range splitList(f.fam.exclude) {
		j := slices.Index(gp.names, name)
		if j < 0 {
			return usagef("--exclude: %s is not a predictor (predictors: %s)", data.ShortText([]byte(name)), strings.Join(gp.names, ", "))
		}
		if !slices.Contains(free, j) {
			free = append(free, j)
		}
	}
	slices.Sort(free)
	if len(free) == p {
		return usagef("--exclude leaves no predictor to penalise")
	}
	var err error
	if gp.pen, gp.nu, gp.note, err = buildPenalty(f.penaltySpec(), p-len(free)); err != nil {
		return err
	}
	if f.fam.penaltyFactor != "" {
		if gp.pen, free, err = penaltyFactors(f.fam.penaltyFactor, p, free); err != nil {
			return err
		}
		gp.nu = 0
	}
	for _, j := range free {
		gp.excluded = append(gp.excluded, gp.names[j])
	}
	gp.opts.Family, gp.opts.Unpenalized = gp.family, free
	gp.opts.NoIntercept, gp.opts.Standardize, gp.opts.Relax = f.noIntercept, f.standardize, f.relax
	gp.opts.Settings = solver.Settings{Tol: f.tol, MaxIter: f.maxIter}
	return nil
}

// penaltyFactors reads --penalty-factor (inline or a file) for p
// predictors; predictors also in --exclude get factor 0.
func penaltyFactors(s string, p int, exclude []int) (penalty.Penalty, []int, error) {
	list, from, err := listOrFile(s)
	if err != nil {
		return nil, nil, err
	}
	if len(list) != p {
		if _, numErr := strconv.ParseFloat(strings.TrimSpace(s), 64); from == "" && len(list) == 1 && numErr != nil {
			return nil, nil, notAFile("--penalty-factor", s, p)
		}
		return nil, nil, usagef("--penalty-factor%s has %d values for %d predictors", from, len(list), p)
	}
	fs := make([]float64, p)
	for j, v := range list {
		if fs[j], err = strconv.ParseFloat(strings.TrimSpace(v), 64); err != nil || !(fs[j] >= 0) || math.IsInf(fs[j], 0) {
			return nil, nil, usagef("--penalty-factor%s: value %d, %s, is not a finite number >= 0", from, j+1, data.ShortText([]byte(v)))
		}
	}
	for _, j := range exclude {
		fs[j] = 0
	}
	// glm.PenaltyFactors rescales them (without overflow) and names them
	// as typed in its messages.
	pen, free, err := glm.PenaltyFactors(fs)
	if err != nil {
		return nil, nil, usagef("--penalty-factor: %v", strings.TrimPrefix(err.Error(), "glm: "))
	}
	return pen, free, nil
}

// glmFitFile is fitFile for a generalised linear model.
func glmFitFile(path string, f *fitFlags) (*fitResult, error) {
	if glmShouldStream(path, f, f.lambda.fixed()) {
		return glmStreamFit(path, f)
	}
	gp, err := loadGLM(path, f)
	if err != nil {
		return nil, err
	}
	n := len(gp.y)
	res := &fitResult{Penalty: f.penalty, NuNote: gp.note, N: n, P: len(gp.names), Names: gp.names, Target: gp.target,
		DroppedRows: gp.dropped, Constant: gp.constant, Family: gp.family.Name(), Link: gp.family.Link(), Unpenalized: gp.excluded,
		OffsetColumn: gp.offsetName, WeightsColumn: f.weights}
	if gp.nu > 0 {
		nu := gp.nu
		res.Nu = &nu
	}
	var model *glm.Model
	if f.lambda.onGrid() {
		cv, err := gp.crossValidate(f, &glm.PathOptions{Options: gp.opts})
		if err != nil {
			return nil, gp.explain(path, err, f, true)
		}
		k := cv.IndexMin
		if f.rule == "1se" {
			k = cv.IndexSE
		}
		model = cv.Path.Models[k]
		res.LambdaRule = "cv (" + cv.Measure + "), lambda_" + f.rule
		res.CV = &cvSummary{Folds: len(slices.Compact(slices.Sorted(slices.Values(cv.Folds)))), LambdaMin: cv.LambdaMin, Lambda1SE: cv.LambdaSE, Unconverged: cv.Unconverged}
	} else {
		lam := f.lambda.value // checked by validate
		if model, err = glm.Fit(gp.x, gp.y, gp.pen, lam, &gp.opts); err != nil {
			return nil, data.InFile(path, err)
		}
	}
	res.fillGLM(model, f.standardize)
	return res, nil
}

// crossValidate runs cv.glmnet-style cross-validation with the folds of
// --foldid or of --folds and --seed.
func (gp *glmProblem) crossValidate(f *fitFlags, po *glm.PathOptions) (*glm.CV, error) {
	id := gp.foldID
	if id == nil {
		if err := checkFolds("", len(gp.y), f.folds); err != nil {
			return nil, errors.New(strings.TrimPrefix(err.Error(), ": "))
		}
		id = foldID(len(gp.y), f.folds, f.seed)
	}
	cv, err := glm.CrossValidate(gp.x, gp.y, gp.pen, &glm.CVOptions{PathOptions: *po, FoldID: id, Measure: f.fam.typeMeasure})
	return cv, foldHint(err)
}

// foldHint adds the flags to a fold that cannot be fitted (glm.FoldError,
// glm.FoldWeightError).
func foldHint(err error) error {
	var fe *glm.FoldError
	var we *glm.FoldWeightError
	if errors.As(err, &fe) && fe.Rest > 1 || errors.As(err, &we) {
		return fmt.Errorf("%w (--foldid, --seed or --folds)", err)
	}
	return err
}

// explain names the file in the error of a fit on the generated λ grid,
// and the input that made λ_max overflow when it did (gridOverflow).
func (gp *glmProblem) explain(path string, err error, f *fitFlags, generated bool) error {
	if !generated {
		return data.InFile(path, err)
	}
	lmax := func(pen penalty.Penalty) float64 {
		v, _, err := glm.LambdaMax(gp.x, gp.y, pen, &gp.opts)
		if err != nil {
			return 0
		}
		return v
	}
	if e := gridOverflow(lmax, gp.pen, len(gp.names)-len(gp.excluded), f); e != nil {
		return data.InFile(path, e)
	}
	return data.InFile(path, err)
}

// fillGLM fills the result from a glm model.
func (r *fitResult) fillGLM(m *glm.Model, standardized bool) {
	r.Lambda = m.Lambda
	r.LambdaGlmnet = datafit.GlmnetLambda(m.Lambda, r.N)
	obj, dev, null, ratio := m.Objective, m.Deviance, m.NullDeviance, m.DevRatio
	r.Objective, r.Deviance, r.NullDeviance, r.DevRatio = &obj, &dev, &null, &ratio
	if !math.IsNaN(m.Gap) {
		g := m.Gap
		r.DualityGap = &g
	}
	r.Converged, r.Status, r.Iterations = m.Converged, m.Status.String(), m.Iterations
	r.Intercept, r.Coefficients, r.Relaxed, r.RelaxNote = m.Intercept, m.Coef, m.Relaxed, m.RelaxNote
	if m.RelaxNote != "" {
		r.Status = "the relaxed refit failed: " + m.RelaxNote
		if m.Status == solver.IterationLimit || m.Status == solver.Stalled {
			r.penalisedUnconverged = m.Status.String()
		}
	}
	r.DistinctValues = m.DistinctValues()
	r.ValueScale = "data"
	if standardized {
		r.ValueScale = "standardized"
	}
	for c, cl := range m.Clusters() {
		names := make([]string, len(cl))
		for k, i := range cl {
			names[k] = r.Names[i]
		}
		r.Clusters = append(r.Clusters, names)
		r.ClusterValues = append(r.ClusterValues, r.DistinctValues[len(r.DistinctValues)-1-c])
	}
	if m.Family.Name() == "gaussian" {
		r.R2 = &ratio
	}
}

// glmPathCV runs path or cv for a generalised linear model and returns the
// CSV and a warning.
func glmPathCV(cmd, path string, f *pathFlags) (string, string, error) {
	if glmShouldStream(path, f.fitFlags, cmd == "path" || f.fam.typeMeasure != "auc") {
		if cmd == "path" {
			return glmStreamPath(path, f)
		}
		return glmStreamCV(path, f)
	}
	gp, err := loadGLM(path, f.fitFlags)
	if err != nil {
		return "", "", err
	}
	po := &glm.PathOptions{Options: gp.opts, NLambda: f.nlambda, MinRatio: f.minRatio, Lambdas: f.lambda.list}
	if cmd == "path" {
		p, err := glm.FitPath(gp.x, gp.y, gp.pen, po)
		if err != nil {
			return "", "", gp.explain(path, err, f.fitFlags, f.lambda.list == nil)
		}
		if err := plotGLMPath(p, gp.names, f.plot); err != nil {
			return "", "", err
		}
		return glmPathCSV(gp.names, p), glmWarning(p, 0), nil
	}
	cv, err := gp.crossValidate(f.fitFlags, po)
	if err != nil {
		return "", "", gp.explain(path, err, f.fitFlags, f.lambda.list == nil)
	}
	if err := plotGLMCV(cv, gp.family.Name(), f.plot); err != nil {
		return "", "", err
	}
	return glmCVCSV(cv, len(gp.y)), glmWarning(cv.Path, cv.Unconverged), nil
}

// plotGLMPath draws a generalised linear path to file, when one is given.
func plotGLMPath(p *glm.Path, names []string, file string) error {
	if file == "" {
		return nil
	}
	return plotPath(plotting.GLMPath(p), names, file)
}

// plotGLMCV draws a generalised linear cross-validation to file, when one
// is given.
func plotGLMCV(cv *glm.CV, family, file string) error {
	if file == "" {
		return nil
	}
	return plotCV(plotting.GLMCV(cv, family), file)
}

// glmCVCSV is the table of a cross-validation of n observations: one row
// per λ.
func glmCVCSV(cv *glm.CV, n int) string {
	var b strings.Builder
	b.WriteString("lambda,lambda_glmnet,mean_error,std_error,distinct_values,mark\n")
	for k, lam := range cv.Lambdas {
		b.WriteString(strings.Join([]string{num(lam), num(datafit.GlmnetLambda(lam, n)), num(cv.Mean[k]), num(cv.SE[k]),
			strconv.Itoa(len(cv.Path.Models[k].DistinctValues())), mark(k, cv.IndexMin, cv.IndexSE)}, ",") + "\n")
	}
	return b.String()
}

// glmPathCSV is the table of a path: one row per λ.
func glmPathCSV(names []string, p *glm.Path) string {
	var b strings.Builder
	b.WriteString("lambda,objective,distinct_values,converged,dev_ratio," + strings.Join(csvNames(names), ",") + "\n")
	for _, m := range p.Models {
		row := []string{num(m.Lambda), num(m.Objective), strconv.Itoa(len(m.DistinctValues())), strconv.FormatBool(m.Converged), num(m.DevRatio)}
		for _, c := range m.Coef {
			row = append(row, num(c))
		}
		b.WriteString(strings.Join(row, ",") + "\n")
	}
	return b.String()
}

// mark names λ_min and λ_1se in a cv table.
func mark(k, kmin, kse int) string {
	switch {
	case k == kmin && k == kse:
		return "lambda_min lambda_1se"
	case k == kmin:
		return "lambda_min"
	case k == kse:
		return "lambda_1se"
	}
	return ""
}

// glmWarning says why a path stopped early and how many fits did not
// converge.
func glmWarning(p *glm.Path, folds int) string {
	var parts []string
	if p.Note != "" {
		parts = append(parts, "the path "+p.Note)
	}
	k, relax, note, stalled := 0, 0, "", false
	for _, m := range p.Models {
		switch {
		case m.RelaxNote != "":
			relax, note = relax+1, m.RelaxNote
		case !m.Converged:
			k++
			stalled = stalled || m.Status == solver.Stalled
		}
	}
	if k > 0 {
		parts = append(parts, fmt.Sprintf("%d of the %d path fits did not converge (column converged); %s", k, len(p.Models), convergeAdvice(stalled)))
	}
	if relax > 0 {
		parts = append(parts, fmt.Sprintf("--relax: at %d of the %d λ (column converged false) %s", relax, len(p.Models), note))
	}
	if folds > 0 {
		parts = append(parts, fmt.Sprintf("%d cross-validation fold fits did not converge (the curve includes them)", folds))
	}
	return strings.Join(parts, "; ")
}

// glmStreamFit fits a logistic or Poisson model at one λ by passes over
// the file (glm.FitSource).
func glmStreamFit(path string, f *fitFlags) (*fitResult, error) {
	if !f.lambda.fixed() {
		return nil, usagef("a streamed %s fit takes --lambda NUMBER; choose it with cardreg cv --stream (passes per Newton step, λ and fold), or fit in memory with a larger --memory", f.fam.family)
	}
	ss, err := newStreamSetup(path, f)
	if err != nil {
		return nil, err
	}
	lam := f.lambda.value // checked by validate
	sr, err := glm.FitSource(ss.src, ss.p, ss.pen, lam, ss.opts(f))
	if err != nil {
		return nil, ss.src.Explain(err)
	}
	res := &fitResult{Penalty: f.penalty, NuNote: ss.note, N: sr.N, P: ss.p, Names: ss.src.Names(), Target: ss.src.Target(),
		Family: ss.fam.Name(), Link: ss.fam.Link(), OffsetColumn: f.fam.offset, WeightsColumn: f.weights,
		Passes: ss.src.Passes()}
	if ss.nu > 0 {
		nu := ss.nu
		res.Nu = &nu
	}
	res.fillGLM(sr.Model, false)
	return res, nil
}

// glmStreamPath fits a logistic or Poisson path by passes over the file
// (glm.FitPathSource) and returns its table and a warning.
func glmStreamPath(path string, f *pathFlags) (string, string, error) {
	ss, err := newStreamSetup(path, f.fitFlags)
	if err != nil {
		return "", "", err
	}
	sp, err := glm.FitPathSource(ss.src, ss.p, ss.pen, &glm.PathOptions{Options: *ss.opts(f.fitFlags), NLambda: f.nlambda, MinRatio: f.minRatio, Lambdas: f.lambda.list})
	if err != nil {
		return "", "", ss.explain(path, err, f)
	}
	if err := plotGLMPath(sp.Path, ss.src.Names(), f.plot); err != nil {
		return "", "", err
	}
	warn := glmWarning(sp.Path, 0)
	fmt.Fprintf(f.stderr, "cardreg path: streamed %s in %d passes\n", path, sp.Passes)
	return glmPathCSV(ss.src.Names(), sp.Path), warn, nil
}

// glmStreamCV cross-validates a logistic or Poisson path by passes over
// the file (glm.CrossValidateSource) and returns its table and a warning.
func glmStreamCV(path string, f *pathFlags) (string, string, error) {
	if f.fam.typeMeasure == "auc" {
		return "", "", usagef("a streamed cross-validation cannot score --type-measure auc (it needs every held-out prediction at once); use another measure, or cv in memory")
	}
	ss, err := newStreamSetup(path, f.fitFlags)
	if err != nil {
		return "", "", err
	}
	po := glm.PathOptions{Options: *ss.opts(f.fitFlags), NLambda: f.nlambda, MinRatio: f.minRatio, Lambdas: f.lambda.list}
	sc, err := glm.CrossValidateSource(ss.src, ss.p, ss.pen, &glm.CVOptions{PathOptions: po, Folds: f.folds, Seed: f.seed, Measure: f.fam.typeMeasure})
	if err != nil {
		return "", "", ss.explain(path, foldHint(err), f)
	}
	if err := plotGLMCV(sc.CV, ss.fam.Name(), f.plot); err != nil {
		return "", "", err
	}
	fmt.Fprintf(f.stderr, "cardreg cv: streamed %s in %d passes\n", path, sc.Passes)
	return glmCVCSV(sc.CV, sc.Path.Models[0].N), glmWarning(sc.Path, sc.Unconverged), nil
}

// glmShouldStream reports whether a generalised linear fit streams: when
// asked (--stream: what cannot stream is then refused with a message), or
// by itself above --memory for a logistic or Poisson fit whose flags can
// stream (ok says the command's own can).
func glmShouldStream(path string, f *fitFlags, ok bool) bool {
	if f.stream {
		return true
	}
	streamable := ok && f.fam.family != "gaussian" && f.fam.exclude == "" && f.fam.penaltyFactor == "" &&
		!f.standardize && !f.relax && f.foldid == ""
	return streamable && shouldStream(path, f)
}

// streamSetup is what a streamed logistic or Poisson fit needs before its
// passes: the source (after a first pass that learns the predictors), the
// family and the penalty.
type streamSetup struct {
	src  *data.FileSource
	p    int
	fam  datafit.Family
	pen  penalty.Penalty
	nu   float64
	note string
}

func newStreamSetup(path string, f *fitFlags) (*streamSetup, error) {
	if f.fam.exclude != "" || f.fam.penaltyFactor != "" || f.standardize || f.relax || f.foldid != "" {
		return nil, usagef("a streamed %s fit does not take --exclude, --penalty-factor, --standardize, --relax or --foldid yet", f.fam.family)
	}
	if err := rereadable(path, f.fam.family); err != nil {
		return nil, err
	}
	fam, _ := datafit.ByName(f.fam.family)
	ss := &streamSetup{src: data.NewFileSource(path, f.spec()), fam: fam}
	ss.src.Check = func(p int) error { return checkNewton(p, f) }
	n, err := ss.src.Scan()
	if err != nil {
		return nil, err
	}
	ss.p = len(ss.src.Names())
	if err := checkRows(path, n); err != nil {
		return nil, err
	}
	ss.pen, ss.nu, ss.note, err = buildPenalty(f.penaltySpec(), ss.p)
	return ss, err
}

// rereadable refuses to stream a logistic or Poisson fit from standard
// input or another file that cannot be read twice (a pipe): such a fit
// reads its data once per Newton step.
func rereadable(path, family string) error {
	what := data.OnlyOnce(path)
	if what == "" {
		return nil
	}
	return usagef("a streamed %s fit reads its data once per Newton step, but %s can be read only once: write the data to a file and give its name, or leave out --stream to fit in memory", family, what)
}

// explain names the file in the error of a streamed path or
// cross-validation, and --nu when it made the generated grid fail
// (nuOverflow; the probe fits the grid's top alone, a few passes).
func (ss *streamSetup) explain(path string, err error, f *pathFlags) error {
	if f.lambda.list == nil {
		top := func(pen penalty.Penalty) bool {
			_, err := glm.FitPathSource(ss.src, ss.p, pen, &glm.PathOptions{Options: *ss.opts(f.fitFlags), NLambda: 1})
			return err == nil
		}
		if e := nuOverflow(top, ss.pen, ss.p, f.fitFlags, err); e != nil {
			return data.InFile(path, e)
		}
	}
	return ss.src.Explain(err)
}

func (ss *streamSetup) opts(f *fitFlags) *glm.Options {
	return &glm.Options{Family: ss.fam, NoIntercept: f.noIntercept, Settings: solver.Settings{Tol: f.tol, MaxIter: f.maxIter}}
}
