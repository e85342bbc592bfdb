// Package reference holds slow, deliberately simple reference implementations
// that test suites compare fast production code against.
//
// Everything here is written for obvious correctness rather than speed: dense
// matrices, explicit loops, plain coordinate descent and linear programming
// through gonum. Where an iterative method is used, the routine either checks
// a certificate of optimality (a primal–dual gap or a stopping rule stated in
// its documentation) or says plainly that it did not converge.
//
// The package is independent of the rest of the module on purpose: it imports
// only the standard library and gonum, so a bug in production code cannot leak
// into the reference it is tested against.
//
// This package is for tests only. It is not tuned, not hardened for large
// inputs, and must not be used in production code paths.
package reference
