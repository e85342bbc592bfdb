package deepreg_test

import (
	"fmt"

	"github.com/cardsparse/cardreg/deepreg"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// Train a small relu network on XOR with a cardinality penalty and a
// projection of every weight column onto two distinct values.
func ExampleTrain() {
	x := mat.NewDense(4, 2, []float64{0, 0, 0, 1, 1, 0, 1, 1})
	y := deepreg.OneHot([]int{0, 1, 1, 0}, 2)
	net, err := deepreg.New([]int{2, 8, 2}, []deepreg.Activation{deepreg.ReLU{}}, true, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := deepreg.Train(net, solver.DenseDesign{X: x}, y, &deepreg.Options{
		Loss: deepreg.CrossEntropy{}, Penalty: penalty.Cardinality{Nu: 1}, Lambda: 1e-4,
		LearningRate: 0.5, Epochs: 500, ProjectK: 2, ProjectExact: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	last := res.History[len(res.History)-1]
	fmt.Printf("accuracy %.2f after %d epochs\n", last.Metric, last.Epoch)
	// Output:
	// accuracy 1.00 after 500 epochs
}
