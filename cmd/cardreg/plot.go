package main

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/cardsparse/cardreg/internal/glm"
	"github.com/cardsparse/cardreg/tensorreg"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// plotFormat returns the image format of a --plot file name.
func plotFormat(path string) (string, error) {
	switch ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), ".")); ext {
	case "png", "svg":
		return ext, nil
	}
	return "", usagef("--plot %s: the file must end in .png or .svg", path)
}

// savePlot writes p to path through writeOutput, so a failure leaves no
// partial image.
func savePlot(p *plot.Plot, path string) error {
	format, err := plotFormat(path)
	if err != nil {
		return err
	}
	wt, err := p.WriterTo(7*vg.Inch, 4.5*vg.Inch, format)
	if err != nil {
		return err
	}
	return writeOutput("--plot", path, nil, func(w io.Writer) error {
		_, err := wt.WriteTo(w)
		return err
	})
}

// pathCurves is what a path plot draws: the fits' λ, their coefficients
// (coef[k][j] for predictor j at lambdas[k]) and their numbers of distinct
// values. Every family's path gives one.
type pathCurves struct {
	lambdas  []float64
	coef     [][]float64
	distinct []int
}

// tensorCurves are the curves of a least-squares path (first response).
func tensorCurves(path *tensorreg.Path) pathCurves {
	var c pathCurves
	for _, m := range path.Models {
		c.lambdas = append(c.lambdas, m.Lambda)
		c.coef = append(c.coef, mat.Col(nil, 0, m.Coef))
		c.distinct = append(c.distinct, len(m.DistinctValues(0)))
	}
	return c
}

// glmCurves are the curves of a generalised linear path.
func glmCurves(path *glm.Path) pathCurves {
	var c pathCurves
	for _, m := range path.Models {
		c.lambdas = append(c.lambdas, m.Lambda)
		c.coef = append(c.coef, m.Coef)
		c.distinct = append(c.distinct, len(m.DistinctValues()))
	}
	return c
}

// plotPath draws every coefficient against λ (log scale), the way glmnet's
// plot.glmnet does with xvar = "lambda": one colour and dash pattern per
// predictor (32 distinct combinations), the legend in a column of its own
// beside the data, and along the top the number of distinct coefficient
// values at each λ (glmnet's degrees-of-freedom axis).
func plotPath(path pathCurves, names []string, file string) error {
	p := plot.New()
	p.Title.Text = "cardreg path"
	p.X.Label.Text = "λ (paper scale, log)"
	p.Y.Label.Text = "coefficient"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	var models []int // the fits with λ > 0, drawable on a log scale
	for k, lam := range path.lambdas {
		if lam > 0 {
			models = append(models, k)
		}
	}
	if len(models) == 0 {
		return errors.New("--plot: no λ > 0 on the path to draw on a log scale")
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for j, name := range names {
		pts := make(plotter.XYs, len(models))
		for k, m := range models {
			pts[k] = plotter.XY{X: path.lambdas[m], Y: path.coef[m][j]}
			lo, hi = min(lo, pts[k].Y), max(hi, pts[k].Y)
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		line.LineStyle = pathStyle(j)
		p.Add(line)
		legend.Add(name, line)
	}
	// The top axis: distinct values at a few λ, written just above the
	// curves.
	span := max(hi-lo, 1e-12*max(math.Abs(hi), 1))
	top := hi + 0.12*span
	p.Y.Min, p.Y.Max = lo-0.05*span, hi+0.2*span
	var at plotter.XYs
	var counts []string
	step := max(1, len(models)/8)
	for k := 0; k < len(models); k += step {
		at = append(at, plotter.XY{X: path.lambdas[models[k]], Y: top})
		counts = append(counts, fmt.Sprint(path.distinct[models[k]]))
	}
	labels, err := plotter.NewLabels(plotter.XYLabels{XYs: at, Labels: counts})
	if err != nil {
		return err
	}
	p.Add(labels)
	p.Title.Text = "cardreg path (top: number of distinct values)"
	return savePlotLegend(p, legend, len(names), file)
}

// pathStyle is the line style of curve i: colours cycle fastest, then
// dash patterns, so neighbours differ in colour and the first 32 in style.
func pathStyle(i int) draw.LineStyle {
	dashes := [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)}, {vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)}}
	return draw.LineStyle{Color: plotColor(i), Width: vg.Points(1.2), Dashes: dashes[(i/8)%len(dashes)]}
}

