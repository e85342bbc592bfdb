package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/estimator"
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
// returns the problem built on them, as loadStats does for a file: the
// same column selection (--target, --drop, --predictors); folds from a
// hash of each row's values and --seed, stable whatever order the
// cluster reads the rows in.
func loadDB(name string, f *fitFlags) (*problem, error) {
	ctx := context.Background()
	q := sqlstats.HTTP{URL: f.db, Timeouts: f.dbTimeout.Timeouts}
	src := sqlstats.Source{Table: f.table, Query: f.query, Folds: 1, Seed: f.Seed}
	if f.Lambda.OnGrid() {
		src.Folds = f.Folds
	}
	schema, err := q.Schema(ctx, sqlstats.ClickHouse, src)
	if err != nil {
		return nil, dbError(name, f.db, err)
	}
	pr, err := dbColumns(name, f, schema, &src)
	if err != nil {
		return nil, err
	}
	if err := sqlstats.CheckTypes(schema, src); err != nil {
		return nil, dbError(name, f.db, typeHint(err, pr.names))
	}
	if src.FoldColumn != "" {
		if src.Folds, err = dbFolds(ctx, q, src.FoldColumn, src); err != nil {
			return nil, dbError(name, f.db, err)
		}
	}
	if f.FamilyFit() {
		if err := sqlstats.CheckTypes(schema, sqlstats.Source{Columns: []string{f.fam.offset}}); f.fam.offset != "" && err != nil {
			return nil, dbError(name, f.db, err)
		}
		return pr, loadDBScans(ctx, name, f, q, src, pr)
	}
	if err := checkStats("the statistics", len(src.Columns), src.Folds, f); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	st, err := sqlstats.Compute(ctx, q, sqlstats.ClickHouse, src)
	if err != nil {
		return nil, dbError(name, f.db, valueHint(err))
	}
	return pr, pr.finishStreamed(name, f, st)
}

// dbColumns chooses the table's columns as for a file (--target, --drop,
// --predictors; the offset's set apart) and sets src's variables (the
// predictors, then the responses), weight and fold columns.
func dbColumns(name string, f *fitFlags, schema []sqlstats.Column, src *sqlstats.Source) (*problem, error) {
	header := make([]string, len(schema))
	for j, c := range schema {
		header[j] = c.Name
	}
	spec := f.spec()
	keep, err := spec.Choose(header)
	if err != nil {
		return nil, usagef("%s: %v", name, err)
	}
	var kept []string
	for j, k := range keep {
		if k && header[j] != f.fam.offset {
			kept = append(kept, header[j])
		}
	}
	v := spec.Variables(kept)
	for _, c := range v.Order {
		src.Columns = append(src.Columns, kept[c])
	}
	if v.Weights >= 0 {
		src.Weight = kept[v.Weights]
	}
	if v.FoldID >= 0 {
		src.FoldColumn = kept[v.FoldID]
	}
	return &problem{names: v.Names, responses: v.Responses, target: v.Responses[0]}, nil
}

// loadDBScans sets up a binomial or Poisson fit from --db: the rows stay
// in the cluster and are scanned by aggregation queries in rounds
// (sqlstats.GLMScanner), the offset column taken from --offset.
func loadDBScans(ctx context.Context, name string, f *fitFlags, q sqlstats.HTTP, src sqlstats.Source, pr *problem) error {
	if len(pr.names) == 0 {
		return data.NoPredictors(name, "")
	}
	if err := checkRounds(len(pr.names), src.Folds, f); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	fam, _ := datafit.ByName(f.Family) // checked by validateFamily
	sc, err := sqlstats.NewGLMScanner(ctx, q, src, f.fam.offset, fam)
	if err != nil {
		return dbError(name, f.db, err)
	}
	n, err := sc.Rows()
	if err != nil {
		return dbError(name, f.db, err)
	}
	if err := checkRows(name, n); err != nil {
		return err
	}
	pr.data, pr.n, pr.scanner = &estimator.Scans{Scanner: sc, P: len(pr.names)}, n, sc
	return nil
}

