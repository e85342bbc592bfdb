package deepreg

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Activation is an elementwise activation function f with its derivative
// and Lipschitz constant (the a_Lip of the theory, used by bounds).
type Activation interface {
	// Apply returns f(x).
	Apply(x float64) float64
	// Deriv returns f'(x) (a subgradient where f is not differentiable:
	// relu and leaky relu take the right derivative at 0).
	Deriv(x float64) float64
	// Lipschitz returns the Lipschitz constant of f.
	Lipschitz() float64
	// String returns the name ParseActivation reads back.
	String() string
}

// ReLU is max(x, 0).
type ReLU struct{}

// Apply returns max(x, 0).
func (ReLU) Apply(x float64) float64 { return max(x, 0) }

// Deriv returns 1 for x ≥ 0 and 0 otherwise.
func (ReLU) Deriv(x float64) float64 {
	if x >= 0 {
		return 1
	}
	return 0
}

// Lipschitz returns 1.
func (ReLU) Lipschitz() float64 { return 1 }

func (ReLU) String() string { return "relu" }

// LeakyReLU is x for x ≥ 0 and Slope·x otherwise, 0 ≤ Slope ≤ 1.
type LeakyReLU struct{ Slope float64 }

// Apply returns x or Slope·x.
func (l LeakyReLU) Apply(x float64) float64 {
	if x >= 0 {
		return x
	}
	return l.Slope * x
}

// Deriv returns 1 for x ≥ 0 and Slope otherwise.
func (l LeakyReLU) Deriv(x float64) float64 {
	if x >= 0 {
		return 1
	}
	return l.Slope
}

// Lipschitz returns max(1, |Slope|).
func (l LeakyReLU) Lipschitz() float64 { return max(1, math.Abs(l.Slope)) }

func (l LeakyReLU) String() string {
	return "leaky-relu:" + strconv.FormatFloat(l.Slope, 'g', -1, 64)
}

// Identity is f(x) = x.
type Identity struct{}

// Apply returns x.
func (Identity) Apply(x float64) float64 { return x }

// Deriv returns 1.
func (Identity) Deriv(float64) float64 { return 1 }

// Lipschitz returns 1.
func (Identity) Lipschitz() float64 { return 1 }

func (Identity) String() string { return "identity" }

// ISRU is the inverse square root unit x/√(1+x²).
type ISRU struct{}

// Apply returns x/√(1+x²).
func (ISRU) Apply(x float64) float64 { return x / math.Sqrt(1+x*x) }

// Deriv returns (1+x²)^(−3/2).
func (ISRU) Deriv(x float64) float64 { s := 1 + x*x; return 1 / (s * math.Sqrt(s)) }

// Lipschitz returns 1.
func (ISRU) Lipschitz() float64 { return 1 }

func (ISRU) String() string { return "isru" }

// Arctan is arctan(x).
type Arctan struct{}

// Apply returns arctan(x).
func (Arctan) Apply(x float64) float64 { return math.Atan(x) }

// Deriv returns 1/(1+x²).
func (Arctan) Deriv(x float64) float64 { return 1 / (1 + x*x) }

// Lipschitz returns 1.
func (Arctan) Lipschitz() float64 { return 1 }

func (Arctan) String() string { return "arctan" }

// Tanh is tanh(x).
type Tanh struct{}

// Apply returns tanh(x).
func (Tanh) Apply(x float64) float64 { return math.Tanh(x) }

// Deriv returns 1 − tanh²(x).
func (Tanh) Deriv(x float64) float64 { t := math.Tanh(x); return 1 - t*t }

// Lipschitz returns 1.
func (Tanh) Lipschitz() float64 { return 1 }

func (Tanh) String() string { return "tanh" }

// ParseActivation reads relu, leaky-relu (slope 0.01) or leaky-relu:SLOPE,
// identity, isru, arctan or tanh.
func ParseActivation(s string) (Activation, error) {
	name, arg, hasArg := strings.Cut(strings.ToLower(strings.TrimSpace(s)), ":")
	var a Activation
	switch name {
	case "relu":
		a = ReLU{}
	case "leaky-relu", "leakyrelu":
		slope := 0.01
		if hasArg {
			v, err := strconv.ParseFloat(arg, 64)
			if err != nil || v < 0 || v > 1 || math.IsNaN(v) {
				return nil, fmt.Errorf("deepreg: leaky-relu slope %q: want a number in [0, 1]", arg)
			}
			slope = v
		}
		return LeakyReLU{Slope: slope}, nil
	case "identity", "linear":
		a = Identity{}
	case "isru":
		a = ISRU{}
	case "arctan", "atan":
		a = Arctan{}
	case "tanh":
		a = Tanh{}
	default:
		return nil, fmt.Errorf("deepreg: unknown activation %q (want relu, leaky-relu[:slope], identity, isru, arctan or tanh)", s)
	}
	if hasArg {
		return nil, fmt.Errorf("deepreg: activation %q takes no parameter", name)
	}
	return a, nil
}
