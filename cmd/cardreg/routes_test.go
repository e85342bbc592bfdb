package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/testenv"
	"github.com/cardsparse/cardreg/internal/testfiles"

	"github.com/cardsparse/cardreg/sqlstats"
	"github.com/stretchr/testify/require"
)

// routeRow is one row of the data TestEveryRouteSameCV fits on every route.
type routeRow struct {
	X1  float64 `parquet:"x1"`
	X2  float64 `parquet:"x2"`
	X3  float64 `parquet:"x3"`
	X4  float64 `parquet:"x4"`
	X5  float64 `parquet:"x5"`
	Y   float64 `parquet:"y"`
	W   float64 `parquet:"w"`
	Fid int64   `parquet:"fid"`
}

// routeData writes n rows of a family's response as CSV and Parquet,
// with a weight column of ones and a fold column (1…5).
func routeData(t *testing.T, dir, family string, n int) (csvPath, pqPath string, rows []routeRow) {
	rng := rand.New(rand.NewPCG(11, uint64(len(family))))
	var b strings.Builder
	b.WriteString("x1,x2,x3,x4,x5,y,w,fid\n")
	for i := range n {
		r := routeRow{X1: rng.NormFloat64(), X2: rng.NormFloat64(), X3: rng.NormFloat64(), X4: rng.NormFloat64(), X5: rng.NormFloat64(), W: 1, Fid: int64(rng.IntN(5) + 1)}
		eta := 0.8*r.X1 + 0.8*r.X2 + 0.4*r.X3 + 0.4*r.X4 + 0.4*r.X5
		switch family {
		case "binomial":
			if rng.Float64() < 1/(1+math.Exp(-eta)) {
				r.Y = 1
			}
		case "poisson":
			r.Y = float64(rng.IntN(1 + int(3*math.Exp(eta/2))))
		default:
			r.Y = eta + rng.NormFloat64()
		}
		if i < 5 {
			r.Fid = int64(i + 1) // every fold non-empty
		}
		rows = append(rows, r)
		fmt.Fprintf(&b, "%v,%v,%v,%v,%v,%v,%v,%d\n", r.X1, r.X2, r.X3, r.X4, r.X5, r.Y, r.W, r.Fid)
	}
	csvPath = filepath.Join(dir, family+".csv")
	require.NoError(t, os.WriteFile(csvPath, []byte(b.String()), 0o644))
	return csvPath, testfiles.WriteParquet(t, dir, family+".parquet", rows), rows
}

// cvTable runs cardreg cv and returns its CSV records.
func cvTable(t *testing.T, args ...string) [][]string {
	res := cardreg(t, append([]string{"cv"}, args...)...)
	require.Equal(t, 0, res.code, "%v: %s", args, res.stderr)
	rec, err := csv.NewReader(strings.NewReader(res.stdout)).ReadAll()
	require.NoError(t, err)
	return rec
}

// sameCV checks that two cv tables have the same grid, curve and marks
// (λ_min, λ_1se).
func sameCV(t *testing.T, name string, want, got [][]string) {
	require.Equal(t, len(want), len(got), name)
	for i := range want {
		require.Equal(t, len(want[i]), len(got[i]), name)
		for j := range want[i] {
			a, errA := strconv.ParseFloat(want[i][j], 64)
			b, errB := strconv.ParseFloat(got[i][j], 64)
			if errA != nil || errB != nil {
				require.Equal(t, want[i][j], got[i][j], "%s: row %d column %s", name, i, want[0][j])
				continue
			}
			require.InDelta(t, a, b, 1e-6*max(math.Abs(a), 1e-12), "%s: row %d column %s", name, i, want[0][j])
		}
	}
}