// savePlotLegend draws p with its legend in a column to its right, never
// over the data, and writes it like savePlot.
func savePlotLegend(p *plot.Plot, legend plot.Legend, entries int, path string) error {
	format, err := plotFormat(path)
	if err != nil {
		return err
	}
	w := 8.5 * vg.Inch
	h := max(4.5*vg.Inch, vg.Length(entries)*legend.TextStyle.Height("M")*1.25+vg.Inch)
	c, err := draw.NewFormattedCanvas(w, h, format)
	if err != nil {
		return err
	}
	dc := draw.New(c)
	side := 1.6 * vg.Inch
	p.Draw(draw.Crop(dc, 0, -side, 0, 0))
	legend.Draw(draw.Crop(dc, w-side, 0, 0, -vg.Points(30)))
	return writeOutput("--plot", path, nil, func(wr io.Writer) error {
		_, err := c.WriteTo(wr)
		return err
	})
}

// cvCurve is what a cross-validation plot draws: the mean held-out
// measure and its standard error at each λ, λ_min and λ_1se, and the
// measure's name for the axis.
type cvCurve struct {
	lambdas, mean, se   []float64
	lambdaMin, lambdaSE float64
	measure             string
}

// tensorCVCurve is the curve of a least-squares cross-validation.
func tensorCVCurve(cv *tensorreg.CV) cvCurve {
	return cvCurve{lambdas: cv.Lambdas, mean: cv.MeanError, se: cv.StdError, lambdaMin: cv.LambdaMin, lambdaSE: cv.LambdaSE,
		measure: "mean squared error"}
}

// glmCVCurve is the curve of a generalised linear cross-validation, its
// measure named as cv.glmnet's plot names it.
func glmCVCurve(cv *glm.CV, family string) cvCurve {
	name := map[string]string{"deviance": family + " deviance", "mse": "mean squared error", "mae": "mean absolute error",
		"class": "misclassification error", "auc": "AUC"}[cv.Measure]
	if name == "" {
		name = cv.Measure
	}
	return cvCurve{lambdas: cv.Lambdas, mean: cv.Mean, se: cv.SE, lambdaMin: cv.LambdaMin, lambdaSE: cv.LambdaSE, measure: name}
}

// plotCV draws the mean held-out measure with one-standard-error bars and
// marks λ_min and λ_1se.
func plotCV(cv cvCurve, file string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("cardreg cv: λ_min = %.4g, λ_1se = %.4g", cv.lambdaMin, cv.lambdaSE)
	p.X.Label.Text = "λ (paper scale, log)"
	p.Y.Label.Text = cv.measure + " (held out)"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	type point struct {
		plotter.XYs
		plotter.YErrors
	}
	var pts point
	for k, lam := range cv.lambdas {
		if lam > 0 {
			pts.XYs = append(pts.XYs, plotter.XY{X: lam, Y: cv.mean[k]})
			pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{cv.se[k], cv.se[k]})
		}
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
	for i, mark := range []struct {
		lam  float64
		name string
	}{{cv.lambdaMin, "λ_min"}, {cv.lambdaSE, "λ_1se"}} {
		lo, hi := minMax(cv.mean)
		line, err := plotter.NewLine(plotter.XYs{{X: mark.lam, Y: lo}, {X: mark.lam, Y: hi}})
		if err != nil {
			return err
		}
		line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		line.Color = plotColor(3 * i)
		p.Add(line)
		p.Legend.Add(mark.name, line)
	}
	return savePlot(p, file)
}

func minMax(v []float64) (lo, hi float64) {
	lo, hi = v[0], v[0]
	for _, x := range v {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}

// plotColor cycles through a few distinguishable colours.
func plotColor(i int) color.Color {
	palette := []color.RGBA{{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255},
		{148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255}}
	return palette[i%len(palette)]
}
