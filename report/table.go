package report

import (
	"slices"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
)

// Num formats a number as the CSV outputs print it: the shortest of %g
// with 10 significant digits.
func Num(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }

// CSVName quotes a name that needs it in a CSV field: one holding a
// separator, a quote or a line end, and one that readers (cardreg's
// among them) would trim or read as a missing cell unquoted: empty, or
// with white space at either end.
func CSVName(n string) string {
	if strings.ContainsAny(n, ",\"\n\r") || n == "" || strings.TrimSpace(n) != n {
		n = `"` + strings.ReplaceAll(n, `"`, `""`) + `"`
	}
	return n
}

// CSVNames is CSVName of each name.
func CSVNames(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = CSVName(n)
	}
	return out
}

// PathCSV is a λ path as CSV: one row per λ with the objective, the
// number of distinct values, convergence (a path of relaxed fits then
// says, per λ, whether its coefficients are the refit: the objective is
// the penalised fit's, the coefficients and the deviance ratio the
// refit's), with devRatio (a family fit) the deviance ratio, then each
// coefficient, named by names.
func PathCSV(path *estimator.Path, names []string, devRatio bool) string {
	relax := slices.ContainsFunc(path.Models, func(m *estimator.Model) bool { return m.Relaxed || m.RelaxNote != "" })
	var b strings.Builder
	b.WriteString("lambda,objective,distinct_values,converged,")
	if relax {
		b.WriteString("relaxed,")
	}
	if devRatio {
		b.WriteString("dev_ratio,")
	}
	b.WriteString(strings.Join(CSVNames(names), ",") + "\n")
	for _, m := range path.Models {
		row := []string{Num(m.Lambda), Num(m.Objective), strconv.Itoa(len(m.DistinctValues(0))), strconv.FormatBool(m.Converged)}
		if relax {
			row = append(row, strconv.FormatBool(m.Relaxed))
		}
		if devRatio {
			row = append(row, Num(m.DevRatio))
		}
		for i := range names {
			row = append(row, Num(m.Coef.At(i, 0)))
		}
		b.WriteString(strings.Join(row, ",") + "\n")
	}
	return b.String()
}

// CVCSV is a cross-validation curve as CSV: λ on both scales (n rows),
// the mean held-out measure and its standard error, the number of
// distinct coefficient values of the full-data fit at that λ, and the
// marks of λ_min and λ_1se.
func CVCSV(cv *estimator.CV, n int) string {
	var b strings.Builder
	b.WriteString("lambda,lambda_glmnet,mean_error,std_error,distinct_values,mark\n")
	for k, lam := range cv.Lambdas {
		b.WriteString(strings.Join([]string{Num(lam), Num(estimator.LambdaGlmnet(lam, n)), Num(cv.Mean[k]), Num(cv.SE[k]),
			strconv.Itoa(len(cv.Path.Models[k].DistinctValues(0))), Mark(k, cv.IndexMin, cv.IndexSE)}, ",") + "\n")
	}
	return b.String()
}

// Mark names λ_min and λ_1se at index k of a cv table ("" elsewhere).
func Mark(k, kmin, kse int) string {
	switch {
	case k == kmin && k == kse:
		return "lambda_min lambda_1se"
	case k == kmin:
		return "lambda_min"
	case k == kse:
		return "lambda_1se"
	}
	return ""
}

// MergesCSV is the merges of factor levels along a path as CSV: the
// factor, λ on both scales (n rows), the factor's number of level groups
// there, whether the merged group holds the reference, and the groups
// that merge (levels space separated, groups separated by " + ").
func MergesCSV(merges []factor.Merge, n int) string {
	var b strings.Builder
	b.WriteString("factor,lambda,lambda_glmnet,groups,reference,joined\n")
	for _, m := range merges {
		parts := make([]string, len(m.Joined))
		for k, g := range m.Joined {
			parts[k] = strings.Join(g, " ")
		}
		b.WriteString(strings.Join([]string{CSVName(m.Factor), Num(m.Lambda), Num(estimator.LambdaGlmnet(m.Lambda, n)),
			strconv.Itoa(m.Groups), strconv.FormatBool(m.Reference), CSVName(strings.Join(parts, " + "))}, ",") + "\n")
	}
	return b.String()
}
