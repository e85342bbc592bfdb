package estimator

import (
	"math"

	"github.com/cardsparse/cardreg/internal/glm"
	"github.com/cardsparse/cardreg/internal/lsfit"
	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// Fit fits the model of opts to data d at one λ ≥ 0 with penalty pen acting
// on the penalised predictors. Non-convergence is not an error: see
// Model.Converged.
func Fit(d Data, pen penalty.Penalty, lambda float64, opts *Options) (*Model, error) {
	o := orDefault(opts)
	r, err := chooseRoute(d, pen, &o, "")
	if err != nil {
		return nil, err
	}
	return fitRoute(r, d, pen, lambda, &o)
}

// fitRoute is Fit on route r.
func fitRoute(r route, d Data, pen penalty.Penalty, lambda float64, o *Options) (*Model, error) {
	switch r {
	case lsRows:
		v := d.(*Rows)
		m, err := lsfit.Fit(v.X, shifted(v), pen, lambda, lsOptions(o))
		return wrapLS(m, err)
	case lsStats:
		s, err := statsOf(d, 1, 0, nil)
		if err != nil {
			return nil, err
		}
		m, err := wrapLS(lsfit.FitStats(s.Folds.All(), s.Q, pen, lambda, lsOptions(o)))
		if err == nil {
			m.Passes = passesOf(d)
		}
		return m, err
	case famScans:
		return scansFit(d.(*Scans), pen, lambda, o)
	case famStream:
		v := d.(*Stream)
		res, err := glm.FitSource(v.Source, v.P, pen, lambda, famOptions(o, nil))
		if err != nil {
			return nil, err
		}
		return fromGLM(res.Model, res.Passes), nil
	}
	v := d.(*Rows)
	if c := compressOf(v, o, nil, ""); c != nil {
		if m, err := glm.Fit(denseOf(c.rows.X), colOf(c.rows), pen, lambda, c.options(famOptions(o, c.rows))); err == nil {
			return fromGLM(m, 0), nil
		}
	}
	m, err := glm.Fit(denseOf(v.X), colOf(v), pen, lambda, famOptions(o, v))
	if err != nil {
		return nil, err
	}
	return fromGLM(m, 0), nil
}

// statsOf returns d's statistics: Stats with their weights rescaled to
// sum to n, Rows and a Stream gathered into k folds (fold ids from fold;
// a Stream without them is dealt by Folds under seed; Rows always come
// with theirs from foldsFor when k > 1).
func statsOf(d Data, k int, seed uint64, fold []int) (*Stats, error) {
	switch v := d.(type) {
	case *Stats:
		return normalised(v)
	case *Stream:
		return streamStats(v, k, seed, fold)
	}
	return rowStats(d.(*Rows), fold, k)
}

func wrapLS(m *lsfit.Model, err error) (*Model, error) {
	if err != nil {
		return nil, err
	}
	return fromLS(m), nil
}

func orDefault(opts *Options) Options {
	if opts == nil {
		return Options{}
	}
	return *opts
}

// lsOptions are o for the least-squares route.
func lsOptions(o *Options) *lsfit.Options {
	return &lsfit.Options{NoIntercept: o.NoIntercept, Standardize: o.Standardize,
		Relax: o.Relax, Settings: o.Settings, Method: o.Method}
}

// famOptions are o for the family route on rows r (nil for a stream).
func famOptions(o *Options, r *Rows) *glm.Options {
	g := &glm.Options{Family: o.family(), Unpenalized: o.Unpenalized, NoIntercept: o.NoIntercept,
		Relax: o.Relax, Standardize: o.Standardize, Settings: o.Settings, Method: o.Method}
	if r != nil {
		g.Weights, g.Offset = r.Weights, r.Offset
	}
	return g
}

// Path is a sequence of fits along a decreasing λ grid, each warm-started
// at the previous one.
type Path struct {
	// Lambdas is the grid (possibly cut short: Note).
	Lambdas []float64
	// Models holds one fit per λ.
	Models []*Model
	// LambdaMax is the smallest λ at which every penalised coefficient is
	// zero, LambdaFuse for the cardinality penalty of a gaussian fit the
	// smallest at which it is fully fused (NaN when not known).
	LambdaMax, LambdaFuse float64
	// Note says why a generated path stopped before the end of its grid.
	Note string
	// OutOfRange is non-nil when data far from unit scale put λ beyond
	// float64 on their own scale (the fits, on rescaled data, are right).
	OutOfRange error
	// Passes counts the passes over a Stream's rows, or the scans of Scans.
	Passes int
}

// FitPath fits the model along a decreasing λ grid (PathOptions), each fit
// warm-started at the previous solution. A generated grid stops early by
// glmnet's deviance rules for the family, gaussian included (Note;
// package internal/pathstop).
func FitPath(d Data, pen penalty.Penalty, opts *PathOptions) (*Path, error) {
	var po PathOptions
	if opts != nil {
		po = *opts
	}
	r, err := chooseRoute(d, pen, &po.Options, "")
	if err != nil {
		return nil, err
	}
	switch r {
	case lsRows:
		v := d.(*Rows)
		p, err := lsfit.FitPath(v.X, shifted(v), pen, lsPathOptions(&po))
		return wrapLSPath(p, err)
	case lsStats:
		s, err := statsOf(d, 1, 0, nil)
		if err != nil {
			return nil, err
		}
		p, err := wrapLSPath(lsfit.FitPathStats(s.Folds.All(), s.Q, pen, lsPathOptions(&po)))
		if err == nil {
			p.Passes = passesOf(d)
		}
		return p, err
	case famScans:
		r, err := scansRounds(d.(*Scans), pen, &glm.CVOptions{PathOptions: *famPathOptions(&po, nil)}, false)
		if err != nil {
			return nil, err
		}
		return fromGLMPath(r.Path, r.Scans), nil
	case famStream:
		v := d.(*Stream)
		if inRounds(&po.Options, "") {
			r, ok, err := streamRounds(v, pen, &glm.CVOptions{PathOptions: *famPathOptions(&po, nil)}, false, nil, 1, 0)
			if err != nil {
				return nil, err
			}
			if ok {
				return fromGLMPath(r.Path, r.Scans), nil
			}
		}
		sp, err := glm.FitPathSource(v.Source, v.P, pen, famPathOptions(&po, nil))
		if err != nil {
			return nil, err
		}
		p := fromGLMPath(sp.Path, sp.Passes)
		return p, nil
	}
	v := d.(*Rows)
	if c := compressOf(v, &po.Options, nil, ""); c != nil {
		if gp, err := glm.FitPath(denseOf(c.rows.X), colOf(c.rows), pen, c.pathOptions(famPathOptions(&po, c.rows))); err == nil {
			return fromGLMPath(gp, 0), nil
		}
	}
	gp, err := glm.FitPath(denseOf(v.X), colOf(v), pen, famPathOptions(&po, v))
	if err != nil {
		return nil, err
	}
	return fromGLMPath(gp, 0), nil
}

func lsPathOptions(po *PathOptions) *lsfit.PathOptions {
	return &lsfit.PathOptions{Options: *lsOptions(&po.Options), NLambda: po.NLambda,
		MinRatio: po.MinRatio, Lambdas: po.Lambdas, Progress: po.Progress}
}

func famPathOptions(po *PathOptions, r *Rows) *glm.PathOptions {
	return &glm.PathOptions{Options: *famOptions(&po.Options, r), Lambdas: po.Lambdas,
		NLambda: po.NLambda, MinRatio: po.MinRatio}
}

func wrapLSPath(t *lsfit.Path, err error) (*Path, error) {
	if err != nil {
		return nil, err
	}
	p := &Path{Lambdas: t.Lambdas, LambdaMax: t.LambdaMax, LambdaFuse: t.LambdaFuse, OutOfRange: t.OutOfRange, Note: t.Note}
	for _, m := range t.Models {
		p.Models = append(p.Models, fromLS(m))
	}
	return p, nil
}

func fromGLMPath(g *glm.Path, passes int) *Path {
	p := &Path{Lambdas: g.Lambdas, Note: g.Note, Passes: passes, LambdaMax: math.NaN(), LambdaFuse: math.NaN()}
	for _, m := range g.Models {
		p.Models = append(p.Models, fromGLM(m, 0))
	}
	return p
}

// colOf returns the one response of rows r.
func colOf(r *Rows) []float64 { return mat.Col(nil, 0, r.Y) }

// passesOf is the number of passes a fit from statistics made over d's
// rows: one for a Stream (gathering them), none for the other forms.
func passesOf(d Data) int {
	if _, ok := d.(*Stream); ok {
		return 1
	}
	return 0
}
