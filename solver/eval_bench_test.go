package solver

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkEvalWide is one loss and gradient evaluation on a 200×20000
// dense design, what every FISTA iteration on wide data pays.
func BenchmarkEvalWide(b *testing.B) {
	x, y := regression(41, 200, 20000, 1)
	ls := NewLeastSquares(DenseDesign{x}, y)
	theta := mat.NewDense(20000, 1, nil)
	for i := 0; i < 20000; i++ {
		theta.Set(i, 0, float64(i%7)-3)
	}
	grad := mat.NewDense(20000, 1, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ls.Eval(grad, theta)
	}
}
