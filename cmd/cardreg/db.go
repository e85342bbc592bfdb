package main

import (
	"context"
	"fmt"
	"net/url"
	"strconv"

	"github.com/cardsparse/cardreg/sqlstats"
)

// dataFile is the data file of the command line, or "" with --db.
func (f *fitFlags) dataFile(name string) string {
	if f.db != "" {
		return ""
	}
	return name
}

// loadDB computes the per-fold statistics inside ClickHouse (--db) and
// returns the problem built on them, as loadStreamed does for a file: the
// same column selection (--target, --drop, --predictors); folds from a
// hash of each row's values and --seed, stable whatever order the
// cluster reads the rows in.
func loadDB(name string, f *fitFlags) (*problem, error) {
	ctx := context.Background()
	q := sqlstats.HTTP{URL: f.db}
	src := sqlstats.Source{Table: f.table, Query: f.query, Folds: 1, Seed: f.seed}
	if f.lambda == "cv" {
		src.Folds = f.folds
	}
	header, err := q.Columns(ctx, sqlstats.ClickHouse, src)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	keep, err := f.columns(header)
	if err != nil {
		return nil, usagef("%s: %v", name, err)
	}
	pr := &problem{}
	order, wcol, fcol := pr.variables(header, keep, f)
	var kept []string
	for j, k := range keep {
		if k {
			kept = append(kept, header[j])
		}
	}
	for _, c := range order {
		src.Columns = append(src.Columns, kept[c])
	}
	if wcol >= 0 {
		src.Weight = kept[wcol]
	}
	if fcol >= 0 {
		src.FoldColumn = kept[fcol]
		if src.Folds, err = dbFolds(ctx, q, kept[fcol], src); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	if pr.stats, err = sqlstats.Compute(ctx, q, sqlstats.ClickHouse, src); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return pr, pr.finishStreamed(name, f)
}

// dbFolds returns K, the largest value of the fold column.
func dbFolds(ctx context.Context, q sqlstats.HTTP, col string, src sqlstats.Source) (int, error) {
	from := sqlstats.ClickHouse.Quote(src.Table)
	if src.Query != "" {
		from = "(" + src.Query + ")"
	}
	rows, err := q.Query(ctx, "SELECT max("+sqlstats.ClickHouse.Quote(col)+") FROM "+from)
	if err != nil {
		return 0, err
	}
	if len(rows) != 1 || len(rows[0]) != 1 {
		return 0, fmt.Errorf("--foldid %s: no folds", col)
	}
	v, err := strconv.ParseFloat(rows[0][0], 64)
	if err != nil {
		return 0, fmt.Errorf("--foldid %s: %v", col, err)
	}
	k, err := foldOf(v)
	return k + 1, err
}

// redactURL is a database URL for messages: its user, password and query
// parameters (where ClickHouse takes credentials) are left out.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "the --db server"
	}
	u.User, u.RawQuery = nil, ""
	return u.String()
}
