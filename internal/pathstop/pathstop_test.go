package pathstop

import "testing"

func TestStop(t *testing.T) {
	cases := []struct {
		name string
		rule Rule
		dev  []float64
		stop bool
	}{
		{"fewer than five λ", Relative, []float64{0, 0.5, 0.5, 0.5}, false},
		{"relative: moved 1e-6 of itself", Relative, []float64{0, 0.1, 0.2, 0.3, 0.3000003}, true},
		{"relative: moved 1e-4 of itself", Relative, []float64{0, 0.1, 0.2, 0.3, 0.30003}, false},
		{"relative: all zero never stops", Relative, []float64{0, 0, 0, 0, 0}, false},
		{"absolute: moved 9e-6", Absolute, []float64{0, 0.01, 0.02, 0.03, 0.030009}, true},
		{"absolute: moved 2e-5 (1e-3 of itself)", Absolute, []float64{0, 0.01, 0.02, 0.02, 0.02002}, false},
		{"relative4: four steps within 1e-4 of itself", Relative4, []float64{0.5, 0.50001, 0.50002, 0.50003, 0.50004}, true},
		{"relative4: four steps beyond it", Relative4, []float64{0.5, 0.51, 0.51, 0.51, 0.51}, false},
		{"past devmax", Relative, []float64{0.9, 0.99, 0.995, 0.998, 0.9995}, true},
	}
	for _, c := range cases {
		if got, why := Stop(c.rule, c.dev); got != c.stop || got == (why == "") {
			t.Errorf("%s: Stop = %v, %q; want %v", c.name, got, why, c.stop)
		}
	}
}
