package solver

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// Cluster coordinate descent reaches FISTA's optimum on wide and tall
// designs, one or two responses, cardinality and grouped penalties, cold
// and warm started.
func TestClusterCDMatchesFISTA(t *testing.T) {
	for _, dims := range [][3]int{{30, 80, 1}, {40, 15, 2}, {20, 200, 1}} {
		x, y := regression(31, dims[0], dims[1], dims[2])
		loss := NewLeastSquares(DenseDesign{x}, y)
		labels := cyclic(dims[1], 3)
		grouped := penalty.NewGrouped(labels, 0.5)
		unweighted := penalty.NewGrouped(labels, 2)
		unweighted.Unweighted = true
		for _, pen := range []penalty.Penalty{penalty.Cardinality{}, penalty.Cardinality{Nu: 0.2}, grouped, unweighted} {
			lmax, _ := LambdaMax(loss, pen)
			var warm *mat.Dense
			for _, frac := range []float64{0.5, 0.05, 0.005, 0.0005} {
				prob := Problem{loss, pen, frac * lmax}
				want, err := Minimize(prob, nil, &Settings{Tol: 1e-11, MaxIter: 200000}, &FISTA{})
				require.NoError(t, err)
				require.True(t, want.Converged)
				inits := []mat.Matrix{nil}
				if warm != nil {
					inits = append(inits, warm)
				}
				for _, init := range inits {
					got, err := Minimize(prob, init, &Settings{Tol: 1e-11}, ClusterCD{})
					require.NoError(t, err)
					require.True(t, got.Converged, "%v %T %v: %v", dims, pen, frac, got.Status)
					obj := prob.Objective(got.Theta)
					require.InDelta(t, obj, got.Objective, 1e-10*obj)
					require.InDelta(t, want.Objective, obj, 1e-9*obj, "%v %T %v", dims, pen, frac)
					require.LessOrEqual(t, Certificate(prob, got.Theta), 1e-6)
				}
				warm = want.Theta
			}
		}
	}
}

// Each cluster update is the exact minimiser of the objective along the
// cluster's indicator, checked against a brute-force search over a fine
// grid and every kink, and leaves the state consistent: values strictly
// decreasing, positions, row counts above, block sums and residuals as
// recomputed from scratch.
func TestClusterUpdateIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	x, y := regression(32, 12, 30, 1)
	loss := NewLeastSquares(DenseDesign{x}, y)
	labels := cyclic(30, 2)
	for _, pen := range []penalty.Penalty{penalty.Cardinality{Nu: 0.7}, penalty.NewGrouped(labels, 1.3)} {
		fz := pen.(penalty.Fused)
		blocks, weights, nu := fz.FusedBlocks(30, 1)
		lambda := 3.0
		prob := Problem{loss, pen, lambda}
		for trial := 0; trial < 16; trial++ {
			theta := mat.NewDense(30, 1, nil)
			vals := []float64{-1, -0.5, 0, 0.5, 1.5}
			for i := 0; i < 30; i++ {
				theta.Set(i, 0, vals[rng.IntN(len(vals))])
			}
			if trial%4 == 0 { // one block at the kink of ν|Σ v|
				for _, r := range blocks[0] {
					theta.Set(r, 0, theta.At(r, 0)-sumRows(theta, blocks[0])/float64(len(blocks[0])))
				}
			}
			xt, _ := columnsOf(loss.x)
			st := newClusterState(xt, loss.y, blocks, weights, nu, lambda)
			st.rebuild(theta)
			col := st.cols[0]
			for b := range col.blocks {
				blk := &col.blocks[b]
				for _, cl := range append([]*cluster(nil), blk.list...) {
					if cl.merged {
						continue
					}
					best := bruteAlong(prob, theta, cl.rows, blk)
					st.update(col, blk, cl)
					st.write(theta)
					got := prob.Objective(theta)
					require.LessOrEqual(t, got, best+1e-10*math.Abs(best), "trial %d", trial)
					checkClusterState(t, st, theta, x, y)
				}
			}
			// A few rows change cluster: the rebuild updates X1_C
			// incrementally, and the state must be as if built afresh.
			for k := 0; k < 3; k++ {
				theta.Set(rng.IntN(30), 0, theta.At(rng.IntN(30), 0))
			}
			st.rebuild(theta)
			checkClusterState(t, st, theta, x, y)
		}
	}
}

// bruteAlong returns the least objective over theta with rows moved to a
// common value, searched over every other cluster's value, the block's
// kink and a fine grid.
func bruteAlong(prob Problem, theta *mat.Dense, rows []int, blk *clusterBlock) float64 {
	trial := mat.DenseCopyOf(theta)
	at := func(z float64) float64 {
		for _, r := range rows {
			trial.Set(r, 0, z)
		}
		return prob.Objective(trial)
	}
	best := at(theta.At(rows[0], 0))
	var cands []float64
	for _, o := range blk.list {
		cands = append(cands, o.c)
	}
	cands = append(cands, -(blk.sum-theta.At(rows[0], 0)*float64(len(rows)))/float64(len(rows)))
	for k := -600; k <= 600; k++ {
		cands = append(cands, float64(k)/200)
	}
	for _, z := range cands {
		best = math.Min(best, at(z))
	}
	return best
}

func sumRows(theta *mat.Dense, rows []int) float64 {
	var s float64
	for _, r := range rows {
		s += theta.At(r, 0)
	}
	return s
}

func checkClusterState(t *testing.T, st *clusterState, theta, x, y *mat.Dense) {
	t.Helper()
	col := st.cols[0]
	for b, rows := range st.blocks {
		blk := &col.blocks[b]
		var above, n int
		for k, cl := range blk.list {
			require.Equal(t, k, cl.pos)
			require.False(t, cl.merged)
			require.InDelta(t, float64(above), cl.above, 0)
			if k > 0 {
				require.Greater(t, blk.list[k-1].c, cl.c)
			}
			above += len(cl.rows)
			n += len(cl.rows)
			xs := make([]float64, x.RawMatrix().Rows)
			for _, r := range cl.rows {
				for i := range xs {
					xs[i] += x.At(i, r)
				}
			}
			require.InDeltaSlice(t, xs, cl.xs, 1e-12)
		}
		require.Equal(t, len(rows), n)
		require.InDelta(t, sumRows(theta, rows), blk.sum, 1e-12)
	}
	var r mat.Dense
	r.Mul(x, theta)
	r.Sub(y, &r)
	require.InDeltaSlice(t, mat.Col(nil, 0, &r), col.r, 1e-12)
}

// Bad problems are errors, not panics.
func TestClusterCDRefuses(t *testing.T) {
	x, y := regression(33, 10, 5, 1)
	loss := NewLeastSquares(DenseDesign{x}, y)
	for _, p := range []Problem{
		{loss, penalty.L1{}, 1},
		{loss, penalty.Cardinality{}, 0},
	} {
		_, err := Minimize(p, nil, nil, ClusterCD{})
		require.Error(t, err)
	}
}

// cyclic returns n group labels 0, 1, …, k−1, 0, 1, … (k groups of
// interleaved rows).
func cyclic(n, k int) []int {
	labels := make([]int, n)
	for i := range labels {
		labels[i] = i % k
	}
	return labels
}
