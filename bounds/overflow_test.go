package bounds

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestNetworkOverflowBlamesTheLargestIngredient(t *testing.T) {
	base := Network{Widths: []int{64, 40, 40, 1}, ALip: 1, N: 100, XNorm: 1, Penalty: Cardinality}
	cases := []struct {
		name   string
		change func(*Network)
		want   NetworkFactor
	}{
		{"xnorm", func(n *Network) { n.XNorm = 1e200 }, InputNorm},
		{"C", func(n *Network) { n.C, n.ALip = 1e308, 10 }, NoiseConstant},
		{"a_Lip", func(n *Network) { n.ALip = 1e100 }, Activation},
	}
	for _, c := range cases {
		net := base
		c.change(&net)
		nc, err := NetworkLambda(net)
		if err != nil {
			t.Fatal(err)
		}
		got, over := nc.Overflowing(net.ALip, net.XNorm)
		if !over || got != c.want {
			t.Errorf("%s: got %v, %v; want %v, true", c.name, got, over, c.want)
		}
	}
	nc, _ := NetworkLambda(base)
	if _, over := nc.Overflowing(base.ALip, base.XNorm); over {
		t.Error("a finite λ reported as overflowing")
	}
}

func TestRegressionOverflowBlamesItsCause(t *testing.T) {
	x := mat.NewDense(4, 2, []float64{1, 2, 3, 4, 5, 6, 7, 9})
	cases := []struct {
		name         string
		sigma, t, mg float64
		nu           float64
		scale        float64
		want         RegressionFactor
	}{
		{"t", 1, 1e-320, 0, 1, 1, Confidence},
		{"nu", 1, 0.05, 0, 1e-308, 1, Equivalence},
		{"sigma", 1e307, 0.05, 0, 1, 1, Noise},
		{"scale", 1, 0.05, 0, 1, 1e160, DesignScale},
	}
	for _, c := range cases {
		xs := mat.DenseCopyOf(x)
		xs.Scale(c.scale, xs)
		rc, err := RegressionLambda(xs, 1, c.sigma, c.t, c.mg, c.nu)
		if err != nil {
			t.Fatal(c.name, err)
		}
		got, over := rc.Overflowing(c.sigma, c.t, 2, 1)
		if !over || got != c.want {
			t.Errorf("%s: λ %v: got %v, %v; want %v, true", c.name, rc.Lambda, got, over, c.want)
		}
	}
	rc, _ := RegressionLambda(x, 1, 1, 0.05, 0, 1)
	if _, over := rc.Overflowing(1, 0.05, 2, 1); over || math.IsInf(rc.Lambda, 0) {
		t.Error("a finite λ reported as overflowing")
	}
}

func TestXNormIsTheRootMeanSquareRowNorm(t *testing.T) {
	x := mat.NewDense(2, 2, []float64{3, 4, 0, 0})
	if got := XNorm(x); math.Abs(got-5/math.Sqrt2) > 1e-15 {
		t.Errorf("XNorm = %v, want 5/√2", got)
	}
}
