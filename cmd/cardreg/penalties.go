package main

import (
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/request"
	"gonum.org/v1/gonum/mat"
)

// penaltySpec is what the penalty factory needs from a command line:
// fit, path, cv and lambda build penalties through it.
type penaltySpec struct {
	penalty       string // a name of penalty.Lookup's table
	nu            optFloat
	groups, gFile string // --groups (grouped) and --G (general)
}

func (f *fitFlags) penaltySpec() penaltySpec {
	return penaltySpec{penalty: f.Penalty, nu: f.nu, groups: f.groups, gFile: f.gFile}
}

// lookupPenalty returns the penalty named name, or the usage error naming
// the penalties allowed (those of the table keep accepts), prefixed by what.
func lookupPenalty(name, what string, keep func(penalty.Kind) bool) (penalty.Kind, error) {
	k, ok := penalty.Lookup(name)
	if !ok || keep != nil && !keep(k) {
		return penalty.Kind{}, usagef("%s %q (%s)", what, name, request.OrList(penalty.Names(keep)))
	}
	return k, nil
}

// read reads the penalty's input from the flags: --groups, or the file
// --G names, for p penalised predictors (request.InputsFunc).
func (s penaltySpec) read(kind penalty.Kind, p int) ([]int, *mat.Dense, error) {
	if kind.Needs == penalty.NeedsGroups {
		g, err := parseGroups(s.groups, p)
		return g, nil, err
	}
	g, err := readMatrix(s.gFile, p)
	return nil, g, err
}

// buildPenalty returns the penalty of the spec on p predictors and the ν
// used (0 for ridge), with a note when the default ν had to fall back or
// rests on an upper bound of M_G (request.Request.NamedPenalty).
func buildPenalty(s penaltySpec, p int) (penalty.Penalty, float64, string, error) {
	r := request.Request{Penalty: s.penalty, Dialect: request.CommandLine}
	if s.nu.set {
		r.Nu = &s.nu.v
	}
	return r.NamedPenalty(p, s.read)
}
