// Package modelfile reads and checks the linear model files cardreg fit
// --save-model writes (format "cardreg-model", versions 1 to 4) and cardreg
// predict reads. A network's file is deepreg.Saved.
package modelfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/internal/jsonx"
	"github.com/cardsparse/cardreg/internal/names"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
)

// Format names the saved-model format; Version changes when fields
// change meaning. Version 2 added converged and duality_gap, version 3
// family, link, offset_column and weights; older files (least squares,
// without them) are still read. Version 4 added factors and
// numeric_penalty (a model with factor predictors): a cardreg that reads
// up to version 3 refuses the new fields as unknown, so every model is
// now written as version 4, with or without factors; versions 1 to 3 are
// still read (they have no factors). alpha (an elastic-net model's α)
// came within version 4: no reader before it knew the elastic net.
const (
	Format  = "cardreg-model"
	Version = 4
)

// Linear is what fit --save-model writes and predict reads: enough to
// predict (names, coefficients, intercept on the data's scale) and to say
// what was fitted.
type Linear struct {
	// Format and Version are Format and Version (or an older version).
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Penalty is a name of penalty.Lookup's table, Lambda and Nu its λ
	// and ν (nil for ridge); Target names the response, Names the
	// predictors of Coefficients; Relaxed says the coefficients are
	// --relax's refit; N counts the observations.
	Penalty string   `json:"penalty"`
	Lambda  float64  `json:"lambda"`
	Nu      *float64 `json:"nu"`
	// Alpha is the elastic net's α (glmnet's alpha): present exactly when
	// the penalty takes one (penalty.Kind.Alpha).
	Alpha        *float64  `json:"alpha,omitempty"`
	Target       string    `json:"target"`
	Names        []string  `json:"names"`
	Coefficients []float64 `json:"coefficients"`
	Intercept    float64   `json:"intercept"`
	Relaxed      bool      `json:"relaxed"`
	N            int       `json:"n"`
	// Converged and DualityGap are the penalised fit's certificate
	// (the gap is null for ridge, which has no dual norm here).
	Converged  bool     `json:"converged"`
	DualityGap *float64 `json:"duality_gap"`
	// Family and Link say how the linear predictor maps to the response
	// (gaussian and identity in versions 1 and 2). OffsetColumn names the
	// column predict adds to the linear predictor ("" for none). Weights
	// says how observation weights entered the fit: "none", or
	// "normalised to sum to n" (every family; "as given" in models saved
	// before gaussian weights were rescaled, read as it was written).
	Family       string `json:"family,omitempty"`
	Link         string `json:"link,omitempty"`
	OffsetColumn string `json:"offset_column,omitempty"`
	Weights      string `json:"weights,omitempty"`
	// Factors are the factor predictors (version 4), in the order of the
	// data's columns; their dummy columns are among Names, as NAME=LEVEL
	// (data.Factor.DummyNames). Penalty is then "factor" and
	// NumericPenalty the numeric predictors' penalty (cardinality, lasso
	// or none).
	Factors        []Factor `json:"factors,omitempty"`
	NumericPenalty string   `json:"numeric_penalty,omitempty"`
}

// Factor is a factor predictor of a saved model: what predict needs to read
// its column in new data as the fit read it (data.Factor without the rows).
type Factor struct {
	// Column names the data's column.
	Column string `json:"column"`
	// Levels are the levels in the factor's order, each as a data
	// file's cell gives it (data.NewFactor): the command line's fits,
	// the only ones saved, read their levels from cells. Reference is
	// one of them.
	Levels    []string `json:"levels"`
	Reference string   `json:"reference"`
	// Ordinal says the levels are ordered (--ordinal); Numeric says the
	// column was named as a factor, so that its numbers are levels by
	// value ("02" and "2.0" are the level "2"); NALevel says missing
	// values are the level "NA", which is then one of Levels.
	Ordinal bool `json:"ordinal"`
	Numeric bool `json:"numeric"`
	NALevel bool `json:"na_level"`
	// Edges are, for a numeric column binned into an ordinal factor
	// (--bin), the cut points of its bands (data.BinLevels names Levels
	// from them): predict bins new rows' numbers at them. Absent
	// otherwise.
	Edges []float64 `json:"edges,omitempty"`
}

