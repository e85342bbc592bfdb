package kernel

// Dot returns Σ x[i]·y[i] over i < len(x). It panics if y is shorter.
func Dot(x, y []float64) float64 {
	n := len(x)
	if len(y) < n { // the assembly reads n values of each
		panic(errShort)
	}
	var s float64
	k := 0
	if UseAsm && hasAsm && n >= block {
		k = n &^ (block - 1)
		s = dotAsm(n, x, y)
	}
	for i := k; i < n; i++ {
		s += x[i] * y[i]
	}
	return s
}

// Dot3 returns Σ a[i]·b[i]·c[i] over i < len(a). It panics if b or c is
// shorter.
func Dot3(a, b, c []float64) float64 {
	n := len(a)
	if len(b) < n || len(c) < n {
		panic(errShort)
	}
	var s float64
	k := 0
	if UseAsm && hasAsm && n >= block {
		k = n &^ (block - 1)
		s = dot3Asm(n, a, b, c)
	}
	for i := k; i < n; i++ {
		s += a[i] * b[i] * c[i]
	}
	return s
}

// AxpyMul adds alpha·a[i]·b[i] to y[i] for i < len(y). It panics if a or b
// is shorter.
func AxpyMul(alpha float64, a, b, y []float64) {
	n := len(y)
	if len(a) < n || len(b) < n {
		panic(errShort)
	}
	k := 0
	if UseAsm && hasAsm && n >= block {
		k = n &^ (block - 1)
		axpyMulAsm(n, alpha, a, b, y)
	}
	for i := k; i < n; i++ {
		y[i] += alpha * a[i] * b[i]
	}
}

// Axpy adds alpha·x[i] to y[i] for i < len(y). It panics if x is shorter.
func Axpy(alpha float64, x, y []float64) {
	n := len(y)
	if len(x) < n {
		panic(errShort)
	}
	k := 0
	if UseAsm && hasAsm && n >= block {
		k = n &^ (block - 1)
		axpyAsm(n, alpha, x, y)
	}
	for i := k; i < n; i++ {
		y[i] += alpha * x[i]
	}
}

// Sum4 sets y[i] to a[i]+b[i]+c[i]+d[i] for i < len(y), summed in that
// order, plus y[i] when acc is set: four rows added to y in one pass. It
// panics if a, b, c or d is shorter than y.
func Sum4(acc bool, a, b, c, d, y []float64) {
	n := len(y)
	if len(a) < n || len(b) < n || len(c) < n || len(d) < n {
		panic(errShort)
	}
	k := 0
	if UseAsm && hasAsm && n >= block {
		k = n &^ (block - 1)
		sum4Asm(n, acc, a, b, c, d, y)
	}
	for i := k; i < n; i++ {
		s := a[i] + b[i] + c[i] + d[i]
		if acc {
			s += y[i]
		}
		y[i] = s
	}
}

// errShort is the panic of a vector shorter than the operation's length.
const errShort = "kernel: vector too short"

// block is the number of values the assembly kernels take per iteration
// (the rest is done in Go).
const block = 16
