package request

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/internal/jsonx"
	"github.com/cardsparse/cardreg/internal/membudget"
	"github.com/cardsparse/cardreg/solver"
)

// Command is what a request asks for: "fit" (one model), "path" or "cv".
type Command = string

// Route is the way the rows reach the fit: in memory, streamed from a
// file (--stream) or aggregated by SQL in ClickHouse (--db). A set of
// routes is their bitwise or.
type Route uint8

const (
	// InMemory is rows held in memory (a file read whole, or buffers).
	InMemory Route = 1 << iota
	// OnStream is a file read once per pass.
	OnStream
	// OnDB is a ClickHouse table scanned by SQL.
	OnDB
	// AnyRoute is every route.
	AnyRoute = InMemory | OnStream | OnDB
)

// Request is one fit's request. The fields with a JSON name are the
// bindings' options and the command line's flags of that name; an option
// left out takes the flag's default (Defaults). The others are set by the
// caller: the command line from its flags and files, the bindings from
// their buffers.
type Request struct {
	// Names are the numeric columns' names (default x1, x2, ...).
	Names []string `json:"names"`
	// Factors describe the factor columns, in the order of the codes.
	Factors []FactorInfo `json:"factors"`

	// Family is the family's name with its parameter ("tweedie:1.5";
	// datafit.ByName); "" is gaussian.
	Family string `json:"family"`
	// Penalty is a name of the penalty table (penalty.Lookup); "" is
	// cardinality.
	Penalty string `json:"penalty"`
	// Nu is the penalty's ν; nil is the penalty's default
	// (penalty.EffectiveNu, bounds for the kernel penalties).
	Nu *float64 `json:"nu"`
	// Alpha is the elastic net's α (glmnet's alpha; penalty.Kind.Alpha);
	// nil is penalty.DefaultAlpha.
	Alpha *float64 `json:"alpha"`
	// Lambda is the λ rule: a number, cv, aic, bic, theory or a list
	// (ParseLambda); fit's default is cv, path's and cv's the generated
	// grid.
	Lambda Lambda `json:"lambda"`
	// LambdaGlmnet is λ on glmnet's scale, λ/(2n), instead of lambda
	// (ParseLambda).
	LambdaGlmnet Lambda `json:"lambda-glmnet"`
	// Rule picks lambda_min ("min", the default) or lambda_1se ("1se").
	Rule string `json:"rule"`
	// Folds is K (0: estimator.DefaultFolds), Seed deals the rows to them
	// (default 1), FoldID fixes each row's fold instead (0…K−1).
	Folds  int    `json:"folds"`
	Seed   uint64 `json:"seed"`
	FoldID []int  `json:"foldid"`
	// TypeMeasure is cv.glmnet's type.measure ("": the family's deviance).
	TypeMeasure string `json:"type-measure"`
	// NLambda (0: solver.DefaultNLambda) and MinRatio (0: solver.MinRatio)
	// shape a generated grid.
	NLambda  int     `json:"nlambda"`
	MinRatio float64 `json:"min-ratio"`
	// Tol is the relative duality gap a fit stops at (0:
	// solver.DefaultTol), MaxIter its iterations (0: solver.DefaultMaxIter).
	Tol     float64 `json:"tol"`
	MaxIter int     `json:"max-iter"`
	// NoIntercept, Standardize and Relax are estimator.Options'.
	NoIntercept bool `json:"no-intercept"`
	Standardize bool `json:"standardize"`
	Relax       bool `json:"relax"`
	// Exclude names predictors left out of the penalty.
	Exclude []string `json:"exclude"`
	// Groups label each predictor's group (penalty grouped), G is the
	// general penalty's matrix.
	Groups Labels      `json:"groups"`
	G      [][]float64 `json:"G"`

	// PenaltyFactor is glmnet's penalty.factor, one weight per predictor
	// (penalty.Kind.Factors).
	PenaltyFactor []float64 `json:"penalty-factor"`

	// Memory is the budget the O(n·p) and O(p²) matrices a call allocates
	// are checked against: bytes, or a size with a unit ("8GB",
	// "512MiB"); 0, the default, is half the machine's memory.
	Memory Bytes `json:"memory"`

	// Ref names each factor's reference level (default its first),
	// PairWeights weighs the nominal factors' level pairs ("equal", the
	// default), MinCount and MaxLevels bound the levels (0:
	// data.DefaultMinCount, data.DefaultMaxLevels).
	Ref         map[string]string `json:"ref"`
	PairWeights string            `json:"pair-weights"`
	MinCount    int               `json:"min-count"`
	MaxLevels   int               `json:"max-levels"`

	// Given holds the names of the options given (a JSON null is not).
	Given map[string]bool `json:"-"`
	// Dialect spells the options in messages.
	Dialect Dialect `json:"-"`
	// Route is the route of the rows (default InMemory).
	Route Route `json:"-"`
	// Offset and Weighted report an offset and observation weights.
	Offset, Weighted bool `json:"-"`
	// Input is the data file's format when it is sparse (svmlight,
	// Matrix Market: SparseRules), "" for a table or buffers.
	Input data.Format `json:"-"`
	// Progress reports that progress is drawn though not on a terminal
	// (the command line's --progress).
	Progress bool `json:"-"`
	// Sigma and T are --lambda theory's σ (0: estimated) and t.
	Sigma, T float64 `json:"-"`
}

