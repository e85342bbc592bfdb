package cardmat

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The first target: 20000×16 · 16×1024 with k = 10 distinct values
// per column, compressed product (encoding included) against gonum's
// Dense.Mul.
func letterLike() (*mat.Dense, *mat.Dense) {
	rng := rand.New(rand.NewPCG(1, 1))
	a := mat.NewDense(20000, 16, nil)
	for i := 0; i < 20000; i++ {
		for j := 0; j < 16; j++ {
			a.Set(i, j, float64(rng.IntN(10)))
		}
	}
	b := mat.NewDense(16, 1024, nil)
	for i := 0; i < 16; i++ {
		for j := 0; j < 1024; j++ {
			b.Set(i, j, rng.NormFloat64())
		}
	}
	return a, b
}

func BenchmarkLetterDense(b *testing.B) {
	x, v := letterLike()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var out mat.Dense
		out.Mul(x, v)
	}
}

func BenchmarkLetterCompressedWithEncode(b *testing.B) {
	x, v := letterLike()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, _ := Encode(x)
		var out mat.Dense
		m.Mul(&out, v)
	}
}

func BenchmarkLetterCompressedProductOnly(b *testing.B) {
	x, v := letterLike()
	m, _ := Encode(x)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var out mat.Dense
		m.Mul(&out, v)
	}
}

func BenchmarkLetterDenseReuse(b *testing.B) {
	x, v := letterLike()
	out := mat.NewDense(20000, 1024, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out.Mul(x, v)
	}
}

func BenchmarkLetterCompressedReuse(b *testing.B) {
	x, v := letterLike()
	m, _ := Encode(x)
	out := mat.NewDense(20000, 1024, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Mul(out, v)
	}
}

func BenchmarkWrite164MB(b *testing.B) {
	out := mat.NewDense(20000, 1024, nil)
	row := make([]float64, 1024)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for r := 0; r < 20000; r++ {
			copy(out.RawRowView(r), row)
		}
	}
}
