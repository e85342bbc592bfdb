package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/cardsparse/cardreg/internal/jsonx"
	"github.com/cardsparse/cardreg/internal/modelfile"
)

// Write prints the fit in format: "json" (JSONValue, non-finite numbers
// as null), "text" (WriteText, one table per response) or "csv"
// (WriteCSV).
func (r *Fit) Write(w io.Writer, format string) error {
	switch format {
	case "json":
		return jsonx.Write(w, r.JSONValue())
	case "csv":
		return r.WriteCSV(w)
	case "text":
		if r.PerResponse == nil {
			return r.WriteText(w)
		}
		for j, rj := range r.PerResponse {
			if j > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "== response %s (%d of %d) ==\n", rj.Target, j+1, len(r.PerResponse))
			if err := rj.WriteText(w); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unknown format %q (text, json or csv)", format)
}

// WriteCSV prints the coefficients as CSV: response, predictor, coefficient
// and the cluster (1 = largest value) it belongs to, with the intercept as
// predictor "(intercept)" and cluster 0.
func (r *Fit) WriteCSV(w io.Writer) error {
	results := r.PerResponse
	if results == nil {
		results = []*Fit{r}
	}
	var b strings.Builder
	b.WriteString("response,predictor,coefficient,cluster\n")
	for _, rj := range results {
		cluster := map[string]int{}
		for c, names := range rj.Clusters {
			for _, n := range names {
				cluster[n] = c + 1
			}
		}
		target := CSVName(rj.Target)
		fmt.Fprintf(&b, "%s,(intercept),%s,0\n", target, Num(rj.Intercept))
		for j, name := range rj.Names {
			fmt.Fprintf(&b, "%s,%s,%s,%d\n", target, CSVName(name), Num(rj.Coefficients[j]), cluster[name])
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// JSONValue is the fit's JSON: the object itself for one response; for
// several, the per-response keys become arrays in the order of
// "responses" (intercept, coefficients, distinct_values, clusters,
// cluster_values, r2) and "target" is replaced by "responses".
func (r *Fit) JSONValue() any {
	if r.PerResponse == nil {
		return r
	}
	b, _ := jsonx.MarshalFinite(r)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	delete(m, "target")
	var responses []string
	per := map[string][]any{}
	for _, rj := range r.PerResponse {
		responses = append(responses, rj.Target)
		per["intercept"] = append(per["intercept"], rj.Intercept)
		per["coefficients"] = append(per["coefficients"], rj.Coefficients)
		per["distinct_values"] = append(per["distinct_values"], rj.DistinctValues)
		per["clusters"] = append(per["clusters"], rj.Clusters)
		per["cluster_values"] = append(per["cluster_values"], rj.ClusterValues)
		per["r2"] = append(per["r2"], rj.R2)
	}
	for k, v := range per {
		m[k] = v
	}
	m["responses"] = responses
	return m
}

// WriteModel writes the fit as a saved model (internal/modelfile's
// format, for cardreg predict), refusing a λ beyond float64.
func (r *Fit) WriteModel(w io.Writer) error {
	// Every family's weights are rescaled to sum to n (glmnet's
	// convention; gaussian too since 47631b4). "as given" is still read in
	// models saved before that.
	weights := "none"
	if r.WeightsColumn != "" {
		weights = "normalised to sum to n"
	}
	if math.IsInf(r.Lambda, 0) || math.IsNaN(r.Lambda) {
		return fmt.Errorf("λ on the data's scale is %v, beyond float64 (λ grows as the predictors' magnitude times the response's): a saved model needs a finite λ; rescale the data", r.Lambda)
	}
	return jsonx.Write(w, modelfile.Linear{Format: modelfile.Format, Version: modelfile.Version, Penalty: r.Penalty, Lambda: r.Lambda,
		Nu: r.Nu, Alpha: r.Alpha, Target: r.Target, Names: r.Names, Coefficients: r.Coefficients, Intercept: r.Intercept,
		Relaxed: r.Relaxed, N: r.N, Converged: r.Converged, DualityGap: r.DualityGap,
		Family: r.Family, Link: r.Link, OffsetColumn: r.OffsetColumn, Weights: weights,
		Factors: r.SavedFactors, NumericPenalty: r.NumericPenalty})
}

// WriteText prints the fit as a two-column table: how λ was chosen and
// the notes, the fit's measures, then the clusters.
func (r *Fit) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	r.textChoice(tw)
	r.textNotes(tw)
	r.textFit(tw)
	r.textData(tw)
	r.textClusters(tw)
	r.textFactors(tw)
	r.textNumeric(tw)
	return tw.Flush()
}

// textChoice prints the family, the penalty, λ and how it was chosen.
func (r *Fit) textChoice(tw io.Writer) {
	if r.IsFamily() {
		fmt.Fprintf(tw, "family\t%s (%s link)\n", r.Family, r.Link)
	}
	if r.Penalty == FactorPenalty {
		fmt.Fprintf(tw, "penalty\t%s\n", r.factorPenaltyText())
	} else {
		fmt.Fprintf(tw, "penalty\t%s\n", r.Penalty)
	}
	if r.LambdaRule != "" {
		fmt.Fprintf(tw, "lambda\t%.6g (%s; glmnet scale %.6g)\n", r.Lambda, r.LambdaRule, r.LambdaGlmnet)
	} else {
		fmt.Fprintf(tw, "lambda\t%.6g (glmnet scale %.6g)\n", r.Lambda, r.LambdaGlmnet)
	}
	if r.Nu != nil {
		fmt.Fprintf(tw, "nu\t%.6g\n", *r.Nu)
	}
	if r.Alpha != nil {
		fmt.Fprintf(tw, "alpha\t%.6g\n", *r.Alpha)
	}
	if th := r.Theory; th != nil {
		fmt.Fprintf(tw, "theory\tlambda = max(M_G, 1/nu) %.6g * lambda_t %.6g; sigma %.6g (%s), t %g\n", th.Equivalence, th.LambdaT, th.Sigma, th.SigmaFrom, th.T)
	}
}

// textNotes prints the warnings and notes about the data and ν.
func (r *Fit) textNotes(tw io.Writer) {
	if r.CV != nil && r.CV.Unconverged > 0 {
		fmt.Fprintf(tw, "warning\t%d cross-validation fold fits did not converge (iteration limit, or stalled on a badly scaled problem); the CV curve includes them\n", r.CV.Unconverged)
	}
	if r.DroppedRows > 0 {
		fmt.Fprintf(tw, "note\t%d rows with missing values left out (--drop-missing)\n", r.DroppedRows)
	}
	if len(r.Constant) > 0 {
		fmt.Fprintf(tw, "note\tconstant predictors (%s): the data say nothing about them; their coefficients are set by the penalty alone\n", strings.Join(r.Constant, " "))
	}
	if r.NuNote != "" {
		fmt.Fprintf(tw, "note\t%s\n", r.NuNote)
	}
}

// textFit prints the objective, the certificate and the solver's report.
func (r *Fit) textFit(tw io.Writer) {
	of, gapOf := "", ""
	if r.Relaxed {
		of, gapOf = " (penalised fit)", "; penalised fit"
	}
	if r.Objective != nil {
		fmt.Fprintf(tw, "objective\t%.10g%s\n", *r.Objective, of)
	} else {
		fmt.Fprintf(tw, "objective\tbeyond float64 (in units of the response squared; the fit is unaffected)%s\n", of)
	}
	if r.DualityGap != nil {
		fmt.Fprintf(tw, "duality gap\t%.3g (relative%s)\n", *r.DualityGap, gapOf)
	}
	fmt.Fprintf(tw, "converged\t%v (%s, %d iterations)\n", r.Converged, r.Status, r.Iterations)
	if r.Relaxed {
		how := "least squares"
		if r.IsFamily() {
			how = "maximum likelihood"
		}
		on := "the clusters below"
		if len(r.Factors) > 0 {
			on = "the clusters and the factors' level groups below"
		}
		fmt.Fprintf(tw, "relaxed\tcoefficients refitted by %s on %s: the intercept, %s and the values below are the refit's; objective and gap above are the penalised fit's%s\n",
			how, on, r.measureName(), r.penalizedMeasure())
	}
}

// measureName names the measure textData prints: the deviance, or R².
func (r *Fit) measureName() string {
	if r.Deviance != nil && r.Family != gaussianName {
		return "deviance"
	}
	return "R²"
}

// penalizedMeasure returns, for a relaxed fit, the penalised fit's
// deviance or R² as a clause ("" when not known).
func (r *Fit) penalizedMeasure() string {
	pf := r.Penalized
	switch {
	case pf == nil:
		return ""
	case r.measureName() == "deviance" && pf.Deviance != nil && pf.DevRatio != nil:
		return fmt.Sprintf(" (its deviance %.10g, deviance ratio %.6f)", *pf.Deviance, *pf.DevRatio)
	case pf.R2 != nil:
		return fmt.Sprintf(" (its R² %.6f)", *pf.R2)
	}
	return ""
}

// textData prints the data's sizes and columns, the intercept and the
// deviances or R².
func (r *Fit) textData(tw io.Writer) {
	fmt.Fprintf(tw, "n, p\t%d, %d\n", r.N, r.P)
	fmt.Fprintf(tw, "response\t%s\n", r.Target)
	fmt.Fprintf(tw, "intercept\t%.6g\n", r.Intercept)
	refit := ""
	if r.Relaxed {
		refit = " (relaxed refit)"
	}
	switch {
	case r.Deviance != nil && r.Family != gaussianName:
		fmt.Fprintf(tw, "deviance\t%.10g (null %.10g; deviance ratio %.6f)%s\n", *r.Deviance, *r.NullDeviance, *r.DevRatio, refit)
	case r.R2 != nil:
		fmt.Fprintf(tw, "R²\t%.6f%s\n", *r.R2, refit)
	default:
		fmt.Fprintf(tw, "R²\tundefined\n")
	}
	if len(r.Unpenalized) > 0 {
		fmt.Fprintf(tw, "unpenalized\t%s\n", strings.Join(r.Unpenalized, " "))
	}
	if r.OffsetColumn != "" {
		fmt.Fprintf(tw, "offset\t%s\n", r.OffsetColumn)
	}
	if r.Passes > 0 {
		fmt.Fprintf(tw, "streamed\t%d passes over the file\n", r.Passes)
	}
	if r.Scans > 0 {
		fmt.Fprintf(tw, "scanned\t%d aggregation queries over the table (rounds)\n", r.Scans)
	}
}

// textClusters prints the distinct values and the clusters of predictors.
func (r *Fit) textClusters(tw io.Writer) {
	fmt.Fprintf(tw, "distinct values\t%d\n", len(r.DistinctValues))
	if r.ValueScale == "standardized" {
		fmt.Fprintf(tw, "\nstandardised value\tpredictors\n")
	} else {
		fmt.Fprintf(tw, "\nvalue\tpredictors\n")
	}
	for c, names := range r.Clusters {
		fmt.Fprintf(tw, "%.6g\t%s\n", r.ClusterValues[c], strings.Join(textNames(names), " "))
	}
}

// textNumeric prints, in a fit with factors, each numeric predictor's
// penalty, standard deviation and coefficient per unit and per standard
// deviation.
func (r *Fit) textNumeric(tw io.Writer) {
	if len(r.NumericPredictors) == 0 {
		return
	}
	scale := "not standardised"
	if r.NumericPredictors[0].Standardized {
		scale = "standardised; the factors' dummy columns are not"
	}
	fmt.Fprintf(tw, "\nnumeric predictors (%s)\n", scale)
	fmt.Fprintf(tw, "predictor\tpenalty\tsd\tcoefficient\tper sd\n")
	for _, p := range r.NumericPredictors {
		pen := p.Penalty
		if len(p.FusedWith) > 0 {
			pen += " with " + strings.Join(textNames(p.FusedWith), " ")
		}
		fmt.Fprintf(tw, "%s\t%s\t%.6g\t%.6g\t%.6g\n", textName(p.Name), pen, p.SD, p.Coefficient, p.PerSD)
	}
}

// textFactors prints each factor's level groups: effect (relativity for a
// log link), the penalised effect when refitted, the share of rows, and
// the levels.
func (r *Fit) textFactors(tw io.Writer) {
	for _, lv := range r.Factors {
		kind := "nominal"
		if lv.Ordinal {
			kind = "ordinal"
		}
		groups := fmt.Sprintf("%d groups", len(lv.Groups))
		if len(lv.Groups) == 1 {
			groups = "1 group"
		}
		fmt.Fprintf(tw, "\nfactor %s (%s, reference %s, %s, pair weights %s)\n", textName(lv.Factor), kind, textName(lv.Reference), groups, r.PairWeights)
		head := "effect"
		if r.Relaxed {
			head += "\tpenalised"
		}
		if len(lv.Groups) > 0 && lv.Groups[0].Relativity != nil {
			head += "\trelativity"
		}
		fmt.Fprintf(tw, "%s\tshare\tlevels\n", head)
		for _, g := range lv.Groups {
			line := fmt.Sprintf("%.6g", g.Effect)
			if r.Relaxed && g.Penalised != nil {
				line += fmt.Sprintf("\t%.6g", *g.Penalised)
			}
			if g.Relativity != nil {
				line += fmt.Sprintf("\t%.4f", *g.Relativity)
			}
			levels := strings.Join(textNames(g.Levels), " ")
			if g.Reference {
				levels += " (reference group)"
			}
			fmt.Fprintf(tw, "%s\t%.1f%%\t%s\n", line, 100*g.Share, levels)
		}
	}
}

// factorPenaltyText describes the blocks of a fit with factors: the kinds
// of factors it has, the pair weights and the numeric predictors' penalty.
func (r *Fit) factorPenaltyText() string {
	var kinds []string
	for _, kind := range []struct {
		ordinal bool
		text    string
	}{{false, "nominal factors: all level pairs"}, {true, "ordinal factors: the chain"}} {
		for _, lv := range r.Factors {
			if lv.Ordinal == kind.ordinal {
				kinds = append(kinds, kind.text)
				break
			}
		}
	}
	s := fmt.Sprintf("factor blocks (%s; the reference pinned at 0; pair weights %s)", strings.Join(kinds, ", "), r.PairWeights)
	numeric := r.P
	for _, lv := range r.Factors {
		for _, g := range lv.Groups {
			numeric -= len(g.Levels)
		}
		numeric++ // the reference has no column
	}
	if numeric > 0 {
		s += "; numeric predictors: " + r.NumericPenalty
	}
	return s
}

// textName is a name or a level as the text output lists it, separated by
// spaces: as it is, or quoted (Go syntax) when it would not read back
// from such a list: empty, or holding a space, a quote or a character
// that does not print (a factor's level may be any string).
func textName(s string) string {
	plain := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return r == '"' || unicode.IsSpace(r) || !unicode.IsPrint(r)
	}) < 0
	if plain {
		return s
	}
	return strconv.Quote(s)
}

// textNames is textName of each name.
func textNames(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = textName(n)
	}
	return out
}
