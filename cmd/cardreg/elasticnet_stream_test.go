package main

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/testenv"
	"github.com/stretchr/testify/require"
)

// claimsArgs are the Poisson example's file with an exposure offset.
var claimsArgs = []string{"--offset", "log_exposure", "--drop", "exposure", "../../examples/claims.csv"}

// TestElasticNetStreamCertified: a streamed elastic-net fit (ridge α = 0,
// 0.5; gaussian, Poisson, Tweedie 1.5, negative binomial 2) converges with
// a duality gap at the tolerance and equals the fit in memory; a streamed
// path and cross-validation (Poisson in rounds, gaussian from statistics)
// print the grid, curve and λ marks of the fit in memory, every model
// converged, without a warning but glmnet's stopping rule. Before, the
// streamed fits stalled with no gap and the Poisson cv failed.
func TestElasticNetStreamCertified(t *testing.T) {
	// internal/glm's stream tests cover every family and α; here the
	// command line's routes, the rest under CARDREG_SLOW.
	fams, alphas := []string{"gaussian", "tweedie:1.5"}, []string{"0.5"}
	if testenv.Slow() {
		fams, alphas = []string{"gaussian", "poisson", "tweedie:1.5", "negbin:2"}, []string{"0", "0.5"}
	}
	for _, fam := range fams {
		for _, alpha := range []string{"0", "0.5"} {
			args := append([]string{"--family", fam, "--penalty", "elasticnet", "--alpha", alpha, "--lambda", "20", "--format", "json"}, claimsArgs...)
			var fits [2]fitJSON
			for k, route := range [][]string{{"fit"}, {"fit", "--stream"}} {
				res := cardreg(t, append(route, args...)...)
				require.Equal(t, 0, res.code, "%s α %s %v: %s", fam, alpha, route, res.stderr)
				require.NotContains(t, res.stderr, "warning", "%s α %s %v", fam, alpha, route)
				require.NoError(t, json.Unmarshal([]byte(res.stdout), &fits[k]))
				require.True(t, fits[k].Converged, "%s α %s %v", fam, alpha, route)
				require.NotNil(t, fits[k].DualityGap, "%s α %s %v: a certificate", fam, alpha, route)
				require.LessOrEqual(t, *fits[k].DualityGap, 1e-7)
			}
			require.InEpsilon(t, fits[0].Objective, fits[1].Objective, 1e-9, "%s α %s", fam, alpha)
			require.InDeltaSlice(t, fits[0].Coefficients, fits[1].Coefficients, 1e-5, "%s α %s", fam, alpha)
		}
	}
	for _, fam := range []string{"gaussian", "poisson"} {
		for _, alpha := range alphas {
			for _, cmd := range []string{"path", "cv"} {
				args := append([]string{"--family", fam, "--penalty", "elasticnet", "--alpha", alpha}, claimsArgs...)
				mem := cardreg(t, append([]string{cmd}, args...)...)
				str := cardreg(t, append([]string{cmd, "--stream"}, args...)...)
				require.Equal(t, 0, mem.code, mem.stderr)
				require.Equal(t, 0, str.code, "%s %s α %s: %s", cmd, fam, alpha, str.stderr)
				for _, line := range strings.Split(strings.TrimSpace(str.stderr), "\n") {
					require.Regexp(t, "streamed|glmnet's rule", line, "%s %s α %s", cmd, fam, alpha)
				}
				a, b := parseCSV(t, mem.stdout), parseCSV(t, str.stdout)
				require.Equal(t, len(a), len(b), "%s %s α %s", cmd, fam, alpha)
				for i := 1; i < len(a); i++ {
					for j := range a[i] {
						x, errA := strconv.ParseFloat(a[i][j], 64)
						y, errB := strconv.ParseFloat(b[i][j], 64)
						if errA != nil || errB != nil {
							require.Equal(t, a[i][j], b[i][j], "%s %s α %s row %d column %s", cmd, fam, alpha, i, a[0][j])
							continue
						}
						require.InDelta(t, x, y, 1e-6*(1+math.Abs(x)), "%s %s α %s row %d column %s", cmd, fam, alpha, i, a[0][j])
					}
				}
			}
		}
	}
}
