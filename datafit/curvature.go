package datafit

import (
	"fmt"
	"math"

	"github.com/cardsparse/cardreg/suffstat"
)

// curvatureCheck refuses data whose rows' curvatures at the intercept-only
// fit, for the families whose curvature is unbounded, are dominated by one
// row: gamma's 2w·y·e^−η with η = o + b₀ (a response far above the others,
// 1e20 among ones), Poisson's w·e^η (an offset far above the others, 700
// among zeros). The other rows then sum to less than the largest's
// rounding (suffstat's rule, Σ others < max·2⁻⁵², as for the weights):
// Newton's model holds that one row only, its steps are too long by more
// than any line search recovers (the fits stopped with "backtracking found
// no step" or stalled), and the fit could not see the others. Binomial
// curvatures are at most w/4, bounded by the weights' own check.
type curvatureCheck struct {
	fam Family
	s   suffstat.LogWeightSummary
	// row counts the rows added; what names the field that makes the
	// largest curvature large: the offset, or for gamma the response
	// when log y outweighs −o.
	row  int64
	what string
	// lo and hi are the smallest and largest log(y·e^−o) of a gamma row
	// with weight, loRow and hiRow their rows: their spread is bounded
	// (spreadErr).
	lo, hi       float64
	loRow, hiRow int64
}

// newCurvatureCheck returns the check of family fam, nil when its
// curvature is bounded.
func newCurvatureCheck(fam Family) *curvatureCheck {
	switch fam.(type) {
	case Gamma, Poisson:
		return &curvatureCheck{fam: fam, lo: math.Inf(1), hi: math.Inf(-1)}
	}
	return nil
}

// add records the next row: response y, weight w, offset o (checked).
func (c *curvatureCheck) add(y, w, o float64) {
	if c == nil {
		return
	}
	a := math.Inf(-1)
	if w > 0 {
		switch c.fam.(type) {
		case Gamma:
			a = math.Log(w) + math.Log(y) - o
		case Poisson:
			a = math.Log(w) + o
		}
	}
	c.s.AddLog(a)
	if _, ok := c.fam.(Gamma); ok && w > 0 {
		r := math.Log(y) - o
		if r < c.lo {
			c.lo, c.loRow = r, c.row
		}
		if r > c.hi {
			c.hi, c.hiRow = r, c.row
		}
	}
	if c.s.MaxRow == c.row && w > 0 {
		c.what = "offset"
		if _, ok := c.fam.(Gamma); ok && math.Abs(math.Log(y)) >= math.Abs(o) {
			c.what = "response"
		}
	}
	c.row++
}

// err returns a *RowError naming the dominating row, or the gamma row
// whose y·e^−o lies too far below another's, or nil.
func (c *curvatureCheck) err() error {
	if c == nil {
		return nil
	}
	if c.hi-c.lo > MaxOffset {
		// At the intercept-only fit, about log y − o of the largest, the
		// smallest row's curvature 2y·e^−η underflows (below e^−709) and
		// Newton's working response, about its gradient over its
		// curvature, overflows: the fits ended with a NaN or +Inf loss.
		lo, spread, hi := c.lo, c.hi-c.lo, c.hi
		return &RowError{Row: int(c.loRow), What: "response", Err: &OtherRow{Row: int(c.hiRow), say: func(other string) string {
			return fmt.Sprintf("y·e^−o is e^%.4g, e^%.4g below %s's (e^%.4g): gamma rows may span at most e^%d (the largest float64 is e^709.8), beyond which this row's curvature at the others' fit underflows and the fit's working response overflows", lo, spread, other, hi, MaxOffset)
		}}}
	}
	if !c.s.Dominated() {
		return nil
	}
	term := "w·e^o"
	if _, ok := c.fam.(Gamma); ok {
		term = "w·y·e^−o"
	}
	return &RowError{Row: int(c.s.MaxRow), What: c.what, Err: fmt.Errorf("its %s curvature at the intercept-only fit (%s = e^%.4g) outweighs all the other rows' together: they sum to %.3g of it, below its rounding (2⁻⁵²), so a fit would see this one row only; the %s family needs the others to sum to at least 2⁻⁵² of the largest", c.fam.Name(), term, c.s.LogMax, c.s.Ratio(), c.fam.Name())}
}

// OtherRow is the cause of a *RowError that names a second observation,
// Row, besides the error's own. The caller that names the error's row by
// its place in a file (a line) sets Name to name this one in the same
// unit: a line beside a data row's number read as the same row.
type OtherRow struct {
	// Row is the other observation's index, from 0.
	Row int
	// Name words where observation i is ("line 13"); if nil, "data row
	// i+1".
	Name func(i int) string
	say  func(other string) string
}

func (e *OtherRow) Error() string {
	if e.Name == nil {
		return e.say(fmt.Sprintf("data row %d", e.Row+1))
	}
	return e.say(e.Name(e.Row))
}
