package data

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// flagBin is the command-line flag the binning's messages name.
const flagBin = "--bin"

// Binning turns a numeric predictor into an ordinal factor whose levels
// are bands of its values (--bin NAME=K or NAME=e1,e2,…): K bands at its
// quantiles (QuantileEdges), or the bands between the cut points Edges.
// The bands are right-closed, (e_k, e_{k+1}], the first open below and the
// last above, so that every number has a band (BinLevels, BinCode).
type Binning struct {
	// Name is the column's.
	Name string
	// K is the number of quantile bands asked for (0 with Edges).
	K int
	// Edges are the cut points given, strictly increasing and finite
	// (nil with K).
	Edges []float64
}

// ParseBinning reads NAME=K (an integer written without a decimal point
// or exponent: K quantile bands) or NAME=e1,e2,… (cut points; one cut
// point is written with a decimal point, 30.0, to tell it from K).
func ParseBinning(s string) (Binning, error) {
	name, spec, ok := strings.Cut(s, "=")
	b := Binning{Name: strings.TrimSpace(name)}
	if !ok || b.Name == "" || strings.TrimSpace(spec) == "" {
		return b, fmt.Errorf("%s %s: give NAME=K (K quantile bands) or NAME=e1,e2,... (cut points)", flagBin, ShortText(s))
	}
	parts := strings.Split(spec, ",")
	if one := strings.TrimSpace(parts[0]); len(parts) == 1 && !strings.ContainsAny(one, ".eEnN") {
		k, err := strconv.Atoi(one)
		if err != nil {
			return b, fmt.Errorf("%s %s: %s is not a number of bands", flagBin, ShortText(s), ShortText(one))
		}
		b.K = k
		return b, b.check()
	}
	for _, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return b, fmt.Errorf("%s %s: cut point %s is not a number", flagBin, ShortText(s), ShortText(strings.TrimSpace(p)))
		}
		b.Edges = append(b.Edges, v)
	}
	return b, b.check()
}

// check refuses K < 2, and cut points that are not finite or not strictly
// increasing.
func (b Binning) check() error {
	if b.Edges == nil {
		if b.K < 2 {
			return fmt.Errorf("%s %s=%d: at least 2 bands", flagBin, ShortText(b.Name), b.K)
		}
		return nil
	}
	for k, e := range b.Edges {
		if math.IsNaN(e) || math.IsInf(e, 0) {
			return fmt.Errorf("%s %s: cut point %v is not a finite number", flagBin, ShortText(b.Name), e)
		}
		if k > 0 && !(e > b.Edges[k-1]) {
			return fmt.Errorf("%s %s: the cut points must increase strictly (%v then %v)", flagBin, ShortText(b.Name), b.Edges[k-1], e)
		}
	}
	return nil
}

// QuantileEdges returns the cut points of k bands of values at their
// unweighted quantiles: the j-th (j = 1…k−1) is the smallest value with at
// least j/k of the values at or below it (the inverse of the empirical
// distribution function, R's quantile type 1), so every cut point is a
// value and every band (e_{j−1}, e_j] holds e_j. Tied values are never
// split: cut points that coincide count once, and one at the largest
// value is dropped (its band above would be empty), so there may be fewer
// than k bands; note then says so. It is an error when k < 2, when values
// hold a NaN or an infinity, or fewer than k distinct values (each could
// be its own level instead: an ordinal factor). The edges are a function
// of the values alone, whatever their order: a stream computes them from a
// first pass.
func QuantileEdges(values []float64, k int) (edges []float64, note string, err error) {
	if k < 2 {
		return nil, "", fmt.Errorf("at least 2 bands, got %d", k)
	}
	s := slices.Clone(values)
	for _, v := range s {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, "", fmt.Errorf("the column holds %v: quantile bands need finite numbers", v)
		}
	}
	slices.Sort(s)
	distinct := len(slices.Compact(slices.Clone(s)))
	if distinct < k {
		return nil, "", fmt.Errorf("%d bands asked of a column with %d distinct values: ask for %d or fewer, or make each value a level (--ordinal)", k, distinct, distinct)
	}
	n := len(s)
	for j := 1; j < k; j++ {
		// the smallest i (1-based) with i/n ≥ j/k: i = ⌈j·n/k⌉, exact in integers.
		i := (j*n + k - 1) / k
		e := s[i-1]
		if e < s[n-1] && (len(edges) == 0 || e > edges[len(edges)-1]) {
			edges = append(edges, e)
		}
	}
	if len(edges)+1 < k {
		note = fmt.Sprintf("%d bands made of the %d asked: tied values are never split (a band holds every row of a value), so quantiles falling on one value count once", len(edges)+1, k)
	}
	return edges, note, nil
}

