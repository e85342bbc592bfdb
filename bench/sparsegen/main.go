// Command sparsegen writes the seeded sparse benchmark sets of issue 37 in the
// svmlight format (and, for R, the same matrix as binary CSC arrays).
//
// Two kinds, each at full size or at a small size for tests (-small):
//
//   - rcv1: binary classification shaped like rcv1.binary's training set,
//     n = 20,242 rows, p = 47,236 columns, 0.16 % non-zeros (rcv1.binary has
//     1,498,952 non-zeros: 0.157 %). Labels from a sparse logistic model,
//     written 1/0 (rcv1.binary's +1/−1 are refused by cardreg's binomial fit).
//   - e2006: regression shaped like E2006-tfidf's training set, n = 16,087,
//     p = 150,360, 0.83 % non-zeros by default (the density reported for
//     E2006-tfidf; -density lowers it). Response from a sparse linear model
//     plus Gaussian noise.
//
// The matrix is text-like. Column j (after a seeded random permutation of the
// column order) has rank r and appears in each row independently with
// probability q_r = min(0.5, c·r^(−s)), Zipf-like with exponent s = -zipf
// (1.0 by default, Zipf's law for word frequencies), c solved so that the
// expected density is -density. Each present entry is a tf-idf weight
// (1 + ln tf)·ln(n/df_j), tf = 1 + a geometric count with mean 0.5, df_j the
// column's number of rows; each row is then scaled to unit Euclidean length
// (as rcv1's and E2006's cosine-normalised tf-idf rows) and every value is
// rounded to 6 significant digits, so that the text file is short and every
// reader (Go, R, liblinear) gets the same float64 values bit for bit. A row
// left empty gets one entry, value 1, in a uniformly drawn column.
//
// The response: -k true non-zero coefficients (rcv1: 100, e2006: 200) on
// columns drawn uniformly among the 10 % most frequent (so each true
// predictor appears in enough rows to be learnable), with random signs and
// magnitudes uniform on [1, 2], scaled so that the linear predictor η = Xβ*
// has standard deviation 2 (rcv1) or 1 (e2006), then centred. rcv1: y = 1
// with probability 1/(1 + e^(−η)), else 0 (−1 in the CSC file R reads). e2006: y = η + 0.5·N(0, 1)
// (signal-to-noise variance ratio 4).
//
// All randomness comes from one PCG seeded by -seed: the same flags always
// give byte-identical files. Outputs, from -out PREFIX:
//
//	PREFIX.svm   svmlight/libsvm text: "label idx:val ..." with 1-based
//	             increasing indices (labels 1/0, or the response)
//	PREFIX.csc   little-endian binary for R's readBin: int32 n, p, nnz; int32
//	             column pointers (p+1); int32 0-based row indices (nnz);
//	             float64 values (nnz); float64 responses (n)
//	PREFIX.csv   with -csv only (small sizes): the same data as a dense CSV,
//	             header x1..xp,y, for programs that read CSV only
//
// and prints "name value" lines (sizes, density, column frequencies, bytes).
//
// Usage:
//
//	go run ./bench/sparsegen -kind rcv1 -seed 1 -out /tmp/rcv1
//	go run ./bench/sparsegen -kind e2006 -density 0.002 -out /tmp/e2006
//	go run ./bench/sparsegen -kind rcv1 -small -csv -out /tmp/rcv1small
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
)

// spec is one generated set's shape and model.
type spec struct {
	kind    string  // rcv1 (binomial) or e2006 (gaussian)
	n, p    int     // rows, columns
	density float64 // expected fraction of non-zeros
	zipf    float64 // exponent s of the column frequencies c·r^(−s)
	k       int     // true non-zero coefficients
	etaSD   float64 // standard deviation of the linear predictor
	noise   float64 // gaussian: noise standard deviation
	seed    uint64
}

