package glm

import (
	"fmt"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/penalty"
)

// TestTweedieMatchesGlmnet: the Tweedie lasso (log link) at p = 1.2, 1.5,
// 1.8, with weights and offsets, equals R's glmnet with
// family = statmod::tweedie(var.power = p, link.power = 0) (matchesGlmnet:
// the λ mapping and the tolerances). Skipped without R's glmnet or statmod.
func TestTweedieMatchesGlmnet(t *testing.T) {
	skipUnlessRPackage(t, "statmod")
	for k, p := range []float64{1.2, 1.5, 1.8} {
		for _, wo := range []bool{false, true} {
			t.Run(fmt.Sprintf("p=%v weights+offset=%v", p, wo), func(t *testing.T) {
				fam := datafit.Tweedie{P: p}
				matchesGlmnet(t, fam, paramTable(fam, 400, 12, uint64(40+k), wo, wo))
			})
		}
	}
}

// TestTweedieCertified: cardinality (ν = 1) and factor fits of the Tweedie
// family with weights and offsets are certified by their duality gaps.
func TestTweedieCertified(t *testing.T) {
	for k, p := range []float64{1.2, 1.5, 1.8} {
		fam := datafit.Tweedie{P: p}
		tb := paramTable(fam, 300, 9, uint64(50+k), true, true)
		certified(t, fam, tb, penalty.Cardinality{Nu: 1})
		certified(t, fam, tb, factorPenalty(t, 9))
	}
}

// TestTweediePath: the generated Tweedie (p = 1.5) lasso path is glmnet's
// with statmod's tweedie (pathMatchesGlmnet).
func TestTweediePath(t *testing.T) {
	skipUnlessRPackage(t, "statmod")
	fam := datafit.Tweedie{P: 1.5}
	pathMatchesGlmnet(t, fam, own(fam, 300, 10, 3))
}
