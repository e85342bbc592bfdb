package plotting

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// FactorCurves is what a factor plot draws: each factor's level effects
// along a path and its level groups at one λ of the path, Mark.
type FactorCurves struct {
	// Lambdas are the fits' λ, on the paper's scale.
	Lambdas []float64
	// Mark is the λ at which the groups were read, one of Lambdas; the
	// plot draws it as a dotted vertical line.
	Mark float64
	// Factors are the factors, in the design's order.
	Factors []FactorCurve
}

// FactorCurve is one factor of a FactorCurves.
type FactorCurve struct {
	// Name is the factor's, Levels its levels in level order, Ref the
	// index of its reference level and Ordinal says it is ordinal.
	Name    string
	Levels  []string
	Ref     int
	Ordinal bool
	// Effects[k][l] is level l's effect at the k-th λ (the reference's
	// is 0).
	Effects [][]float64
	// Groups[l] is level l's group at Mark: levels with the same number
	// share one effect there (factor.Design.Partition's numbering).
	Groups []int
}

// FromFactors returns the curves of every factor of design d along a path
// of any family (its first response), the groups read at the fit of the
// path nearest mark on a log scale; mark ≤ 0 (no λ to mark, as cardreg
// path has none) reads them at the middle fit of those with λ > 0,
// index n/2 of the n in decreasing λ order. It panics when the path has
// no fit with λ > 0 or its coefficients are not d's.
func FromFactors(path *estimator.Path, d *factor.Design, mark float64) FactorCurves {
	var c FactorCurves
	coefs := make([][]float64, len(path.Models))
	for k, m := range path.Models {
		c.Lambdas = append(c.Lambdas, m.Lambda)
		coefs[k] = m.Coefficients(0)
	}
	at := markFit(c.Lambdas, mark)
	c.Mark = c.Lambdas[at]
	for f, fc := range d.Factors {
		curve := FactorCurve{Name: fc.Name, Levels: fc.Levels, Ref: fc.Ref, Ordinal: fc.Ordinal,
			Groups: d.Partition(f, coefs[at])}
		for _, coef := range coefs {
			curve.Effects = append(curve.Effects, d.Effects(f, coef))
		}
		c.Factors = append(c.Factors, curve)
	}
	return c
}

// markFit returns the index of the λ > 0 nearest mark on a log scale, or
// for mark ≤ 0 the middle one (index n/2 of the n λ > 0 in their order);
// -1 when no λ is > 0.
func markFit(lambdas []float64, mark float64) int {
	var positive []int
	for k, lam := range lambdas {
		if lam > 0 {
			positive = append(positive, k)
		}
	}
	if len(positive) == 0 {
		return -1
	}
	if !(mark > 0) {
		return positive[len(positive)/2]
	}
	best := positive[0]
	for _, k := range positive {
		if math.Abs(math.Log(lambdas[k]/mark)) < math.Abs(math.Log(lambdas[best]/mark)) {
			best = k
		}
	}
	return best
}

// ErrNoFactor is Factors' error for curves without a factor.
var ErrNoFactor = errors.New("no factor to draw")

// Factor plot sizes: the width, the legend column's and a panel's least
// height.
const (
	factorWidth   = 8.5 * vg.Inch
	factorSide    = 2.2 * vg.Inch
	factorPanelMn = 2.3 * vg.Inch
)

