//go:build !linux

package main

import (
	"errors"
	"os"
)

// unnamedOutputs says whether outputs are first written to unnamed files:
// never here (no O_TMPFILE).
var unnamedOutputs = false

// errNoUnnamed says that files without a name are a Linux feature.
var errNoUnnamed = errors.New("no O_TMPFILE on this system")

// openUnnamed fails: outputs are written under a temporary name.
func openUnnamed(string, string) (*os.File, error) { return nil, errNoUnnamed }

// linkTemp is never reached (openUnnamed fails).
func linkTemp(*os.File, string) (string, error) { return "", errNoUnnamed }

// procFD is unused here (nothing is linked from /proc).
var procFD = ""
