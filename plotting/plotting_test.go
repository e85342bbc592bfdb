package plotting

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/estimator"
)

// distinctStyles returns the set of styles of the first n curves.
func distinctStyles(n int) map[string]bool {
	seen := map[string]bool{}
	for i := range n {
		st := PathStyle(i)
		r, g, b, _ := st.Color.RGBA()
		seen[fmt.Sprint(r, g, b, st.Dashes)] = true
	}
	return seen
}

// The first 32 curves have 32 different (colour, dash) styles.
func TestPathStylesDistinct(t *testing.T) {
	for _, n := range []int{12, 32} {
		if got := len(distinctStyles(n)); got != n {
			t.Errorf("%d curves in %d styles", n, got)
		}
	}
}

func TestFormat(t *testing.T) {
	for name, want := range map[string]string{"a.png": "png", "b.SVG": "svg", "dir.x/c.svg": "svg", "d.pdf": "", "e": ""} {
		got, ok := Format(name)
		if got != want || ok != (want != "") {
			t.Errorf("Format(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
}

// The path plot names every predictor in its legend and writes the
// numbers of distinct values along the top; λ = 0 is left out, and a
// path with no λ > 0 is refused.
func TestPathDrawsLegendAndDistinctCounts(t *testing.T) {
	c := PathCurves{Lambdas: []float64{10, 1, 0.1, 0}, Coef: [][]float64{{0, 0}, {1, 1}, {2, 3}, {2, 4}}, Distinct: []int{1, 7, 9, 5}}
	wt, err := Path(c, []string{"alpha", "beta"}, "svg")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, want := range []string{">alpha<", ">beta<", ">7<", ">9<", "number of distinct values"} {
		if !strings.Contains(s, want) {
			t.Errorf("the SVG has no %s", want)
		}
	}
	if strings.Contains(s, ">5<") {
		t.Error("the fit at λ = 0 was drawn")
	}
	if _, err := Path(PathCurves{Lambdas: []float64{0}, Coef: [][]float64{{1, 2}}, Distinct: []int{2}}, []string{"a", "b"}, "png"); !errors.Is(err, ErrNoPositiveLambda) {
		t.Errorf("a path without λ > 0: %v", err)
	}
}

// The CV plot writes λ_min and λ_1se in its title and the measure's name
// on its axis, as PNG or SVG.
func TestCVDrawsItsMarks(t *testing.T) {
	cv := CVCurve{Lambdas: []float64{8, 4, 2, 1}, Mean: []float64{5, 3, 2.5, 2.6}, SE: []float64{0.5, 0.4, 0.3, 0.3},
		LambdaMin: 2, LambdaSE: 4, Measure: "mean squared error"}
	for _, format := range []string{"svg", "png"} {
		wt, err := CV(cv, format)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if _, err := wt.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		s := b.String()
		if format == "png" {
			if !strings.HasPrefix(s, "\x89PNG") {
				t.Error("not a PNG")
			}
			continue
		}
		for _, want := range []string{"λ_min = 2, λ_1se = 4", "mean squared error (held out)"} {
			if !strings.Contains(s, want) {
				t.Errorf("the SVG has no %q", want)
			}
		}
	}
}

// FromCV names the measures as cv.glmnet's plot does.
func TestCVMeasureNames(t *testing.T) {
	for measure, want := range map[string]string{"deviance": "binomial deviance", "class": "misclassification error", "auc": "AUC", "other": "other"} {
		if got := FromCV(&estimator.CV{Measure: measure}, "binomial").Measure; got != want {
			t.Errorf("%s: got %q, want %q", measure, got, want)
		}
	}
}

// A curve whose λ_min is 0 (a user's grid ending at 0) draws its λ > 0
// without that mark (it panicked inside gonum's log scale), and a curve
// with no λ > 0 is ErrNoPositiveLambda, as Path's.
func TestCVZeroLambda(t *testing.T) {
	cv := CVCurve{Lambdas: []float64{4, 2, 0}, Mean: []float64{5, 3, 2}, SE: []float64{0.5, 0.4, 0.3},
		LambdaMin: 0, LambdaSE: 2, Measure: "deviance"}
	wt, err := CV(cv, "svg")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wt.WriteTo(io.Discard); err != nil {
		t.Fatal(err)
	}
	cv.Lambdas = []float64{0, 0, 0}
	if _, err := CV(cv, "svg"); !errors.Is(err, ErrNoPositiveLambda) {
		t.Fatalf("got %v, want ErrNoPositiveLambda", err)
	}
}
