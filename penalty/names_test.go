package penalty

import (
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestLookupBuildsEachNamedPenalty(t *testing.T) {
	g := mat.NewDense(1, 3, []float64{1, -1, 0})
	cases := []struct {
		name string
		in   Inputs
		want Penalty
	}{
		{"cardinality", Inputs{P: 3, Nu: 2}, Cardinality{Nu: 2}},
		{"lasso", Inputs{P: 3, Nu: 1.5}, L1{Nu: 1.5}},
		{"ridge", Inputs{P: 3, Nu: 7}, Ridge{}},
	}
	for _, c := range cases {
		k, ok := Lookup(c.name)
		if !ok {
			t.Fatalf("Lookup(%q) found nothing", c.name)
		}
		got, err := k.NewFor(c.in)
		if err != nil || got != c.want {
			t.Errorf("%s: got %#v, %v; want %#v", c.name, got, err, c.want)
		}
	}
	k, _ := Lookup("grouped")
	pen, err := k.NewFor(Inputs{P: 3, Nu: 3, Groups: []int{5, 5, 9}})
	if gr, ok := pen.(*Grouped); err != nil || !ok || gr.Nu != 3 || len(gr.Groups()) != 2 {
		t.Errorf("grouped: got %#v, %v", pen, err)
	}
	k, _ = Lookup("general")
	pen, err = k.NewFor(Inputs{P: 3, Nu: 0.5, G: g})
	if gen, ok := pen.(*General); err != nil || !ok || gen.Nu() != 0.5 {
		t.Errorf("general: got %#v, %v", pen, err)
	}
}

func TestNewForRefusesMissingInputs(t *testing.T) {
	for _, c := range []struct {
		name string
		in   Inputs
	}{
		{"grouped", Inputs{P: 3, Nu: 1, Groups: []int{0, 1}}},
		{"general", Inputs{P: 3, Nu: 1}},
	} {
		k, _ := Lookup(c.name)
		if _, err := k.NewFor(c.in); err == nil {
			t.Errorf("%s: built without its input", c.name)
		}
	}
	if _, ok := Lookup("slope"); ok {
		t.Error("Lookup found an unknown name")
	}
}

func TestNamesFiltersInTableOrder(t *testing.T) {
	if got, want := Names(nil), []string{"cardinality", "grouped", "lasso", "ridge", "elasticnet", "general"}; !slices.Equal(got, want) {
		t.Errorf("Names(nil) = %v, want %v", got, want)
	}
	if got, want := Names(func(k Kind) bool { return k.NetworkLambda }), []string{"cardinality", "grouped", "lasso"}; !slices.Equal(got, want) {
		t.Errorf("NetworkLambda names = %v, want %v", got, want)
	}
	if got, want := Names(func(k Kind) bool { return !k.Grid }), []string{"general"}; !slices.Equal(got, want) {
		t.Errorf("names without a grid = %v, want %v", got, want)
	}
}
