// Package simulate runs cardreg's experiments: simulations comparing the
// cardinality, lasso and ridge penalties, and every figure, table and timing
// of the source paper (A. Mohaddes and J. Lederer, "Cardinality Sparsity:
// Applications in Matrix-Matrix Multiplications and Machine Learning", TMLR
// 2025, §6), reproduced on this machine.
//
// Each Experiment is run from a Config (a base seed, the number of
// repetitions, a reduced size for tests, the directory of the real data sets)
// and returns a Result: one CSV row per run, a JSON summary and a Figure drawn
// with gonum/plot. Result.Save writes DIR/NAME.csv, .json, .png and .svg, all
// or none. Run i of an experiment uses the seed Config.Seed + i, so the same
// seed gives the same numbers; only the wall-time columns (Result.Timing)
// differ between runs. The network experiments split their batches over
// GOMAXPROCS goroutines, so their losses agree to the last bits only on
// machines with the same GOMAXPROCS (the JSON records it).
//
// The command line is `cardreg simulate NAME --out DIR`; `cardreg simulate
// list` names every experiment. docs/paper.md is the reproduction report built
// from these experiments.
package simulate
