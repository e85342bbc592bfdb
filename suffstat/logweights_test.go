package suffstat

import (
	"math"
	"testing"
)

// TestLogWeightSummaryAgrees: on weights within float64's range the
// summary of their logarithms finds the largest and dominance as
// WeightSummary does; beyond it (e^800 among ones) it still does.
func TestLogWeightSummaryAgrees(t *testing.T) {
	for _, ws := range [][]float64{{1, 2, 3}, {1e20, 1, 1}, {1, 1e17, 0, 1}, {0, 5}, {1e300, 1e-300, 1e284}} {
		var a WeightSummary
		var b LogWeightSummary
		for _, w := range ws {
			a.Add(w)
			b.AddLog(math.Log(w))
		}
		if a.Dominated() != b.Dominated() || a.MaxRow != b.MaxRow {
			t.Errorf("%v: dominated %v %v, row %d %d", ws, a.Dominated(), b.Dominated(), a.MaxRow, b.MaxRow)
		}
	}
	var b LogWeightSummary
	for _, a := range []float64{0, 800, 0, 0} {
		b.AddLog(a)
	}
	if !b.Dominated() || b.MaxRow != 1 {
		t.Errorf("e^800 among ones: dominated %v row %d", b.Dominated(), b.MaxRow)
	}
}
