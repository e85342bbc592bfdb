package datafit

import "slices"

// Parameter describes a family's parameter, written after the family's
// name and a colon ("tweedie:1.5", "negbin:2").
type Parameter struct {
	// Name is the parameter's name as the family's documentation writes
	// it ("p", "theta").
	Name string `json:"name"`
	// Range says in words which values the family accepts ("1 < p < 2").
	Range string `json:"range"`
}

// Parameterized is implemented by families that take a parameter: the
// bindings' describe call reads it (binding.Describe), so a family that
// implements it is offered with its parameter by Python and R without
// an edit there.
type Parameterized interface {
	// Parameter describes the family's parameter.
	Parameter() Parameter
}

// Families returns the families ByName knows, in the order of Names
// (each as registered: a family with a parameter at its registry value).
func Families() []Family { return slices.Clone(registered) }
