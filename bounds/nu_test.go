package bounds

import (
	"math"
	"testing"

	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

func TestDefaultNuFollowsEachPolicy(t *testing.T) {
	kind := func(name string) penalty.Kind {
		k, ok := penalty.Lookup(name)
		if !ok {
			t.Fatalf("no penalty %q", name)
		}
		return k
	}
	// Cardinality on p = 10: M_A = 2/10, ν = 1/(1 − 0.2) = 1.25.
	cases := []struct {
		name     string
		in       penalty.Inputs
		want     float64
		fallback bool
	}{
		{"ridge", penalty.Inputs{P: 10}, 0, false},
		{"lasso", penalty.Inputs{P: 10}, 1, false},
		{"cardinality", penalty.Inputs{P: 10}, 1.25, false},
		{"cardinality", penalty.Inputs{P: 2}, 1, true}, // M_A = 1
		// Groups of 4 and 2 rows, weights √4 and √2: M = max(2/(2·4), 2/(√2·2)) = 1/√2.
		{"grouped", penalty.Inputs{P: 6, Groups: []int{0, 0, 0, 0, 1, 1}}, 1 / (1 - 1/math.Sqrt2), false},
		// G = the all-pairs matrix on 4 columns: M_G = 2/4.
		{"general", penalty.Inputs{P: 4, G: penalty.AllPairs(4)}, 2, false},
	}
	for _, c := range cases {
		got, err := DefaultNu(kind(c.name), c.in)
		if err != nil || math.Abs(got.Value-c.want) > 1e-9 || got.Fallback != c.fallback {
			t.Errorf("%s %+v: got %+v, %v; want ν %v, fallback %v", c.name, c.in, got, err, c.want, c.fallback)
		}
	}
	if _, err := DefaultNu(kind("general"), penalty.Inputs{P: 4, G: mat.NewDense(1, 3, nil)}); err == nil {
		t.Error("general: a G of the wrong width gave a ν")
	}
}

// Every penalty the table says Theorem 1 covers has a network penalty, and
// no other.
func TestLayerPenaltyOfAgreesWithTheTable(t *testing.T) {
	for _, name := range penalty.Names(nil) {
		k, _ := penalty.Lookup(name)
		if _, ok := LayerPenaltyOf(k, false); ok != k.NetworkLambda {
			t.Errorf("%s: LayerPenaltyOf reports %v, the table's NetworkLambda %v", name, ok, k.NetworkLambda)
		}
	}
	card, _ := penalty.Lookup("cardinality")
	if lp, _ := LayerPenaltyOf(card, true); lp != CardinalityWeighted {
		t.Errorf("weighted cardinality: got %v", lp)
	}
	lasso, _ := penalty.Lookup("lasso")
	if lp, _ := LayerPenaltyOf(lasso, true); lp != Lasso {
		t.Errorf("weighted lasso: got %v", lp)
	}
	if lp, _ := LayerPenaltyOf(card, false); lp != Cardinality {
		t.Errorf("cardinality: got %v", lp)
	}
	grouped, _ := penalty.Lookup("grouped")
	if lp, _ := LayerPenaltyOf(grouped, true); lp != GroupedCardinality {
		t.Errorf("grouped: got %v", lp)
	}
}

// Build uses the ν given, else the default, and reports 0 for ridge.
func TestBuild(t *testing.T) {
	card, _ := penalty.Lookup("cardinality")
	pen, nu, err := Build(card, penalty.Inputs{P: 10, Nu: 3}, true)
	if err != nil || pen.(penalty.Cardinality).Nu != 3 || nu.Value != 3 {
		t.Errorf("given ν: %v, %+v, %v", pen, nu, err)
	}
	pen, nu, err = Build(card, penalty.Inputs{P: 10, Nu: 3}, false)
	if err != nil || pen.(penalty.Cardinality).Nu != 1.25 || nu.Value != 1.25 || !nu.Kernel.Exact {
		t.Errorf("default ν: %v, %+v, %v", pen, nu, err)
	}
	ridge, _ := penalty.Lookup("ridge")
	if _, nu, err := Build(ridge, penalty.Inputs{P: 10, Nu: 3}, true); err != nil || nu.Value != 0 {
		t.Errorf("ridge: %+v, %v", nu, err)
	}
	general, _ := penalty.Lookup("general")
	if _, _, err := Build(general, penalty.Inputs{P: 3, Nu: 1}, true); err == nil {
		t.Error("general without G was built")
	}
}
