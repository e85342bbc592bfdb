package estimator

import (
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
		return lsfit.Fit(v.X, shifted(v), pen, lambda, o)
	case lsStats:
		s, err := statsOf(d, 1, 0, nil)
		if err != nil {
			return nil, err
		}
		m, err := lsfit.FitStats(s.Folds.All(), s.Q, pen, lambda, o)
		if err == nil {
			m.Passes = passesOf(d)
		}
		return m, err
	case famScans:
		return scansFit(d.(*Scans), pen, lambda, o)
	case famStream:
		v := d.(*Stream)
		return glm.FitSource(v.Source, v.P, pen, lambda, o)
	}
	v := d.(*Rows)
	if c := compressOf(v, o, nil, ""); c != nil {
		if m, err := glm.Fit(c.glmRows(), pen, lambda, o); err == nil {
			return m, nil
		}
	}
	return glm.Fit(glmRows(v), pen, lambda, o)
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

func orDefault(opts *Options) Options {
	if opts == nil {
		return Options{}
	}
	return *opts
}

// glmRows are rows r as the family engine holds them.
func glmRows(r *Rows) *glm.Rows {
	return &glm.Rows{X: denseOf(r.X), Design: designOf(r.X), Y: colOf(r), Weights: r.Weights, Offset: r.Offset}
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
		return lsfit.FitPath(v.X, shifted(v), pen, &po)
	case lsStats:
		s, err := statsOf(d, 1, 0, nil)
		if err != nil {
			return nil, err
		}
		p, err := lsfit.FitPathStats(s.Folds.All(), s.Q, pen, &po)
		if err == nil {
			p.Passes = passesOf(d)
		}
		return p, err
	case famScans:
		r, err := scansRounds(d.(*Scans), pen, &CVOptions{PathOptions: po}, false)
		if err != nil {
			return nil, err
		}
		return r.Path, nil
	case famStream:
		return streamPath(d.(*Stream), pen, &po)
	}
	v := d.(*Rows)
	if c := compressOf(v, &po.Options, nil, ""); c != nil {
		if gp, err := glm.FitPath(c.glmRows(), pen, &po); err == nil {
			return gp, nil
		}
	}
	return glm.FitPath(glmRows(v), pen, &po)
}

// streamPath is FitPath of a Stream: in rounds when they apply, else by
// passes.
func streamPath(v *Stream, pen penalty.Penalty, po *PathOptions) (*Path, error) {
	if inRounds(&po.Options, "") {
		r, ok, err := streamRounds(v, pen, &CVOptions{PathOptions: *po}, false, nil, 1, 0)
		if err != nil {
			return nil, err
		}
		if ok {
			return r.Path, nil
		}
	}
	return glm.FitPathSource(v.Source, v.P, pen, po)
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