// presets are the full and small sizes of each kind.
func preset(kind string, small bool) (spec, error) {
	var s spec
	switch kind {
	case "rcv1":
		s = spec{kind: kind, n: 20242, p: 47236, density: 0.0016, k: 100, etaSD: 2}
		if small {
			s.n, s.p, s.density, s.k = 400, 1000, 0.02, 10
		}
	case "e2006":
		s = spec{kind: kind, n: 16087, p: 150360, density: 0.0083, k: 200, etaSD: 1, noise: 0.5}
		if small {
			s.n, s.p, s.density, s.k = 300, 2000, 0.02, 10
		}
	default:
		return s, fmt.Errorf("unknown -kind %q (rcv1 or e2006)", kind)
	}
	s.zipf = 1
	return s, nil
}

func main() {
	kind := flag.String("kind", "rcv1", "rcv1 (binary classification) or e2006 (regression)")
	small := flag.Bool("small", false, "a small set for tests (rcv1: 400×1000, e2006: 300×2000, 2 % non-zeros)")
	n := flag.Int("n", 0, "rows (default: the kind's)")
	p := flag.Int("p", 0, "columns (default: the kind's)")
	density := flag.Float64("density", 0, "expected fraction of non-zeros (default: the kind's)")
	zipf := flag.Float64("zipf", 0, "exponent s of the column frequencies c·rank^(−s) (default 1)")
	k := flag.Int("k", 0, "true non-zero coefficients (default: the kind's)")
	seed := flag.Uint64("seed", 1, "random seed")
	out := flag.String("out", "", "output prefix: PREFIX.svm, PREFIX.csc (required)")
	csv := flag.Bool("csv", false, "also write PREFIX.csv, the data as a dense CSV (small sizes)")
	flag.Parse()
	s, err := preset(*kind, *small)
	if err == nil {
		s, err = override(s, *n, *p, *k, *density, *zipf, *seed)
	}
	if err == nil && *out == "" {
		err = errors.New("-out PREFIX is required")
	}
	if err == nil && *csv && float64(s.n)*float64(s.p) > 5e7 {
		err = fmt.Errorf("-csv: %d×%d is too large for a dense CSV", s.n, s.p)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sparsegen:", err)
		os.Exit(2)
	}
	if err := run(s, *out, *csv); err != nil {
		fmt.Fprintln(os.Stderr, "sparsegen:", err)
		os.Exit(1)
	}
}

// override applies the flags given (non-zero) and checks the result.
func override(s spec, n, p, k int, density, zipf float64, seed uint64) (spec, error) {
	if n != 0 {
		s.n = n
	}
	if p != 0 {
		s.p = p
	}
	if k != 0 {
		s.k = k
	}
	if density != 0 {
		s.density = density
	}
	if zipf != 0 {
		s.zipf = zipf
	}
	s.seed = seed
	switch {
	case s.n < 2 || s.p < 1 || s.n > 1<<30 || s.p > 1<<30:
		return s, fmt.Errorf("need 2 <= n and 1 <= p, both below 2^30 (n=%d p=%d)", s.n, s.p)
	case !(s.density > 0 && s.density <= 0.5):
		return s, fmt.Errorf("-density %g: need 0 < density <= 0.5", s.density)
	case !(s.zipf >= 0 && s.zipf <= 4):
		return s, fmt.Errorf("-zipf %g: need 0 <= s <= 4", s.zipf)
	case s.k < 1 || s.k > s.p:
		return s, fmt.Errorf("-k %d: need 1 <= k <= p", s.k)
	case float64(s.n)*float64(s.p)*s.density > 1.5e9:
		return s, errors.New("more than 1.5e9 expected non-zeros: int32 indices would overflow")
	}
	return s, nil
}

func run(s spec, out string, csv bool) error {
	m := generate(s)
	y, info := respond(s, m)
	if err := writeSVM(out+".svm", m, y, s.kind == "rcv1"); err != nil {
		return err
	}
	if err := writeCSC(out+".csc", m, y); err != nil {
		return err
	}
	if csv {
		if err := writeCSV(out+".csv", m, y, s.kind == "rcv1"); err != nil {
			return err
		}
	}
	report(s, m, info, out)
	return nil
}
