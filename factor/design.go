package factor

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/penalty"
)

// Design says which predictor columns of a design are the dummy columns of
// which factor; the others are numeric.
type Design struct {
	// Names are the predictors' names, one per column of the design.
	Names []string
	// Factors are the factors, and Cols, for each, the design's columns of
	// its non-reference levels in level order (data.Rows.FactorCols).
	Factors []*data.Factor
	Cols    [][]int
}

// NewDesign checks that cols give each factor one column per non-reference
// level, within the p = len(names) columns, no column twice.
func NewDesign(names []string, factors []*data.Factor, cols [][]int) (*Design, error) {
	if len(factors) != len(cols) {
		return nil, fmt.Errorf("factor: %d factors and %d column lists", len(factors), len(cols))
	}
	seen := make([]bool, len(names))
	for f, fc := range factors {
		if len(fc.Levels) < 2 || fc.Ref < 0 || fc.Ref >= len(fc.Levels) {
			return nil, fmt.Errorf("factor: %s has %d levels and reference %d", fc.Name, len(fc.Levels), fc.Ref)
		}
		if len(cols[f]) != fc.Width() {
			return nil, fmt.Errorf("factor: %s has %d levels but %d columns", fc.Name, len(fc.Levels), len(cols[f]))
		}
		for _, j := range cols[f] {
			if j < 0 || j >= len(names) || seen[j] {
				return nil, fmt.Errorf("factor: %s: column %d is out of range or taken twice", fc.Name, j)
			}
			seen[j] = true
		}
	}
	return &Design{Names: names, Factors: factors, Cols: cols}, nil
}

// Numeric returns the columns that belong to no factor, in order.
func (d *Design) Numeric() []int {
	taken := make([]bool, len(d.Names))
	for _, fc := range d.Cols {
		for _, j := range fc {
			taken[j] = true
		}
	}
	var out []int
	for j, t := range taken {
		if !t {
			out = append(out, j)
		}
	}
	return out
}

// PairWeights names how the pairs of a factor's levels are weighted.
type PairWeights int

const (
	// Equal weights every pair, and every level against the reference, 1.
	Equal PairWeights = iota
	// Count weights the pair (j, k) √((n_j + n_k)/n) by the levels' row
	// counts (Bondell and Reich 2009; smurf's "stand"); see
	// penalty.CountPairWeights.
	Count
	// Adaptive weights the pair 1/|β̂_j − β̂_k| from an unpenalised fit
	// (Options.Pilot); see penalty.AdaptivePairWeights.
	Adaptive
)

// pairWeightNames are the names ParsePairWeights reads, in order.
var pairWeightNames = []string{"equal", "count", "adaptive"}

// ParsePairWeights reads "equal", "count" or "adaptive".
func ParsePairWeights(s string) (PairWeights, error) {
	if k := slices.Index(pairWeightNames, s); k >= 0 {
		return PairWeights(k), nil
	}
	return 0, fmt.Errorf("pair weights %q: use %s", s, strings.Join(pairWeightNames, ", "))
}

// String returns the name ParsePairWeights reads.
func (w PairWeights) String() string {
	if w < 0 || int(w) >= len(pairWeightNames) {
		return fmt.Sprintf("PairWeights(%d)", int(w))
	}
	return pairWeightNames[w]
}

// Numeric penalties: what Options.Numeric may name. The first two are the
// penalty table's names of the norms whose block (penalty.BlockType) the
// numeric predictors get (TestNumericPenaltiesAreTableNames checks that
// the table knows them): one list of names, the table's.
var (
	NumericCardinality = penalty.CardinalityBlock.String()
	NumericLasso       = penalty.LassoBlock.String()
)

// NumericNone leaves the numeric predictors out of the penalty.
const NumericNone = "none"

// NumericPenalties lists what Options.Numeric may name, in the order
// messages list them.
var NumericPenalties = []string{NumericCardinality, NumericLasso, NumericNone}

// Options say how the predictors of a Design are penalised.
type Options struct {
	// Numeric is the numeric predictors' penalty: NumericCardinality (one
	// all-pairs block over them, with Nu), NumericLasso or NumericNone
	// (left out of the penalty, fitted exactly). Empty means
	// NumericCardinality.
	Numeric string
	// Nu is ν of the numeric predictors' cardinality block; 0 means 1.
	Nu float64
	// Weights is how the factors' level pairs are weighted.
	Weights PairWeights
	// Pilot holds one unpenalised coefficient per predictor (every column
	// of the design), which Adaptive weights need.
	Pilot []float64
}

