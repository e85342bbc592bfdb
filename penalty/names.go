package penalty

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// NuPolicy says how a named penalty's ν is chosen when none is given.
type NuPolicy int

const (
	// NoNu is a penalty without ν (ridge).
	NoNu NuPolicy = iota
	// NuOne is ν = 1 (the lasso).
	NuOne
	// NuKernel is the smallest ν the theory allows, 1/(1 − M_G), or 1 when
	// M_G ≥ 1 leaves none (bounds.DefaultNu computes it).
	NuKernel
)

// Input names what a named penalty needs besides the number of
// predictors.
type Input int

const (
	// NeedsNothing is a penalty built from p and ν alone.
	NeedsNothing Input = iota
	// NeedsGroups is a penalty built from one group label per predictor
	// (Inputs.Groups; the command line's --groups).
	NeedsGroups
	// NeedsG is a penalty built from an explicit matrix G (Inputs.G; the
	// command line's --G).
	NeedsG
)

// Inputs are what a named penalty is built from.
type Inputs struct {
	// P is the number of predictors (rows of Θ).
	P int
	// Nu is ν; NewFor ignores it for a NoNu penalty.
	Nu float64
	// Groups holds one group label per predictor (NeedsGroups).
	Groups []int
	// G is the penalty's matrix, P columns (NeedsG).
	G *mat.Dense
	// Alpha is α of a kind with Alpha set (the elastic net's mix, glmnet's
	// alpha); the command line and the bindings default it to DefaultAlpha.
	Alpha float64
}

// DefaultAlpha is the elastic net's α when none is given: 1, the lasso,
// as glmnet's default.
const DefaultAlpha = 1.0

// Kind is one penalty known by name to the command line, the saved models
// and the bindings: how it is built, how its ν defaults, what it needs,
// and where it applies.
type Kind struct {
	// Name is the penalty's name (--penalty, a saved model's "penalty").
	Name string
	// Nu is the policy of ν's default.
	Nu NuPolicy
	// Needs is the input it needs besides p and ν.
	Needs Input
	// Grid reports that a λ grid can be generated (from λ_max, the dual
	// norm of the null model's gradient in closed form, or ridge's own
	// scale), and so paths and cross-validation on it.
	Grid bool
	// Theory reports that Theorem 2's λ is defined for it.
	Theory bool
	// GLM reports that the family engine fits it (every family: gaussian,
	// binomial, poisson, gamma); without it, least squares only.
	GLM bool
	// Networks reports that it acts on the columns of a network's weight
	// matrices built from the layer widths alone (deepreg).
	Networks bool
	// NetworkLambda reports that Theorem 1's λ has its constants
	// (bounds.NetworkLambda).
	NetworkLambda bool
	// Alpha reports that it takes α (Inputs.Alpha; --alpha, "alpha");
	// every other penalty refuses one.
	Alpha bool
	// Factors reports that it takes glmnet's penalty.factor, one weight
	// per predictor (WithFactors; --penalty-factor).
	Factors bool
	// New builds the penalty.
	New func(Inputs) (Penalty, error)
}

// kinds is the table, in the order messages list the names. A new norm is
// one file of this package and one line here (a penalty that is not a norm
// implements Conjugator and LambdaMaxer, and CoordinateProxer when it is
// separable, as ElasticNet).
var kinds = []Kind{
	{Name: "cardinality", Nu: NuKernel, Grid: true, Theory: true, GLM: true, Networks: true, NetworkLambda: true,
		New: func(in Inputs) (Penalty, error) { return Cardinality{Nu: in.Nu}, nil }},
	{Name: "grouped", Nu: NuKernel, Needs: NeedsGroups, Grid: true, Theory: true, GLM: true, NetworkLambda: true,
		New: func(in Inputs) (Penalty, error) { return NewGrouped(in.Groups, in.Nu), nil }},
	{Name: "lasso", Nu: NuOne, Grid: true, Theory: true, GLM: true, Networks: true, NetworkLambda: true, Factors: true,
		New: func(in Inputs) (Penalty, error) { return L1{Nu: in.Nu}, nil }},
	{Name: "ridge", Nu: NoNu, Grid: true, Networks: true,
		New: func(Inputs) (Penalty, error) { return Ridge{}, nil }},
	{Name: "elasticnet", Nu: NoNu, Grid: true, GLM: true, Alpha: true, Factors: true,
		New: func(in Inputs) (Penalty, error) {
			e := ElasticNet{Alpha: in.Alpha}
			return e, e.Validate()
		}},
	{Name: "general", Nu: NuKernel, Needs: NeedsG, GLM: true,
		New: func(in Inputs) (Penalty, error) { return NewGeneral(in.G, in.P, in.Nu) }},
}

// Lookup returns the penalty named name, and false when there is none.
func Lookup(name string) (Kind, bool) {
	for _, k := range kinds {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

// Names returns the names of the penalties for which keep reports true
// (all of them when keep is nil), in the table's order.
func Names(keep func(Kind) bool) []string {
	var out []string
	for _, k := range kinds {
		if keep == nil || keep(k) {
			out = append(out, k.Name)
		}
	}
	return out
}

// NewFor builds the penalty of kind k from in, checking that the input it
// needs is there (with P entries). A NoNu penalty ignores in.Nu.
func (k Kind) NewFor(in Inputs) (Penalty, error) {
	switch k.Needs {
	case NeedsGroups:
		if len(in.Groups) != in.P {
			return nil, fmt.Errorf("penalty: %s needs %d group labels, got %d", k.Name, in.P, len(in.Groups))
		}
	case NeedsG:
		if in.G == nil {
			return nil, fmt.Errorf("penalty: %s needs its matrix G", k.Name)
		}
	}
	if k.Nu == NoNu {
		in.Nu = 0
	}
	return k.New(in)
}