// FactorKeys are the keys every entry of factors must hold, not null.
var FactorKeys = []string{"column", "levels", "reference", "ordinal", "numeric", "na_level"}

// UnmarshalJSON decodes one entry of factors, refusing a missing, null,
// duplicated or unknown key.
func (f *Factor) UnmarshalJSON(b []byte) error {
	type plain Factor
	if err := jsonx.DecodeStrict(b, (*plain)(f), FactorKeys...); err != nil {
		return fmt.Errorf("a factor: %v", err)
	}
	return nil
}

// NewFactor is the saved form of the factor f.
func NewFactor(f *data.Factor) Factor {
	return Factor{Column: f.Name, Levels: f.Levels, Reference: f.Levels[f.Ref], Ordinal: f.Ordinal, Numeric: f.Numeric,
		NALevel: f.NALevel && slices.Contains(f.Levels, data.NALevel), Edges: f.Edges}
}

// Data rebuilds the factor for reading new rows (data.NewFactor), or
// says why the saved one is not a factor.
func (f *Factor) Data() (*data.Factor, error) {
	col := "factor " + names.Short(f.Column)
	switch {
	case strings.TrimSpace(f.Column) == "":
		return nil, errors.New("a factor has an empty column name")
	case f.NALevel != slices.Contains(f.Levels, data.NALevel):
		return nil, fmt.Errorf("%s: na_level is %v but %q is %sone of its levels", col, f.NALevel, data.NALevel, map[bool]string{true: "not "}[f.NALevel])
	}
	ref := slices.Index(f.Levels, f.Reference)
	if ref < 0 {
		return nil, fmt.Errorf("%s: reference %s is not one of its levels", col, names.Short(f.Reference))
	}
	if f.Edges != nil {
		return f.binned(ref)
	}
	return data.NewFactor(f.Column, f.Levels, ref, f.Ordinal, f.Numeric, f.NALevel)
}

// binned rebuilds a binned factor (Edges), whose levels must be the
// bands of its cut points, in order, and which is ordinal.
func (f *Factor) binned(ref int) (*data.Factor, error) {
	col := "factor " + names.Short(f.Column)
	if !f.Ordinal || f.Numeric || f.NALevel {
		return nil, fmt.Errorf("%s: a binned column is an ordinal factor, neither numeric nor with an NA level", col)
	}
	fac, err := data.NewBinnedFactor(f.Column, f.Edges, ref)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", col, err)
	}
	if !slices.Equal(fac.Levels, f.Levels) {
		return nil, fmt.Errorf("%s: its levels are not the bands of its cut points (%s)", col, strings.Join(fac.Levels, " "))
	}
	return fac, nil
}

// Required are the keys a saved model of version 1 must hold, not null;
// version 2 adds converged, version 3 family, link and weights.
var Required = []string{"format", "version", "penalty", "lambda", "target", "names", "coefficients", "intercept", "relaxed", "n"}