// dbError prefixes err with the source's name, once: the server's
// address it may hold (first, or after "sqlstats: the means query: ") is
// already in the name.
func dbError(name, db string, err error) error {
	msg := strings.Replace(err.Error(), redactURL(db)+": ", "", 1)
	var te *sqlstats.TimeoutError
	if errors.As(err, &te) {
		return fmt.Errorf("%s: %s; raise it with --db-timeout %s=%v", name, msg, te.Which, 2*te.Limit)
	}
	return fmt.Errorf("%s: %s", name, msg)
}

// typeHint says how to do without a column that does not hold numbers:
// leave a predictor out, or convert the column in --query.
func typeHint(err error, predictors []string) error {
	var te *sqlstats.TypeError
	if !errors.As(err, &te) {
		return err
	}
	conv := fmt.Sprintf("convert it in --query 'SELECT toFloat64(%[1]s) AS %[1]s, … FROM …'", sqlstats.ClickHouse.Quote(te.Column))
	if slices.Contains(predictors, te.Column) {
		return fmt.Errorf("%v: leave it out with --drop %s (or list --predictors), or %s", err, te.Column, conv)
	}
	return fmt.Errorf("%v: %s", err, conv)
}

// valueHint says how to leave out the rows holding NULL, NaN or an
// infinite value, or their column.
func valueHint(err error) error {
	var ve *sqlstats.ValueError
	if !errors.As(err, &ve) {
		return err
	}
	col := sqlstats.ClickHouse.Quote(ve.Column)
	keep := "isFinite(" + col + ")"
	if ve.NonFinite == 0 {
		keep = col + " IS NOT NULL"
	}
	if ve.Fold {
		return fmt.Errorf("%v (from the server): leave those rows out with --query 'SELECT * FROM … WHERE %s', or give those rows a fold 1…K in column %s", err, keep, ve.Column)
	}
	return fmt.Errorf("%v (from the server): leave those rows out with --query 'SELECT * FROM … WHERE %s', or the column with --drop %s", err, keep, ve.Column)
}

// dbFolds returns K, the largest value of the fold column.
func dbFolds(ctx context.Context, q sqlstats.HTTP, col string, src sqlstats.Source) (int, error) {
	from := sqlstats.ClickHouse.QuoteTable(src.Table)
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
	if rows[0][0] == `\N` { // max over no rows, or over NULLs only
		return 0, fmt.Errorf("--foldid %s: the fold column holds no fold, only NULL (or there are no rows): fill it with folds 1…K, or leave out --foldid for folds from --folds and --seed", col)
	}
	v, err := strconv.ParseFloat(rows[0][0], 64)
	if err != nil {
		return 0, fmt.Errorf("--foldid %s: %v", col, err)
	}
	k, err := data.FoldOf(v)
	return k + 1, err
}

// redactURL is a database URL for messages: its user, password and query
// parameters (where ClickHouse takes credentials) are left out.
func redactURL(raw string) string { return sqlstats.HTTP{URL: raw}.Server() }

// dbTimeout is the value of --db-timeout: a duration bounds each query as
// a whole; connect=D, first-byte=D, idle=D and query=D (comma separated)
// set the timeouts one by one. Unset ones keep sqlstats.DefaultTimeouts.
type dbTimeout struct {
	sqlstats.Timeouts
	set bool
}

// String prints the timeouts set (sqlstats.Timeouts.String).
func (d *dbTimeout) String() string {
	if d == nil || !d.set {
		return ""
	}
	return d.Timeouts.String()
}

// Set parses DURATION or a list of NAME=DURATION (sqlstats.ParseTimeouts).
func (d *dbTimeout) Set(s string) error {
	if err := sqlstats.ParseTimeouts(s, &d.Timeouts); err != nil {
		return err
	}
	d.set = true
	return nil
}

// dbTimeoutUsage is the help of --db-timeout, with the defaults.
func dbTimeoutUsage() string {
	t := sqlstats.DefaultTimeouts
	return fmt.Sprintf("with --db: how long to wait for each query as a whole (a `DURATION`: 90s, 1h), or the waits one by one: "+
		"connect=D (opening the connection, default %v), first-byte=D (the server's first answer, to the schema query, default %v), "+
		"idle=D (silence inside an answer once it began: no byte for D gives up, default %v), "+
		"query=D (each query from connecting to its last byte, default %v); comma separated", t.Connect, t.FirstByte, t.Idle, t.Query)
}
