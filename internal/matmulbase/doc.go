// Package matmulbase provides baseline matrix-multiplication algorithms that
// serve as comparison points in benchmarks and experiments.
//
// The implementations favour clarity over speed: Naive is the textbook
// triple loop, Strassen is Strassen's recursion with a naive leaf kernel, and
// FourRussians is the method of the Four Russians (M4RM) for 0/1 matrices over
// GF(2). None of them is tuned or parallel, and none of them should be used in
// production code; use gonum's mat.Dense.Mul instead.
package matmulbase
