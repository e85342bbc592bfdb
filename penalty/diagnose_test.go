package penalty

import (
	"math"
	"testing"
)

func TestDiagnoseLambdaMax(t *testing.T) {
	// λ_max = 1/(smallest factor) for a WeightedL1, 1/ν for an L1: an
	// overflow exactly when it is infinite.
	lmax := func(p Penalty) float64 {
		switch h := p.(type) {
		case WeightedL1:
			m := math.Inf(1)
			for _, f := range h.Factors {
				m = math.Min(m, f)
			}
			return 1e300 / m
		case L1:
			return 1e300 / h.Nu
		}
		return math.Inf(1)
	}
	cases := []struct {
		name     string
		pen, def Penalty
		want     LambdaMaxCause
	}{
		{"finite", L1{Nu: 1}, nil, Finite},
		{"factors", WeightedL1{Factors: []float64{1e-300, 1}}, nil, Factors},
		{"nu", L1{Nu: 1e-300}, L1{Nu: 1}, SmallNu},
		{"nu not given", L1{Nu: 1e-300}, nil, DataScale},
		{"data", Ridge{}, Ridge{}, DataScale},
	}
	for _, c := range cases {
		if got := DiagnoseLambdaMax(lmax, c.pen, func() Penalty { return c.def }); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestDiagnoseGridTop(t *testing.T) {
	fits := func(p Penalty) bool { return p.(L1).Nu >= 1e-3 }
	cases := []struct {
		name     string
		pen, def Penalty
		want     LambdaMaxCause
	}{
		{"small nu", L1{Nu: 1e-308}, L1{Nu: 1}, SmallNu},
		{"fits", L1{Nu: 1}, L1{Nu: 1}, Finite},
		{"default fails too", L1{Nu: 1e-308}, L1{Nu: 1e-9}, Finite},
		{"nu not given", L1{Nu: 1e-308}, nil, Finite},
	}
	for _, c := range cases {
		if got := DiagnoseGridTop(fits, c.pen, func() Penalty { return c.def }); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}