// TestEveryRouteSameCV cross-validates the same rows on every route that
// carries them — in memory, through the sufficient statistics (unit
// weights), streamed, from Parquet in memory and streamed, and (with a
// cluster) from ClickHouse — and gets the same λ grid, the same curve and
// the same λ_min and λ_1se: one fold assignment (the seed deals rows
// alike on every file route; a fold column on every route, SQL included)
// and one grid. Binomial and Poisson likewise, streamed with a fold column too.
func TestEveryRouteSameCV(t *testing.T) {
	dir := t.TempDir()
	if d := os.Getenv("ROUTES_DIR"); d != "" {
		dir = d
	}
	for _, family := range []string{"gaussian", "binomial", "poisson"} {
		csvPath, pqPath, rows := routeData(t, dir, family, 400)
		pen := map[bool]string{true: "cardinality", false: "lasso"}[family == "gaussian"]
		for _, foldid := range []bool{false, true} {
			if !testenv.Slow() && foldid != (family == "binomial") {
				continue // one fold assignment per family; CARDREG_SLOW runs both
			}
			args := func(weights bool, more ...string) []string {
				a := []string{"--family", family, "--penalty", pen, "--nlambda", "12", "--target", "y", "--folds", "5", "--seed", "7"}
				drop := []string{"fid"}
				if foldid {
					a, drop = append(a[:len(a)-4], "--foldid", "fid"), nil
				}
				if weights {
					a = append(a, "--weights", "w")
				} else {
					drop = append(drop, "w")
				}
				if drop != nil {
					a = append(a, "--drop", strings.Join(drop, ","))
				}
				return append(a, more...)
			}
			name := fmt.Sprintf("%s (fold column %v)", family, foldid)
			ref := cvTable(t, args(false, csvPath)...)
			routes := map[string][]string{
				"stream":         args(false, "--stream", csvPath),
				"parquet":        args(false, pqPath),
				"parquet stream": args(false, "--stream", pqPath),
				"weights":        args(true, csvPath),
			}
			for route, r := range routes {
				sameCV(t, name+" "+route, ref, cvTable(t, r...))
			}
			if url := os.Getenv("CARDREG_CLICKHOUSE_URL"); url != "" && family == "gaussian" {
				loadRoutes(t, url, rows)
				db := cvTable(t, args(false, "--db", url, "--table", "routes")...)
				if foldid {
					sameCV(t, name+" clickhouse", ref, db)
				} else {
					// SQL rows have no stable order: a seed deals them by a
					// hash of their values (sqlstats), not by
					// estimator.Folds, so the curve differs; the grid,
					// from all rows, does not.
					require.NotEqual(t, column(ref, "mean_error"), column(db, "mean_error"))
					require.Equal(t, column(ref, "lambda"), column(db, "lambda"))
				}
			}
		}
	}
}

// column returns a cv table's column, rounded to 6 significant digits.
func column(rec [][]string, name string) []string {
	j := slices.Index(rec[0], name)
	var out []string
	for _, r := range rec[1:] {
		v, _ := strconv.ParseFloat(r[j], 64)
		out = append(out, strconv.FormatFloat(v, 'g', 6, 64))
	}
	return out
}

// loadRoutes writes rows into a ClickHouse table "routes" on the first
// shard of the test cluster (one shard: the folds come from a column).
func loadRoutes(t *testing.T, url string, rows []routeRow) {
	ctx := context.Background()
	sh := sqlstats.HTTP{URL: url}
	require.NoError(t, sh.Exec(ctx, "DROP TABLE IF EXISTS routes"))
	require.NoError(t, sh.Exec(ctx, "CREATE TABLE routes (x1 Float64, x2 Float64, x3 Float64, x4 Float64, x5 Float64, y Float64, w Float64, fid Int64) ENGINE = MergeTree() ORDER BY tuple()"))
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%v\t%v\t%v\t%v\t%v\t%v\t%v\t%d\n", r.X1, r.X2, r.X3, r.X4, r.X5, r.Y, r.W, r.Fid)
	}
	require.NoError(t, sh.Exec(ctx, "INSERT INTO routes FORMAT TabSeparated\n"+b.String()))
}

// TestStreamedStandardize: a binomial fit and cross-validation with
// --standardize streamed equal the in-memory ones (the streamed engine
// computes the column scales in passes).
func TestStreamedStandardize(t *testing.T) {
	csvPath, _, _ := routeData(t, t.TempDir(), "binomial", 300)
	args := []string{"--family", "binomial", "--penalty", "lasso", "--standardize", "--target", "y", "--drop", "fid,w"}
	coef := func(extra ...string) []float64 {
		res := cardreg(t, append(append(append([]string{"fit", "--format", "json", "--lambda", "20", "--tol", "1e-10"}, extra...), args...), csvPath)...)
		require.Equal(t, 0, res.code, res.stderr)
		var f struct{ Coefficients []float64 }
		require.NoError(t, json.Unmarshal([]byte(res.stdout), &f))
		return f.Coefficients
	}
	mem := coef()
	require.Len(t, mem, 5)
	require.InDeltaSlice(t, mem, coef("--stream"), 1e-6)
	cvArgs := append([]string{"--nlambda", "8", "--folds", "4"}, args...)
	sameCV(t, "streamed --standardize", cvTable(t, append(cvArgs, csvPath)...), cvTable(t, append(cvArgs, "--stream", csvPath)...))
}
