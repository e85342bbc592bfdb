package lsfit

import (
	"math"

	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// ridge solves min ‖Y − XB‖² + λ‖B‖²_F in closed form: (XᵀX + λI)B = XᵀY
// from the Gram matrix when n ≥ p, else B = Xᵀ(XXᵀ + λI)⁻¹Y for a dense
// design. It reports false when neither applies (the caller then runs the
// solver) or the system is singular (λ = 0 with a rank-deficient X).
func (pr *prepared) ridge(lambda float64) (*fit.Model, bool) {
	p, q := pr.loss.Dims()
	theta := mat.NewDense(p, q, nil)
	if h := pr.loss.Gram(); h != nil {
		a := mat.NewSymDense(p, nil)
		a.CopySym(h)
		for i := 0; i < p; i++ {
			a.SetSym(i, i, a.At(i, i)+lambda)
		}
		var ch mat.Cholesky
		if !ch.Factorize(a) || ch.SolveTo(theta, pr.loss.Cross()) != nil {
			return nil, false
		}
	} else if dd, ok := pr.design.(solver.DenseDesign); ok {
		n, _ := dd.X.Dims()
		k := mat.NewSymDense(n, nil)
		k.SymOuterK(1, dd.X)
		for i := 0; i < n; i++ {
			k.SetSym(i, i, k.At(i, i)+lambda)
		}
		var ch mat.Cholesky
		var alpha mat.Dense
		yc := pr.centredY()
		if !ch.Factorize(k) || ch.SolveTo(&alpha, yc) != nil {
			return nil, false
		}
		theta.Mul(dd.X.T(), &alpha)
	} else {
		return nil, false
	}
	m := pr.model(penalty.Ridge{}, lambda, theta)
	if lambda == 0 {
		m.Objective = pr.loss.Eval(nil, theta) // least squares: no penalty term
	}
	m.Objective, m.Gap = pr.ridgeCertificate(theta, lambda)
	m.Converged, m.Status = true, solver.GapConverged
	return m, true
}

func (pr *prepared) centredY() *mat.Dense {
	yc := mat.DenseCopyOf(pr.y)
	n, q := yc.Dims()
	for j := 0; j < q; j++ {
		for i := 0; i < n; i++ {
			yc.Set(i, j, yc.At(i, j)-pr.ymean[j])
		}
	}
	return yc
}

// ridgeCertificate returns the objective and relative duality gap of ridge:
// with R = Y − XB and θ = 2R, D(θ) = ⟨θ, Y⟩ − ‖θ‖²/4 − ‖Xᵀθ‖²/(4λ), since
// the conjugate of λ‖·‖² is ‖·‖²/(4λ).
func (pr *prepared) ridgeCertificate(theta *mat.Dense, lambda float64) (obj, gap float64) {
	if pr.x == nil {
		return pr.statsRidgeCertificate(theta, lambda)
	}
	yc := pr.centredY()
	var r, xtr mat.Dense
	pr.design.Mul(&r, theta)
	r.Sub(yc, &r)
	pr.design.MulTrans(&xtr, &r)
	rr := sq(&r)
	obj = rr + lambda*sq(theta)
	dual := 2*mat.Sum(elem(&r, yc)) - rr
	if lambda > 0 {
		dual -= sq(&xtr) / lambda
	}
	if obj == 0 {
		return 0, 0
	}
	return obj, solver.RelativeGap(math.Max(obj-dual, 0), obj)
}

func sq(m mat.Matrix) float64 { n := mat.Norm(m, 2); return n * n }

func elem(a, b *mat.Dense) *mat.Dense {
	var e mat.Dense
	e.MulElem(a, b)
	return &e
}
