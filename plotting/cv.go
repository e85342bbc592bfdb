package plotting

import (
	"fmt"
	"io"

	"github.com/cardsparse/cardreg/estimator"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// CVCurve is what a cross-validation plot draws: the mean held-out
// measure and its standard error at each λ, λ_min and λ_1se, and the
// measure's name for the axis.
type CVCurve struct {
	// Lambdas are the grid's λ; Mean and SE the mean held-out measure and
	// its standard error at each.
	Lambdas, Mean, SE []float64
	// LambdaMin and LambdaSE are λ_min and λ_1se.
	LambdaMin, LambdaSE float64
	// Measure names the measure on the axis.
	Measure string
}

// measureNames are the measures' names as cv.glmnet's plot writes them
// (deviance is prefixed by the family).
var measureNames = map[string]string{"deviance": " deviance", "mse": "mean squared error", "mae": "mean absolute error",
	"class": "misclassification error", "auc": "AUC"}

// FromCV returns the curve of a cross-validation of family, its measure
// named as cv.glmnet's plot names it.
func FromCV(cv *estimator.CV, family string) CVCurve {
	return CVCurve{Lambdas: cv.Lambdas, Mean: cv.Mean, SE: cv.SE, LambdaMin: cv.LambdaMin, LambdaSE: cv.LambdaSE,
		Measure: measureName(cv.Measure, family)}
}

// measureName is the axis name of measure for family.
func measureName(measure, family string) string {
	name, ok := measureNames[measure]
	switch {
	case !ok:
		return measure
	case measure == "deviance":
		return family + name
	}
	return name
}

// CV draws the mean held-out measure with one-standard-error bars against
// λ (log scale; λ = 0 is left out) and marks λ_min and λ_1se; format is
// png or svg.
func CV(cv CVCurve, format string) (io.WriterTo, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("cardreg cv: λ_min = %.4g, λ_1se = %.4g", cv.LambdaMin, cv.LambdaSE)
	p.X.Label.Text = "λ (paper scale, log)"
	p.Y.Label.Text = cv.Measure + " (held out)"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	if err := addPoints(p, cv); err != nil {
		return nil, err
	}
	lo, hi := minMax(cv.Mean)
	for i, mark := range []struct {
		lam  float64
		name string
	}{{cv.LambdaMin, "λ_min"}, {cv.LambdaSE, "λ_1se"}} {
		if !(mark.lam > 0) {
			continue // not on the log scale (addPoints left such λ out too)
		}
		line, err := plotter.NewLine(plotter.XYs{{X: mark.lam, Y: lo}, {X: mark.lam, Y: hi}})
		if err != nil {
			return nil, err
		}
		line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		line.Color = Color(3 * i)
		p.Add(line)
		p.Legend.Add(mark.name, line)
	}
	return p.WriterTo(7*vg.Inch, 4.5*vg.Inch, format)
}

// addPoints adds the curve's points with λ > 0 and their error bars.
func addPoints(p *plot.Plot, cv CVCurve) error {
	type point struct {
		plotter.XYs
		plotter.YErrors
	}
	var pts point
	for k, lam := range cv.Lambdas {
		if lam > 0 {
			pts.XYs = append(pts.XYs, plotter.XY{X: lam, Y: cv.Mean[k]})
			pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{cv.SE[k], cv.SE[k]})
		}
	}
	if len(pts.XYs) == 0 {
		return ErrNoPositiveLambda
	}
	scatter, err := plotter.NewScatter(pts.XYs)
	if err != nil {
		return err
	}
	bars, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return err
	}
	p.Add(scatter, bars)
	return nil
}

// minMax returns the smallest and the largest of v (not empty).
func minMax(v []float64) (lo, hi float64) {
	lo, hi = v[0], v[0]
	for _, x := range v {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}
