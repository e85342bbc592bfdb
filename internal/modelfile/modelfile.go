// Package modelfile reads and checks the linear model files cardreg fit
// --save-model writes (format "cardreg-model", versions 1 to 3) and cardreg
// predict reads. A network's file is deepreg.Saved.
package modelfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/jsonx"
	"github.com/cardsparse/cardreg/internal/names"
	"github.com/cardsparse/cardreg/penalty"
)

// Format names the saved-model format; Version changes when fields
// change meaning. Version 2 added converged and duality_gap, version 3
// family, link, offset_column and weights; older files (least squares,
// without them) are still read.
const (
	Format  = "cardreg-model"
	Version = 3
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
	Penalty      string    `json:"penalty"`
	Lambda       float64   `json:"lambda"`
	Nu           *float64  `json:"nu"`
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
		return nil, fmt.Errorf("not a cardreg model (format %s, want %q)", names.Short([]byte(head.Format)), Format)
	}
	required := Required
	switch head.Version {
	case 1:
	case 2:
		required = append(slices.Clone(required), "converged")
	case Version:
		required = append(slices.Clone(required), "converged", "family", "link", "weights")
	default:
		return nil, fmt.Errorf("model version %d, this cardreg reads versions 1 to %d", head.Version, Version)
	}
	var m Linear
	if err := jsonx.DecodeStrict(b, &m, required...); err != nil {
		return nil, fmt.Errorf("corrupted cardreg model: %v", err)
	}
	if head.Version < 3 {
		m.Family, m.Link = "gaussian", "identity"
	}
	if err := m.Check(); err != nil {
		return nil, fmt.Errorf("corrupted cardreg model: %v", err)
	}
	return &m, nil
}

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
	if err := m.checkData(); err != nil {
		return err
	}
	// JSON has no NaN or infinity, and a number beyond float64 fails to
	// decode, so every coefficient is finite here.
	return names.Unique(m.Names, "predictor")
}

// checkFit tests what was fitted: the penalty, λ, ν, the gap, the family.
func (m *Linear) checkFit() error {
	switch {
	case !knownPenalty(m.Penalty):
		return fmt.Errorf("unknown penalty %s", names.Short([]byte(m.Penalty)))
	case !(m.Lambda >= 0) || math.IsInf(m.Lambda, 0):
		return fmt.Errorf("lambda %v is not a finite number >= 0", m.Lambda)
	case m.Nu != nil && !(*m.Nu > 0):
		return fmt.Errorf("nu %v is not > 0", *m.Nu)
	case m.DualityGap != nil && !(*m.DualityGap >= 0):
		return fmt.Errorf("duality_gap %v is negative", *m.DualityGap)
	case !knownFamily(m.Family, m.Link):
		return fmt.Errorf("unknown family and link %s/%s", names.Short([]byte(m.Family)), names.Short([]byte(m.Link)))
	}
	return nil
}

// checkData tests what the model was fitted on: weights, offset,
// target, n, names and coefficients.
func (m *Linear) checkData() error {
	switch {
	case m.Weights != "" && !slices.Contains([]string{"none", "normalised to sum to n", "as given"}, m.Weights):
		return fmt.Errorf("unknown weights %s", names.Short([]byte(m.Weights)))
	case m.OffsetColumn != "" && slices.Contains(m.Names, m.OffsetColumn):
		return fmt.Errorf("offset column %s is also a predictor", names.Short([]byte(m.OffsetColumn)))
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
