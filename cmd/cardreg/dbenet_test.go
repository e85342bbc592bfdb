package main

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/sqlstats"
	"github.com/stretchr/testify/require"
)

// TestClickHouseElasticNet: the elastic net (ridge α = 0, α = 0.5) from a
// Distributed table over two shards, fitted in rounds of scans and
// certified by its conjugate's gap, gives the in-memory results of the same
// rows: binomial (standardised), Poisson (with an offset) and gaussian (from
// sums of squares, Gram coordinate descent) cv on the same
// folds (λ, curve to 1e-4, λ_min and λ_1se), the path (its length, λ, and
// objectives to 1e-6), and a fit at one λ (converged, its gap at the
// tolerance, the objective to 1e-6). Before, a fit in rounds refused every
// penalty that is not a norm.
func TestClickHouseElasticNet(t *testing.T) {
	u := os.Getenv("CARDREG_CLICKHOUSE_URL")
	if u == "" {
		t.Skip("no ClickHouse cluster: run scripts/clickhouse/ci.sh, or start.sh and set CARDREG_CLICKHOUSE_URL")
	}
	shards := []sqlstats.HTTP{{URL: u}, {URL: strings.Replace(u, os.Getenv("CARDREG_CLICKHOUSE_PORT1"), os.Getenv("CARDREG_CLICKHOUSE_PORT2"), 1)}}
	for _, c := range []struct {
		example, table string
		args           []string
		drop           string // besides the fold column
	}{
		{"credit.csv", "enet_credit", []string{"--family", "binomial", "--target", "default", "--standardize"}, ""},
		{"claims.csv", "enet_claims", []string{"--family", "poisson", "--target", "claims", "--offset", "log_exposure"}, "exposure"},
		// The gaussian family from the database's sums of squares.
		{"cardinality.csv", "enet_gauss", []string{"--family", "gaussian", "--target", "y"}, ""},
	} {
		path := loadExample(t, shards, c.example, c.table, 5)
		drop := strings.TrimSuffix("fold,"+c.drop, ",")
		for _, alpha := range []string{"0", "0.5"} {
			args := append([]string{"--penalty", "elasticnet", "--alpha", alpha, "--nlambda", "30"}, c.args...)
			db := []string{"--db", u, "--table", c.table}
			name := c.table + " α " + alpha

			cv := append([]string{"cv", "--foldid", "fold"}, args...)
			if c.drop != "" {
				cv = append(cv, "--drop", c.drop)
			}
			got, want := cardreg(t, append(cv, db...)...), cardreg(t, append(cv, path)...)
			require.Zero(t, got.code, "%s: %s", name, got.stderr)
			require.Zero(t, want.code, want.stderr)
			gc, wc := cvCurve(t, got.stdout), cvCurve(t, want.stdout)
			require.Len(t, gc, len(wc), name)
			for l := range wc {
				require.Equal(t, wc[l][0], gc[l][0], "%s λ %d", name, l)
				gv, _ := strconv.ParseFloat(gc[l][1], 64)
				wv, _ := strconv.ParseFloat(wc[l][1], 64)
				require.InEpsilon(t, wv, gv, 1e-4, "%s λ %d", name, l)
				require.Equal(t, wc[l][2], gc[l][2], "%s λ %d", name, l)
			}

			pth := append([]string{"path", "--drop", drop}, args...)
			got, want = cardreg(t, append(pth, db...)...), cardreg(t, append(pth, path)...)
			require.Zero(t, got.code, "%s: %s", name, got.stderr)
			require.Zero(t, want.code, want.stderr)
			gp, wp := parseCSV(t, got.stdout), parseCSV(t, want.stdout)
			require.Len(t, gp, len(wp), name)
			for l := 1; l < len(wp); l++ {
				require.Equal(t, wp[l][0], gp[l][0], "%s λ %d", name, l)
				gv, _ := strconv.ParseFloat(gp[l][1], 64)
				wv, _ := strconv.ParseFloat(wp[l][1], 64)
				require.InEpsilon(t, wv, gv, 1e-6, "%s λ %d objective", name, l)
				require.Equal(t, "true", gp[l][3], "%s λ %d converged", name, l)
			}

			fit := []string{"fit", "--drop", drop, "--format", "json", "--lambda", "10", "--penalty", "elasticnet", "--alpha", alpha}
			fit = append(fit, c.args...)
			got, want = cardreg(t, append(fit, db...)...), cardreg(t, append(fit, path)...)
			require.Zero(t, got.code, "%s: %s", name, got.stderr)
			require.Zero(t, want.code, want.stderr)
			var gf, wf fitJSON
			require.NoError(t, json.Unmarshal([]byte(got.stdout), &gf))
			require.NoError(t, json.Unmarshal([]byte(want.stdout), &wf))
			require.True(t, gf.Converged, name)
			require.NotNil(t, gf.DualityGap, name)
			require.LessOrEqual(t, *gf.DualityGap, 1e-7, name)
			require.InEpsilon(t, wf.Objective, gf.Objective, 1e-6, name)
		}
	}
}
