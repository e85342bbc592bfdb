package main

import (
	"io"

	"github.com/cardsparse/cardreg/internal/outfile"
)

// writeOutput writes a command's output: to stdout (path "" or "-"), or
// to the file path, whole or not at all (outfile.Write; errors name
// flagName).
func writeOutput(flagName, path string, stdout io.Writer, fn func(io.Writer) error) error {
	return outfile.Write(flagName, path, stdout, fn)
}

// checkPaths refuses a command line whose outputs would overwrite one of
// its inputs or each other (outfile.CheckPaths): a usage error.
func checkPaths(inputs []string, outputs ...string) error {
	return asUsage(outfile.CheckPaths(inputs, outputs...))
}

// errWriter remembers the first write error (outfile.ErrWriter).
type errWriter = outfile.ErrWriter
