package deepreg

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cardsparse/cardreg/internal/names"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// The saved network's format; a reader tells it from another model file
// by Format.
const (
	SavedFormat  = "cardreg-network"
	SavedVersion = 1
)

// Saved is a trained network as cardreg net --save-model writes it and
// cardreg predict reads it: the network, what it was trained for, and how
// its inputs are found (by name) and standardised.
type Saved struct {
	// Format and Version are SavedFormat and SavedVersion.
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Target names the response column; Loss is "squared" or "xent".
	Target string `json:"target"`
	Loss   string `json:"loss"`
	// Penalty, Lambda and Nu describe the penalty trained with.
	Penalty string  `json:"penalty"`
	Lambda  float64 `json:"lambda"`
	Nu      float64 `json:"nu,omitempty"`
	// Names are the input columns, in the order of the first layer.
	Names []string `json:"names"`
	// Classes (numbers, increasing) or ClassLabels (text, increasing) are
	// the classes of an xent network, one per output.
	Classes     []float64 `json:"classes,omitempty"`
	ClassLabels []string  `json:"class_labels,omitempty"`
	// Center and Scale standardise the inputs (both nil when not).
	Center []float64 `json:"center,omitempty"`
	Scale  []float64 `json:"scale,omitempty"`
	// Arch are the layer widths, Activations the hidden layers', Weights
	// the rows of each weight matrix and Biases the biases (none when the
	// network has none).
	Arch        []int         `json:"arch"`
	Activations []string      `json:"activations"`
	Weights     [][][]float64 `json:"weights"`
	Biases      [][]float64   `json:"biases,omitempty"`
}

// NumClasses returns the number of classes (0 for a squared-loss network).
func (s *Saved) NumClasses() int { return len(s.Classes) + len(s.ClassLabels) }

// SetNetwork records net's architecture, activations, weights and biases.
func (s *Saved) SetNetwork(net *Network) {
	s.Arch = net.Arch()
	for _, a := range net.Activations {
		s.Activations = append(s.Activations, a.String())
	}
	for _, w := range net.Weights {
		r, _ := w.Dims()
		rows := make([][]float64, r)
		for i := range rows {
			rows[i] = mat.Row(nil, i, w)
		}
		s.Weights = append(s.Weights, rows)
	}
	for _, b := range net.Biases {
		s.Biases = append(s.Biases, mat.Col(nil, 0, b))
	}
}

// Network rebuilds the network, checking its shapes against the
// architecture and the inputs' names, centre and scale.
func (s *Saved) Network() (*Network, error) {
	if err := s.checkArch(); err != nil {
		return nil, err
	}
	net := &Network{}
	for _, name := range s.Activations {
		a, err := ParseActivation(name)
		if err != nil {
			return nil, err
		}
		net.Activations = append(net.Activations, a)
	}
	for l, rows := range s.Weights {
		w, err := s.weightMatrix(l, rows)
		if err != nil {
			return nil, err
		}
		net.Weights = append(net.Weights, w)
	}
	for l, b := range s.Biases {
		if len(b) != s.Arch[l+1] {
			return nil, fmt.Errorf("bias %d has %d entries, the architecture says %d", l, len(b), s.Arch[l+1])
		}
		net.Biases = append(net.Biases, mat.NewVecDense(len(b), slices.Clone(b)))
	}
	return net, s.checkInputs()
}

// checkArch checks the architecture against the numbers of weight
// matrices and activations, and its widths' range.
func (s *Saved) checkArch() error {
	if len(s.Arch) < 2 || len(s.Weights) != len(s.Arch)-1 || len(s.Activations) != len(s.Arch)-2 {
		return errors.New("inconsistent architecture, weights and activations")
	}
	if len(s.Biases) != 0 && len(s.Biases) != len(s.Weights) {
		return errors.New("inconsistent biases")
	}
	for _, p := range s.Arch {
		if p < 1 || p > 1<<20 {
			return fmt.Errorf("layer width %d out of range", p)
		}
	}
	return nil
}

// weightMatrix builds weight matrix l from its rows, checking its shape.
// The shape is checked against the rows the file holds before the matrix
// is allocated, so a file claiming huge widths costs what it holds.
func (s *Saved) weightMatrix(l int, rows [][]float64) (*mat.Dense, error) {
	if len(rows) != s.Arch[l+1] {
		return nil, fmt.Errorf("weight matrix %d has %d rows, the architecture says %d", l, len(rows), s.Arch[l+1])
	}
	for i, row := range rows {
		if len(row) != s.Arch[l] {
			return nil, fmt.Errorf("weight matrix %d, row %d has %d entries, the architecture says %d", l, i, len(row), s.Arch[l])
		}
	}
	w := mat.NewDense(s.Arch[l+1], s.Arch[l], nil)
	for i, row := range rows {
		w.SetRow(i, row)
	}
	return w, nil
}

