package plotting

import (
	"image/color"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Format returns the image format of a file name from its extension, png
// or svg (in any case), and false for another extension.
func Format(name string) (string, bool) {
	switch ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(name), ".")); ext {
	case "png", "svg":
		return ext, true
	}
	return "", false
}

// PathStyle is the line style of curve i of a path plot: colours cycle
// fastest, then dash patterns, so that neighbours differ in colour and the
// first 32 curves in style.
func PathStyle(i int) draw.LineStyle {
	dashes := [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)}, {vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)}}
	return draw.LineStyle{Color: Color(i), Width: vg.Points(1.2), Dashes: dashes[(i/8)%len(dashes)]}
}

// Color cycles through eight distinguishable colours.
func Color(i int) color.Color {
	palette := []color.RGBA{{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255},
		{148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255}}
	return palette[i%len(palette)]
}
