package modelfile

import (
	"strings"
	"testing"
)

const v3 = `{"format":"cardreg-model","version":3,"penalty":"lasso","lambda":1,"nu":1,"target":"y","names":["a","b"],
"coefficients":[2,0],"intercept":1,"relaxed":false,"n":3,"converged":true,"duality_gap":0,"family":"binomial","link":"logit","weights":"none"}`

func TestParse(t *testing.T) {
	m, err := Parse([]byte(v3))
	if err != nil || m.Family != "binomial" || m.Coefficients[0] != 2 {
		t.Fatalf("got %+v, %v", m, err)
	}
	// Version 1 has no family: least squares.
	v1 := `{"format":"cardreg-model","version":1,"penalty":"ridge","lambda":0,"nu":null,"target":"y","names":["a"],"coefficients":[2],"intercept":1,"relaxed":false,"n":3}`
	if m, err := Parse([]byte(v1)); err != nil || m.Family != "gaussian" || m.Link != "identity" {
		t.Fatalf("version 1: got %+v, %v", m, err)
	}
	for edit, want := range map[[2]string]string{
		{`"lasso"`, `"slope"`}:                     `unknown penalty "slope"`,
		{`"version":3`, `"version":9`}:             "model version 9",
		{`"cardreg-model"`, `"other"`}:             `not a cardreg model (format "other"`,
		{`"names":["a","b"]`, `"names":["a","a"]`}: `predictor name "a" is empty or repeated`,
		{`"logit"`, `"log"`}:                       `unknown family and link "binomial"/"log"`,
		{`"n":3`, `"n":0`}:                         "n = 0 observations",
		{`"weights":"none"`, `"wieghts":"none"`}:   `field "weights" is missing`,
	} {
		_, err := Parse([]byte(strings.Replace(v3, edit[0], edit[1], 1)))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s → %s: got %v, want %q", edit[0], edit[1], err, want)
		}
	}
}
