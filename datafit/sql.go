package datafit

import (
	"math"
	"strconv"
)

// SQLWriter is implemented by the families that write their formulas as
// SQL expressions, for a database to evaluate them over its rows
// (package sqlstats: cardreg --db). Each method takes SQL expressions
// (the linear predictor e, a dual value v) and returns one, over the
// row's response, the column y. The dialect is ClickHouse's: exp, log,
// pow, greatest, least, abs, if(c, a, b), and 1 / 0 for +Inf. A family
// that is not an SQLWriter is refused by --db by name.
type SQLWriter interface {
	// MeanSQL is μ = g⁻¹(e).
	MeanSQL(e string) string
	// D1SQL is ∂d/∂η at e.
	D1SQL(e string) string
	// DevianceSQL is d(y, e).
	DevianceSQL(e string) string
	// ConjugateSQL is d*(y, v), or, for a family without a closed form, an
	// upper bound of it, equal to it at v = ∂d/∂η(y, e) and within
	// O((v − ∂d/∂η(y, e))⁴) near there: e is the row's linear predictor,
	// near which the supremum lies. (An upper bound of d* gives a lower
	// bound of the dual objective: a duality gap that is still a
	// certificate.)
	ConjugateSQL(v, e string) string
}

// sqlNum writes v as an SQL literal that reads back to the same float64.
func sqlNum(v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if v < 0 {
		return "(" + s + ")"
	}
	return s
}

// sqlXlogx is x·log x with 0·log 0 = 0.
func sqlXlogx(t string) string { return "if(" + t + " > 0, " + t + " * log(" + t + "), 0)" }

// MeanSQL is 1/(1 + e^−e).
func (Binomial) MeanSQL(e string) string { return "(1 / (1 + exp(-(" + e + "))))" }

// D1SQL is 2(μ − y).
func (b Binomial) D1SQL(e string) string { return "2 * (" + b.MeanSQL(e) + " - y)" }

// DevianceSQL is 2[max(e, 0) + log(1 + e^−|e|) − ye].
func (Binomial) DevianceSQL(e string) string {
	return "2 * (greatest(" + e + ", 0) + log(1 + exp(-abs(" + e + "))) - y * (" + e + "))"
}

// ConjugateSQL is Conjugate's 2[a log a + (1 − a) log(1 − a)], a = y + v/2.
func (Binomial) ConjugateSQL(v, _ string) string {
	a := "(y + (" + v + ") / 2)"
	return "if(" + a + " < 0 OR " + a + " > 1, 1 / 0, 2 * (" + sqlXlogx(a) + " + " + sqlXlogx("(1 - "+a+")") + "))"
}

// MeanSQL is e^e.
func (Poisson) MeanSQL(e string) string { return "exp(" + e + ")" }

// D1SQL is 2(μ − y).
func (Poisson) D1SQL(e string) string { return "2 * (exp(" + e + ") - y)" }

// DevianceSQL is 2[y log y − y − ye + e^e].
func (Poisson) DevianceSQL(e string) string {
	return "2 * (" + sqlXlogx("y") + " - y - y * (" + e + ") + exp(" + e + "))"
}

// ConjugateSQL is Conjugate's 2(b log b − b) − 2(y log y − y), b = y + v/2.
func (Poisson) ConjugateSQL(v, _ string) string {
	b := "(y + (" + v + ") / 2)"
	return "if(" + b + " < 0, 1 / 0, 2 * (" + sqlXlogx(b) + " - " + b + ") - 2 * (" + sqlXlogx("y") + " - y))"
}

// MeanSQL is e^e.
func (Gamma) MeanSQL(e string) string { return "exp(" + e + ")" }

// D1SQL is 2(1 − y e^−e).
func (Gamma) D1SQL(e string) string { return "2 * (1 - y * exp(-(" + e + ")))" }

// DevianceSQL is 2(e^t − 1 − t), t = log y − e.
func (Gamma) DevianceSQL(e string) string {
	t := "(log(y) - (" + e + "))"
	return "greatest(2 * (exp(" + t + ") - 1 - " + t + "), 0)"
}

// ConjugateSQL is Conjugate's c·log(c/(2y)) − c + 2(log y + 1), c = 2 − v.
func (Gamma) ConjugateSQL(v, _ string) string {
	c := "(2 - (" + v + "))"
	return "if(" + c + " < 0, 1 / 0, " + sqlXlogx(c) + " - " + c + " * (log(2) + log(y)) - " + c + " + 2 * (log(y) + 1))"
}

// MeanSQL is e^e.
func (NegBin) MeanSQL(e string) string { return "exp(" + e + ")" }

// D1SQL is 2θ(μ − y)/(μ + θ).
func (f NegBin) D1SQL(e string) string {
	th := sqlNum(f.Theta)
	return "2 * " + th + " * (exp(" + e + ") - y) / (exp(" + e + ") + " + th + ")"
}

// DevianceSQL is 2[y log y − (y + θ) log(y + θ) − ye + (y + θ) log(μ + θ)],
// log(μ + θ) as e + log(1 + θe^−e) for μ > θ (no overflow).
func (f NegBin) DevianceSQL(e string) string {
	th := sqlNum(f.Theta)
	lmt := "if((" + e + ") > log(" + th + "), (" + e + ") + log(1 + " + th + " * exp(-(" + e + "))), log(" + th + ") + log(1 + exp(" + e + ") / " + th + "))"
	return "greatest(2 * (" + sqlXlogx("y") + " - " + sqlXlogx("(y + "+th+")") + " - y * (" + e + ") + (y + " + th + ") * " + lmt + "), 0)"
}

