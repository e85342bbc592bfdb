// Package membudget is the memory a cardreg command may use and what its
// fits take: --memory's sizes, the machine's memory (or its control
// group's limit), and the O(p²) matrices a fit holds, refused before they
// are allocated when they would not fit.
package membudget

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
)

// byteUnits are the suffixes --memory takes, decimal and binary.
var byteUnits = []struct {
	suffix string
	size   float64
}{
	{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"TIB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"B", 1},
}

// ParseBytes reads a --memory value: a positive number of bytes, with an
// optional unit (12GB, 512MiB, 4e9). Zero, a negative or fractional byte
// count, and anything else is an error.
func ParseBytes(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	scale := 1.0
	for _, u := range byteUnits {
		if strings.HasSuffix(t, u.suffix) {
			t, scale = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.size
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return 0, errors.New("not a size in bytes (such as 8000000000, 8GB or 512MiB)")
	}
	b := v * scale
	if b >= math.MaxInt64 {
		return 0, errors.New("too large")
	}
	if !(b >= 1) || b != math.Trunc(b) {
		return 0, errors.New("not a positive whole number of bytes")
	}
	return int64(b), nil
}

// FormatBytes writes a size for a message: 3.2 GB, 640 MB.
func FormatBytes(b float64) string {
	for _, u := range []struct {
		name string
		size float64
	}{{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"kB", 1e3}} {
		if b >= u.size {
			return fmt.Sprintf("%.3g %s", b/u.size, u.name)
		}
	}
	return fmt.Sprintf("%.0f bytes", b)
}

// Budget is the memory a command may use: --memory, else a share of the
// machine's memory (Share).
type Budget struct {
	// Bytes is the budget, 0 when unknown.
	Bytes int64
	// Given says it is --memory's; Assumed that it is AssumedMemory, the
	// machine's being unknown.
	Given, Assumed bool
}

// Of returns the budget of a --memory value (0: not given).
func Of(flagBytes int64) Budget {
	if flagBytes > 0 {
		return Budget{Bytes: flagBytes, Given: true}
	}
	return Budget{Bytes: int64(Share * float64(TotalMemory()))}
}

// AssumedMemory is the budget of a check that cannot go without one
// (net's weights) when the machine's memory is unknown.
const AssumedMemory = 64 << 30

// OrAssumed is b, or AssumedMemory when b is unknown.
func (b Budget) OrAssumed() Budget {
	if b.Bytes <= 0 {
		return Budget{Bytes: AssumedMemory, Assumed: true}
	}
	return b
}

// String names the budget for a message.
func (b Budget) String() string {
	if b.Given {
		return "--memory " + FormatBytes(float64(b.Bytes))
	}
	if b.Assumed {
		return FormatBytes(float64(b.Bytes)) + " (assumed: the machine's memory is unknown; --memory sets it)"
	}
	return FormatBytes(float64(b.Bytes)) + " (half the machine's memory, or of its control group's limit when lower; --memory sets it)"
}

// GCFactor is how much memory live data take in a Go program: the heap
// grows to twice the live data before it is collected (GOGC=100; measured
// on a streamed fit of 1500 predictors: 138 MB live, 219 MB of heap, 126
// MB of statistics).
const GCFactor = 2

// SquareBytes is the memory count d×d matrices of float64 take, the
// collector's share included.
func SquareBytes(count, d int) float64 {
	return GCFactor * 8 * float64(count) * float64(d) * float64(d)
}

// CheckSquares refuses, before they are allocated, count d×d float64
// matrices (the O(p²) statistics of a fit) that pass the budget b: the
// error says what they need, what the budget is, and what to do (advice).
// An unknown budget (0) checks nothing.
func CheckSquares(what string, count, d int, b Budget, advice string) error {
	need := SquareBytes(count, d)
	if b.Bytes <= 0 || need <= float64(b.Bytes) {
		return nil
	}
	return fmt.Errorf("%s need about %s (%d matrices of %d × %d float64, doubled for the garbage collector), more than %s; %s",
		what, FormatBytes(need), count, d, d, b, advice)
}

// CheckRows refuses, before it is allocated, an n×p float64 design (rows
// read into memory; factors' dummy columns included) that passes the
// budget b, the collector's share included: the error says what it needs
// and what to do (advice). An unknown budget (0) checks nothing.
func CheckRows(n, p int, b Budget, advice string) error {
	need := GCFactor * 8 * float64(n) * float64(p)
	if b.Bytes <= 0 || need <= float64(b.Bytes) {
		return nil
	}
	return fmt.Errorf("the %d rows of %d predictor columns need about %s as float64 (doubled for the garbage collector), more than %s; %s",
		n, p, FormatBytes(need), b, advice)
}

// Share is the share of the machine's memory a command may take (--memory's
// default); a fit above it streams its data instead of loading them.
const Share = 0.5

// InMemoryFactor is how many times its float64 size an in-memory
// cross-validated fit peaks at (measured: 15–17× on 10⁶ × 50).
const InMemoryFactor = 17

// StreamMatrices is how many d×d matrices (d the predictors and
// responses) a streamed least-squares fit on k folds holds at its peak:
// each fold's statistics and its block buffer's while reading; then the
// folds', the whole data's and one training set's statistics with their
// Gram matrices and the solver's copy.
func StreamMatrices(k int) int { return k + max(k, 6) }

// NewtonMatrices is how many (p+1)×(p+1) matrices a streamed family fit's
// Newton step holds: the weighted statistics and their block buffer's,
// the quadratic model's Gram matrix and the solver's copy, with one to
// spare.
const NewtonMatrices = 5

// CheckRounds refuses, before they are allocated, what a binomial or
// Poisson fit in rounds of p predictors on k folds holds (package glm's
// FitRounds) that passes the budget b: (p+1)×(p+1) matrices, each fold's
// Gram matrix and, per training set (k+1 with cross-validation, else 1),
// its sum and Cholesky factor, and per core a Newton step's Hessian, Schur
// complement and the solver's two copies; and the sample of m rows of p
// predictors, with its copy for the sample's fit and per core the
// weighted copy a Hessian is formed from.
func CheckRounds(p, k, m int, b Budget, advice string) error {
	sets, cores := 1, runtime.GOMAXPROCS(0)
	if k > 1 {
		sets = k + 1
	}
	count := k + 2*sets + 4*cores
	need := SquareBytes(count, p+1) + GCFactor*8*float64(m)*float64(p)*float64(2+cores)
	if b.Bytes <= 0 || need <= float64(b.Bytes) {
		return nil
	}
	return fmt.Errorf("a fit in rounds of %d predictors on %d folds needs about %s (%d matrices of %d × %d float64 and a sample of up to %d rows, doubled for the garbage collector), more than %s; %s",
		p, k, FormatBytes(need), count, p+1, p+1, m, b, advice)
}

// GramMatrices is how many p×p matrices an in-memory least-squares fit
// holds when it works in Gram form (n ≥ p): XᵀX and its full copy for the
// whole data and for each of two cross-validation folds fitted at once.
const GramMatrices = 6
