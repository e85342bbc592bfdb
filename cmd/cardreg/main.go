// Command cardreg fits regression models under cardinality sparsity from
// CSV or Parquet files (gzip and standard input too), streamed when they
// are large, or from a ClickHouse table by SQL (--db).
//
// Usage:
//
//	cardreg fit [flags] DATA.csv
//	cardreg help [command]
//
// The objective is ‖y − Xβ − b₀‖² + λ·h(β), with no 1/(2n): λ_glmnet = λ/(2n).
// Run "cardreg help fit" for the flags. Errors are one line on stderr (exit
// 2 for usage, 1 for data or numerical errors); outputs are written whole or
// not at all, and never over an input.
package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/cardsparse/cardreg/internal/atomicfile"
	"github.com/cardsparse/cardreg/internal/buildinfo"
	"github.com/cardsparse/cardreg/internal/outfile"
)

func main() {
	atomicfile.RemoveOnSignal()
	stdout := &outfile.ErrWriter{W: os.Stdout}
	code := run(os.Args[1:], stdout, os.Stderr)
	if code == 0 && stdout.Err != nil {
		// A command that printed without checking: its output is lost
		// (a full disk, a closed pipe), so the run failed.
		fmt.Fprintf(os.Stderr, "cardreg: writing standard output: %v\n", stdout.Err)
		code = 1
	}
	os.Exit(code)
}

// commandOrder lists the commands in the order of messages and help.
var commandOrder = []string{"fit", "path", "cv", "net", "predict", "lambda", "bound", "memory", "simulate"}

// commands runs each command on its arguments (flags and files).
var commands = map[string]func(args []string, stdout, stderr io.Writer) int{
	"fit":      runFit,
	"bound":    runBound,
	"lambda":   runLambda,
	"predict":  runPredict,
	"memory":   runMemory,
	"net":      runNet,
	"path":     func(args []string, stdout, stderr io.Writer) int { return runPathCV("path", args, stdout, stderr) },
	"cv":       func(args []string, stdout, stderr io.Writer) int { return runPathCV("cv", args, stdout, stderr) },
	"simulate": runSimulate,
}

// run dispatches a command line and returns the exit status: 0 on success,
// 1 when the work failed (bad data, I/O), 2 on a usage error.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	if cmd, ok := commands[args[0]]; ok {
		return cmd(args[1:], stdout, stderr)
	}
	switch args[0] {
	case "--version", "-version", "version":
		fmt.Fprintf(stdout, "cardreg %s\n", buildinfo.Version())
		return 0
	case "help", "-h", "--help":
		if len(args) == 1 {
			fmt.Fprint(stdout, usage)
			return 0
		}
		if cmd, ok := commands[args[1]]; ok && len(args) == 2 {
			return cmd([]string{"-h"}, stdout, stderr)
		}
		fmt.Fprintf(stderr, "cardreg help: no help for %q (commands: %s)\n", strings.Join(args[1:], " "), commandList())
		return 2
	}
	fmt.Fprintf(stderr, "cardreg: unknown command %q (commands: %s; see cardreg help)\n", args[0], commandList())
	return 2
}

// commandList names the commands, for messages.
func commandList() string {
	return strings.Join(append(slices.Clone(commandOrder), "help", "version"), ", ")
}

const usage = `cardreg: regression under cardinality sparsity (few distinct coefficient values).

Usage:
  cardreg fit [flags] DATA.csv   fit one model and print it
  cardreg path [flags] DATA.csv  the lambda path as CSV
  cardreg cv [flags] DATA.csv    the cross-validation curve as CSV, with lambda_min and lambda_1se
  cardreg net --arch A [flags] D.csv  train a penalised feed-forward network
  cardreg predict --model M D.csv  predictions of a model saved by fit or net --save-model
  cardreg lambda [flags]         the theoretical lambda (networks, or --regression)
  cardreg bound [flags]          check the bound M_A <= 2/sqrt(P) by linear programs
  cardreg memory FILE.csv        storage: dense against compressed (few distinct values per column)
  cardreg simulate NAME --out D  run an experiment or a figure of the source paper (list: all names)
  cardreg help [command]         show help
  cardreg --version              the version

Objective: ||y - X b - b0||^2 + lambda * h(b), no 1/(2n) factor;
glmnet's and scikit-learn's lambda is lambda / (2n).

Example:
  cardreg fit --penalty cardinality examples/cardinality.csv
`