// FactorInfo describes one factor column given by level codes.
type FactorInfo = factor.Coding

// Labels are group labels, numbers or strings, read as text.
type Labels []string

// UnmarshalJSON reads a list of numbers or strings.
func (l *Labels) UnmarshalJSON(b []byte) error {
	var raw []any
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*l = make(Labels, len(raw))
	for j, v := range raw {
		(*l)[j] = fmt.Sprint(v)
	}
	return nil
}

// Bytes is a memory budget in bytes.
type Bytes int64

// UnmarshalJSON reads a number of bytes or a size with a unit ("8GB").
func (b *Bytes) UnmarshalJSON(raw []byte) error {
	var num float64
	var text string
	switch {
	case json.Unmarshal(raw, &num) == nil:
		if !(num >= 1) || num > math.MaxInt64 {
			return fmt.Errorf("memory must be a number of bytes >= 1, got %v", num)
		}
		*b = Bytes(num)
	case json.Unmarshal(raw, &text) == nil:
		v, err := membudget.ParseBytes(text)
		if err != nil {
			return fmt.Errorf("memory: %v", err)
		}
		*b = Bytes(v)
	default:
		return fmt.Errorf("memory must be bytes or a size such as \"8GB\", got %s", data.ShortText(raw))
	}
	return nil
}

// Defaults fills in the options left out with the flags' defaults.
func (r *Request) Defaults() {
	def := func(s *string, v string) {
		if *s == "" {
			*s = v
		}
	}
	def(&r.Family, "gaussian")
	def(&r.Penalty, "cardinality")
	def(&r.Rule, "min")
	def(&r.PairWeights, "equal")
	defInt := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	defInt(&r.Folds, estimator.DefaultFolds)
	defInt(&r.MaxIter, solver.DefaultMaxIter)
	defInt(&r.NLambda, solver.DefaultNLambda)
	defInt(&r.MinCount, data.DefaultMinCount)
	defInt(&r.MaxLevels, data.DefaultMaxLevels)
	if !r.Given["seed"] {
		r.Seed = 1 // the command line's --seed default
	}
	if r.Tol == 0 {
		r.Tol = solver.DefaultTol
	}
	if r.Given == nil {
		r.Given = map[string]bool{}
	}
}

// Decode reads the JSON options raw ("" is {}) and fills in the
// defaults: the bindings' request, to be checked by Validate.
func Decode(raw []byte) (*Request, error) {
	r := &Request{Given: map[string]bool{}, Dialect: JSON}
	if k := invalidUTF8(raw); k >= 0 {
		// JSON decoding would read the bytes as U+FFFD, and a name or
		// level changed so would not match the caller's own again.
		return nil, fmt.Errorf("options: not UTF-8 text (byte %d); names and levels must be UTF-8", k+1)
	}
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := jsonx.DecodeStrict(raw, r); err != nil {
			return nil, optionsError(err)
		}
		var keys map[string]json.RawMessage
		_ = json.Unmarshal(raw, &keys) // decoded above
		for k, v := range keys {
			r.Given[k] = string(bytes.TrimSpace(v)) != "null"
		}
	}
	r.Defaults()
	return r, nil
}

// Validate reads the λ option for command cmd and checks the request
// (Check, CheckEffect), before any data are read. Offset, Weighted,
// Route and Progress must be set.
func (r *Request) Validate(cmd Command) error {
	if err := r.ParseLambda(cmd); err != nil {
		return Error{err}
	}
	if err := r.Check(cmd); err != nil {
		return err
	}
	return r.CheckEffect(cmd)
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

// OptionNames lists the JSON options' names, for messages.
func OptionNames() []string {
	t := reflect.TypeFor[Request]()
	var names []string
	for i := range t.NumField() {
		if tag := t.Field(i).Tag.Get("json"); tag != "" && tag != "-" {
			names = append(names, tag)
		}
	}
	return names
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
		return fmt.Errorf("options: unknown option %s (options: %s)", name, strings.Join(OptionNames(), ", "))
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
