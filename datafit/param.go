package datafit

// Parameter describes a family's parameter, written after the family's
// name and a colon ("tweedie:1.5", "negbin:2").
type Parameter struct {
	// Name is the parameter's name as a family's name spells it after the
	// colon ("P" in tweedie:P, "THETA" in negbin:THETA).
	Name string `json:"name"`
	// Range says which values the family accepts ("1 < P < 2").
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
