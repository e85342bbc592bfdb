package factor_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/internal/testfiles"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
)

// munichFile is the path of the Munich rent survey of 2003 as the smurf
// vignette prepares it, in the shared data folder beside the repository;
// t is skipped when it is not there.
func munichFile(t *testing.T) string {
	return testfiles.SharedFile(t, "munich_rent2003_smurf_prepared.csv")
}

// munichSpec reads rent per m² against the district (area, 25 levels,
// nominal), the year of construction, rooms and size classes and the
// quality (ordinal), and five yes/no equipment factors.
func munichSpec() data.Spec {
	return data.Spec{Responses: []string{"rentm"}, Drop: []string{"rent", "good", "best"},
		Factors: data.FactorSpec{Nominal: []string{"area"}, Ordinal: []data.Ordering{
			{Name: "year"}, {Name: "rooms"}, {Name: "size"},
			{Name: "quality", Order: []string{"fair", "good", "excellent"}}}}}
}

// TestMunichDistricts fits the Munich rent survey with its districts as a
// nominal factor whose levels fuse, and checks the district groups at
// λ = 3.2 (it was the package's Example, which cannot skip when the data
// set is not beside the repository).
func TestMunichDistricts(t *testing.T) {
	rows, err := data.ReadRows(munichFile(t), munichSpec(), data.RowsOptions{})
	require.NoError(t, err)
	design, err := factor.NewDesign(rows.Names, rows.Factors, rows.FactorCols)
	require.NoError(t, err)
	pen, free, err := design.Penalty(factor.Options{Weights: factor.Equal})
	require.NoError(t, err)
	m, err := estimator.Fit(&estimator.Rows{X: solver.DenseDesign{X: rows.X}, Y: rows.Y}, pen, 3.2,
		&estimator.Options{Unpenalized: free})
	require.NoError(t, err)
	require.Less(t, m.Gap, 1e-7, "certified: relative duality gap below 1e-7")
	var got []string
	for _, lv := range design.Levels(factor.Fitted{Coef: m.Coefficients(0)}) {
		if lv.Factor != "area" {
			continue
		}
		got = append(got, fmt.Sprintf("%s: %d groups, reference %s", lv.Factor, len(lv.Groups), lv.Reference))
		for _, g := range lv.Groups {
			got = append(got, fmt.Sprintf("  %+.3f  %s", g.Effect, strings.Join(g.Levels, " ")))
		}
	}
	require.Equal(t, []string{
		"area: 4 groups, reference 9",
		"  +0.245  3",
		"  +0.141  1 2 4 5 12 13 18",
		"  +0.000  6 7 8 9 10 11 14 15 17 19 20 21 22 23 24 25",
		"  -0.338  16",
	}, got)
}