// BinLevels names the bands of the cut points edges, in order:
// "(-Inf,e1]", "(e1,e2]", …, "(em,Inf)", each number in its shortest
// decimal form.
func BinLevels(edges []float64) []string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	out := make([]string, len(edges)+1)
	lo := "-Inf"
	for k, e := range edges {
		out[k] = "(" + lo + "," + f(e) + "]"
		lo = f(e)
	}
	out[len(edges)] = "(" + lo + ",Inf)"
	return out
}

// BinCode returns the band of v among the cut points edges: the number of
// cut points below v (v ≤ e1 is band 0, v > em band m).
func BinCode(v float64, edges []float64) int32 {
	return int32(sort.SearchFloat64s(edges, v))
}

// errBinNaN is the error of a value with no band.
var errBinNaN = errors.New("NaN has no band")

// binFactor makes the ordinal factor of the numeric column name binned as
// b says, from its values (the rows kept), with the reference and the
// levels' counts checked as for any factor (FactorFromCodes). note says
// when quantile bands were fewer than asked.
func (fs *FactorSpec) binFactor(b Binning, values []float64) (f *Factor, note string, err error) {
	edges := b.Edges
	if edges == nil {
		if edges, note, err = QuantileEdges(values, b.K); err != nil {
			return nil, "", fmt.Errorf("%s %s=%d: %v", flagBin, ShortText(b.Name), b.K, err)
		}
	}
	codes := make([]int32, len(values))
	counts := make([]int, len(edges)+1)
	for i, v := range values {
		if math.IsNaN(v) {
			return nil, "", fmt.Errorf("%s %s: row %d: %v", flagBin, ShortText(b.Name), i+1, errBinNaN)
		}
		codes[i] = BinCode(v, edges)
		counts[codes[i]]++
	}
	levels := BinLevels(edges)
	for c, n := range counts {
		if n == 0 {
			return nil, "", fmt.Errorf("%s %s: the band %s holds no row: give cut points within the column's values (%v to %v)",
				flagBin, ShortText(b.Name), levels[c], slices.Min(values), slices.Max(values))
		}
	}
	f, err = FactorFromCodes(b.Name, levels, codes, true, fs)
	if err != nil {
		return nil, "", err
	}
	f.Edges = slices.Clone(edges)
	return f, note, nil
}

// binning returns the Binning of the column name, or nil.
func (fs *FactorSpec) binning(name string) *Binning {
	for i := range fs.Bins {
		if fs.Bins[i].Name == name {
			return &fs.Bins[i]
		}
	}
	return nil
}

// binLevel is Level for a binned factor: the band of the number cell.
func (f *Factor) binLevel(cell string) (int32, error) {
	s := strings.TrimSpace(cell)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) {
		return 0, fmt.Errorf("column %s: %s is not a number (the model bins this column's numbers into %s)", ShortText(f.Name), ShortText(s), someLevels(f.Levels))
	}
	return BinCode(v, f.Edges), nil
}

// NewBinnedFactor returns the factor of the column name binned at the
// cut points edges (strictly increasing, finite) with reference level ref,
// for reading new rows (Level bins a number): a saved model's.
func NewBinnedFactor(name string, edges []float64, ref int) (*Factor, error) {
	if err := (Binning{Name: name, Edges: edges}).check(); err != nil {
		return nil, err
	}
	if len(edges) == 0 {
		return nil, fmt.Errorf("column %s: a binned factor has at least one cut point", ShortText(name))
	}
	f := &Factor{Name: name, Levels: BinLevels(edges), Ref: ref, Ordinal: true, Edges: slices.Clone(edges), exact: true}
	return f, f.buildIndex()
}