// Factors draws each factor's level effects against λ (log scale), one
// panel per factor stacked with their λ axes aligned, as Path draws the
// coefficients: one line per level, the reference's the zero line (black).
// A level's colour is its group's at c.Mark (the dotted vertical line):
// the reference's group is grey, the other groups take Path's colours in
// order of decreasing effect at Mark (dashed after the seventh), so that
// the lines that fuse by Mark share a colour and the fusions at larger λ
// show as lines meeting. Each panel is titled "NAME (nominal|ordinal,
// reference R)" and its legend, in a column to its right, lists the groups
// at Mark by decreasing effect with their levels. format is png or svg.
// Factors panics when the lengths of c's fields disagree.
func Factors(c FactorCurves, format string) (io.WriterTo, error) {
	if len(c.Factors) == 0 {
		return nil, ErrNoFactor
	}
	at := markFit(c.Lambdas, c.Mark)
	if at < 0 {
		return nil, ErrNoPositiveLambda
	}
	var plots [][]*plot.Plot
	var legends []plot.Legend
	entries := 0
	for i, fc := range c.Factors {
		pn, err := factorPanel(c, fc, at)
		if err != nil {
			return nil, err
		}
		if i == len(c.Factors)-1 {
			pn.plot.X.Label.Text = "λ (paper scale, log)"
		}
		plots = append(plots, []*plot.Plot{pn.plot})
		legends = append(legends, pn.legend)
		entries = max(entries, pn.legendLines)
	}
	lineH := legends[0].TextStyle.Height("M") * 1.3
	panelH := max(factorPanelMn, vg.Length(entries)*lineH+vg.Inch)
	tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadY: vg.Points(12), PadTop: vg.Points(4), PadBottom: vg.Points(4)}
	h := vg.Length(len(plots))*panelH + vg.Length(len(plots)-1)*tiles.PadY + tiles.PadTop + tiles.PadBottom
	cv, err := draw.NewFormattedCanvas(factorWidth, h, format)
	if err != nil {
		return nil, err
	}
	dc := draw.New(cv)
	panels := plot.Align(plots, tiles, draw.Crop(dc, 0, -factorSide, 0, 0))
	for i, row := range panels {
		plots[i][0].Draw(row[0])
		side := dc
		side.Min = vg.Point{X: factorWidth - factorSide + vg.Points(6), Y: row[0].Min.Y}
		side.Max = vg.Point{X: factorWidth, Y: row[0].Max.Y - vg.Points(22)}
		legends[i].Draw(side)
	}
	return cv, nil
}

// panel is one factor's plot and its legend.
type panel struct {
	plot   *plot.Plot
	legend plot.Legend
	// legendLines counts the legend's lines, levelLines the lines drawn
	// for the levels.
	legendLines, levelLines int
}

// factorPanel returns the panel of factor fc of c, whose groups are read
// at fit at.
func factorPanel(c FactorCurves, fc FactorCurve, at int) (panel, error) {
	p := factorPlot(fc)
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	legend.TextStyle.Font.Size = vg.Points(10)
	legend.Padding = vg.Points(1.5)
	legend.Add(fmt.Sprintf("groups at λ = %.4g (dotted):", c.Lambdas[at]))
	styles, order := groupStyles(fc, at)
	lines, lo, hi, err := levelCurves(c, fc, styles)
	if err != nil {
		return panel{}, err
	}
	span := hi - lo
	if span == 0 {
		span = 1
	}
	p.Y.Min, p.Y.Max = lo-0.06*span, hi+0.06*span
	markLine, err := plotter.NewLine(plotter.XYs{{X: c.Lambdas[at], Y: p.Y.Min}, {X: c.Lambdas[at], Y: p.Y.Max}})
	if err != nil {
		return panel{}, err
	}
	markLine.LineStyle = draw.LineStyle{Color: color.Gray{Y: 110}, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(1), vg.Points(2.5)}}
	p.Add(markLine)
	addLevelCurves(p, fc, lines)
	legendLines := 1 + addGroupLegend(&legend, fc, order, lines)
	return panel{plot: p, legend: legend, legendLines: legendLines, levelLines: len(lines)}, nil
}

// factorPlot returns an empty plot titled for fc, with its axes: level
// effect against λ on a log scale.
func factorPlot(fc FactorCurve) *plot.Plot {
	p := plot.New()
	kind := "nominal"
	if fc.Ordinal {
		kind = "ordinal"
	}
	p.Title.Text = fmt.Sprintf("%s (%s, reference %s)", fc.Name, kind, fc.Levels[fc.Ref])
	p.Y.Label.Text = "level effect"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	return p
}

// levelCurves returns each level's line of effects over the fits with
// λ > 0, in styles, and the least and greatest effect drawn (0 included).
func levelCurves(c FactorCurves, fc FactorCurve, styles []draw.LineStyle) (lines []*plotter.Line, lo, hi float64, err error) {
	var models []int
	for k, lam := range c.Lambdas {
		if lam > 0 {
			models = append(models, k)
		}
	}
	lines = make([]*plotter.Line, len(fc.Levels))
	for l := range fc.Levels {
		pts := make(plotter.XYs, len(models))
		for i, k := range models {
			pts[i] = plotter.XY{X: c.Lambdas[k], Y: fc.Effects[k][l]}
			lo, hi = min(lo, pts[i].Y), max(hi, pts[i].Y)
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return nil, 0, 0, err
		}
		line.LineStyle = styles[l]
		lines[l] = line
	}
	return lines, lo, hi, nil
}