// checkInputs checks the input names, centre and scale against the input
// width.
func (s *Saved) checkInputs() error {
	if len(s.Names) != s.Arch[0] || (s.Center != nil && len(s.Center) != s.Arch[0]) || (s.Scale != nil && len(s.Scale) != s.Arch[0]) ||
		(s.Center == nil) != (s.Scale == nil) {
		return errors.New("input names, centre and scale do not match the input width")
	}
	for _, v := range s.Scale {
		if !(v > 0) {
			return errors.New("input scales must be positive")
		}
	}
	return nil
}

// Check tests what Network does not: the loss and its classes, the input
// names, λ and ν. It assumes Network's checks passed.
func (s *Saved) Check() error {
	if err := s.checkClasses(); err != nil {
		return err
	}
	if err := names.Unique(s.Names, "input"); err != nil {
		return err
	}
	if err := solver.CheckLambda(s.Lambda); err != nil {
		return fmt.Errorf("lambda: %w", err)
	}
	if s.Nu < 0 {
		return fmt.Errorf("nu %v must be >= 0", s.Nu)
	}
	return nil
}

// checkClasses checks the loss against the outputs and the classes.
func (s *Saved) checkClasses() error {
	out := s.Arch[len(s.Arch)-1]
	switch s.Loss {
	case "squared":
		if s.NumClasses() != 0 || out != 1 {
			return errors.New("a squared-loss network has one output and no classes")
		}
		return nil
	case "xent":
		if len(s.Classes) > 0 && len(s.ClassLabels) > 0 || s.NumClasses() != out {
			return fmt.Errorf("%d classes for %d outputs", s.NumClasses(), out)
		}
		if !increasing(s.Classes) {
			return errors.New("classes not strictly increasing")
		}
		if !increasing(s.ClassLabels) {
			return errors.New("class labels not strictly increasing")
		}
		return nil
	}
	return fmt.Errorf("unknown loss %s", names.Short(s.Loss))
}

// increasing reports whether v is strictly increasing.
func increasing[T float64 | string](v []T) bool {
	for i := 1; i < len(v); i++ {
		if !(v[i] > v[i-1]) {
			return false
		}
	}
	return true
}

// SetClasses sets the classes from the target's labels and returns each
// row's class index. Labels that all read as numbers (number reads each;
// ok false when it does not) are numeric classes (Classes, sorted by value,
// as 0…9 on digits); otherwise they are text classes (ClassLabels, sorted).
func (s *Saved) SetClasses(text []string, number func(string) (float64, bool)) []int {
	nums := make([]float64, len(text))
	numeric := true
	for i, t := range text {
		v, ok := number(t)
		if !ok {
			numeric = false
			break
		}
		nums[i] = v
	}
	labels := make([]int, len(text))
	if numeric {
		s.Classes = slices.Compact(slices.Sorted(slices.Values(nums)))
		for i, v := range nums {
			labels[i], _ = slices.BinarySearch(s.Classes, v)
		}
		return labels
	}
	s.ClassLabels = slices.Compact(slices.Sorted(slices.Values(text)))
	for i, t := range text {
		labels[i], _ = slices.BinarySearch(s.ClassLabels, t)
	}
	return labels
}

// Inputs standardises the raw inputs x (one column per name of Names, in
// that order) in place, as the network was trained on them.
func (s *Saved) Inputs(x *mat.Dense) {
	if s.Center == nil {
		return
	}
	n, _ := x.Dims()
	col := make([]float64, n)
	for k := range s.Names {
		mat.Col(col, k, x)
		Standardize(col, s.Center[k], s.Scale[k])
		x.SetCol(k, col)
	}
}

// Prediction is the prediction of one row: Value, the output of a
// squared-loss network or the class of an xent one (the output largest),
// which is Label when the classes are text.
type Prediction struct {
	Value float64
	Label string
	// IsLabel reports a text class.
	IsLabel bool
}

// Predict returns the prediction of each row of the outputs out of the
// network (Network.Predict), or an error naming the first row (from 1)
// whose output is not finite.
func (s *Saved) Predict(out *mat.Dense) ([]Prediction, error) {
	n, _ := out.Dims()
	pred := make([]Prediction, n)
	for i := range pred {
		row := out.RawRowView(i)
		for _, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, &OutputError{Row: i + 1, Value: v}
			}
		}
		if s.Loss != "xent" {
			pred[i].Value = row[0]
			continue
		}
		best := argmax(row)
		if s.ClassLabels != nil {
			pred[i] = Prediction{Label: s.ClassLabels[best], IsLabel: true}
		} else {
			pred[i].Value = s.Classes[best]
		}
	}
	return pred, nil
}

// OutputError is a network output that is not finite (the inputs overflow
// the network).
type OutputError struct {
	// Row is the row, from 1; Value the output.
	Row   int
	Value float64
}

// Error names the row and the output.
func (e *OutputError) Error() string {
	return fmt.Sprintf("the network's output for data row %d is %v (the inputs overflow it)", e.Row, e.Value)
}
