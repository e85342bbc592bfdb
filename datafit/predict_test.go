package datafit

import (
	"math"
	"testing"
)

func TestPredictEachType(t *testing.T) {
	eta := math.Log(3) // binomial: probability 3/4; poisson: rate 3
	cases := []struct {
		fam  Family
		name string
		want float64
	}{
		{Binomial{}, "response", 0.75},
		{Binomial{}, "link", eta},
		{Binomial{}, "class", 1},
		{Poisson{}, "response", 3},
		{Gaussian{}, "response", eta},
	}
	for _, c := range cases {
		p, ok := PredictionByName(c.name)
		if !ok {
			t.Fatalf("no prediction %q", c.name)
		}
		if got := Predict(c.fam, eta, p); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%s %s: got %v, want %v", c.fam.Name(), c.name, got, c.want)
		}
	}
	if got := Predict(Binomial{}, -0.1, Class); got != 0 {
		t.Errorf("class of a negative η: %v", got)
	}
	if _, ok := PredictionByName("probability"); ok {
		t.Error("an unknown prediction was found")
	}
}

func TestLinearPredictor(t *testing.T) {
	if got := LinearPredictor([]float64{2, -1}, []float64{3, 4}, 0.5, 10); got != 12.5 {
		t.Errorf("got %v, want 12.5", got)
	}
}

func TestGlmnetLambda(t *testing.T) {
	if got := GlmnetLambda(50, 100); got != 0.25 {
		t.Errorf("GlmnetLambda(50, 100) = %v, want 0.25", got)
	}
}
