package request

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
)

// readDescription returns Describe's document, decoded.
func readDescription(t *testing.T) description {
	t.Helper()
	raw, err := json.Marshal(Describe())
	if err != nil {
		t.Fatal(err)
	}
	var d description
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return d
}

// TestDescribeListsTheRegistries checks that the description lists
// exactly datafit's families (with their links and measures) and
// penalty's table (with ν and the inputs each needs).
func TestDescribeListsTheRegistries(t *testing.T) {
	d := readDescription(t)
	var fams []string
	registry := datafit.Families()
	if len(d.Families) != len(registry) {
		t.Fatalf("%d families, the registry has %d", len(d.Families), len(registry))
	}
	for i, f := range d.Families {
		fams = append(fams, f.Name)
		fam := registry[i] // a family with a parameter may need it in ByName
		if f.Link != fam.Link() {
			t.Errorf("family %s: link %s, want %s", f.Name, f.Link, fam.Link())
		}
		var ms []string
		for _, m := range f.Measures {
			ms = append(ms, m.Name)
			if m.Title == "" {
				t.Errorf("family %s: measure %s has no title", f.Name, m.Name)
			}
		}
		if !slices.Equal(ms, estimator.Measures(fam)) {
			t.Errorf("family %s: measures %v, want %v", f.Name, ms, estimator.Measures(fam))
		}
		_, param := fam.(datafit.Parameterized)
		if param != (f.Parameter != nil) {
			t.Errorf("family %s: parameter %+v, want one: %v", f.Name, f.Parameter, param)
		}
	}
	if !slices.Equal(fams, datafit.Names()) {
		t.Errorf("families %v, want datafit.Names() %v", fams, datafit.Names())
	}
	var pens []string
	for _, p := range d.Penalties {
		pens = append(pens, p.Name)
		k, ok := penalty.Lookup(p.Name)
		if !ok {
			t.Fatalf("penalty %s is not in penalty's table", p.Name)
		}
		if p.Nu != (k.Nu != penalty.NoNu) || p.Alpha != k.Alpha || p.GLM != k.GLM || p.Grid != k.Grid {
			t.Errorf("penalty %s: %+v, the table says %+v", p.Name, p, k)
		}
		if want := k.Needs != penalty.NeedsNothing; want != (len(p.Inputs) == 1) {
			t.Errorf("penalty %s: inputs %v for the table's need %v", p.Name, p.Inputs, k.Needs)
		}
	}
	if !slices.Equal(pens, penalty.Names(nil)) {
		t.Errorf("penalties %v, want penalty.Names %v", pens, penalty.Names(nil))
	}
}

// TestDescribeOptionsAreAccepted checks the options listed per command
// against Decode and Validate themselves: each listed one is accepted when given
// with a value, each one left out is refused as having no effect.
func TestDescribeOptionsAreAccepted(t *testing.T) {
	d := readDescription(t)
	values := map[string]string{"folds": "5", "seed": "2", "foldid": "[1,2,3]", "type-measure": `"mse"`,
		"rule": `"1se"`, "nlambda": "20", "tol": "1e-9", "nu": "2"}
	for _, cmd := range []string{"fit", "path", "cv"} {
		listed := d.Options[cmd]
		if len(listed) == 0 || !slices.Contains(listed, "family") || !slices.Contains(listed, "penalty") {
			t.Fatalf("%s: options %v lack family or penalty", cmd, listed)
		}
		for _, name := range OptionNames() {
			v, ok := values[name]
			if !ok {
				continue
			}
			raw := `{"` + name + `": ` + v + `}`
			if cmd == "fit" && name != "rule" {
				raw = `{"lambda": "cv", "` + name + `": ` + v + `}`
			}
			r, err := Decode([]byte(raw))
			if err == nil {
				err = r.Validate(cmd)
			}
			if slices.Contains(listed, name) != (err == nil) {
				t.Errorf("%s %s: listed %v, Validate says %v", cmd, raw, slices.Contains(listed, name), err)
			}
		}
	}
	for _, name := range []string{"folds", "seed", "foldid", "type-measure", "rule"} {
		if slices.Contains(d.Options["path"], name) {
			t.Errorf("path lists %s, which only cross-validation takes", name)
		}
	}
	if slices.Contains(d.Options["cv"], "rule") {
		t.Errorf("cv lists rule, which only fit with lambda cv takes")
	}
}
