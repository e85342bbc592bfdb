package datafit

import (
	"math"
	"strings"
	"testing"
)

// tweedies are the Tweedie powers the tests cover: near both ends and the
// middle.
var tweedies = []Tweedie{{1.2}, {1.5}, {1.8}, {1.01}, {1.99}}

// tweedieDirect is the Tweedie unit deviance written as the brief's
// formula, term by term: the independent reference for Deviance.
func tweedieDirect(p, y, eta float64) float64 {
	mu := math.Exp(eta)
	return 2 * (math.Pow(y, 2-p)/((1-p)*(2-p)) - y*math.Pow(mu, 1-p)/(1-p) + math.Pow(mu, 2-p)/(2-p))
}

// maxConcave returns sup_η g(η) for a concave g by golden section on
// [lo, hi] (the brute-force reference for the conjugates).
func maxConcave(g func(float64) float64, lo, hi float64) float64 {
	r := (math.Sqrt(5) - 1) / 2
	a, b := lo, hi
	c, d := b-r*(b-a), a+r*(b-a)
	gc, gd := g(c), g(d)
	for b-a > 1e-12*(1+math.Abs(a)) {
		if gc < gd {
			a, c, gc = c, d, gd
			d = a + r*(b-a)
			gd = g(d)
		} else {
			b, d, gd = d, c, gc
			c = b - r*(b-a)
			gc = g(c)
		}
	}
	return math.Max(gc, gd)
}

func TestTweedieDeviance(t *testing.T) {
	for _, f := range tweedies {
		for _, y := range []float64{0, 1e-3, 0.5, 1, 3, 40, 1e6} {
			for _, eta := range []float64{-6, -1, 0, 0.3, 2, 8} {
				got, want := f.Deviance(y, eta), tweedieDirect(f.P, y, eta)
				if math.Abs(got-want) > 1e-11*(1+math.Abs(want)+tweedieTerms(f.P, y, eta)) {
					t.Errorf("%s y=%v η=%v: deviance %v, formula %v", f.Name(), y, eta, got, want)
				}
			}
			if y > 0 {
				if d := f.Deviance(y, math.Log(y)); d != 0 {
					t.Errorf("%s y=%v: saturated deviance %v", f.Name(), y, d)
				}
			}
		}
	}
}

// tweedieTerms is the size of the formula's terms (its rounding scale).
func tweedieTerms(p, y, eta float64) float64 {
	mu := math.Exp(eta)
	return math.Pow(y, 2-p)/((p-1)*(2-p)) + y*math.Pow(mu, 1-p)/(p-1) + math.Pow(mu, 2-p)/(2-p)
}

// TestTweedieDerivs checks ∂d/∂η and ∂²d/∂η² against central differences
// of the deviance and of ∂d/∂η.
func TestTweedieDerivs(t *testing.T) {
	for _, f := range tweedies {
		for _, y := range []float64{0, 0.01, 0.5, 3, 40} {
			for _, eta := range []float64{-3, -0.4, 0, 0.7, 2.5} {
				checkDerivs(t, f, y, eta)
			}
		}
	}
}

func checkDerivs(t *testing.T, f Family, y, eta float64) {
	t.Helper()
	d1, d2 := f.Derivs(y, eta)
	h := 1e-5
	n1 := (f.Deviance(y, eta+h) - f.Deviance(y, eta-h)) / (2 * h)
	a1, _ := f.Derivs(y, eta+h)
	b1, _ := f.Derivs(y, eta-h)
	n2 := (a1 - b1) / (2 * h)
	if math.Abs(d1-n1) > 1e-6*(1+math.Abs(d1)) || math.Abs(d2-n2) > 1e-6*(1+math.Abs(d2)) {
		t.Errorf("%s y=%v η=%v: derivs %v %v, differences %v %v", f.Name(), y, eta, d1, d2, n1, n2)
	}
	if !(d2 >= 0) {
		t.Errorf("%s y=%v η=%v: curvature %v < 0", f.Name(), y, eta, d2)
	}
	u, ok := f.(unitEvaluator)
	if !ok {
		return
	}
	dev, e1, e2 := u.Unit(y, u.UnitConst(y), eta)
	if dev != f.Deviance(y, eta) || e1 != d1 || e2 != d2 {
		t.Errorf("%s y=%v η=%v: Unit %v %v %v, Deviance and Derivs %v %v %v", f.Name(), y, eta, dev, e1, e2, f.Deviance(y, eta), d1, d2)
	}
}

// TestTweedieConjugate checks the conjugate, solved by Newton, against the
// supremum found by golden section, over v from far below to far above
// the derivative's values, and Fenchel–Young at the derivative.
func TestTweedieConjugate(t *testing.T) {
	for _, f := range tweedies {
		for _, y := range []float64{0, 1e-4, 0.5, 3, 40} {
			for _, v := range []float64{-50, -3, -1e-9, 1e-12, 0.2, 2, 30, 800} {
				if f.P > 1.1 && f.P < 1.9 {
					// The brute force searches η in ±700: the maxima
					// of p = 1.01 and 1.99 lie beyond (|η| ≈ log|v|/(p−1)
					// or /(2−p)); Fenchel–Young below covers those.
					checkConjugate(t, f, y, v)
				}
			}
			for _, eta := range []float64{-3, -0.4, 0, 0.7, 2.5} {
				d1, _ := f.Derivs(y, eta)
				got, want := f.Conjugate(y, d1), d1*eta-f.Deviance(y, eta)
				if math.Abs(got-want) > 1e-10*(1+math.Abs(want)) {
					t.Errorf("%s y=%v η=%v: conjugate %v, Fenchel–Young %v", f.Name(), y, eta, got, want)
				}
			}
		}
	}
}

