package binding

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestDescribeIsJSON: the C library's describe call returns the
// request's description as a JSON object.
func TestDescribeIsJSON(t *testing.T) {
	raw, err := Describe()
	var d map[string]any
	if err != nil || json.Unmarshal(raw, &d) != nil || d["families"] == nil || d["penalties"] == nil || d["options"] == nil {
		t.Fatalf("%v: %s", err, raw)
	}
}

// TestResponseIsTheInverseLink checks Response against each family's
// inverse link written out here: e^η, 1/(1 + e^−η), η.
func TestResponseIsTheInverseLink(t *testing.T) {
	eta := []float64{-3, -0.5, 0, 0.25, 4}
	want := map[string]func(float64) float64{
		"gaussian": func(e float64) float64 { return e },
		"binomial": func(e float64) float64 { return 1 / (1 + math.Exp(-e)) },
		"poisson":  math.Exp,
		"gamma":    math.Exp,
	}
	for fam, f := range want {
		got, err := Response(fam, eta, "response")
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range eta {
			if math.Abs(got[i]-f(e)) > 1e-15*math.Max(1, f(e)) {
				t.Errorf("%s: response at %v = %v, want %v", fam, e, got[i], f(e))
			}
		}
	}
	cls, err := Response("binomial", eta, "class")
	if err != nil || !slices.Equal(cls, []float64{0, 0, 0, 1, 1}) {
		t.Errorf("binomial class %v, %v", cls, err)
	}
	for _, bad := range []struct{ fam, typ, msg string }{
		{"weibull", "response", "unknown family"},
		{"poisson", "class", "binomial"},
		{"poisson", "probability", "type must be"},
	} {
		if _, err := Response(bad.fam, eta, bad.typ); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("Response(%s, %s): %v, want %q", bad.fam, bad.typ, err, bad.msg)
		}
	}
	if _, err := Response("gaussian", []float64{1, math.NaN()}, "link"); err == nil || !strings.Contains(err.Error(), "row 2") {
		t.Errorf("NaN: %v", err)
	}
}
