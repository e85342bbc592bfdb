package datafit

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// extremeData is 200 rows of three predictors and responses valid for
// every family (counts 0..4, hence also 0/1 classes when taken mod 2, and
// positive amounts 1..5 when shifted by one).
func extremeData(fam Family) *Data {
	n := 200
	x := mat.NewDense(n, 3, nil)
	y := make([]float64, n)
	for i := range n {
		for j := range 3 {
			x.Set(i, j, math.Sin(float64(i*(j+1))))
		}
		y[i] = float64(i % 5)
		switch fam.(type) {
		case Binomial:
			y[i] = float64(i % 2)
		case Gamma:
			y[i]++
		}
	}
	return &Data{X: x, Y: y}
}

// TestCheckDominantWeight: one weight of 1e308 among 199 ones leaves an
// effective sample of one row. On the old code gaussian called the
// response constant and a poisson cross-validation ran for minutes; now
// Check refuses it as a weight, naming its row. Equal weights at any
// scale (1e-320, 1e308) and a merely heavy row pass.
func TestCheckDominantWeight(t *testing.T) {
	for _, fam := range families {
		d := extremeData(fam)
		d.Weights = make([]float64, 200)
		for i := range d.Weights {
			d.Weights[i] = 1
		}
		d.Weights[7] = 1e308
		var re *RowError
		err := d.Check(fam)
		if !errors.As(err, &re) || re.What != "weight" || re.Row != 7 || !strings.Contains(err.Error(), "outweighs") {
			t.Fatalf("%s: %v", fam.Name(), err)
		}
		for _, heavy := range []float64{50, 1000, 1e15} { // frequency weights: Kish refused 1000 and 1e15
			d.Weights[7] = heavy
			if err := d.Check(fam); err != nil {
				t.Fatalf("%s, a heavy row of %g: %v", fam.Name(), heavy, err)
			}
		}
		for _, c := range []float64{1e-320, 1e308} {
			for i := range d.Weights {
				d.Weights[i] = c
			}
			if err := d.Check(fam); err != nil {
				t.Fatalf("%s, weights %v: %v", fam.Name(), c, err)
			}
			w, _ := d.weights()
			if math.Abs(w[0]-1) > 1e-12 {
				t.Fatalf("%s, weights %v rescaled to %v", fam.Name(), c, w[0])
			}
		}
	}
}

// TestCheckExtremeOffsetAndCount: a poisson count of 1e300 and an offset
// of ±1e300 (binomial, poisson) are refused as what they are (the old
// code accepted them; streamed fits then blamed separable data or a single
// class). Gaussian offsets have no such bound, and offsets of ±700 pass.
func TestCheckExtremeOffsetAndCount(t *testing.T) {
	d := extremeData(Poisson{})
	d.Y[3] = 1e300
	var re *RowError
	if err := d.Check(Poisson{}); !errors.As(err, &re) || re.What != "response" || re.Row != 3 || !strings.Contains(err.Error(), "2^53") {
		t.Fatalf("count 1e300: %v", err)
	}
	d.Y[3] = MaxCount
	if err := d.Check(Poisson{}); err != nil {
		t.Fatalf("count 2^53: %v", err)
	}
	for _, fam := range families {
		for _, o := range []float64{1e300, -1e300, 710, 700, -700} {
			checkExtremeOffset(t, fam, o)
		}
	}
}

// checkExtremeOffset checks family fam's answer to one row's offset o
// (TestCheckExtremeOffsetAndCount).
func checkExtremeOffset(t *testing.T, fam Family, o float64) {
	t.Helper()
	d := extremeData(fam)
	d.Offset = make([]float64, 200)
	d.Offset[5] = o
	err := d.Check(fam)
	var re *RowError
	_, gauss := fam.(Gaussian)
	_, poisson := fam.(Poisson)
	_, gamma := fam.(Gamma)
	if poisson && o == 700 || gamma && o == -700 {
		// Within ±709, but the row's curvature (Poisson e^o,
		// gamma y·e^−o) outweighs the other rows' (offset 0)
		// together: refused by the curvature rule, naming the
		// row and the offset.
		if !errors.As(err, &re) || re.What != "offset" || re.Row != 5 || !strings.Contains(err.Error(), "outweighs all the other rows' together") {
			t.Fatalf("%s, offset %v: %v", fam.Name(), o, err)
		}
		return
	}
	if gauss || math.Abs(o) <= MaxOffset {
		if err != nil {
			t.Fatalf("%s, offset %v: %v", fam.Name(), o, err)
		}
		return
	}
	if !errors.As(err, &re) || re.What != "offset" || re.Row != 5 || !strings.Contains(err.Error(), "709") {
		t.Fatalf("%s, offset %v: %v", fam.Name(), o, err)
	}
}
