package plotting

import (
	"bytes"
	"errors"
	"image/color"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
	"gonum.org/v1/gonum/mat"
)

// factorPath is a synthetic path of x0 (numeric), g (nominal, levels a b
// c d, reference a: columns 1 to 3) and o (ordinal, levels 1 2 3,
// reference 1: columns 4 and 5): at λ = 8 everything is at the
// references, at λ = 2 b and c share 0.5 and o's 2 is fused with 1, at
// λ = 0.5 every level is apart.
func factorPath(t *testing.T) (*estimator.Path, *factor.Design) {
	t.Helper()
	g := &data.Factor{Name: "g", Levels: []string{"a", "b", "c", "d"}, Ref: 0, Codes: []int32{0, 1, 2, 3}, Counts: []float64{1, 1, 1, 1}}
	o := &data.Factor{Name: "o", Levels: []string{"1", "2", "3"}, Ordinal: true, Codes: []int32{0, 1, 2, 2}, Counts: []float64{1, 1, 2}}
	d, err := factor.NewDesign([]string{"x0", "g=b", "g=c", "g=d", "o=2", "o=3"}, []*data.Factor{g, o}, [][]int{{1, 2, 3}, {4, 5}})
	if err != nil {
		t.Fatal(err)
	}
	coefs := map[float64][]float64{
		8:   {0.1, 0, 0, 0, 0, 0},
		4:   {0.2, 0.3, 0.3, 0, 0, 0.2},
		2:   {0.3, 0.5, 0.5, -0.2, 0, 0.4},
		1:   {0.3, 0.7, 0.6, -0.4, 0.1, 0.5},
		0.5: {0.3, 0.8, 0.6, -0.5, 0.15, 0.5},
	}
	path := &estimator.Path{}
	for _, lam := range []float64{8, 4, 2, 1, 0.5} {
		path.Lambdas = append(path.Lambdas, lam)
		path.Models = append(path.Models, &estimator.Model{Lambda: lam, Coef: mat.NewDense(6, 1, coefs[lam])})
	}
	return path, d
}

// FromFactors reads the groups at the fit nearest the mark (on a log
// scale), or at the path's middle fit without one.
func TestFromFactorsMark(t *testing.T) {
	path, d := factorPath(t)
	for _, tc := range []struct {
		name string
		mark float64
		want float64
		g, o []int
	}{
		{"middle", 0, 2, []int{0, 1, 1, 2}, []int{0, 0, 1}},
		{"nearest on a log scale", 1.3, 1, []int{0, 1, 2, 3}, []int{0, 1, 2}},
		{"above the path", 100, 8, []int{0, 0, 0, 0}, []int{0, 0, 0}},
	} {
		c := FromFactors(path, d, tc.mark)
		if c.Mark != tc.want {
			t.Errorf("%s: mark %g, want %g", tc.name, c.Mark, tc.want)
		}
		if !slices.Equal(c.Factors[0].Groups, tc.g) || !slices.Equal(c.Factors[1].Groups, tc.o) {
			t.Errorf("%s: groups %v %v, want %v %v", tc.name, c.Factors[0].Groups, c.Factors[1].Groups, tc.g, tc.o)
		}
	}
	c := FromFactors(path, d, 0)
	if got := c.Factors[0].Effects[2]; !slices.Equal(got, []float64{0, 0.5, 0.5, -0.2}) {
		t.Errorf("g's effects at λ = 2: %v", got)
	}
	if fc := c.Factors[1]; fc.Name != "o" || !fc.Ordinal || fc.Levels[fc.Ref] != "1" {
		t.Errorf("factor o: %+v", fc)
	}
}

// At the mark, the reference is black, the levels fused with it grey, and
// the other groups coloured by decreasing effect, the levels of one group
// alike; the legend lists the groups.
func TestFactorGroupColours(t *testing.T) {
	path, d := factorPath(t)
	c := FromFactors(path, d, 0) // λ = 2: g {a} {b c} {d}, o {1 2} {3}
	g := c.Factors[0]
	styles, order := groupStyles(g, 2)
	if styles[0].Color != color.Black {
		t.Errorf("reference a: %v", styles[0].Color)
	}
	if styles[1].Color != Color(0) || styles[2].Color != Color(0) || styles[3].Color != Color(1) {
		t.Errorf("b c d: %v %v %v, want b c in %v, d in %v", styles[1].Color, styles[2].Color, styles[3].Color, Color(0), Color(1))
	}
	if !slices.Equal(order, []int{1, 0, 2}) {
		t.Errorf("groups by decreasing effect: %v", order)
	}
	o := c.Factors[1]
	styles, _ = groupStyles(o, 2)
	if styles[1].Color != (color.Gray{Y: 160}) || styles[2].Color != Color(0) {
		t.Errorf("o's 2 (fused with the reference) and 3: %v %v", styles[1].Color, styles[2].Color)
	}
}

// Factors draws one panel per factor titled by its kind and reference,
// one line per level (PNG or SVG); in the SVG the level lines and the
// legend's thumbnails are the paths of width 1.4, as many as the levels
// and the groups.
func TestFactorsRenders(t *testing.T) {
	path, d := factorPath(t)
	c := FromFactors(path, d, 0)
	for _, format := range []string{"png", "svg"} {
		wt, err := Factors(c, format)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if _, err := wt.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		s := b.String()
		if format == "png" {
			if !strings.HasPrefix(s, "\x89PNG\r\n\x1a\n") || b.Len() < 1000 {
				t.Errorf("not a PNG (%d bytes)", b.Len())
			}
			continue
		}
		for _, want := range []string{"g (nominal, reference a)", "o (ordinal, reference 1)", ">b c<", ">ref: 1 2<", "groups at λ = 2 (dotted):"} {
			if !strings.Contains(s, want) {
				t.Errorf("the SVG has no %q", want)
			}
		}
		// 7 levels and 5 groups.
		if got := strings.Count(s, "stroke-width:1.4\""); got != 7+5 {
			t.Errorf("%d level lines and thumbnails, want 12", got)
		}
	}
	for i, fc := range c.Factors {
		pn, err := factorPanel(c, fc, 2)
		if err != nil {
			t.Fatal(err)
		}
		if pn.levelLines != len(fc.Levels) {
			t.Errorf("factor %d: %d lines for %d levels", i, pn.levelLines, len(fc.Levels))
		}
	}
}

// Factors refuses curves without a factor or without λ > 0.
func TestFactorsRefuses(t *testing.T) {
	if _, err := Factors(FactorCurves{Lambdas: []float64{1}}, "png"); !errors.Is(err, ErrNoFactor) {
		t.Errorf("no factor: %v", err)
	}
	c := FactorCurves{Lambdas: []float64{0}, Factors: []FactorCurve{{Name: "g", Levels: []string{"a", "b"}, Effects: [][]float64{{0, 1}}, Groups: []int{0, 1}}}}
	if _, err := Factors(c, "png"); !errors.Is(err, ErrNoPositiveLambda) {
		t.Errorf("no λ > 0: %v", err)
	}
}

// A long group is wrapped on at most three legend lines.
func TestGroupLabel(t *testing.T) {
	var levels []string
	for i := range 40 {
		levels = append(levels, "R"+strconv.Itoa(i))
	}
	got := groupLabel(levels)
	if len(got) != labelLines || !strings.HasSuffix(got[2], "… +"+strconv.Itoa(40-strings.Count(strings.Join(got, " "), "R"))) {
		t.Errorf("%q", got)
	}
	if got := groupLabel([]string{"a", "b"}); !slices.Equal(got, []string{"a b"}) {
		t.Errorf("%q", got)
	}
}
