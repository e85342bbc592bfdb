package deepreg

import (
	"math"
	"testing"
)

func TestColumnScale(t *testing.T) {
	cases := []struct {
		name     string
		col      []float64
		mean, sd float64
	}{
		{"plain", []float64{1, 2, 3, 4}, 2.5, math.Sqrt(1.25)},
		{"constant", []float64{7, 7, 7}, 7, 1},
		{"zero", []float64{0, 0}, 0, 1},
		{"huge", []float64{1e200, 3e200}, 2e200, 1e200},
	}
	for _, c := range cases {
		m, s := ColumnScale(c.col)
		if math.Abs(m-c.mean) > 1e-12*math.Abs(c.mean) || math.Abs(s-c.sd) > 1e-12*c.sd {
			t.Errorf("%s: got %v, %v; want %v, %v", c.name, m, s, c.mean, c.sd)
		}
	}
}

func TestTrainingBytes(t *testing.T) {
	// 3·4 + 4·1 = 16 weights, 8 units: 8·(8·16 + 3·8·10) bytes.
	b, w := TrainingBytes([]int{3, 4, 1}, 10)
	if w != 16 || b != 8*(8*16+3*8*10) {
		t.Errorf("got %v bytes, %v weights", b, w)
	}
	if b, _ := TrainingBytes([]int{1 << 40, 1 << 40, 1}, 1<<40); math.IsInf(b, 0) || b < 1e25 {
		t.Errorf("absurd widths: %v bytes", b)
	}
}

func TestStandardizeUndoesColumnScale(t *testing.T) {
	col := []float64{2, 4, 4, 4, 5, 5, 7, 9}
	c, s := ColumnScale(col)
	Standardize(col, c, s)
	if m, sd := ColumnScale(col); math.Abs(m) > 1e-15 || math.Abs(sd-1) > 1e-15 {
		t.Errorf("standardised column: mean %v, sd %v", m, sd)
	}
	if col[0] != -1.5 {
		t.Errorf("(2 − 5)/2 = %v, want -1.5", col[0])
	}
}
