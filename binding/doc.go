// Package binding is what cardreg's C interface (package clib), and through
// it the Python and R packages, call: fits, paths and cross-validations of
// data given as buffers (a float64 matrix, factor level codes) with their
// options as one JSON object whose names are the command line's flags.
//
// It holds buffers ↔ request ↔ result only: the options decode into the
// command line's request (package request: its checks, its table of the
// options each command honours, its penalty builder and λ rules), the fits
// come from package estimator, and a fit's JSON is report.Fit's, the
// document `cardreg fit --format json` prints. An option left out means
// what the flag left out means.
//
// Buffers are read during the call and not kept: a Result holds its own
// memory. A row-major matrix without factors is read in place. A sparse
// numeric block (CSC arrays, Input.Sparse) is never densified: the fit's
// *design.Matrix shares its arrays for the call (design.FromCSC) and
// factors beside it become indicator columns; the request chooses the
// route as for a dense matrix.
package binding
