package binding

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/internal/jsonx"
	"github.com/cardsparse/cardreg/internal/membudget"
	"github.com/cardsparse/cardreg/solver"
)

// Options are a call's options: the data's description (Names, Factors)
// and the command line's flags, by the flags' names. A name left out takes
// the flag's default.
type Options struct {
	// Names are the numeric columns' names (default x1, x2, ...).
	Names []string `json:"names"`
	// Factors describe the factor columns, in the order of the codes.
	Factors []FactorInfo `json:"factors"`

	Family      string          `json:"family"`
	Penalty     string          `json:"penalty"`
	Nu          *float64        `json:"nu"`
	Alpha       *float64        `json:"alpha"`
	Lambda      json.RawMessage `json:"lambda"`
	Rule        string          `json:"rule"`
	Folds       int             `json:"folds"`
	Seed        *uint64         `json:"seed"`
	FoldID      []int           `json:"foldid"`
	TypeMeasure string          `json:"type-measure"`
	NLambda     int             `json:"nlambda"`
	MinRatio    float64         `json:"min-ratio"`
	Tol         float64         `json:"tol"`
	MaxIter     int             `json:"max-iter"`
	NoIntercept bool            `json:"no-intercept"`
	Standardize bool            `json:"standardize"`
	Relax       bool            `json:"relax"`

	PenaltyFactor []float64   `json:"penalty-factor"`
	Exclude       []string    `json:"exclude"`
	Groups        []any       `json:"groups"`
	G             [][]float64 `json:"G"`

	// Memory is the budget the O(n·p) and O(p²) matrices a call allocates
	// are checked against: bytes, or a size with a unit ("8GB", "512MiB");
	// default half the machine's memory.
	Memory json.RawMessage `json:"memory"`

	Ref         map[string]string `json:"ref"`
	PairWeights string            `json:"pair-weights"`
	MinCount    int               `json:"min-count"`
	MaxLevels   int               `json:"max-levels"`

	// lambda is Lambda read: a number (fixed), a rule ("cv", "aic",
	// "bic") or a list.
	lambda lambdaChoice
	// given holds the names the JSON gave.
	given map[string]bool
	// memory is Memory read (0: the default budget).
	memory int64
}

// FactorInfo describes one factor column: its name and levels, in order
// (codes index them), and whether they are ordered.
type FactorInfo struct {
	Name    string   `json:"name"`
	Levels  []string `json:"levels"`
	Ordinal bool     `json:"ordinal"`
}

// lambdaChoice is the "lambda" option read.
type lambdaChoice struct {
	value float64   // a number given to fit
	rule  string    // "cv", "aic", "bic" or "" for a number
	list  []float64 // path and cv: the grid (nil: generated)
}

// optionNames lists the options' names, for messages.
func optionNames() []string {
	t := reflect.TypeFor[Options]()
	var names []string
	for i := range t.NumField() {
		if tag := t.Field(i).Tag.Get("json"); tag != "" {
			names = append(names, tag)
		}
	}
	return names
}

// parseOptions reads the JSON options raw ("" is {}) for command cmd
// and fills in the defaults.
func parseOptions(raw []byte, cmd string) (*Options, error) {
	o := &Options{given: map[string]bool{}}
	if k := invalidUTF8(raw); k >= 0 {
		// JSON decoding would read the bytes as U+FFFD, and a name or
		// level changed so would not match the caller's own again.
		return nil, fmt.Errorf("options: not UTF-8 text (byte %d); names and levels must be UTF-8", k+1)
	}
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := jsonx.DecodeStrict(raw, o); err != nil {
			return nil, optionsError(err)
		}
		var keys map[string]json.RawMessage
		_ = json.Unmarshal(raw, &keys) // decoded above
		for k, v := range keys {
			o.given[k] = string(bytes.TrimSpace(v)) != "null"
		}
	}
	o.defaults()
	err := o.check(cmd)
	if err == nil {
		err = o.checkEffect(cmd)
	}
	if err != nil {
		return nil, fmt.Errorf("options: %v", err)
	}
	return o, nil
}

// invalidUTF8 is the offset of the first byte of b that is not UTF-8,
// or -1.
func invalidUTF8(b []byte) int {
	for k := 0; k < len(b); {
		r, size := utf8.DecodeRune(b[k:])
		if r == utf8.RuneError && size == 1 {
			return k
		}
		k += size
	}
	return -1
}

