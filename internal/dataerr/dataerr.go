// Package dataerr holds the errors that name one observation or one
// predictor column. The fits (datafit) return them and the readers (data)
// name the file's column and line behind them: one home below both, so that
// the readers need not import the fits (datafit re-exports both types).
package dataerr

import "fmt"

// RowError is a problem with one observation.
type RowError struct {
	// Row is the observation's index, from 0.
	Row int
	// What names the field: "response", "weight", "offset", "constant" or
	// "predictor".
	What string
	// Err says why.
	Err error
}

func (e *RowError) Error() string {
	return fmt.Sprintf("observation %d: %s: %v", e.Row+1, e.What, e.Err)
}

func (e *RowError) Unwrap() error { return e.Err }

// ColumnError is a problem with one predictor column.
type ColumnError struct {
	// Col is the column's index, from 0.
	Col int
	// Err says why.
	Err error
}

func (e *ColumnError) Error() string {
	return fmt.Sprintf("predictor column %d: %v", e.Col+1, e.Err)
}

func (e *ColumnError) Unwrap() error { return e.Err }
