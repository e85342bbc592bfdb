package reference

import (
	"fmt"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

func TestZZDebug(t *testing.T) {
	rng := newRand(6)
	type shape struct{ m, n int }
	for si, sh := range []shape{{3, 5}, {7, 4}, {12, 6}, {20, 8}, {1, 3}} {
		K := randDense(rng, sh.m, sh.n)
		if sh.m >= 7 {
			K.SetRow(0, make([]float64, sh.n))
			K.SetRow(1, mat.Row(nil, 2, K))
			r3 := mat.Row(nil, 2, K)
			r3[0] += 1e-4
			K.SetRow(3, r3)
			r4 := mat.Row(nil, 4, K)
			for j := range r4 {
				r4[j] *= 100
			}
			K.SetRow(4, r4)
			r5 := mat.Row(nil, 5, K)
			for j := range r5 {
				r5[j] *= 1e-3
			}
			K.SetRow(5, r5)
		}
		for _, tau := range []float64{0.01, 0.3, 2} {
			v := randVec(rng, sh.n, 2)
			st := time.Now()
			_, _, _, err := ProxExplicitWithDual(K, v, tau)
			fmt.Println(si, tau, "orig", time.Since(st), err)
			for trial := 0; trial < 200; trial++ {
				for range v {
					rng.NormFloat64()
				}
			}
			perm := rng.Perm(sh.m)
			Kp := mat.NewDense(sh.m, sh.n, nil)
			for i, pi := range perm {
				Kp.SetRow(i, mat.Row(nil, pi, K))
			}
			st = time.Now()
			_, _, gap, err := ProxExplicitWithDual(Kp, v, tau)
			el := time.Since(st)
			fmt.Println(si, tau, "perm", el, gap, err)
			st = time.Now()
			_, _, gap2, err2 := proxExplicit(Kp, v, tau, ProxMaxSweeps, false)
			fmt.Println("   CD only", time.Since(st), gap2, err2)
		}
	}
}
