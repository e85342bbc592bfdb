package main

import (
	"errors"
	"fmt"
	"math"
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

// parseBytes reads a --memory value: a positive number of bytes, with an
// optional unit (12GB, 512MiB, 4e9). Zero, a negative or fractional byte
// count, and anything else is an error.
func parseBytes(s string) (int64, error) {
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

// formatBytes writes a size for a message: 3.2 GB, 640 MB.
func formatBytes(b float64) string {
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

// budget is the memory a command may use: --memory, else a share of the
// machine's memory (streamBudgetShare); bytes is 0 when neither is known.
type budget struct {
	bytes   int64
	given   bool // from --memory
	assumed bool // assumedMemory, the machine's being unknown
}

// memoryBudget returns the budget of a --memory value (0: not given).
func memoryBudget(flagBytes int64) budget {
	if flagBytes > 0 {
		return budget{bytes: flagBytes, given: true}
	}
	return budget{bytes: int64(streamBudgetShare * float64(totalMemory()))}
}

// assumedMemory is the budget of a check that cannot go without one
// (net's weights) when the machine's memory is unknown.
const assumedMemory = 64 << 30

// orAssumed is b, or assumedMemory when b is unknown.
func (b budget) orAssumed() budget {
	if b.bytes <= 0 {
		return budget{bytes: assumedMemory, assumed: true}
	}
	return b
}

// String names the budget for a message.
func (b budget) String() string {
	if b.given {
		return "--memory " + formatBytes(float64(b.bytes))
	}
	if b.assumed {
		return formatBytes(float64(b.bytes)) + " (assumed: the machine's memory is unknown; --memory sets it)"
	}
	return formatBytes(float64(b.bytes)) + " (half the machine's memory, or of its control group's limit when lower; --memory sets it)"
}

// gcFactor is how much memory live data take in a Go program: the heap
// grows to twice the live data before it is collected (GOGC=100; measured
// on a streamed fit of 1500 predictors: 138 MB live, 219 MB of heap, 126
// MB of statistics).
const gcFactor = 2

// squareBytes is the memory count d×d matrices of float64 take, the
// collector's share included.
func squareBytes(count, d int) float64 {
	return gcFactor * 8 * float64(count) * float64(d) * float64(d)
}

// checkSquares refuses, before they are allocated, count d×d float64
// matrices (the O(p²) statistics of a fit) that pass the budget: the
// error says what they need, what the budget is, and what to do (advice).
// An unknown budget (0) checks nothing.
func checkSquares(what string, count, d int, b budget, advice string) error {
	need := squareBytes(count, d)
	if b.bytes <= 0 || need <= float64(b.bytes) {
		return nil
	}
	return fmt.Errorf("%s need about %s (%d matrices of %d × %d float64, doubled for the garbage collector), more than %s; %s",
		what, formatBytes(need), count, d, d, b, advice)
}
