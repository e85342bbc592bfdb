package densemat

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSize: an empty dst is sized, a sized one is kept, a wrong one
// panics with mat.ErrShape.
func TestSize(t *testing.T) {
	var dst mat.Dense
	Size(&dst, 2, 3)
	if r, c := dst.Dims(); r != 2 || c != 3 {
		t.Fatalf("sized %d×%d, want 2×3", r, c)
	}
	Size(&dst, 2, 3)
	defer func() {
		if r := recover(); r != mat.ErrShape {
			t.Errorf("wrong size: recovered %v, want mat.ErrShape", r)
		}
	}()
	Size(&dst, 3, 2)
}

// TestUnaliased: a *mat.Dense apart from dst is read in place; dst itself,
// a view of its data and a matrix of another type are copied.
func TestUnaliased(t *testing.T) {
	dst := mat.NewDense(4, 2, []float64{1, 2, 3, 4, 5, 6, 7, 8})
	apart := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	if got := Unaliased(dst, apart); got != apart {
		t.Error("a matrix apart from dst was copied")
	}
	view := dst.Slice(1, 3, 0, 2).(*mat.Dense)
	for name, m := range map[string]mat.Matrix{"dst": dst, "a view of dst": view, "a transpose": apart.T()} {
		got := Unaliased(dst, m)
		if got == m || overlaps(got.RawMatrix().Data, dst.RawMatrix().Data) {
			t.Errorf("%s: not copied apart from dst", name)
		}
		if !mat.Equal(got, m) {
			t.Errorf("%s: copy %v, want %v", name, mat.Formatted(got), mat.Formatted(m))
		}
	}
	if got := Of(apart); got != apart {
		t.Error("Of copied a *mat.Dense")
	}
	var empty mat.Dense
	if got := Unaliased(&empty, apart); got != apart {
		t.Error("an empty dst made a copy")
	}
}
