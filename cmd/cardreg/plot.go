package main

import (
	"fmt"
	"image/color"
	"io"
	"path/filepath"
	"strings"

	"github.com/cardsparse/cardreg/tensorreg"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
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

// plotPath draws every coefficient against λ (log scale), the way glmnet's
// plot.glmnet does with xvar = "lambda".
func plotPath(path *tensorreg.Path, names []string, file string) error {
	p := plot.New()
	p.Title.Text = "cardreg path"
	p.X.Label.Text = "λ (paper scale, log)"
	p.Y.Label.Text = "coefficient"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	for j, name := range names {
		pts := make(plotter.XYs, 0, len(path.Models))
		for _, m := range path.Models {
			if m.Lambda > 0 {
				pts = append(pts, plotter.XY{X: m.Lambda, Y: m.Coef.At(j, 0)})
			}
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		line.Color = plotColor(j)
		p.Add(line)
		if len(names) <= 12 {
			p.Legend.Add(name, line)
		}
	}
	return savePlot(p, file)
}

// plotCV draws the mean held-out error with one-standard-error bars and
// marks λ_min and λ_1se.
func plotCV(cv *tensorreg.CV, file string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("cardreg cv: λ_min = %.4g, λ_1se = %.4g", cv.LambdaMin, cv.LambdaSE)
	p.X.Label.Text = "λ (paper scale, log)"
	p.Y.Label.Text = "mean squared error (held out)"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	type point struct {
		plotter.XYs
		plotter.YErrors
	}
	var pts point
	for k, lam := range cv.Lambdas {
		if lam > 0 {
			pts.XYs = append(pts.XYs, plotter.XY{X: lam, Y: cv.MeanError[k]})
			pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{cv.StdError[k], cv.StdError[k]})
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
	}{{cv.LambdaMin, "λ_min"}, {cv.LambdaSE, "λ_1se"}} {
		lo, hi := minMax(cv.MeanError)
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
