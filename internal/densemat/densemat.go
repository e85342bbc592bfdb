// Package densemat holds what the products of the design matrices
// (solver's sparse design, cardmat's compressed ones) do with their gonum
// operands: size the destination the gonum way and read the operand as a
// *mat.Dense that the destination does not overwrite while it is read.
package densemat

import (
	"unsafe"

	"gonum.org/v1/gonum/mat"
)

// Size sizes an empty dst r×c, as gonum sizes a zero receiver, and panics
// with mat.ErrShape if a non-empty dst is not r×c.
func Size(dst *mat.Dense, r, c int) {
	if dst.IsEmpty() {
		dst.ReuseAs(r, c)
		return
	}
	if rr, cc := dst.Dims(); rr != r || cc != c {
		panic(mat.ErrShape)
	}
}

// Of returns m as a *mat.Dense: m itself when it is one (the solvers' own
// iterates and residuals: the products run every iteration, and a copy of
// their operand costs as much as they do), else a copy.
func Of(m mat.Matrix) *mat.Dense {
	if d, ok := m.(*mat.Dense); ok {
		return d
	}
	return mat.DenseCopyOf(m)
}

// Unaliased returns m as a *mat.Dense that does not share memory with dst:
// Of(m), or a copy when m is dst or a view of the same data, which a
// product writing dst row by row would overwrite before reading it.
func Unaliased(dst *mat.Dense, m mat.Matrix) *mat.Dense {
	md := Of(m)
	if md == dst || overlaps(md.RawMatrix().Data, dst.RawMatrix().Data) {
		return mat.DenseCopyOf(md)
	}
	return md
}

// overlaps reports whether two slices share backing memory, judged by
// their addresses within the common array.
func overlaps(a, b []float64) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	a0, a1 := &a[0], &a[len(a)-1]
	b0, b1 := &b[0], &b[len(b)-1]
	return uintptr(unsafe.Pointer(a0)) <= uintptr(unsafe.Pointer(b1)) && uintptr(unsafe.Pointer(b0)) <= uintptr(unsafe.Pointer(a1))
}
