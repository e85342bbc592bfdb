package request

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/datafit"
)

// LambdaKind is the λ rule a request asks for.
type LambdaKind int

const (
	// Fixed is fit at a given λ (Lambda.Value).
	Fixed LambdaKind = iota
	// CV is fit at λ_min or λ_1se (Request.Rule) of cross-validation on
	// the generated grid: fit's default.
	CV
	// AIC and BIC are fit at the smallest criterion along the generated
	// path.
	AIC
	BIC
	// Theory is fit at Theorem 2's λ (the command line only).
	Theory
	// Grid is path and cv: Lambda.List, or the generated grid when nil.
	Grid
)

// Lambda is the λ option: as given (Text) and as read (Parse) once, for
// the command line and the bindings. fit takes a number ≥ 0, cv, aic,
// bic or (the command line) theory; path and cv a list of numbers > 0,
// or nothing for the generated grid.
type Lambda struct {
	// Text is the option as given: "cv", "5", "1,0.5,0.1".
	Text string
	// Kind is the rule Text names, set by Parse.
	Kind LambdaKind
	// Value is fit's λ (Fixed), set by Parse.
	Value float64
	// List is the grid of path and cv, decreasing; nil for the generated
	// grid. Set by Parse.
	List []float64
	// Glmnet reports values on glmnet's scale, λ/(2n) (the option
	// lambda-glmnet): At converts them.
	Glmnet bool
	// word reports a JSON string (a rule's name), list a JSON list.
	word, list bool
}

// At returns Value and List on the objective's scale for n observations
// (datafit.FromGlmnet when Glmnet).
func (l *Lambda) At(n int) (float64, []float64) {
	if !l.Glmnet {
		return l.Value, l.List
	}
	var list []float64
	for _, v := range l.List {
		list = append(list, datafit.FromGlmnet(v, n))
	}
	return datafit.FromGlmnet(l.Value, n), list
}

// name is the option's name.
func (l *Lambda) name() string {
	if l.Glmnet {
		return "lambda-glmnet"
	}
	return "lambda"
}

// UnmarshalJSON keeps a number, a string or a list of numbers as Text.
func (l *Lambda) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	var num json.Number
	var nums []json.Number
	switch {
	case json.Unmarshal(b, &num) == nil:
		l.Text = num.String()
	case json.Unmarshal(b, &l.Text) == nil:
		l.word = true
	case json.Unmarshal(b, &nums) == nil:
		parts := make([]string, len(nums))
		for k, v := range nums {
			parts[k] = v.String()
		}
		l.Text, l.list = strings.Join(parts, ","), true
	default:
		return fmt.Errorf("lambda must be a number, a rule's name or a list of numbers, got %s", data.ShortText(b))
	}
	return nil
}

// OnGrid reports a λ chosen on a grid: fit's cv, and every path and cv.
func (l *Lambda) OnGrid() bool { return l.Kind == CV || l.Kind == Grid }

// Criterion returns "aic" or "bic" for those rules, "" for the others.
func (l *Lambda) Criterion() string {
	switch l.Kind {
	case AIC, BIC:
		return l.Text
	}
	return ""
}

// Parse reads Text for command cmd (given: whether the option was
// given; fit's default is cv, path's and cv's the generated grid).
func (l *Lambda) Parse(cmd Command, given bool, d Dialect) error {
	if cmd != "fit" {
		l.Kind = Grid
		if !given {
			return nil
		}
		if l.word {
			return fmt.Errorf("%s must be a list of numbers > 0, got %q", d.o(l.name()), l.Text)
		}
		return l.parseGrid(cmd, d)
	}
	if !given {
		l.Text = "cv"
	}
	kinds := map[string]LambdaKind{"cv": CV, "aic": AIC, "bic": BIC}
	forms := "cv, aic or bic"
	if d.Theory {
		kinds["theory"], forms = Theory, "cv, theory, aic or bic"
	}
	if k, ok := kinds[l.Text]; ok {
		l.Kind = k
		return nil
	}
	v, err := strconv.ParseFloat(l.Text, 64)
	if l.list || err != nil || !(v >= 0) || math.IsInf(v, 0) {
		return fmt.Errorf("%s must be a finite non-negative number, %s, got %q", d.o(l.name()), forms, l.Text)
	}
	if data.Underflows(l.Text, v) {
		return fmt.Errorf("%s %s is below the smallest float64 (about 5e-324) and would be 0, the unpenalised fit; give %s 0 for that", d.o(l.name()), l.Text, d.o(l.name()))
	}
	l.Kind, l.Value = Fixed, v
	return nil
}

// parseGrid reads the list of path and cv (cmd): λ values on the paper
// scale, comma separated, each finite and > 0, none twice, kept in
// decreasing order, the order glmnet fits a user's lambda in.
func (l *Lambda) parseGrid(cmd Command, d Dialect) error {
	parts := strings.Split(l.Text, ",")
	grid := make([]float64, 0, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err == nil && data.Underflows(p, v) {
			return fmt.Errorf("%s: value %d, %s, is below the smallest float64 (about 5e-324) and would be 0", d.o(l.name()), i+1, data.ShortText(p))
		}
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%s: value %d, %s, is not a finite number > 0 (%s takes lambda values on the paper scale, comma separated; leave %s out for the generated grid)",
				d.o(l.name()), i+1, data.ShortText(p), cmd, d.o(l.name()))
		}
		if k := slices.Index(grid, v); k >= 0 {
			return fmt.Errorf("%s: values %d and %d are the same lambda, %v", d.o(l.name()), k+1, i+1, v)
		}
		grid = append(grid, v)
	}
	if cmd == "cv" && len(grid) < 2 {
		return fmt.Errorf("%s: cv needs at least two lambda values (as cv.glmnet); for one lambda use %s %s %s", d.o(l.name()), d.c("fit"), d.o(l.name()), l.Text)
	}
	slices.Sort(grid)
	slices.Reverse(grid)
	l.List = grid
	return nil
}

// ParseLambda reads lambda, or lambda-glmnet (a number, or for path and
// cv a list, on glmnet's scale λ/(2n)), into Lambda for command cmd.
func (r *Request) ParseLambda(cmd Command) error {
	if !r.Given["lambda-glmnet"] {
		return r.Lambda.Parse(cmd, r.Given["lambda"], r.Dialect)
	}
	d, l := r.Dialect, r.LambdaGlmnet
	if r.Given["lambda"] {
		return fmt.Errorf("%s does not combine with %s: give lambda on one scale", d.o("lambda-glmnet"), d.o("lambda"))
	}
	l.Glmnet = true
	if err := l.Parse(cmd, true, d); err != nil {
		return err
	}
	if l.Kind != Fixed && l.Kind != Grid {
		return fmt.Errorf("%s must be a number on glmnet's scale (lambda/(2n)), got %q", d.o("lambda-glmnet"), l.Text)
	}
	r.Lambda = l
	return nil
}
