package bounds

import "github.com/cardsparse/cardreg/penalty"

// Nu is the default ν of a named penalty and how it was found.
type Nu struct {
	// Value is ν: 0 for a penalty without one (penalty.NoNu), 1 for
	// penalty.NuOne, NuMin(M_G) for penalty.NuKernel, or 1 when M_G ≥ 1
	// leaves no admissible ν (Fallback).
	Value float64
	// Kernel is M_G behind a penalty.NuKernel default (zero otherwise).
	Kernel Kernel
	// Fallback reports that M_G ≥ 1, so that Value is 1, not the theory's.
	Fallback bool
}

// DefaultNu returns the ν the penalty of kind k, built from in (whose Nu
// it ignores), takes when none is given: the one home of the command
// line's, the networks' and the bindings' default (DESIGN §3). M_G is the
// closed form of PenaltyKernel (with q = 1) where there is one, else
// KernelOf(in.G), possibly an upper bound (Kernel.Exact false).
func DefaultNu(k penalty.Kind, in penalty.Inputs) (Nu, error) {
	switch k.Nu {
	case penalty.NoNu:
		return Nu{}, nil
	case penalty.NuOne:
		return Nu{Value: 1}, nil
	}
	kern, err := defaultKernel(k, in)
	if err != nil {
		return Nu{}, err
	}
	nu, ok := NuMin(kern.Value())
	if !ok {
		return Nu{Value: 1, Kernel: kern, Fallback: true}, nil
	}
	return Nu{Value: nu, Kernel: kern}, nil
}

// defaultKernel returns M_G of the penalty of kind k built from in: from
// G itself for a general G (no closed form: the penalty, its p×p Gram and
// eigendecomposition, is built once, by Build, not here too), else the
// closed form of PenaltyKernel.
func defaultKernel(k penalty.Kind, in penalty.Inputs) (Kernel, error) {
	if k.Needs == penalty.NeedsG && in.G != nil {
		if _, c := in.G.Dims(); c == in.P {
			return KernelOf(in.G)
		}
	}
	in.Nu = 1
	pen, err := k.NewFor(in)
	if err != nil {
		return Kernel{}, err
	}
	if m, ok := PenaltyKernel(pen, in.P, 1); ok {
		return Kernel{Lower: m, Upper: m, Exact: true, Method: "closed form"}, nil
	}
	return KernelOf(in.G)
}

// LayerPenaltyOf returns the network penalty of the penalty of kind k,
// with the paper's √P_l weight on the all-pairs matrix when weighted, and
// false when Theorem 1 has no constants for it (Kind.NetworkLambda). The
// network penalty puts on the rows of each weight matrix the G that k's
// penalty puts on the predictors, which its type says (the types whose M_G
// PenaltyKernel gives in closed form): no list of names besides the table.
func LayerPenaltyOf(k penalty.Kind, weighted bool) (LayerPenalty, bool) {
	if !k.NetworkLambda {
		return 0, false
	}
	// A one-predictor sample of k's penalty shows its type.
	pen, err := k.NewFor(penalty.Inputs{P: 1, Nu: 1, Groups: []int{0}})
	if err != nil {
		return 0, false
	}
	switch pen.(type) {
	case penalty.L1:
		return Lasso, true
	case penalty.Cardinality:
		if weighted {
			return CardinalityWeighted, true
		}
		return Cardinality, true
	case *penalty.Grouped:
		return GroupedCardinality, true
	}
	return 0, false
}

// Build builds the penalty of kind k from in with ν = in.Nu when nuGiven,
// else with its default (DefaultNu): the one way the command line, the
// networks and the bindings build a named penalty. The returned Nu holds
// the ν used (0 for a penalty without one) and, for a default, how it was
// found.
func Build(k penalty.Kind, in penalty.Inputs, nuGiven bool) (penalty.Penalty, Nu, error) {
	nu := Nu{Value: in.Nu}
	if !nuGiven {
		var err error
		if nu, err = DefaultNu(k, in); err != nil {
			return nil, Nu{}, err
		}
		in.Nu = nu.Value
	}
	pen, err := k.NewFor(in)
	if err != nil {
		return nil, Nu{}, err
	}
	if k.Nu == penalty.NoNu {
		nu.Value = 0
	}
	return pen, nu, nil
}
