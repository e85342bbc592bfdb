package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/rtest"
	"github.com/stretchr/testify/require"
)

// TestCVMatchesGlmnet runs the same lasso cross-validation in cardreg and
// in R's cv.glmnet (same rows, folds and λ grid): the curves, λ_min and
// λ_1se agree. Each fold is fitted at λ·(n_train/n), as glmnet's fold at
// the same λ_glmnet; fitted at the full λ, cardreg's λ_min was about
// 0.8 of cv.glmnet's. Skipped when R or glmnet is missing (CI installs
// r-cran-glmnet).
func TestCVMatchesGlmnet(t *testing.T) {
	rtest.SkipUnlessAvailable(t)
	dir := t.TempDir()
	data, _ := exampleWith(t, dir) // columns w, fold (1…4), x1…x12, y
	res := cardreg(t, "cv", "--penalty", "lasso", "--foldid", "fold", "--drop", "w", "--nlambda", "30", "--tol", "1e-12", data)
	require.Equal(t, 0, res.code, res.stderr)
	rows := parseCSV(t, res.stdout)[1:]
	var grid []string
	for _, r := range rows {
		grid = append(grid, r[1])
	}
	out, err := rtest.Output("../../bench/cvglmnet.R", data, "fold", "w", strings.Join(grid, ","))
	require.NoError(t, err, "%s", out)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Len(t, lines, len(rows)+2)
	parse := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err)
		return v
	}
	var lmin, l1se float64
	for i, r := range rows {
		f := strings.Fields(lines[i])
		require.InEpsilon(t, parse(r[1]), parse(f[0]), 1e-12, "λ %d", i)
		require.InEpsilon(t, parse(f[1]), parse(r[2]), 1e-6, "cvm at λ %d", i)
		require.InEpsilon(t, parse(f[2]), parse(r[3]), 1e-4, "cvsd at λ %d", i)
		if strings.Contains(r[5], "lambda_min") {
			lmin = parse(r[1])
		}
		if strings.Contains(r[5], "lambda_1se") {
			l1se = parse(r[1])
		}
	}
	require.InEpsilon(t, parse(strings.Fields(lines[len(rows)])[1]), lmin, 1e-9, "λ_min")
	require.InEpsilon(t, parse(strings.Fields(lines[len(rows)+1])[1]), l1se, 1e-9, "λ_1se")
}
