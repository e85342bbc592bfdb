package matmulbase

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// benchOperands returns two n×n standard normal matrices.
func benchOperands(n int) (a, b *mat.Dense) {
	rng := rand.New(rand.NewPCG(uint64(n), 42))
	return randDense(n, n, rng.NormFloat64), randDense(n, n, rng.NormFloat64)
}

func benchMul(b *testing.B, n int, mul func(x, y *mat.Dense) *mat.Dense) {
	x, y := benchOperands(n)
	b.ReportAllocs()
	for b.Loop() {
		mul(x, y)
	}
}

func BenchmarkNaive512(b *testing.B) { benchMul(b, 512, Naive) }

func BenchmarkStrassen512(b *testing.B) {
	benchMul(b, 512, func(x, y *mat.Dense) *mat.Dense { return Strassen(x, y, DefaultStrassenCutoff) })
}

func BenchmarkStrassen1024(b *testing.B) {
	benchMul(b, 1024, func(x, y *mat.Dense) *mat.Dense { return Strassen(x, y, DefaultStrassenCutoff) })
}

func BenchmarkGonum512(b *testing.B) {
	benchMul(b, 512, func(x, y *mat.Dense) *mat.Dense { return gonumMul(x, y) })
}

func BenchmarkGonum1024(b *testing.B) {
	benchMul(b, 1024, func(x, y *mat.Dense) *mat.Dense { return gonumMul(x, y) })
}

// BenchmarkStrassenCutoff is the measurement behind DefaultStrassenCutoff.
func BenchmarkStrassenCutoff(b *testing.B) {
	for _, n := range []int{512, 1000, 1024} {
		for _, cutoff := range []int{32, 64, 128, 256} {
			b.Run(fmt.Sprintf("%d/cutoff=%d", n, cutoff), func(b *testing.B) {
				benchMul(b, n, func(x, y *mat.Dense) *mat.Dense { return Strassen(x, y, cutoff) })
			})
		}
	}
}

func BenchmarkFourRussians2048(b *testing.B) {
	rng := rand.New(rand.NewPCG(2048, 42))
	x, err := PackBits(randDense(2048, 2048, bits01(rng)))
	if err != nil {
		b.Fatal(err)
	}
	y, err := PackBits(randDense(2048, 2048, bits01(rng)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		FourRussians(x, y, DefaultFourRussiansK)
	}
}
