package estimator

import (
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/suffstat"
	"github.com/stretchr/testify/require"
)

// TestConstantVariable: a column constant up to rounding is constant in
// its statistics, as IsConstant says of its values; one that varies is not.
func TestConstantVariable(t *testing.T) {
	f := suffstat.NewFolds(1, 3)
	var cols [3][]float64
	for i := range 50 {
		z := []float64{1e6 + float64(i%7), 3.25 * (1 + 1e-17*float64(i%3)), float64(i)}
		for j := range z {
			cols[j] = append(cols[j], z[j])
		}
		f.Fold[0].Add(z, 1+float64(i%2))
	}
	all := f.All()
	for j := range 3 {
		require.Equal(t, IsConstant(cols[j]), ConstantVariable(all, j), "variable %d", j)
	}
	require.True(t, ConstantVariable(all, 1))
	require.False(t, ConstantVariable(all, 0))
	require.NoError(t, SumToN(f))
	require.InDelta(t, 50, f.All().W, 1e-9)
}

func TestUnpenalizedColumns(t *testing.T) {
	names := []string{"a", "b", "c"}
	free, err := UnpenalizedColumns(names, []string{"c", "a", "c"})
	if err != nil || len(free) != 2 || free[0] != 0 || free[1] != 2 {
		t.Errorf("got %v, %v; want [0 2]", free, err)
	}
	if free, err := UnpenalizedColumns(names, nil); err != nil || free != nil {
		t.Errorf("none: got %v, %v", free, err)
	}
	if _, err := UnpenalizedColumns(names, []string{"z"}); err == nil || !strings.Contains(err.Error(), `"z" is not a predictor (predictors: a, b, c)`) {
		t.Errorf("unknown name: %v", err)
	}
	if _, err := UnpenalizedColumns(names, []string{"a", "b", "c"}); err == nil || !strings.Contains(err.Error(), "no predictor to penalise") {
		t.Errorf("every predictor: %v", err)
	}
}