// checkEffect refuses an option that would have no effect in command
// cmd, as the command line refuses such a flag: no option is silently
// ignored. The penalty's own (nu, groups, G) and the factors' are checked
// where the penalty is built.
func (o *Options) checkEffect(cmd string) error {
	cv := cmd == "cv" || cmd == "fit" && o.lambda.rule == "cv"
	const cvOnly = "applies to cross-validation only (cv, or fit with lambda cv)"
	rules := []struct {
		name string
		off  bool
		why  string
	}{
		{"folds", !cv, cvOnly},
		{"seed", !cv, cvOnly},
		{"foldid", !cv, cvOnly},
		{"type-measure", !cv, cvOnly},
		{"folds", o.given["foldid"], "does not combine with foldid, which fixes the folds and their number"},
		{"seed", o.given["foldid"], "does not combine with foldid, which fixes the folds"},
		{"rule", cmd != "fit" || !cv, "picks lambda_min or lambda_1se of fit with lambda cv (a cross-validation returns both)"},
		{"nlambda", cmd == "fit" && o.lambda.rule == "" || o.lambda.list != nil, "shapes the generated lambda grid: it has no effect with lambda given"},
		{"min-ratio", cmd == "fit" && o.lambda.rule == "" || o.lambda.list != nil, "shapes the generated lambda grid: it has no effect with lambda given"},
		{"nu", o.PenaltyFactor != nil, "does not combine with penalty-factor, whose factors weigh each predictor's lasso penalty instead"},
	}
	for _, r := range rules {
		if r.off && o.given[r.name] {
			return fmt.Errorf("%s %s", r.name, r.why)
		}
	}
	if len(o.Factors) == 0 {
		for _, name := range []string{"pair-weights", "min-count", "max-levels"} {
			if o.given[name] {
				return fmt.Errorf("%s acts on factors, and the data hold none (options: factors)", name)
			}
		}
	}
	return nil
}

// optionsError says what was wrong with the options' JSON, naming the
// options when one is unknown.
func optionsError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Errorf("options: %s must be %s, got %s", te.Field, typeWords(te.Type), te.Value)
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return fmt.Errorf("options: unknown option %s (options: %s)", name, strings.Join(optionNames(), ", "))
	}
	return fmt.Errorf("options: %s", strings.TrimPrefix(msg, "json: "))
}

// typeWords says what a value of an option's Go type t is, for a
// caller who never sees the Go struct (Python's 10.0, R's 10.5).
func typeWords(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int32, reflect.Int64:
		return "a whole number (an integer)"
	case reflect.Uint, reflect.Uint32, reflect.Uint64:
		return "a whole number ≥ 0 (an integer)"
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list"
	case reflect.Map:
		return "a mapping of names to strings"
	}
	return t.String()
}

func (o *Options) defaults() {
	def := func(s *string, v string) {
		if *s == "" {
			*s = v
		}
	}
	def(&o.Family, "gaussian")
	def(&o.Penalty, "cardinality")
	def(&o.Rule, "min")
	def(&o.PairWeights, "equal")
	if o.Folds == 0 {
		o.Folds = estimator.DefaultFolds
	}
	if o.Seed == nil {
		one := uint64(1) // the command line's --seed default
		o.Seed = &one
	}
	if o.Tol == 0 {
		o.Tol = solver.DefaultTol
	}
	if o.MaxIter == 0 {
		o.MaxIter = solver.DefaultMaxIter
	}
	if o.NLambda == 0 {
		o.NLambda = solver.DefaultNLambda
	}
	if o.MinCount == 0 {
		o.MinCount = data.DefaultMinCount
	}
	if o.MaxLevels == 0 {
		o.MaxLevels = data.DefaultMaxLevels
	}
}

