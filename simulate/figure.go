package simulate

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure is a grid of gonum/plot panels drawn on one page.
type Figure struct {
	// Panels holds Rows×Cols plots in row-major order; nil leaves a tile
	// empty.
	Panels     []*plot.Plot
	Rows, Cols int
	// PanelWidth and PanelHeight are the size of one tile (defaults 5 in
	// by 3.5 in).
	PanelWidth, PanelHeight vg.Length
}

// NewFigure returns a figure of the panels laid out cols to a row.
func NewFigure(cols int, panels ...*plot.Plot) *Figure {
	cols = max(1, min(cols, len(panels)))
	return &Figure{Panels: panels, Rows: (len(panels) + cols - 1) / cols, Cols: cols}
}

// dpi is the resolution of the PNG files.
const dpi = 96

// Encode renders the figure as "png" or "svg". gonum/plot panics on data
// it cannot draw (a non-positive value on a log axis); that panic is
// returned as an error.
func (f *Figure) Encode(format string) (_ []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("drawing the figure: %v", p)
		}
	}()
	w, h := f.PanelWidth, f.PanelHeight
	if w == 0 {
		w = 5 * vg.Inch
	}
	if h == 0 {
		h = 3.5 * vg.Inch
	}
	w, h = w*vg.Length(f.Cols), h*vg.Length(f.Rows)
	var c vg.CanvasWriterTo
	switch format {
	case "png":
		img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))
		img.SetColor(color.White)
		img.Fill(vg.Rectangle{Max: vg.Point{X: w, Y: h}}.Path())
		c = vgimg.PngCanvas{Canvas: img}
	case "svg":
		c = vgsvg.New(w, h)
	default:
		return nil, fmt.Errorf("unknown figure format %q (png or svg)", format)
	}
	f.draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (f *Figure) draw(dc draw.Canvas) {
	grid := make([][]*plot.Plot, f.Rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, f.Cols)
		for j := range grid[i] {
			if k := i*f.Cols + j; k < len(f.Panels) {
				grid[i][j] = f.Panels[k]
			}
		}
	}
	tiles := draw.Tiles{Rows: f.Rows, Cols: f.Cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align(grid, tiles, dc)
	for i := range grid {
		for j, p := range grid[i] {
			if p != nil {
				p.Draw(canvases[i][j])
			}
		}
	}
}

// Palette is the figures' colours, one per method, in a fixed order so that
// a method keeps its colour across figures (Okabe–Ito, safe for colour
// vision deficiencies).
var Palette = []color.Color{
	color.RGBA{0, 0, 0, 255},       // black
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{86, 180, 233, 255},  // sky blue
	color.RGBA{0, 158, 115, 255},   // green
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{204, 121, 167, 255}, // purple
	color.RGBA{240, 228, 66, 255},  // yellow
}

// Series is one named line of a panel.
type Series struct {
	Name string
	XY   plotter.XYs
	// Low and High, when set, are the lower and upper ends of an interval
	// at each point, drawn as error bars.
	Low, High []float64
}

// LinePanel returns a panel with one line and markers per series, coloured
// from Palette in order. logX and logY select log scales (every value must
// then be positive).
func LinePanel(title, xlabel, ylabel string, logX, logY bool, series ...Series) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Legend.Top = true
	if logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks{}
	}
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	}
	p.Add(plotter.NewGrid())
	for i, s := range series {
		if len(s.XY) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(s.XY)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		c := Palette[i%len(Palette)]
		line.Color, points.Color = c, c
		line.Width = vg.Points(1.5)
		points.Shape = draw.CircleGlyph{}
		points.Radius = vg.Points(2)
		p.Add(line, points)
		p.Legend.Add(s.Name, line, points)
		if s.Low != nil {
			bars, err := errorBars(s)
			if err != nil {
				return nil, err
			}
			bars.Color = c
			p.Add(bars)
		}
	}
	return p, nil
}

// intervalXY carries a series' points and interval ends for plotter's
// error-bar interfaces.
type intervalXY struct {
	plotter.XYs
	low, high []float64
}

func (s intervalXY) YError(i int) (float64, float64) {
	return s.XYs[i].Y - s.low[i], s.high[i] - s.XYs[i].Y
}

func errorBars(s Series) (*plotter.YErrorBars, error) {
	if len(s.Low) != len(s.XY) || len(s.High) != len(s.XY) {
		return nil, fmt.Errorf("%s: %d points but %d/%d interval ends", s.Name, len(s.XY), len(s.Low), len(s.High))
	}
	return plotter.NewYErrorBars(intervalXY{s.XY, s.Low, s.High})
}

// logTicks labels 1, 2 and 5 times each power of ten on a log axis spanning
// less than three decades, so that a short axis still has labels (gonum/plot's
// LogTicks labels powers of ten only), and powers of ten beyond.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if lo <= 0 || hi <= lo {
		return nil
	}
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		base := math.Pow(10, e)
		for m := 1; m < 10; m++ {
			v := float64(m) * base
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || (hi/lo < 1000 && (m == 2 || m == 5)) {
				t.Label = strconv.FormatFloat(v, 'g', 3, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}
