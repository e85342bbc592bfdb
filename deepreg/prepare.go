package deepreg

import "math"

// ColumnScale returns the mean and the standard deviation (divisor n) of a
// column, the centre and scale that standardise it; a constant or empty
// column gets scale 1. It works on the column divided by its largest
// magnitude, so that neither the sum nor the squares overflow (a column
// near 1e200 would otherwise get an infinite scale) or underflow.
func ColumnScale(col []float64) (mean, sd float64) {
	var size float64
	for _, v := range col {
		size = math.Max(size, math.Abs(v))
	}
	if size == 0 {
		return 0, 1
	}
	var s float64
	for _, v := range col {
		s += v / size
	}
	m := s / float64(len(col))
	var ss float64
	for _, v := range col {
		d := v/size - m
		ss += d * d
	}
	sd = math.Sqrt(ss/float64(len(col))) * size
	if sd == 0 {
		sd = 1
	}
	return m * size, sd
}

// TrainingBytes estimates the memory Train takes on n rows for the layer
// widths arch: about eight copies of the weights (weights, gradients,
// Adam's moments, the best network kept, the prox's work) and three of the
// activations of n rows, in float64. Sizes are summed in float64, so that
// absurd widths cannot overflow; Weights is the number of weights.
func TrainingBytes(arch []int, n int) (bytes, weights float64) {
	var units float64
	for l := 0; l+1 < len(arch); l++ {
		weights += float64(arch[l]) * float64(arch[l+1])
	}
	for _, w := range arch {
		units += float64(w)
	}
	return 8 * (8*weights + 3*units*float64(n)), weights
}

// Standardize replaces each v of col by (v − centre)/scale, the inputs
// a network trained on standardised columns (ColumnScale) expects.
func Standardize(col []float64, centre, scale float64) {
	for i, v := range col {
		col[i] = (v - centre) / scale
	}
}