// check refuses values no flag takes, before any work.
func (o *Options) check(cmd string) error {
	if _, err := datafit.ByName(o.Family); err != nil {
		return fmt.Errorf("unknown family %q (%s)", o.Family, strings.Join(datafit.Names(), ", "))
	}
	if o.Nu != nil && (!(*o.Nu > 0) || math.IsInf(*o.Nu, 0)) {
		return fmt.Errorf("nu must be a finite number > 0, got %v", *o.Nu)
	}
	switch {
	case o.Rule != "min" && o.Rule != "1se":
		return fmt.Errorf("rule must be min or 1se, got %q", o.Rule)
	case o.Folds < estimator.MinFolds:
		return fmt.Errorf("folds must be at least %d (as cv.glmnet), got %d", estimator.MinFolds, o.Folds)
	case !(o.Tol > 0) || math.IsInf(o.Tol, 0):
		return fmt.Errorf("tol must be a positive number, got %v", o.Tol)
	case o.MaxIter < 1:
		return fmt.Errorf("max-iter must be at least 1, got %d", o.MaxIter)
	case o.NLambda < 2 || !(o.MinRatio >= 0 && o.MinRatio < 1):
		return fmt.Errorf("nlambda must be at least 2 and min-ratio in [0, 1)")
	case o.MinCount < 1 || o.MaxLevels < 2:
		return fmt.Errorf("max-levels must be at least 2 and min-count at least 1")
	}
	if err := o.checkNames(); err != nil {
		return err
	}
	if err := o.readMemory(); err != nil {
		return err
	}
	return o.readLambda(cmd)
}

// readMemory reads "memory": a number of bytes or a size with a unit.
func (o *Options) readMemory() error {
	raw := bytes.TrimSpace(o.Memory)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var num float64
	var text string
	switch {
	case json.Unmarshal(raw, &num) == nil:
		if !(num >= 1) || num > math.MaxInt64 {
			return fmt.Errorf("memory must be a number of bytes >= 1, got %v", num)
		}
		o.memory = int64(num)
	case json.Unmarshal(raw, &text) == nil:
		b, err := membudget.ParseBytes(text)
		if err != nil {
			return fmt.Errorf("memory: %v", err)
		}
		o.memory = b
	default:
		return fmt.Errorf("memory must be bytes or a size such as \"8GB\", got %s", data.ShortText(raw))
	}
	return nil
}

// checkNames checks the options that name a choice or hold a list.
func (o *Options) checkNames() error {
	if _, err := factor.ParsePairWeights(o.PairWeights); err != nil {
		return fmt.Errorf("pair-weights: %v", err)
	}
	if m := o.TypeMeasure; m != "" {
		fam, _ := datafit.ByName(o.Family)
		if !slices.Contains(estimator.Measures(fam), m) {
			return fmt.Errorf("type-measure %s is not one of %s for family %s", m, strings.Join(estimator.Measures(fam), ", "), o.Family)
		}
	}
	for _, v := range o.PenaltyFactor {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("penalty-factor: %v is not a finite number >= 0", v)
		}
	}
	return nil
}

// readLambda reads "lambda": for fit a number ≥ 0 or "cv" (the default),
// "aic" or "bic"; for path and cv a list of numbers > 0 (or one), or
// nothing for the generated grid.
func (o *Options) readLambda(cmd string) error {
	raw := bytes.TrimSpace(o.Lambda)
	if len(raw) == 0 || string(raw) == "null" {
		if cmd == "fit" {
			o.lambda.rule = "cv"
		}
		return nil
	}
	var num float64
	var word string
	var list []float64
	switch {
	case json.Unmarshal(raw, &num) == nil:
		list = []float64{num}
	case json.Unmarshal(raw, &word) == nil && cmd == "fit":
		if word != "cv" && word != "aic" && word != "bic" {
			return fmt.Errorf("lambda must be a number, cv, aic or bic, got %q", word)
		}
		o.lambda.rule = word
		return nil
	case json.Unmarshal(raw, &list) == nil && cmd != "fit":
	default:
		if cmd == "fit" {
			return fmt.Errorf("lambda must be a number, cv, aic or bic, got %s", data.ShortText(raw))
		}
		return fmt.Errorf("lambda must be a list of numbers > 0, got %s", data.ShortText(raw))
	}
	for _, v := range list {
		if !(v >= 0) || math.IsInf(v, 0) || cmd != "fit" && v == 0 {
			return fmt.Errorf("lambda %v: give finite numbers %s", v, map[bool]string{true: ">= 0", false: "> 0"}[cmd == "fit"])
		}
	}
	if cmd == "fit" {
		o.lambda.value = list[0]
		return nil
	}
	o.lambda.list = list
	return nil
}