// Penalty returns the penalty of d under o on the penalised predictors
// and the predictors left out of it (sorted): the penalty's rows are the
// penalised predictors in increasing column order, as estimator's
// Options.Unpenalized expects.
func (d *Design) Penalty(o Options) (*penalty.Blocks, []int, error) {
	if o.Weights == Adaptive && len(o.Pilot) != len(d.Names) {
		return nil, nil, fmt.Errorf("factor: adaptive weights need %d pilot coefficients, got %d", len(d.Names), len(o.Pilot))
	}
	num := d.Numeric()
	var free []int
	switch o.Numeric {
	case "", NumericCardinality, NumericLasso:
	case NumericNone:
		free = num
	default:
		return nil, nil, fmt.Errorf("factor: numeric penalty %q: use %s, %s or %s", o.Numeric, NumericCardinality, NumericLasso, NumericNone)
	}
	pos := penalisedPositions(len(d.Names), free)
	var blocks []penalty.Block
	for f := range d.Factors {
		b, err := d.block(f, o, pos)
		if err != nil {
			return nil, nil, err
		}
		blocks = append(blocks, b)
	}
	if len(num) > 0 && o.Numeric != NumericNone {
		b := penalty.Block{Type: penalty.CardinalityBlock, Rows: mapRows(num, pos), Nu: o.Nu}
		if o.Numeric == NumericLasso {
			b = penalty.Block{Type: penalty.LassoBlock, Rows: mapRows(num, pos)}
		}
		blocks = append(blocks, b)
	}
	pen, err := penalty.NewBlocks(len(d.Names)-len(free), blocks)
	return pen, free, err
}

// penalisedPositions maps each column to its row in the penalty (−1 for a
// column left out).
func penalisedPositions(p int, free []int) []int {
	pos := make([]int, p)
	k := 0
	for j := range pos {
		if slices.Contains(free, j) {
			pos[j] = -1
			continue
		}
		pos[j] = k
		k++
	}
	return pos
}

func mapRows(cols, pos []int) []int {
	out := make([]int, len(cols))
	for i, j := range cols {
		out[i] = pos[j]
	}
	return out
}

// MaxWeightedLevels is the most levels a nominal factor may have under
// count or adaptive pair weights: its exact prox then runs up to 2K − 1
// minimum cuts on the complete graph of its K levels (K(K−1)/2 edges),
// about 1 ms at 51 levels, 10 ms at 151 and 0.15 s at 583 per prox, and a
// fit takes thousands of proxes. Equal weights have an O(K log K) prox
// at any K; ordinal chains are cheap at any K.
const MaxWeightedLevels = 100

// block is factor f's penalty block: nominal (all pairs, the reference
// pinned) or ordinal (the chain along the level order, the reference
// pinned where it stands), weighted as o says.
func (d *Design) block(f int, o Options, pos []int) (penalty.Block, error) {
	fc := d.Factors[f]
	b := penalty.Block{Type: penalty.NominalBlock, Rows: mapRows(d.Cols[f], pos)}
	if fc.Ordinal {
		b.Type, b.Ref = penalty.OrdinalBlock, fc.Ref
	}
	if o.Weights != Equal && !fc.Ordinal && len(fc.Levels) > MaxWeightedLevels {
		return b, fmt.Errorf("factor %s has %d levels: %s pair weights are fitted for nominal factors of at most %d levels (their exact prox runs minimum cuts on the complete graph of the levels, too slow beyond); use equal pair weights for it, or merge rare levels first", fc.Name, len(fc.Levels), o.Weights, MaxWeightedLevels)
	}
	switch o.Weights {
	case Count:
		b.Weights = d.countWeights(f)
	case Adaptive:
		b.Weights = d.adaptiveWeights(f, o.Pilot)
	}
	return b, nil
}

// countWeights are factor f's level-count pair (or chain) weights.
func (d *Design) countWeights(f int) []float64 {
	fc := d.Factors[f]
	if fc.Ordinal {
		return penalty.CountChainWeights(fc.Counts)
	}
	return penalty.CountPairWeights(fc.Counts, fc.Ref)
}

// adaptiveWeights are factor f's adaptive weights from the pilot
// coefficients of its non-reference levels.
func (d *Design) adaptiveWeights(f int, pilot []float64) []float64 {
	beta := make([]float64, len(d.Cols[f]))
	for k, j := range d.Cols[f] {
		beta[k] = pilot[j]
	}
	if d.Factors[f].Ordinal {
		return penalty.AdaptiveChainWeights(beta, d.Factors[f].Ref)
	}
	return penalty.AdaptivePairWeights(beta)
}

// Effects returns factor f's effect per level (level order, the
// reference's 0) from coef, one coefficient per design column.
func (d *Design) Effects(f int, coef []float64) []float64 {
	fc := d.Factors[f]
	e := make([]float64, len(fc.Levels))
	for l := range fc.Levels {
		if k := fc.Dummy(int32(l)); k >= 0 {
			e[l] = coef[d.Cols[f][k]]
		}
	}
	return e
}
