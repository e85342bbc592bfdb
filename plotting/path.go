package plotting

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/cardsparse/cardreg/estimator"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PathCurves is what a path plot draws: the fits' λ, their coefficients
// (Coef[k][j] for predictor j at Lambdas[k]) and their numbers of distinct
// values. Every family's path gives one.
type PathCurves struct {
	// Lambdas are the fits' λ, on the paper's scale.
	Lambdas []float64
	// Coef[k] holds the coefficients of the fit at Lambdas[k].
	Coef [][]float64
	// Distinct[k] is its number of distinct coefficient values.
	Distinct []int
}

// FromPath returns the curves of a path of any family (its first
// response).
func FromPath(path *estimator.Path) PathCurves {
	var c PathCurves
	for _, m := range path.Models {
		c.Lambdas = append(c.Lambdas, m.Lambda)
		c.Coef = append(c.Coef, mat.Col(nil, 0, m.Coef))
		c.Distinct = append(c.Distinct, len(m.DistinctValues(0)))
	}
	return c
}

// ErrNoPositiveLambda is Path's error for a path without λ > 0, which a
// log scale cannot draw.
var ErrNoPositiveLambda = errors.New("no λ > 0 on the path to draw on a log scale")

// Path draws every coefficient against λ (log scale), as glmnet's
// plot.glmnet does with xvar = "lambda": one colour and dash pattern per
// predictor (PathStyle), the legend in a column of its own beside the
// data, and along the top the number of distinct coefficient values at a
// few λ (glmnet's degrees-of-freedom axis). names are the predictors', one
// per column of the coefficients; format is png or svg.
func Path(c PathCurves, names []string, format string) (io.WriterTo, error) {
	p := plot.New()
	p.X.Label.Text = "λ (paper scale, log)"
	p.Y.Label.Text = "coefficient"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	var models []int // the fits with λ > 0, drawable on a log scale
	for k, lam := range c.Lambdas {
		if lam > 0 {
			models = append(models, k)
		}
	}
	if len(models) == 0 {
		return nil, ErrNoPositiveLambda
	}
	lo, hi, err := addCurves(p, &legend, c, models, names)
	if err != nil {
		return nil, err
	}
	if err := addDistinctAxis(p, c, models, lo, hi); err != nil {
		return nil, err
	}
	p.Title.Text = "cardreg path (top: number of distinct values)"
	return withLegend(p, legend, len(names), format)
}

// addCurves adds one line per predictor over the fits models, with its
// legend entry, and returns the range of the coefficients drawn.
func addCurves(p *plot.Plot, legend *plot.Legend, c PathCurves, models []int, names []string) (lo, hi float64, err error) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for j, name := range names {
		pts := make(plotter.XYs, len(models))
		for k, m := range models {
			pts[k] = plotter.XY{X: c.Lambdas[m], Y: c.Coef[m][j]}
			lo, hi = min(lo, pts[k].Y), max(hi, pts[k].Y)
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return 0, 0, err
		}
		line.LineStyle = PathStyle(j)
		p.Add(line)
		legend.Add(name, line)
	}
	return lo, hi, nil
}

// addDistinctAxis writes the numbers of distinct values at a few λ just
// above the curves, whose values span [lo, hi].
func addDistinctAxis(p *plot.Plot, c PathCurves, models []int, lo, hi float64) error {
	span := max(hi-lo, 1e-12*max(math.Abs(hi), 1))
	top := hi + 0.12*span
	p.Y.Min, p.Y.Max = lo-0.05*span, hi+0.2*span
	var at plotter.XYs
	var counts []string
	step := max(1, len(models)/8)
	for k := 0; k < len(models); k += step {
		at = append(at, plotter.XY{X: c.Lambdas[models[k]], Y: top})
		counts = append(counts, fmt.Sprint(c.Distinct[models[k]]))
	}
	labels, err := plotter.NewLabels(plotter.XYLabels{XYs: at, Labels: counts})
	if err != nil {
		return err
	}
	p.Add(labels)
	return nil
}

// withLegend draws p with its legend of entries lines in a column to its
// right, never over the data.
func withLegend(p *plot.Plot, legend plot.Legend, entries int, format string) (io.WriterTo, error) {
	w := 8.5 * vg.Inch
	h := max(4.5*vg.Inch, vg.Length(entries)*legend.TextStyle.Height("M")*1.25+vg.Inch)
	c, err := draw.NewFormattedCanvas(w, h, format)
	if err != nil {
		return nil, err
	}
	dc := draw.New(c)
	side := 1.6 * vg.Inch
	p.Draw(draw.Crop(dc, 0, -side, 0, 0))
	legend.Draw(draw.Crop(dc, w-side, 0, 0, -vg.Points(30)))
	return c, nil
}
