package glm

import (
	"fmt"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/penalty"
)

// TestNegBinMatchesGlmnet: the negative binomial lasso at θ = 2 (and 0.5),
// with weights and offsets, equals R's glmnet with
// family = MASS::negative.binomial(θ) (matchesGlmnet: the λ mapping and the
// tolerances). Skipped without R's glmnet or MASS.
func TestNegBinMatchesGlmnet(t *testing.T) {
	skipUnlessRPackage(t, "MASS")
	for k, theta := range []float64{2, 0.5} {
		for _, wo := range []bool{false, true} {
			t.Run(fmt.Sprintf("θ=%v weights+offset=%v", theta, wo), func(t *testing.T) {
				fam := datafit.NegBin{Theta: theta}
				matchesGlmnet(t, fam, paramTable(fam, 400, 12, uint64(60+k), wo, wo))
			})
		}
	}
}

// TestNegBinCertified: cardinality (ν = 1) and factor fits of the negative
// binomial family with weights and offsets are certified by their duality
// gaps.
func TestNegBinCertified(t *testing.T) {
	fam := datafit.NegBin{Theta: 2}
	tb := paramTable(fam, 300, 9, 70, true, true)
	certified(t, fam, tb, penalty.Cardinality{Nu: 1})
	certified(t, fam, tb, factorPenalty(t, 9))
}

// TestNegBinPath: the generated negbin (θ = 2) lasso path is glmnet's with
// MASS's negative.binomial (pathMatchesGlmnet).
func TestNegBinPath(t *testing.T) {
	skipUnlessRPackage(t, "MASS")
	fam := datafit.NegBin{Theta: 2}
	pathMatchesGlmnet(t, fam, own(fam, 300, 10, 3))
}
