package suffstat

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Folds holds one set of statistics per cross-validation fold.
type Folds struct {
	// Fold[k] summarises the rows of fold k.
	Fold []*Moments
}

// NewFolds returns k empty folds of d variables.
func NewFolds(k, d int) *Folds {
	if k < 1 {
		panic(fmt.Sprintf("suffstat: %d folds", k))
	}
	f := &Folds{Fold: make([]*Moments, k)}
	for i := range f.Fold {
		f.Fold[i] = New(d)
	}
	return f
}

// All returns the statistics of every row: the merge of the folds, in
// fold order (so the same folds give the same numbers).
func (f *Folds) All() *Moments {
	all := New(f.Fold[0].d)
	for _, m := range f.Fold {
		all.Merge(m)
	}
	return all
}

// Train returns the training statistics of fold k: the merge of every
// other fold, in fold order.
func (f *Folds) Train(k int) *Moments {
	tr := New(f.Fold[0].d)
	for j, m := range f.Fold {
		if j != k {
			tr.Merge(m)
		}
	}
	return tr
}

// FoldOf assigns a row to one of k folds from a stable key (a row number
// or a key column's value, never the order rows happen to arrive in) and a
// seed: the same key and seed always give the same fold, and keys spread
// evenly (splitmix64, Steele, Lea and Flood 2014).
func FoldOf(key, seed uint64, k int) int {
	z := key + seed*0x9e3779b97f4a7c15 + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return int(z % uint64(k))
}

// RowFold assigns row number i (0, 1, …, in the order of a file, which is
// stable, unlike the order rows reach a parallel reader) to one of k folds:
// each block of k consecutive rows is dealt to the k folds by a permutation
// drawn from the seed and the block's number. Fold sizes differ by at most
// one whatever the number of rows, which need not be known in advance, so
// a streamed file and the same rows in memory get the same folds.
func RowFold(i, seed uint64, k int) int {
	return NewRowFolder(seed, k).Fold(i)
}

// RowFolder is RowFold for a sequence of rows: it keeps the permutation of
// the last block, so consecutive rows cost one permutation per k rows.
type RowFolder struct {
	seed  uint64
	block uint64
	perm  []int
}

// NewRowFolder returns RowFold's assignment to k folds under seed.
func NewRowFolder(seed uint64, k int) *RowFolder {
	if k < 1 {
		panic(fmt.Sprintf("suffstat: %d folds", k))
	}
	return &RowFolder{seed: seed, block: math.MaxUint64, perm: make([]int, k)}
}

// Fold returns RowFold(i, seed, k).
func (f *RowFolder) Fold(i uint64) int {
	k := uint64(len(f.perm))
	if b := i / k; b != f.block {
		f.block = b
		rng := rand.New(rand.NewPCG(f.seed, b))
		// A Fisher–Yates permutation of 0…k−1.
		for j := range f.perm {
			f.perm[j] = j
		}
		for j := len(f.perm) - 1; j > 0; j-- {
			l := rng.IntN(j + 1)
			f.perm[j], f.perm[l] = f.perm[l], f.perm[j]
		}
	}
	return f.perm[i%k]
}