// addLevelCurves adds the levels' lines to p: the reference's group first,
// under the others, the reference last of it, on top.
func addLevelCurves(p *plot.Plot, fc FactorCurve, lines []*plotter.Line) {
	ref := fc.Groups[fc.Ref]
	for l := range fc.Levels {
		if fc.Groups[l] == ref && l != fc.Ref {
			p.Add(lines[l])
		}
	}
	p.Add(lines[fc.Ref])
	for l := range fc.Levels {
		if fc.Groups[l] != ref {
			p.Add(lines[l])
		}
	}
}

// addGroupLegend adds to legend the groups in order, each with its levels
// ("ref:" first for the reference's) and the line of its first level (of
// the reference), and returns the number of lines added.
func addGroupLegend(legend *plot.Legend, fc FactorCurve, order []int, lines []*plotter.Line) int {
	ref := fc.Groups[fc.Ref]
	added := 0
	for _, g := range order {
		var names []string
		first := -1
		for l, name := range fc.Levels {
			if fc.Groups[l] == g {
				names = append(names, name)
				if first < 0 {
					first = l
				}
			}
		}
		thumb := lines[first]
		if g == ref {
			names = append([]string{"ref:"}, names...)
			thumb = lines[fc.Ref]
		}
		label := groupLabel(names)
		added += len(label)
		for i, text := range label {
			if i == 0 {
				legend.Add(text, thumb)
				continue
			}
			legend.Add(text)
		}
	}
	return added
}

// groupStyles returns the line style of each level of fc and its groups
// at fit at by decreasing effect. The reference is black, the other
// levels of its group grey, and the other groups take Color's first seven
// colours (not its grey) in order of decreasing effect, dashed beyond
// seven groups as PathStyle is beyond eight.
func groupStyles(fc FactorCurve, at int) ([]draw.LineStyle, []int) {
	effect := map[int]float64{}
	for l, g := range fc.Groups {
		effect[g] = fc.Effects[at][l]
	}
	var order []int
	for g := range effect {
		order = append(order, g)
	}
	slices.SortFunc(order, func(a, b int) int {
		if effect[a] != effect[b] {
			if effect[a] > effect[b] {
				return -1
			}
			return 1
		}
		return a - b
	})
	ref := fc.Groups[fc.Ref]
	rank := map[int]int{}
	for _, g := range order {
		if g != ref {
			rank[g] = len(rank)
		}
	}
	dashes := [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)}, {vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)}}
	styles := make([]draw.LineStyle, len(fc.Levels))
	for l, g := range fc.Groups {
		switch {
		case l == fc.Ref:
			styles[l] = draw.LineStyle{Color: color.Black, Width: vg.Points(1.4)}
		case g == ref:
			styles[l] = draw.LineStyle{Color: color.Gray{Y: 160}, Width: vg.Points(1.4)}
		default:
			r := rank[g]
			styles[l] = draw.LineStyle{Color: Color(r % 7), Width: vg.Points(1.4), Dashes: dashes[(r/7)%len(dashes)]}
		}
	}
	return styles, order
}

// Legend lines: a group's levels are wrapped at labelWidth characters on
// at most labelLines lines, the last saying how many levels are left out.
const (
	labelWidth = 24
	labelLines = 3
)

// groupLabel writes a group's levels as the lines of its legend entry.
func groupLabel(levels []string) []string {
	var out []string
	var line strings.Builder
	for i, name := range levels {
		if line.Len() > 0 && utf8.RuneCountInString(line.String())+1+utf8.RuneCountInString(name) > labelWidth {
			if len(out) == labelLines-1 {
				fmt.Fprintf(&line, " … +%d", len(levels)-i)
				break
			}
			out = append(out, line.String())
			line.Reset()
		}
		if line.Len() > 0 {
			line.WriteByte(' ')
		}
		line.WriteString(name)
	}
	return append(out, line.String())
}