// Parse decodes and checks a saved model, refusing text that is not
// complete JSON, a missing, null, duplicated or unknown field, a value out
// of its range, predictor names empty or repeated.
func Parse(b []byte) (*Linear, error) {
	var head struct {
		Format  string
		Version int
	}
	if err := json.Unmarshal(b, &head); err != nil {
		if text := jsonx.TextError(b, err); text != err {
			return nil, text
		}
		return nil, fmt.Errorf("not a cardreg model: %v", err)
	}
	if head.Format != Format {
		return nil, fmt.Errorf("not a cardreg model (format %s, want %q)", names.Short(head.Format), Format)
	}
	required := Required
	switch head.Version {
	case 1:
	case 2:
		required = append(slices.Clone(required), "converged")
	case 3, Version:
		required = append(slices.Clone(required), "converged", "family", "link", "weights")
	default:
		return nil, fmt.Errorf("model version %d, this cardreg reads versions 1 to %d", head.Version, Version)
	}
	var m Linear
	if err := jsonx.DecodeStrict(b, &m, required...); err != nil {
		return nil, fmt.Errorf("corrupted cardreg model: %v", err)
	}
	if head.Version < 3 {
		m.Family, m.Link = datafit.Gaussian{}.Name(), datafit.Gaussian{}.Link()
	}
	if head.Version < 4 && (m.Factors != nil || m.NumericPenalty != "") {
		return nil, fmt.Errorf("corrupted cardreg model: factors and numeric_penalty are fields of version 4, the file says version %d", head.Version)
	}
	if err := m.Check(); err != nil {
		return nil, fmt.Errorf("corrupted cardreg model: %v", err)
	}
	return &m, nil
}

// FactorPenalty is the penalty of a model with factors: each factor its
// block, the numeric predictors NumericPenalty, one of factor.NumericPenalties.
const FactorPenalty = "factor"

// knownPenalty reports whether name is in penalty.Lookup's table.
func knownPenalty(name string) bool {
	_, ok := penalty.Lookup(name)
	return ok
}

// Check tests the values of a decoded model.
func (m *Linear) Check() error {
	if err := m.checkFit(); err != nil {
		return err
	}
	if err := m.checkAlpha(); err != nil {
		return err
	}
	if err := m.checkData(); err != nil {
		return err
	}
	// JSON has no NaN or infinity, and a number beyond float64 fails to
	// decode, so every coefficient is finite here.
	if err := names.Unique(m.Names, "predictor"); err != nil {
		return err
	}
	_, err := m.Columns()
	return err
}

// Columns says what each predictor of Names is, checking the factors:
// Columns[k] is the index in Factors of the factor whose dummy column
// Names[k] is, -1 for a numeric predictor. Each factor's dummy columns
// (one per level but the reference, NAME=LEVEL) must be in Names, in level
// order; a predictor NAME=… of a factor NAME must be one of them; no
// factor's column may be a numeric predictor, the offset or another
// factor's.
func (m *Linear) Columns() ([]int, error) {
	owner := make([]int, len(m.Names))
	for k := range owner {
		owner[k] = -1
	}
	at := make(map[string]int, len(m.Names))
	for k, name := range m.Names {
		at[name] = k
	}
	seen := map[string]bool{}
	for _, f := range m.Factors {
		if seen[f.Column] {
			return nil, fmt.Errorf("factor %s appears twice in factors", names.Short(f.Column))
		}
		seen[f.Column] = true
	}
	for i := range m.Factors {
		f, err := m.Factors[i].Data()
		if err != nil {
			return nil, err
		}
		col := "factor " + names.Short(f.Name)
		switch _, numeric := at[f.Name]; {
		case numeric:
			return nil, fmt.Errorf("%s is also a numeric predictor", col)
		case f.Name == m.OffsetColumn:
			return nil, fmt.Errorf("%s is also the offset column", col)
		}
		last := -1
		for _, dummy := range f.DummyNames() {
			k, ok := at[dummy]
			switch {
			case !ok:
				return nil, fmt.Errorf("%s: its dummy column %s is not among the predictor names", col, names.Short(dummy))
			case owner[k] >= 0:
				return nil, fmt.Errorf("%s: predictor %s is a dummy column of two factors", col, names.Short(dummy))
			case k < last:
				return nil, fmt.Errorf("%s: its dummy columns are not in level order among the predictor names (%s)", col, names.Short(dummy))
			}
			owner[k], last = i, k
		}
	}
	for k, name := range m.Names {
		if owner[k] >= 0 {
			continue
		}
		for i := range m.Factors {
			if level, ok := strings.CutPrefix(name, m.Factors[i].Column+"="); ok {
				return nil, fmt.Errorf("predictor %s is a dummy column of factor %s, whose levels (but the reference) do not include %s",
					names.Short(name), names.Short(m.Factors[i].Column), names.Short(level))
			}
		}
	}
	return owner, nil
}