func checkConjugate(t *testing.T, f Family, y, v float64) {
	t.Helper()
	got := f.Conjugate(y, v)
	want := maxConcave(func(eta float64) float64 { return v*eta - f.Deviance(y, eta) }, -700, 700)
	if math.IsInf(got, 1) {
		// Unbounded: the search runs to its edge and keeps rising.
		if edge := math.Max(v*-700-f.Deviance(y, -700), v*700-f.Deviance(y, 700)); want < edge-1e-9*math.Abs(edge) {
			t.Errorf("%s y=%v v=%v: conjugate +Inf, search finds a bounded %v", f.Name(), y, v, want)
		}
		return
	}
	if math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
		t.Errorf("%s y=%v v=%v: conjugate %v, golden section %v", f.Name(), y, v, got, want)
	}
}

// TestTweedieRootExtremes checks the conjugate's root far out: tiny and
// huge ratios v/y^(2−p) on both sides.
func TestTweedieRootExtremes(t *testing.T) {
	for _, p := range []float64{1.2, 1.5, 1.8} {
		for _, c := range []float64{1e-300, -1e-300, 1e-9, -1e-9, 0.7, -0.7, 5, -5, 1e50, -1e50, 1e300} {
			s := tweedieRoot(p, c)
			// |φ(s)| = e^((1−p)s)·|expm1(s)|, in logarithms (1e300's root
			// is beyond e^709).
			lg := (1-p)*s + math.Log(math.Abs(math.Expm1(s)))
			if math.IsInf(lg, 1) {
				lg = (1-p)*s + s // expm1(s) = e^s to the last bit there
			}
			got := math.Copysign(math.Exp(lg), s)
			// s itself is known to its rounding: c to |s|·2⁻⁵² relative.
			if math.Abs(got-c) > (1e-13+1e-15*math.Abs(s))*math.Abs(c) {
				t.Errorf("p=%v c=%v: root %v gives %v", p, c, s, got)
			}
		}
	}
}

func TestTweedieName(t *testing.T) {
	for _, f := range tweedies {
		g, err := ByName(f.Name())
		if err != nil || g != f {
			t.Errorf("ByName(%q) = %v, %v", f.Name(), g, err)
		}
	}
	if f, err := ByName("Tweedie:1.50"); err != nil || f.Name() != "tweedie:1.5" {
		t.Errorf(`ByName("Tweedie:1.50") = %v, %v`, f, err)
	}
	for name, want := range map[string]string{
		"tweedie:2.5": "1 < p < 2", "tweedie:1": "1 < p < 2", "tweedie:NaN": "1 < p < 2",
		"tweedie": "tweedie:P", "tweedie:": "tweedie:P", "tweedie:x": "not a number",
	} {
		_, err := ByName(name)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ByName(%q): error %v, want one saying %q", name, err, want)
		}
	}
}

// TestTweedieConjugateBound checks the bound ConjugateSQL writes (in its Go
// twin): never below the conjugate, equal to it (to rounding) at
// v = ∂d/∂η(y, e), and its excess of the fourth order nearby (shrinking
// about 10⁴ times from v − ∂d/∂η = 10⁻² to 10⁻³, relative).
func TestTweedieConjugateBound(t *testing.T) {
	for _, f := range tweedies[:3] {
		for _, y := range []float64{0, 1e-3, 0.5, 3, 40} {
			for _, e := range []float64{-3, -0.4, 0.7, 2.5} {
				d1, _ := f.Derivs(y, e)
				excess := map[float64]float64{}
				for _, dv := range []float64{0, 1e-3, 1e-2, -1e-2, 0.1, -0.5, 2} {
					v := d1 + dv*(1+math.Abs(d1))
					exact, bound := f.Conjugate(y, v), f.tweedieConjugateBound(y, v, e)
					if math.IsInf(exact, 1) {
						continue
					}
					if bound < exact-1e-9*(1+math.Abs(exact)) {
						t.Errorf("%s y=%v e=%v v=%v: bound %v below the conjugate %v", f.Name(), y, e, v, bound, exact)
					}
					if dv == 0 && math.Abs(bound-exact) > 1e-10*(1+math.Abs(exact)) {
						t.Errorf("%s y=%v e=%v: bound %v, conjugate %v at v = ∂d/∂η", f.Name(), y, e, bound, exact)
					}
					excess[dv] = bound - exact
				}
				if a, b := excess[1e-2], excess[1e-3]; b > 1e-12 && a/b < 1e3 {
					t.Errorf("%s y=%v e=%v: excess %v at 1e-2, %v at 1e-3: not of the fourth order", f.Name(), y, e, a, b)
				}
			}
		}
	}
}
