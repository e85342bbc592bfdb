package request

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/estimator"
	"gonum.org/v1/gonum/mat"
)

// NumericNames returns Names, the names of the p numeric columns, or
// x1, x2, ... when none are given; and refuses a reference level named for
// a column that is not one of Factors.
func (r *Request) NumericNames(p int) ([]string, error) {
	for name := range r.Ref {
		if !slices.ContainsFunc(r.Factors, func(f FactorInfo) bool { return f.Name == name }) {
			return nil, refuse("ref names %s, which is not a factor", data.ShortText(name))
		}
	}
	if r.Names == nil {
		names := make([]string, p)
		for j := range names {
			names[j] = "x" + strconv.Itoa(j+1)
		}
		return names, nil
	}
	if len(r.Names) != p {
		return nil, refuse("names has %d names for p = %d numeric columns", len(r.Names), p)
	}
	return r.Names, nil
}

// CheckUnique refuses a column name given twice.
func CheckUnique(names []string) error {
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[n] {
			return refuse("the column name %s appears twice", data.ShortText(n))
		}
		seen[n] = true
	}
	return nil
}

// CheckRows checks the rows of a fit against the request, as the command
// line checks a file's: a family fit's rows for the family (responses,
// weights, offsets, and the predictors' scale unless standardized), a
// least-squares fit's responses and weights finite and its response not
// constant. x's columns are named names. Messages begin "data: ".
func (r *Request) CheckRows(fam datafit.Family, x *mat.Dense, y, weights, offset []float64, names []string) error {
	if !r.FamilyFit() {
		// A file's reader refuses a non-finite response or weight before
		// the least-squares route sees it; buffers are checked here,
		// before the constancy test, which a NaN or ±Inf would fail with
		// the wrong diagnosis. The route checks the rest.
		for i, v := range y {
			w := 1.0
			if weights != nil {
				w = weights[i]
			}
			if err := datafit.CheckRow(fam, i, nil, v, w, 0); err != nil {
				return rowError(err)
			}
		}
		if estimator.IsConstant(y) {
			return errors.New("data: the response is constant: there is nothing to fit")
		}
		return nil
	}
	d := &datafit.Data{X: x, Y: y, Weights: weights, Offset: offset, NoIntercept: r.NoIntercept}
	err := d.Check(fam)
	if err == nil && !r.Standardize {
		err = d.CheckScale()
	}
	return dataError(err, names)
}

// dataError words a data check's error err as the command line does: a
// column's by its name (names), a row's by rowError.
func dataError(err error, names []string) error {
	var ce *datafit.ColumnError
	if errors.As(err, &ce) {
		return fmt.Errorf("data: column %s: %v", data.ShortText(names[ce.Col]), ce.Err)
	}
	return rowError(err)
}

// rowError words a data check's error as the command line does: a row's
// from 1, with the field at fault.
func rowError(err error) error {
	var re *datafit.RowError
	switch {
	case errors.As(err, &re):
		return fmt.Errorf("data: row %d: %s: %v", re.Row+1, re.What, re.Err)
	case err != nil:
		return fmt.Errorf("data: %v", strings.TrimPrefix(err.Error(), "datafit: "))
	}
	return nil
}
