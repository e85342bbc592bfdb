package binding_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/binding"
	"github.com/cardsparse/cardreg/bounds"
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// rows returns n×p row-major predictors, the same column-major, and a
// response of family fam whose coefficients take two values.
func rows(n, p int, fam string, seed uint64) (xr, xc, y []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	xr, xc, y = make([]float64, n*p), make([]float64, n*p), make([]float64, n)
	for i := range n {
		eta := 0.0
		for j := range p {
			v := rng.NormFloat64()
			xr[i*p+j], xc[j*n+i] = v, v
			eta += map[bool]float64{true: 0.5, false: -0.5}[j%2 == 0] * v
		}
		switch fam {
		case "binomial":
			if rng.Float64() < 1/(1+math.Exp(-eta)) {
				y[i] = 1
			}
		case "poisson", "tweedie:1.5", "negbin:2":
			y[i] = float64(int(math.Exp(eta/2) + rng.Float64()*2))
		default:
			y[i] = eta + rng.NormFloat64()
		}
	}
	return xr, xc, y
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// TestFitEqualsEstimator: a binding's fit is estimator.Fit's, in both
// layouts, and the buffers are not kept (overwritten after the call, the
// result does not change).
func TestFitEqualsEstimator(t *testing.T) {
	const n, p = 80, 6
	for _, fam := range []string{"gaussian", "binomial", "poisson", "tweedie:1.5", "negbin:2"} {
		xr, xc, y := rows(n, p, fam, 3)
		kind, _ := penalty.Lookup("cardinality")
		pen, _, err := bounds.Build(kind, penalty.Inputs{P: p}, false)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := datafit.ByName(fam)
		want, err := estimator.Fit(estimator.NewRows(mat.NewDense(n, p, append([]float64(nil), xr...)), append([]float64(nil), y...)), pen, 3, &estimator.Options{Family: f})
		if err != nil {
			t.Fatal(err)
		}
		opts := mustJSON(map[string]any{"family": fam, "lambda": 3})
		for _, colMajor := range []bool{false, true} {
			x := xr
			if colMajor {
				x = xc
			}
			in := &binding.Input{X: append([]float64(nil), x...), N: n, P: p, ColMajor: colMajor, Y: append([]float64(nil), y...)}
			r, err := binding.Fit(in, opts)
			if err != nil {
				t.Fatal(err)
			}
			for k := range in.X {
				in.X[k] = math.NaN()
			}
			for k := range in.Y {
				in.Y[k] = math.NaN()
			}
			coef, b0, _ := r.Coef(0)
			wantCoef := want.Coefficients(0)
			for j := range coef {
				if math.Abs(coef[j]-wantCoef[j]) > 1e-12*(1+math.Abs(wantCoef[j])) {
					t.Errorf("%s col-major %v: coef %d = %v, estimator %v", fam, colMajor, j, coef[j], wantCoef[j])
				}
			}
			if math.Abs(b0-want.Intercept[0]) > 1e-12*(1+math.Abs(b0)) {
				t.Errorf("%s: intercept %v, estimator %v", fam, b0, want.Intercept[0])
			}
			pred, err := r.Predict(0, &binding.Input{X: x, N: n, P: p, ColMajor: colMajor}, "response")
			if err != nil {
				t.Fatal(err)
			}
			wantPred := want.Response(mat.NewDense(n, p, xr), nil)
			for i := range pred {
				if math.Abs(pred[i]-wantPred.At(i, 0)) > 1e-12*(1+math.Abs(pred[i])) {
					t.Fatalf("%s: prediction %d = %v, estimator %v", fam, i, pred[i], wantPred.At(i, 0))
				}
			}
		}
	}
}

// TestCVEqualsEstimator: a binding's cross-validation with glmnet's
// foldid is estimator.CrossValidate's with the same folds.
func TestCVEqualsEstimator(t *testing.T) {
	const n, p = 90, 5
	xr, _, y := rows(n, p, "binomial", 5)
	foldid := make([]int, n)
	folds := make([]int, n)
	for i := range foldid {
		folds[i] = (i * 7) % 4
		foldid[i] = folds[i] + 1
	}
	kind, _ := penalty.Lookup("lasso")
	pen, _, _ := bounds.Build(kind, penalty.Inputs{P: p}, false)
	want, err := estimator.CrossValidate(estimator.NewRows(mat.NewDense(n, p, xr), y), pen,
		&estimator.CVOptions{PathOptions: estimator.PathOptions{Options: estimator.Options{Family: datafit.Binomial{}}, NLambda: 20}, FoldID: folds, Measure: "auc"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := binding.CV(&binding.Input{X: xr, N: n, P: p, Y: y},
		mustJSON(map[string]any{"family": "binomial", "penalty": "lasso", "nlambda": 20, "foldid": foldid, "type-measure": "auc"}))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Lambda []float64
		CV     struct {
			Measure           string
			Cvm               []float64
			LambdaMin         float64 `json:"lambda_min"`
			Lambda1SE         float64 `json:"lambda_1se"`
			Foldid            []int
			IndexMin, IndexSE int `json:"-"`
		}
	}
	if err := json.Unmarshal(r.JSON(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.CV.LambdaMin != want.LambdaMin || doc.CV.Lambda1SE != want.LambdaSE || doc.CV.Measure != "auc" || r.Models() != len(want.Lambdas) {
		t.Errorf("binding λ_min %v λ_1se %v (%s, %d models), estimator %v %v (%d)", doc.CV.LambdaMin, doc.CV.Lambda1SE, doc.CV.Measure, r.Models(), want.LambdaMin, want.LambdaSE, len(want.Lambdas))
	}
	for k := range want.Mean {
		if doc.CV.Cvm[k] != want.Mean[k] {
			t.Fatalf("cvm[%d] = %v, estimator %v", k, doc.CV.Cvm[k], want.Mean[k])
		}
	}
	if doc.CV.Foldid[3] != foldid[3] {
		t.Errorf("foldid %v", doc.CV.Foldid[:5])
	}
}

// TestCVFits: a cross-validation's document holds fit's document of its
// models at λ_min and λ_1se, the same as fit with lambda cv and that rule
// gives: numeric clusters apart from the factor's level groups.
func TestCVFits(t *testing.T) {
	const n, p = 120, 3
	xr, _, y := rows(n, p, "gaussian", 11)
	codes := make([]int32, n)
	for i := range codes {
		codes[i] = int32(i % 3)
		y[i] += []float64{0, 2, 2}[i%3]
	}
	in := &binding.Input{X: xr, N: n, P: p, Y: y, Codes: codes}
	opts := map[string]any{"factors": []map[string]any{{"name": "g", "levels": []string{"a", "b", "c"}}}, "nlambda": 20, "folds": 4}
	r, err := binding.CV(in, mustJSON(opts))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Fits map[string]json.RawMessage
	}
	if err := json.Unmarshal(r.JSON(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, rule := range []string{"min", "1se"} {
		opts["rule"] = rule
		f, err := binding.Fit(in, mustJSON(opts))
		if err != nil {
			t.Fatal(err)
		}
		var got, want map[string]any
		if err := json.Unmarshal(doc.Fits[rule], &got); err != nil {
			t.Fatalf("%s: %v (%s)", rule, err, doc.Fits[rule])
		}
		_ = json.Unmarshal(f.JSON(), &want)
		if g, w := mustJSON(got), mustJSON(want); string(g) != string(w) {
			t.Errorf("rule %s: cv's fit\n%s\nfit's\n%s", rule, g, w)
		}
		if got["factors"] == nil || strings.Contains(string(mustJSON(got["clusters"])), "g=") {
			t.Errorf("rule %s: factors %v, clusters %v", rule, got["factors"], got["clusters"])
		}
	}
}

// TestFitRuleGrid: fit with lambda cv, aic or bic chooses along the grid
// nlambda and min-ratio shape (it used the default grid, silently).
func TestFitRuleGrid(t *testing.T) {
	const n, p = 60, 4
	xr, _, y := rows(n, p, "gaussian", 12)
	in := &binding.Input{X: xr, N: n, P: p, Y: y}
	pr, err := binding.Path(in, []byte(`{"nlambda": 4, "min-ratio": 0.5}`))
	if err != nil {
		t.Fatal(err)
	}
	var grid struct{ Lambda []float64 }
	_ = json.Unmarshal(pr.JSON(), &grid)
	for _, rule := range []string{"cv", "aic", "bic"} {
		r, err := binding.Fit(in, []byte(`{"lambda": "`+rule+`", "nlambda": 4, "min-ratio": 0.5}`))
		if err != nil {
			t.Fatal(err)
		}
		lam, _, _, _ := r.Status(0)
		if !slices.Contains(grid.Lambda, lam) {
			t.Errorf("lambda %s: %v is not on the grid %v", rule, lam, grid.Lambda)
		}
	}
}

// TestBadInput: each bad input or option is an error saying what is
// wrong.
func TestBadInput(t *testing.T) {
	const n, p = 30, 3
	xr, _, y := rows(n, p, "gaussian", 9)
	good := func() *binding.Input { return &binding.Input{X: xr, N: n, P: p, Y: y} }
	nan := append([]float64(nil), xr...)
	nan[4*p+1] = math.Inf(1)
	codes := make([]int32, n)
	for i := range codes {
		codes[i] = int32(i % 2)
	}
	fac := []map[string]any{{"name": "g", "levels": []string{"a", "b"}}}
	// A non-finite response or weight on the least-squares route (the
	// constancy check said "the response is constant" of a NaN).
	nanY := append([]float64(nil), y...)
	nanY[6] = math.NaN()
	infW := make([]float64, n)
	for i := range infW {
		infW[i] = 1
	}
	infW[2] = math.Inf(-1)
	cases := []struct {
		in   *binding.Input
		opts string
		want string
	}{
		{good(), `{"lamda": 1}`, `unknown option "lamda"`},
		{good(), `{"lambda": 1`, "options:"},
		{good(), `{"lambda": 1, "lambda": 2}`, "options:"},
		{good(), `{"lambda": "best"}`, "lambda must be a finite non-negative number, cv, aic or bic"},
		{good(), `{"lambda": -1}`, `got "-1"`},
		{good(), `{"family": "weibull"}`, `unknown family "weibull"`},
		{good(), `{"family": "tweedie"}`, `the tweedie family needs its parameter: write tweedie:P`},
		{good(), `{"family": "negbin:-2"}`, `θ = -2 is not a finite number > 0`},
		{good(), `{"penalty": "elastic"}`, `unknown penalty "elastic"`},
		{good(), `{"nu": 0}`, "nu must be a finite number > 0"},
		{good(), `{"folds": 2}`, "folds must be at least 3"},
		{good(), `{"rule": "2se"}`, "rule must be min or 1se"},
		{good(), `{"type-measure": "auc"}`, "type-measure auc is not one of"},
		{good(), `{"names": ["a", "b"]}`, "names has 2 names for p = 3"},
		{good(), `{"names": ["a", "b", "a"], "lambda": 1}`, `the column name "a" appears twice`},
		{good(), `{"penalty-factor": [1, 1, 1]}`, "penalty-factor is for the lasso"},
		{good(), `{"penalty": "lasso", "penalty-factor": [1, -1, 1], "lambda": 1}`, "penalty-factor: -1"},
		{good(), `{"exclude": ["zz"], "lambda": 1}`, `exclude: "zz" is not a predictor`},
		{good(), `{"penalty": "grouped", "groups": [1, 2], "lambda": 1}`, "needs groups with one label per predictor (3), got 2"},
		{good(), `{"foldid": [1, 2, 3]}`, "foldid has 3 values for n = 30"},
		{good(), string(mustJSON(map[string]any{"foldid": skipFold(n)})), "foldid: fold 4 has no rows"},
		{good(), `{"ref": {"g": "a"}, "lambda": 1}`, `ref names "g", which is not a factor`},
		{good(), `{"penalty": "none", "lambda": 1}`, "the data hold no factor"},
		{good(), `{"lambda": 1, "folds": 5}`, "folds applies to cross-validation only"},
		{good(), `{"foldid": [1], "seed": 2}`, "seed does not combine with foldid"},
		{good(), `{"lambda": 1, "rule": "1se"}`, "rule picks lambda_min or lambda_1se"},
		{good(), `{"lambda": 1, "nlambda": 20}`, "nlambda shapes the generated lambda grid"},
		{good(), `{"penalty": "ridge", "nu": 2, "lambda": 1}`, "nu has no role in the ridge penalty"},
		{good(), `{"penalty": "lasso", "alpha": 0.5, "lambda": 1}`, "alpha applies to the elasticnet penalty only, not lasso"},
		{good(), `{"penalty": "elasticnet", "alpha": 1.5, "lambda": 1}`, "elastic net α = 1.5 must be in [0, 1]"},
		{&binding.Input{X: xr, N: n, P: p, Y: y, Codes: codes}, string(mustJSON(map[string]any{"factors": fac, "penalty": "lasso", "alpha": 0.5, "lambda": 1})), "alpha applies to the elasticnet penalty only, not lasso"},
		{good(), `{"penalty": "lasso", "penalty-factor": [1, 1, 1], "nu": 2, "lambda": 1}`, "nu does not combine with penalty-factor"},
		{good(), `{"lambda": 1, "pair-weights": "count"}`, "pair-weights acts on factor predictors, and the data hold no factor"},
		{good(), `{"min-count": 1}`, "min-count acts on factor predictors"},
		{good(), `{"memory": 100, "lambda": 1}`, "the Gram matrices of 3 predictors"},
		{good(), `{"memory": "1GB", "lambda": 1, "nlambda": 5}`, "nlambda shapes"},
		{good(), `{"memory": -5}`, "memory must be a number of bytes >= 1"},
		{good(), `{"memory": "lots"}`, "memory:"},
		{&binding.Input{X: xr, N: n, P: p, ColMajor: true, Y: y}, `{"memory": 2000, "lambda": 1, "family": "poisson"}`, "data: "},
		{good(), `{"family": "binomial", "lambda": 1}`, "row 1: response"},
		{&binding.Input{X: nan, N: n, P: p, Y: y}, `{"lambda": 1}`, `row 5: column "x2": +Inf is not a finite number`},
		{&binding.Input{X: nan, N: n, P: p, Y: y}, `{"folds": 3}`, `row 5: column "x2": +Inf is not a finite number`},
		{&binding.Input{X: nan, N: n, P: p, Y: y}, `{"family": "poisson", "lambda": 1}`, `row 5: column "x2": +Inf is not a finite number`},
		{&binding.Input{X: nan, N: n, P: p, Y: y}, `{"penalty": "lasso", "exclude": ["x1"], "lambda": 1}`, `row 5: column "x2": +Inf is not a finite number`},
		{&binding.Input{X: xr, N: n, P: p, Y: nanY}, `{"lambda": 1}`, "row 7: response: response NaN is not finite"},
		{&binding.Input{X: xr, N: n, P: p, Y: nanY}, `{}`, "row 7: response: response NaN is not finite"},
		{&binding.Input{X: xr, N: n, P: p, Y: y, Weights: infW}, `{"lambda": 1}`, "row 3: weight: -Inf is not a finite number"},
		{good(), `{"folds": 3.5}`, "folds must be a whole number (an integer), got number 3.5"},
		{good(), `{"max-iter": 10.0, "lambda": 1}`, "max-iter must be a whole number (an integer), got number 10.0"},
		{good(), `{"seed": -1}`, "seed must be a whole number ≥ 0 (an integer), got number -1"},
		{good(), `{"foldid": [1, 2.5]}`, "foldid must be a whole number (an integer), got number 2.5"},
		{good(), `{"relax": 1, "lambda": 1}`, "relax must be true or false, got number"},
		{&binding.Input{X: xr[:10], N: n, P: p, Y: y}, `{}`, "x holds 10 values, n×p = 30×3 = 90"},
		{&binding.Input{X: xr, N: n, P: p, Y: y[:5]}, `{}`, "y holds 5 values for n = 30"},
		{&binding.Input{X: xr, N: n, P: p, Y: y, Weights: y[:3]}, `{}`, "weights hold 3 values"},
		{&binding.Input{X: xr, N: n, P: p, Y: y, Codes: codes}, `{}`, "the factor codes hold 30 values, n × 0 factors = 0"},
		{&binding.Input{X: xr, N: n, P: p, Y: y, Codes: codes}, string(mustJSON(map[string]any{"factors": fac, "penalty": "lasso", "exclude": []string{"x1"}})), "exclude and penalty-factor do not combine with factor predictors"},
		{&binding.Input{X: nil, N: n, P: 0, Y: y, Codes: codes}, string(mustJSON(map[string]any{"factors": []map[string]any{{"name": "g", "levels": []string{"a", "b", "c"}}}})), `level "c" appears in 0 row(s)`},
		{&binding.Input{X: xr, N: n, P: p, Y: y, Codes: codes}, `{"lambda": 1, "factors": [{"name": "g", "levels": ["a", "b` + "\xff" + `"]}]}`, "options: not UTF-8 text (byte 59)"},
		{&binding.Input{N: 0, P: p}, `{}`, "n = 0 rows"},
		{&binding.Input{N: n, P: 0, Y: y}, `{}`, "no predictor"},
	}
	for _, c := range cases {
		_, err := binding.Fit(c.in, []byte(c.opts))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.opts, err, c.want)
		}
	}
	r, err := binding.Fit(&binding.Input{X: xr, N: n, P: p, Y: y}, []byte(`{"lambda": 1}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in   *binding.Input
		typ  string
		want string
	}{
		{&binding.Input{X: xr, N: n, P: 2}, "link", "2 numeric columns; the model was fitted on 3"},
		{&binding.Input{X: xr, N: n, P: p, Offset: y}, "link", "fitted without an offset"},
		{&binding.Input{X: nan, N: n, P: p}, "link", "row 5"},
		{&binding.Input{X: xr, N: n, P: p}, "class", "type class is for binomial models"},
	} {
		if _, err := r.Predict(0, c.in, c.typ); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("predict: got %v, want %q", err, c.want)
		}
	}
	if _, _, err := r.Coef(1); err == nil {
		t.Error("Coef(1) of one model: no error")
	}
}

// skipFold returns n folds 1, 2, 3, 5, 1, 2, 3, 5, …: fold 4 unused.
func skipFold(n int) []int {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = []int{1, 2, 3, 5}[i%4]
	}
	return ids
}

// TestAnyLevelName: a factor's levels are any strings (R and pandas allow
// them): a fit whose levels are named "NA", "", " pad ", "1" and "1.0"…
// gives the same numbers, and predictions, as the same fit with plain
// names, and its columns are named after the levels exactly.
func TestAnyLevelName(t *testing.T) {
	awkward := []string{"ref", "NA", "na", "NaN", " pad ", "", "1", "1.0", "a,b", `say "hi"`, "two\nlines", "é", strings.Repeat("long", 3000)}
	plain := make([]string, len(awkward))
	for c := range plain {
		plain[c] = "l" + string(rune('a'+c))
	}
	const reps = 6
	n := reps * len(awkward)
	codes, y := make([]int32, n), make([]float64, n)
	rng := rand.New(rand.NewPCG(5, 1))
	for i := range codes {
		codes[i] = int32(i % len(awkward))
		y[i] = float64(codes[i]%3) + 0.3*rng.NormFloat64()
	}
	fit := func(levels []string) (*binding.Result, map[string]any) {
		opts := mustJSON(map[string]any{"lambda": 0.05, "factors": []map[string]any{{"name": "g", "levels": levels}}})
		r, err := binding.Fit(&binding.Input{N: n, Y: y, Codes: codes}, opts)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(r.JSON(), &doc); err != nil {
			t.Fatal(err)
		}
		return r, doc
	}
	ra, doca := fit(awkward)
	rp, docp := fit(plain)
	names := doca["names"].([]any)
	for c, l := range awkward[1:] {
		if names[c] != "g="+l {
			t.Errorf("column %d is named %q, want %q", c, names[c], "g="+l)
		}
	}
	if coef := doca["coefficients"].([]any); coef[1].(float64) == 0 {
		t.Errorf("coefficients %v: the test's effects were not fitted", coef)
	}
	if a, p := mustJSON(doca["coefficients"]), mustJSON(docp["coefficients"]); string(a) != string(p) {
		t.Errorf("coefficients differ with the levels' names:\n%s\n%s", a, p)
	}
	pa, err := ra.Predict(0, &binding.Input{N: n, Codes: codes}, "link")
	if err != nil {
		t.Fatal(err)
	}
	pp, _ := rp.Predict(0, &binding.Input{N: n, Codes: codes}, "link")
	if string(mustJSON(pa)) != string(mustJSON(pp)) {
		t.Error("predictions differ with the levels' names")
	}
}

// TestElasticNetRecordsAlpha: the documents of fit, path and cv name the
// elastic net's α (given, or its default 1), and no other penalty's;
// the path is the estimator's elastic net with that α.
func TestElasticNetRecordsAlpha(t *testing.T) {
	n, p := 60, 3
	xr, y := make([]float64, n*p), make([]float64, n)
	for i := range n {
		for j := range p {
			xr[i*p+j] = math.Sin(float64(3*i + 7*j + 1))
		}
		y[i] = 2*xr[i*p] - xr[i*p+1] + 0.3*math.Cos(float64(i))
	}
	in := &binding.Input{X: xr, N: n, P: p, Y: y}
	alphaOf := func(r *binding.Result) *float64 {
		var doc struct{ Alpha *float64 }
		if err := json.Unmarshal(r.JSON(), &doc); err != nil {
			t.Fatal(err)
		}
		return doc.Alpha
	}
	for _, c := range []struct {
		call func(*binding.Input, []byte) (*binding.Result, error)
		opts string
		want float64
	}{
		{binding.Fit, `{"penalty": "elasticnet", "alpha": 0.4, "lambda": 5}`, 0.4},
		{binding.Fit, `{"penalty": "elasticnet", "lambda": 5}`, 1},
		{binding.Path, `{"penalty": "elasticnet", "alpha": 0.4, "nlambda": 5}`, 0.4},
		{binding.CV, `{"penalty": "elasticnet", "alpha": 0.7, "nlambda": 5, "folds": 3}`, 0.7},
		{binding.Fit, `{"penalty": "lasso", "lambda": 5}`, -1},
	} {
		r, err := c.call(in, []byte(c.opts))
		if err != nil {
			t.Fatalf("%s: %v", c.opts, err)
		}
		a := alphaOf(r)
		if c.want < 0 && a != nil || c.want >= 0 && (a == nil || *a != c.want) {
			t.Errorf("%s: alpha %v, want %v", c.opts, a, c.want)
		}
	}
	r, err := binding.Path(in, []byte(`{"penalty": "elasticnet", "alpha": 0.4, "nlambda": 5}`))
	if err != nil {
		t.Fatal(err)
	}
	want, err := estimator.FitPath(estimator.NewRows(mat.NewDense(n, p, xr), y), penalty.ElasticNet{Alpha: 0.4}, &estimator.PathOptions{NLambda: 5})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Lambda []float64 }
	_ = json.Unmarshal(r.JSON(), &doc)
	if len(doc.Lambda) != len(want.Lambdas) || doc.Lambda[len(doc.Lambda)-1] != want.Lambdas[len(want.Lambdas)-1] {
		t.Errorf("binding's grid %v, the estimator's %v", doc.Lambda, want.Lambdas)
	}
}
