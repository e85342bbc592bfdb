package cardmat_test

import (
	"fmt"

	"github.com/cardsparse/cardreg/cardmat"
	"gonum.org/v1/gonum/mat"
)

// A product with a matrix whose columns hold two and three distinct
// values: the compressed product equals the dense one and needs fewer
// multiplications.
func ExampleMatrix_MulOps() {
	x := mat.NewDense(6, 2, []float64{
		1, 0,
		2, 5,
		1, 5,
		2, 0,
		1, 7,
		2, 7,
	})
	m, err := cardmat.Encode(x)
	if err != nil {
		fmt.Println(err)
		return
	}
	b := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	var got mat.Dense
	ops := m.MulOps(&got, b)
	fmt.Println(m.Distinct())
	fmt.Printf("%v\n", mat.Formatted(&got))
	fmt.Println(ops.Multiplications, "multiplications against", cardmat.DenseOps(6, 2, 3).Multiplications)
	// Output:
	// [2 3]
	// ⎡ 1   2   3⎤
	// ⎢22  29  36⎥
	// ⎢21  27  33⎥
	// ⎢ 2   4   6⎥
	// ⎢29  37  45⎥
	// ⎣30  39  48⎦
	// 15 multiplications against 36
}

// The GF(2) product of two bit-packed 0/1 matrices.
func ExampleMulMod2() {
	a, _ := cardmat.EncodeBinary(mat.NewDense(2, 3, []float64{1, 1, 0, 0, 1, 1}))
	b, _ := cardmat.EncodeBinary(mat.NewDense(3, 2, []float64{1, 0, 1, 1, 0, 1}))
	fmt.Printf("%v\n", mat.Formatted(cardmat.MulMod2(a, b).Dense()))
	// Output:
	// ⎡0  1⎤
	// ⎣1  0⎦
}