// ConjugateSQL is Conjugate's 2[a log a + b log b − y log y − b log θ],
// a = y + v/2, b = θ − v/2.
func (f NegBin) ConjugateSQL(v, _ string) string {
	th := sqlNum(f.Theta)
	a, b := "(y + ("+v+") / 2)", "("+th+" - ("+v+") / 2)"
	return "if(" + a + " < 0 OR " + b + " < 0, 1 / 0, 2 * (" + sqlXlogx(a) + " + " + sqlXlogx(b) + " - " + sqlXlogx("y") + " - " + b + " * log(" + th + ")))"
}

// MeanSQL is e^e.
func (Tweedie) MeanSQL(e string) string { return "exp(" + e + ")" }

// D1SQL is 2[μ^(2−P) − y·μ^(1−P)].
func (t Tweedie) D1SQL(e string) string {
	return "2 * (exp(" + sqlNum(2-t.P) + " * (" + e + ")) - y * exp(" + sqlNum(1-t.P) + " * (" + e + ")))"
}

// DevianceSQL is 2[y^(2−P)/((1−P)(2−P)) − y·μ^(1−P)/(1−P) + μ^(2−P)/(2−P)],
// term by term (the database's sum has the rounding of the terms).
func (t Tweedie) DevianceSQL(e string) string {
	p := t.P
	return "greatest(2 * (pow(y, " + sqlNum(2-p) + ") / " + sqlNum((1-p)*(2-p)) + " - y * exp(" + sqlNum(1-p) + " * (" + e + ")) / " + sqlNum(1-p) +
		" + exp(" + sqlNum(2-p) + " * (" + e + ")) / " + sqlNum(2-p) + "), 0)"
}

// d2SQL is ∂²d/∂η² = 2[(2−P)μ^(2−P) + (P−1)y·μ^(1−P)] at e.
func (t Tweedie) d2SQL(e string) string {
	p := t.P
	return "2 * (" + sqlNum(2-p) + " * exp(" + sqlNum(2-p) + " * (" + e + ")) + " + sqlNum(p-1) + " * y * exp(" + sqlNum(1-p) + " * (" + e + ")))"
}

// ConjugateSQL bounds d*(y, v) = sup_η h(η), h(η) = vη − d(y, η), from
// above, there being no closed form. For y > 0, d is strongly convex:
// ∂²d/∂η² ≥ m(y) = 2(P−1)y·μ*^(1−P)/(2−P) at μ* = ((P−1)/(2−P))²·y, its
// minimum over η; so for any η₁, sup h ≤ h(η₁) + h'(η₁)²/(2m). η₁ is one
// Newton step for h from e (h' = v − ∂d/∂η, h” = −∂²d/∂η²), so that the
// bound is exact where v = ∂d/∂η(y, e) and its excess is of the fourth
// order in v − ∂d/∂η(y, e) near there. For y = 0, Conjugate's closed form.
func (t Tweedie) ConjugateSQL(v, e string) string {
	p := t.P
	v = "(" + v + ")"
	e1 := "((" + e + ") + (" + v + " - " + t.D1SQL(e) + ") / (" + t.d2SQL(e) + "))"
	h1 := v + " * " + e1 + " - (" + t.DevianceSQL(e1) + ")"
	g1 := "(" + v + " - " + t.D1SQL(e1) + ")"
	mstar := "(" + sqlNum((p-1)*(p-1)/((2-p)*(2-p))) + " * y)"
	m := "(" + sqlNum(2*(p-1)/(2-p)) + " * y * pow(" + mstar + ", " + sqlNum(1-p) + "))"
	zero := "if(" + v + " < 0, 1 / 0, if(" + v + " = 0, 0, " + v + " * (log(" + v + " / 2) - 1) / " + sqlNum(2-p) + "))"
	return "if(y = 0, " + zero + ", " + h1 + " + " + g1 + " * " + g1 + " / (2 * " + m + "))"
}

// tweedieConjugateBound is ConjugateSQL's bound in Go, for its tests.
func (t Tweedie) tweedieConjugateBound(y, v, e float64) float64 {
	if y == 0 {
		return t.Conjugate(0, v)
	}
	p := t.P
	d1, d2 := t.Derivs(y, e)
	e1 := e + (v-d1)/d2
	g1, _ := t.Derivs(y, e1)
	g1 = v - g1
	mstar := (p - 1) * (p - 1) / ((2 - p) * (2 - p)) * y
	m := 2 * (p - 1) / (2 - p) * y * math.Pow(mstar, 1-p)
	return v*e1 - t.Deviance(y, e1) + g1*g1/(2*m)
}

// ScoreSQL writes cv.glmnet's binomial held-out measures at e: mse and mae
// of both columns of the two-class response (twice the one column's),
// the misclassification, and the deviance with probabilities clipped to
// [1e-5, 1 − 1e-5] (ok false for another measure). The other families'
// measures are the generic (y − μ)², |y − μ| and d(y, e) (sqlstats).
func (b Binomial) ScoreSQL(measure, e string) (string, bool) {
	mu := b.MeanSQL(e)
	switch measure {
	case "mse":
		return "2 * pow(y - " + mu + ", 2)", true
	case "mae":
		return "2 * abs(y - " + mu + ")", true
	case "class":
		return "if((y = 0 AND " + mu + " >= 0.5) OR (y = 1 AND " + mu + " <= 0.5), 1, 0)", true
	case "deviance":
		m := "greatest(least(" + mu + ", 0.99999), 0.00001)"
		return "-2 * (y * log(" + m + ") + (1 - y) * log(1 - " + m + "))", true
	}
	return "", false
}
