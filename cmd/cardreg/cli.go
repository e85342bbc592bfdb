package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/internal/outfile"
	"github.com/cardsparse/cardreg/request"
)

// This file is the plumbing every command shares: parsing its flags,
// printing its usage, and turning its error into one line on stderr and
// an exit status.

// usageError is an error in the command line (exit status 2), as opposed
// to a failure of the work itself (exit status 1).
type usageError struct{ error }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// asUsage marks err (if any) as a usage error.
func asUsage(err error) error {
	if err == nil || isUsage(err) {
		return err
	}
	return usageError{err}
}

// isUsage reports a usage error: one of the command line, or a request
// refused for its options (request.Error).
func isUsage(err error) bool {
	return errors.As(err, new(usageError)) || errors.As(err, new(request.Error))
}

// parseInterleaved parses flags that may come before or after the
// positional arguments. Everything after a "--" is positional. A float
// flag refuses a number that rounds to 0 (checkUnderflowArgs) and, after
// parsing, NaN and ±Inf (checkFiniteFlags).
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	if err := checkUnderflowArgs(fs, args); err != nil {
		return nil, err
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, checkFiniteFlags(fs)
		}
		if k := len(args) - len(rest); k > 0 && args[k-1] == "--" {
			return append(pos, rest...), checkFiniteFlags(fs)
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// parseNoArgs parses the flags of a command that takes no positional
// argument (lambda, bound): flags only, checked as parseInterleaved checks
// them; the first argument that is not a flag is refused.
func parseNoArgs(fs *flag.FlagSet, args []string) error {
	err := checkUnderflowArgs(fs, args)
	if err == nil {
		err = fs.Parse(args)
	}
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err == nil {
		err = checkFiniteFlags(fs)
	}
	return err
}

// helped reports whether err asks for the usage (-h, --help), which it
// then prints on stdout: the flag package prints nothing itself (its
// output is discarded, so that a bad flag is one line, not the usage).
func helped(fs *flag.FlagSet, err error, stdout io.Writer) bool {
	if !errors.Is(err, flag.ErrHelp) {
		return false
	}
	fs.SetOutput(stdout)
	fs.Usage()
	return true
}

// usageFailure reports a usage error of cmd on one line of stderr, with
// hint appended when not empty (" (see cardreg help fit)"), and returns
// exit status 2.
func usageFailure(stderr io.Writer, cmd string, err error, hint string) int {
	fmt.Fprintf(stderr, "cardreg %s: %v%s\n", cmd, err, hint)
	return 2
}

// seeHelp is the hint of a usage error of cmd.
func seeHelp(cmd string) string { return " (see cardreg help " + cmd + ")" }

// exitStatus reports err (if any) on one line of stderr and returns the
// exit status: 0 without an error, 2 for a usage error, 1 otherwise.
func exitStatus(stderr io.Writer, cmd string, err error) int {
	if err == nil {
		return 0
	}
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "-: "); ok {
		// A backstop: messages built from the argument "-" itself (not
		// through inputName) still name standard input <stdin>.
		msg = data.StdinName + ": " + rest
	}
	fmt.Fprintf(stderr, "cardreg %s: %s\n", cmd, msg)
	if isUsage(err) {
		return 2
	}
	return 1
}

// checkPaths refuses a command line whose outputs would overwrite one of
// its inputs or each other (outfile.CheckPaths): a usage error.
func checkPaths(inputs []string, outputs ...string) error {
	return asUsage(outfile.CheckPaths(inputs, outputs...))
}
