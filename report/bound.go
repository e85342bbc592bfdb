package report

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/cardsparse/cardreg/bounds"
)

// WriteLemmaChecks prints the checks of the bound M_A ≤ 2/√P
// (bounds.LemmaChecks) as a right-aligned table with a closing note, as
// cardreg bound does.
func WriteLemmaChecks(w io.Writer, rows []bounds.LemmaCheck) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kind\trows n\tcols\tP\tM_G (LP)\tclosed form\tbound\tratio\tholds\t")
	for _, r := range rows {
		kind := r.Kind
		if r.Groups != nil {
			kind = fmt.Sprintf("grouped %v", r.Groups)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.10f\t%.10f\t%.10f\t%.4f\t%v\t\n", kind, r.Rows, r.Cols, r.P, r.MG, r.Closed, r.Bound, r.Ratio, r.Holds)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\nall-pairs: bound 2/sqrt(P), closed form 2/(n sqrt(P)); grouped: bound max_k 2/sqrt(P_k), closed form max_k 2/(|B_k| sqrt(P_k)).")
	return err
}
