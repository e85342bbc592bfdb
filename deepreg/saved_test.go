package deepreg

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func savedOf(t *testing.T, bias bool) (*Saved, *Network) {
	t.Helper()
	net, err := New([]int{2, 3, 2}, []Activation{ReLU{}}, bias, 7)
	if err != nil {
		t.Fatal(err)
	}
	s := &Saved{Format: SavedFormat, Version: SavedVersion, Target: "y", Loss: "xent", Names: []string{"a", "b"},
		Classes: []float64{0, 1}}
	s.SetNetwork(net)
	return s, net
}

// A saved network rebuilds the network it was saved from.
func TestSavedRoundTrip(t *testing.T) {
	for _, bias := range []bool{false, true} {
		s, net := savedOf(t, bias)
		got, err := s.Network()
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
		x := mat.NewDense(3, 2, []float64{1, 2, -1, 0.5, 3, -2})
		want, _ := net.Predict(x)
		out, _ := got.Predict(x)
		if !mat.Equal(want, out) {
			t.Errorf("bias %v: the rebuilt network predicts differently", bias)
		}
	}
}

// Network and Check refuse a saved network that was edited.
func TestSavedRefusesEdits(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Saved)
		want string
	}{
		{"arch", func(s *Saved) { s.Arch = s.Arch[:2] }, "inconsistent architecture"},
		{"rows", func(s *Saved) { s.Weights[0] = s.Weights[0][:2] }, "weight matrix 0 has 2 rows"},
		{"row", func(s *Saved) { s.Weights[1][0] = []float64{1} }, "weight matrix 1, row 0 has 1 entries"},
		{"scale", func(s *Saved) { s.Center, s.Scale = []float64{0, 0}, []float64{1, 0} }, "input scales must be positive"},
		{"names", func(s *Saved) { s.Names = []string{"a"} }, "do not match the input width"},
		{"activation", func(s *Saved) { s.Activations = []string{"sigmoidish"} }, "sigmoidish"},
		{"classes", func(s *Saved) { s.Classes = []float64{1, 1} }, "classes not strictly increasing"},
		{"labels", func(s *Saved) { s.Classes, s.ClassLabels = nil, []string{"b", "a"} }, "class labels not strictly increasing"},
		{"both", func(s *Saved) { s.ClassLabels = []string{"a", "b"} }, "4 classes for 2 outputs"},
		{"loss", func(s *Saved) { s.Loss = "hinge" }, `unknown loss "hinge"`},
		{"squared", func(s *Saved) { s.Loss = "squared" }, "one output and no classes"},
		{"input names", func(s *Saved) { s.Names = []string{"a", "a"} }, `input name "a" is empty or repeated`},
		{"lambda", func(s *Saved) { s.Lambda = -1 }, "lambda: λ must be finite and ≥ 0, got -1"},
		// One bias too many indexed past the architecture (a panic).
		{"biases", func(s *Saved) { s.Biases = append(s.Biases, []float64{0}) }, "inconsistent biases"},
		// Huge widths with the weights the file holds: refused before the
		// 2²⁰ × 2²⁰ matrix is allocated (8 TiB).
		{"widths", func(s *Saved) { s.Arch[1] = 1 << 20; s.Arch[0] = 1 << 20 }, "weight matrix 0 has"},
	} {
		s, _ := savedOf(t, false)
		c.edit(s)
		_, err := s.Network()
		if err == nil {
			err = s.Check()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// Labels that all read as numbers are numeric classes, else text ones;
// each row gets its class's index.
func TestSetClasses(t *testing.T) {
	number := func(s string) (float64, bool) {
		v, err := strconv.ParseFloat(s, 64)
		return v, err == nil
	}
	var s Saved
	idx := s.SetClasses([]string{"9", "7", "9"}, number)
	if len(s.Classes) != 2 || s.Classes[0] != 7 || s.ClassLabels != nil || idx[0] != 1 || idx[1] != 0 {
		t.Errorf("numeric: classes %v, labels %v, indices %v", s.Classes, s.ClassLabels, idx)
	}
	s = Saved{}
	idx = s.SetClasses([]string{"dog", "cat", "7"}, number)
	if s.Classes != nil || strings.Join(s.ClassLabels, ",") != "7,cat,dog" || idx[0] != 2 || s.NumClasses() != 3 {
		t.Errorf("text: classes %v, labels %v, indices %v", s.Classes, s.ClassLabels, idx)
	}
}

// Predict picks the largest output's class (its label for text classes)
// or the output itself, and names the first row that is not finite;
// Inputs standardises by the saved centre and scale.
func TestSavedPredict(t *testing.T) {
	out := mat.NewDense(2, 2, []float64{0.1, 0.9, 3, -1})
	s := &Saved{Loss: "xent", Classes: []float64{7, 9}}
	p, err := s.Predict(out)
	if err != nil || p[0].Value != 9 || p[1].Value != 7 || p[0].IsLabel {
		t.Errorf("numeric classes: %+v, %v", p, err)
	}
	s = &Saved{Loss: "xent", ClassLabels: []string{"cat", "dog"}}
	if p, _ := s.Predict(out); p[0].Label != "dog" || !p[0].IsLabel {
		t.Errorf("text classes: %+v", p)
	}
	s = &Saved{Loss: "squared"}
	if p, _ := s.Predict(mat.NewDense(1, 1, []float64{2.5})); p[0].Value != 2.5 {
		t.Errorf("squared: %+v", p)
	}
	_, err = s.Predict(mat.NewDense(2, 1, []float64{1, math.Inf(1)}))
	var oe *OutputError
	if !errors.As(err, &oe) || oe.Row != 2 {
		t.Errorf("an infinite output: %v", err)
	}
	s = &Saved{Names: []string{"a", "b"}, Center: []float64{1, 2}, Scale: []float64{2, 4}}
	x := mat.NewDense(1, 2, []float64{5, 10})
	s.Inputs(x)
	if x.At(0, 0) != 2 || x.At(0, 1) != 2 {
		t.Errorf("standardised inputs %v", mat.Formatted(x))
	}
}