// checkFit tests what was fitted: the penalty, λ, ν, the gap, the family.
func (m *Linear) checkFit() error {
	switch {
	case m.Penalty == FactorPenalty && len(m.Factors) == 0:
		return fmt.Errorf("penalty %q without factors", FactorPenalty)
	case len(m.Factors) > 0 && m.Penalty != FactorPenalty:
		return fmt.Errorf("a model with factors has penalty %q, not %s", FactorPenalty, names.Short(m.Penalty))
	case len(m.Factors) > 0 && !slices.Contains(factor.NumericPenalties, m.NumericPenalty):
		return fmt.Errorf("numeric_penalty %s is not one of %s", names.Short(m.NumericPenalty), strings.Join(factor.NumericPenalties, ", "))
	case len(m.Factors) == 0 && m.NumericPenalty != "":
		return errors.New("numeric_penalty without factors")
	case m.Penalty != FactorPenalty && !knownPenalty(m.Penalty):
		return fmt.Errorf("unknown penalty %s", names.Short(m.Penalty))
	case solver.CheckLambda(m.Lambda) != nil:
		return fmt.Errorf("lambda %v is not a finite number >= 0", m.Lambda)
	case m.Nu != nil && !(*m.Nu > 0):
		return fmt.Errorf("nu %v is not > 0", *m.Nu)
	case m.DualityGap != nil && !(*m.DualityGap >= 0):
		return fmt.Errorf("duality_gap %v is negative", *m.DualityGap)
	case !knownFamily(m.Family, m.Link):
		return fmt.Errorf("unknown family and link %s/%s", names.Short(m.Family), names.Short(m.Link))
	}
	return nil
}

// checkAlpha tests α: present exactly when the penalty takes one, and
// in its range (the penalty's own check).
func (m *Linear) checkAlpha() error {
	kind, _ := penalty.Lookup(m.Penalty)
	switch {
	case m.Alpha == nil && kind.Alpha:
		return fmt.Errorf("penalty %s without alpha", m.Penalty)
	case m.Alpha != nil && !kind.Alpha:
		return fmt.Errorf("alpha beside penalty %s, which takes none", names.Short(m.Penalty))
	case m.Alpha != nil:
		if _, err := kind.NewFor(penalty.Inputs{P: 1, Alpha: *m.Alpha}); err != nil {
			return fmt.Errorf("alpha: %v", strings.TrimPrefix(err.Error(), "penalty: "))
		}
	}
	return nil
}

// checkData tests what the model was fitted on: weights, offset,
// target, n, names and coefficients.
func (m *Linear) checkData() error {
	switch {
	case m.Weights != "" && !slices.Contains([]string{"none", "normalised to sum to n", "as given"}, m.Weights):
		return fmt.Errorf("unknown weights %s", names.Short(m.Weights))
	case m.OffsetColumn != "" && slices.Contains(m.Names, m.OffsetColumn):
		return fmt.Errorf("offset column %s is also a predictor", names.Short(m.OffsetColumn))
	case strings.TrimSpace(m.Target) == "":
		return errors.New("empty target name")
	case m.N < 1:
		return fmt.Errorf("n = %d observations", m.N)
	case len(m.Names) == 0 || len(m.Names) != len(m.Coefficients):
		return fmt.Errorf("%d predictor names for %d coefficients", len(m.Names), len(m.Coefficients))
	}
	return nil
}

// knownFamily reports whether family is one of datafit's, spelt as it
// spells it, with its link.
func knownFamily(family, link string) bool {
	f, err := datafit.ByName(family)
	return err == nil && f.Name() == family && f.Link() == link
}
