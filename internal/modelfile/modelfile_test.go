package modelfile

import (
	"fmt"
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

const v4 = `{"format":"cardreg-model","version":4,"penalty":"factor","lambda":1,"nu":1,"target":"y","names":["g=b","g=c","x","h=2","h=NA"],
"coefficients":[1,2,3,4,5],"intercept":1,"relaxed":false,"n":3,"converged":true,"duality_gap":0,"family":"poisson","link":"log","weights":"none",
"factors":[{"column":"g","levels":["a","b","c"],"reference":"a","ordinal":false,"numeric":false,"na_level":false},
{"column":"h","levels":["1","2","NA"],"reference":"1","ordinal":true,"numeric":true,"na_level":true}],"numeric_penalty":"lasso"}`

// A model with factors: each factor's dummy columns among the names, in
// level order, its levels as a cell reads them; every edit that breaks
// that is refused with what is wrong.
func TestParseFactors(t *testing.T) {
	m, err := Parse([]byte(v4))
	if err != nil || len(m.Factors) != 2 || !m.Factors[1].NALevel || m.NumericPenalty != "lasso" {
		t.Fatalf("got %+v, %v", m, err)
	}
	owner, err := m.Columns()
	if err != nil || fmt.Sprint(owner) != "[0 0 -1 1 1]" {
		t.Fatalf("columns %v, %v", owner, err)
	}
	for edit, want := range map[[2]string]string{
		{`"version":4`, `"version":3`}:                               "factors and numeric_penalty are fields of version 4",
		{`"penalty":"factor"`, `"penalty":"lasso"`}:                  `a model with factors has penalty "factor", not "lasso"`,
		{`"numeric_penalty":"lasso"`, `"numeric_penalty":"ridge"`}:   `numeric_penalty "ridge" is not one of cardinality, lasso, none`,
		{`"levels":["a","b","c"]`, `"levels":["a","b","b"]`}:         `level "b" appears twice`,
		{`"levels":["a","b","c"]`, `"levels":["a","b","d"]`}:         `its dummy column "g=d" is not among the predictor names`,
		{`"levels":["a","b","c"]`, `"levels":["a","c","b"]`}:         "not in level order",
		{`"levels":["a","b","c"]`, `"levels":["a","b"]`}:             `predictor "g=c" is a dummy column of factor "g", whose levels (but the reference) do not include "c"`,
		{`"levels":["a","b","c"]`, `"levels":["a"]`}:                 "1 level(s)",
		{`"levels":["a","b","c"]`, `"levels":null`}:                  `field "levels" is null`,
		{`"levels":["a","b","c"]`, `"levels":["a"," b","c"]`}:        `level " b" is not one a data file's cell gives`,
		{`"reference":"a"`, `"reference":"z"`}:                       `reference "z" is not one of its levels`,
		{`"reference":"a"`, `"reference":"b"`}:                       `its dummy column "g=a" is not among the predictor names`,
		{`"column":"g"`, `"column":"x"`}:                             `factor "x" is also a numeric predictor`,
		{`"column":"g"`, `"column":"h"`}:                             `factor "h" appears twice`,
		{`"column":"g"`, `"column":" "`}:                             "empty column name",
		{`"column":"g"`, `"colunm":"g"`}:                             `a factor: field "column" is missing`,
		{`"na_level":false}`, `"na_level":false,"ref":0}`}:           `unknown field "ref"`,
		{`,"na_level":false}`, `}`}:                                  `field "na_level" is missing`,
		{`"na_level":true`, `"na_level":false`}:                      `na_level is false but "NA" is one of its levels`,
		{`"levels":["1","2","NA"]`, `"levels":["1","02","NA"]`}:      `level "02" is not one a data file's cell gives`,
		{`"weights":"none"`, `"weights":"none","offset_column":"h"`}: `factor "h" is also the offset column`,
		{`"factors":[`, `"factors":[null,`}:                          `field "column" is missing`,
	} {
		_, err := Parse([]byte(strings.Replace(v4, edit[0], edit[1], 1)))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "corrupted cardreg model: ") {
			t.Errorf("%s → %s: got %v, want %q", edit[0], edit[1], err, want)
		}
	}
	// Without factors, the penalty "factor" and numeric_penalty are refused.
	for edit, want := range map[[2]string]string{
		{`"penalty":"lasso"`, `"penalty":"factor"`}:              `penalty "factor" without factors`,
		{`"version":3`, `"version":4,"numeric_penalty":"lasso"`}: "numeric_penalty without factors",
	} {
		_, err := Parse([]byte(strings.Replace(v3, edit[0], edit[1], 1)))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s → %s: got %v, want %q", edit[0], edit[1], err, want)
		}
	}
}

// An elastic-net model carries its α; α is refused outside [0, 1],
// missing for the elastic net, or beside a penalty that takes none.
func TestParseAlpha(t *testing.T) {
	enet := strings.Replace(strings.Replace(v3, `"lasso"`, `"elasticnet"`, 1), `"nu":1`, `"nu":null,"alpha":0.25`, 1)
	m, err := Parse([]byte(enet))
	if err != nil || m.Alpha == nil || *m.Alpha != 0.25 {
		t.Fatalf("got %+v, %v", m, err)
	}
	for edit, want := range map[[2]string]string{
		{`"alpha":0.25`, `"alpha":1.5`}: "alpha: elastic net α = 1.5 must be in [0, 1]",
		{`,"alpha":0.25`, ``}:           "penalty elasticnet without alpha",
		{`"elasticnet","lambda":1,"nu":null`, `"lasso","lambda":1,"nu":1`}: `alpha beside penalty "lasso", which takes none`,
	} {
		_, err := Parse([]byte(strings.Replace(enet, edit[0], edit[1], 1)))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s → %s: got %v, want %q", edit[0], edit[1], err, want)
		}
	}
}
