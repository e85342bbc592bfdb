// Command cardreg fits regression models under cardinality sparsity from CSV
// files.
//
// Usage:
//
//	cardreg fit [flags] DATA.csv
//	cardreg help [command]
//
// The objective is ‖y − Xβ − b₀‖² + λ·h(β), with no 1/(2n): λ_glmnet = λ/(2n).
// Run "cardreg help fit" for the flags.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run dispatches a command line and returns the exit status: 0 on success,
// 1 when the work failed (bad data, I/O), 2 on a usage error.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "fit":
		return runFit(args[1:], stdout, stderr)
	case "bound":
		return runBound(args[1:], stdout, stderr)
	case "lambda":
		return runLambda(args[1:], stdout, stderr)
	case "predict":
		return runPredict(args[1:], stdout, stderr)
	case "memory":
		return runMemory(args[1:], stdout, stderr)
	case "net":
		return runNet(args[1:], stdout, stderr)
	case "path", "cv":
		return runPathCV(args[0], args[1:], stdout, stderr)
	case "simulate":
		return runSimulate(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		if len(args) > 1 && args[1] == "fit" {
			return runFit([]string{"-h"}, stdout, stderr)
		}
		if len(args) > 1 && args[1] == "bound" {
			return runBound([]string{"-h"}, stdout, stderr)
		}
		if len(args) > 1 && args[1] == "lambda" {
			return runLambda([]string{"-h"}, stdout, stderr)
		}
		if len(args) > 1 && args[1] == "net" {
			return runNet([]string{"-h"}, stdout, stderr)
		}
		if len(args) > 1 && args[1] == "memory" {
			return runMemory([]string{"-h"}, stdout, stderr)
		}
		if len(args) > 1 && args[1] == "predict" {
			return runPredict([]string{"-h"}, stdout, stderr)
		}
		if len(args) > 1 && args[1] == "simulate" {
			return runSimulate([]string{"-h"}, stdout, stderr)
		}
		if len(args) > 1 && (args[1] == "path" || args[1] == "cv") {
			return runPathCV(args[1], []string{"-h"}, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "cardreg: unknown command %q (commands: fit, path, cv, net, predict, lambda, bound, memory, simulate, help; see cardreg help)\n", args[0])
	return 2
}

// exitStatus reports err (if any) on one line of stderr and returns the
// exit status: 0 without an error, 2 for a usage error, 1 otherwise.
func exitStatus(stderr io.Writer, cmd string, err error) int {
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "cardreg %s: %v\n", cmd, err)
	if errors.As(err, new(usageError)) {
		return 2
	}
	return 1
}

// writeJSON writes v as indented JSON, the one layout of every command's
// --format json (HTML characters are not escaped).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
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

Objective: ||y - X b - b0||^2 + lambda * h(b), no 1/(2n) factor;
glmnet's and scikit-learn's lambda is lambda / (2n).

Example:
  cardreg fit --penalty cardinality examples/cardinality.csv
`
