package factor_test

import (
	"fmt"
	"strings"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/solver"
)

// munich is the Munich rent survey of 2003 as the smurf vignette prepares
// it (../shared/data beside the repository).
const munich = "../../shared/data/munich_rent2003_smurf_prepared.csv"

// munichSpec reads rent per m² against the district (area, 25 levels,
// nominal), the year of construction, rooms and size classes and the
// quality (ordinal), and five yes/no equipment factors.
func munichSpec() data.Spec {
	return data.Spec{Responses: []string{"rentm"}, Drop: []string{"rent", "good", "best"},
		Factors: data.FactorSpec{Nominal: []string{"area"}, Ordinal: []data.Ordering{
			{Name: "year"}, {Name: "rooms"}, {Name: "size"},
			{Name: "quality", Order: []string{"fair", "good", "excellent"}}}}}
}

// Example fits the Munich rent survey with its districts as a nominal
// factor whose levels fuse, and prints the district groups.
func Example() {
	rows, err := data.ReadRows(munich, munichSpec(), data.RowsOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	design, err := factor.NewDesign(rows.Names, rows.Factors, rows.FactorCols)
	if err != nil {
		fmt.Println(err)
		return
	}
	pen, free, err := design.Penalty(factor.Options{Weights: factor.Equal})
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := estimator.Fit(&estimator.Rows{X: solver.DenseDesign{X: rows.X}, Y: rows.Y}, pen, 3.2,
		&estimator.Options{Unpenalized: free})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("certified: relative duality gap below 1e-7: %v\n", m.Gap < 1e-7)
	for _, lv := range design.Levels(factor.Fitted{Coef: m.Coefficients(0)}) {
		if lv.Factor != "area" {
			continue
		}
		fmt.Printf("%s: %d groups, reference %s\n", lv.Factor, len(lv.Groups), lv.Reference)
		for _, g := range lv.Groups {
			fmt.Printf("  %+.3f  %s\n", g.Effect, strings.Join(g.Levels, " "))
		}
	}
	// Output:
	// certified: relative duality gap below 1e-7: true
	// area: 4 groups, reference 9
	//   +0.245  3
	//   +0.141  1 2 4 5 12 13 18
	//   +0.000  6 7 8 9 10 11 14 15 17 19 20 21 22 23 24 25
	//   -0.338  16
}
