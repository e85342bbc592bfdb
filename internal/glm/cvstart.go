package glm

import (
	"github.com/cardsparse/cardreg/internal/fit"
	"gonum.org/v1/gonum/mat"
)

// fullStarts holds the full data's penalised solutions along the grid, on
// the data's scale (θ/sd), from which the folds' fits start
// (cross-validation warm from the path).
type fullStarts struct {
	grid []float64
	beta [][]float64 // beta[i][a]: penalised coefficient a at grid[i]
}

// newFullStarts returns the starts of the full data's path fitted by full.
func newFullStarts(full *problem, path *fit.Path) *fullStarts {
	pen := full.loss.Penalized()
	fs := &fullStarts{grid: path.Lambdas, beta: make([][]float64, len(path.Models))}
	for i, m := range path.Models {
		theta := fit.EngineOf(m).Solution.RawMatrix().Data
		b := make([]float64, len(pen))
		for a, j := range pen {
			b[a] = theta[a]
			if full.sd != nil {
				b[a] /= full.sd[j]
			}
		}
		fs.beta[i] = b
	}
	return fs
}

// on returns the full data's solution at grid[i] on the scale of fold
// problem pb (its own column scales), over its penalised predictors.
func (fs *fullStarts) on(pb *problem, i int) []float64 {
	pen := pb.loss.Penalized()
	out := make([]float64, len(pen))
	for a, j := range pen {
		out[a] = fs.beta[i][a]
		if pb.sd != nil {
			out[a] *= pb.sd[j]
		}
	}
	return out
}

// starts returns pathFrom's start for fold problem pb (nil, the previous
// solution, when fs is nil): the fold's previous solution moved as the
// full data's path moves between the same λ,
//
//	θ_i = θ_{i−1} + (F_i − F_{i−1}) + r·((θ_{i−1} − θ_{i−2}) − (F_{i−1} − F_{i−2})),
//
// F the full data's solutions on the fold's scale, r = (λ_{i−1} −
// λ_i)/(λ_{i−2} − λ_{i−1}). The fold's path runs beside the full data's
// at an offset (the held-out rows' share), which θ_{i−1} − F_{i−1}
// carries; the last term corrects the step by the fold's last departure
// from the full data's step (its curvature differs a little). At the first
// λ the start is F_0; without θ_{i−2} (a zero fit before) the last term is
// left out. The fold's previous solution alone is a whole step from the
// next, the full data's solution alone the constant offset away; the
// extrapolation is typically within the tolerance of the objective but
// where predictors enter or leave the fold's support. Only the start
// changes: every fit is still certified.
func (fs *fullStarts) starts(pb *problem) func(i int, lambda float64, prev *mat.Dense) *mat.Dense {
	if fs == nil {
		return nil
	}
	sol := make([][]float64, len(fs.beta)) // the fold's solutions handed back as prev
	return func(i int, _ float64, prev *mat.Dense) *mat.Dense {
		f := fs.on(pb, i)
		out := mat.NewDense(len(f), 1, f)
		if prev == nil || i == 0 {
			return out
		}
		p1 := prev.RawMatrix().Data
		sol[i-1] = p1
		f1 := fs.on(pb, i-1)
		var p2, f2 []float64
		r := 0.0
		if i >= 2 && sol[i-2] != nil {
			p2, f2 = sol[i-2], fs.on(pb, i-2)
			r = (fs.grid[i-1] - fs.grid[i]) / (fs.grid[i-2] - fs.grid[i-1])
		}
		for a := range f {
			v := p1[a] + f[a] - f1[a]
			if p2 != nil {
				v += r * ((p1[a] - p2[a]) - (f1[a] - f2[a]))
			}
			f[a] = v
		}
		return out
	}
}
