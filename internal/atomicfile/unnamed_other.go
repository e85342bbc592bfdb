//go:build !linux

package atomicfile

import (
	"errors"
	"os"
)

// Unnamed says whether files are first written with no name: never here
// (no O_TMPFILE).
var Unnamed = false

// errNoUnnamed says that files without a name are a Linux feature.
var errNoUnnamed = errors.New("no O_TMPFILE on this system")

// openUnnamed fails: files are written under a temporary name.
func openUnnamed(string, string) (*os.File, error) { return nil, errNoUnnamed }

// linkTemp is never reached (openUnnamed fails).
func linkTemp(*os.File, string) (string, error) { return "", errNoUnnamed }

// ProcFD is unused here (nothing is linked from /proc).
var ProcFD = ""
