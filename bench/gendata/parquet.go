package main

import (
	"io"
	"strconv"

	"github.com/parquet-go/parquet-go"
)

// parquetRows writes the data set as Parquet: required DOUBLE columns
// x1..xp and y, stored in the schema's (name) order, buffered into row
// groups by the writer.
type parquetRows struct {
	w     *parquet.GenericWriter[any]
	index []int // index[j] is the schema column of x_{j+1}; index[p] is y's
	rows  []parquet.Row
}

func newParquetRows(out io.Writer, p int) *parquetRows {
	group := parquet.Group{}
	names := make([]string, p+1)
	for j := range p {
		names[j] = "x" + strconv.Itoa(j+1)
	}
	names[p] = "y"
	for _, name := range names {
		group[name] = parquet.Leaf(parquet.DoubleType)
	}
	schema := parquet.NewSchema("gendata", group)
	pr := &parquetRows{w: parquet.NewGenericWriter[any](out, schema), index: make([]int, p+1)}
	for j, name := range names {
		leaf, _ := schema.Lookup(name)
		pr.index[j] = leaf.ColumnIndex
	}
	return pr
}

func (pr *parquetRows) header(int) error { return nil }

func (pr *parquetRows) row(x []float64, y float64) error {
	r := make(parquet.Row, len(pr.index))
	for j, v := range x {
		r[pr.index[j]] = parquet.ValueOf(v).Level(0, 0, pr.index[j])
	}
	p := len(x)
	r[pr.index[p]] = parquet.ValueOf(y).Level(0, 0, pr.index[p])
	pr.rows = append(pr.rows, r)
	if len(pr.rows) == 4096 {
		return pr.flush()
	}
	return nil
}

func (pr *parquetRows) flush() error {
	_, err := pr.w.WriteRows(pr.rows)
	pr.rows = pr.rows[:0]
	return err
}

func (pr *parquetRows) close() error {
	if err := pr.flush(); err != nil {
		return err
	}
	return pr.w.Close()
}
