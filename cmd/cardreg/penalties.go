package main

import (
	"strings"

	"github.com/cardsparse/cardreg/bounds"
	"github.com/cardsparse/cardreg/penalty"
)

// penaltySpec is what the penalty factory needs from a command line:
// fit, path, cv and lambda build penalties through it.
type penaltySpec struct {
	penalty       string // a name of penalty.Lookup's table
	nu, alpha     optFloat
	groups, gFile string // --groups (grouped) and --G (general)
}

func (f *fitFlags) penaltySpec() penaltySpec {
	return penaltySpec{penalty: f.penalty, nu: f.nu, alpha: f.alpha, groups: f.groups, gFile: f.gFile}
}

// lookupPenalty returns the penalty named name, or the usage error naming
// the penalties allowed (those of the table keep accepts), prefixed by what.
func lookupPenalty(name, what string, keep func(penalty.Kind) bool) (penalty.Kind, error) {
	k, ok := penalty.Lookup(name)
	if !ok || keep != nil && !keep(k) {
		return penalty.Kind{}, usagef("%s %q (%s)", what, name, orList(penalty.Names(keep)))
	}
	return k, nil
}

// orList writes names as "a, b or c".
func orList(names []string) string { return joinNames(names, "or") }

// joinNames writes names as "a, b conj c".
func joinNames(names []string, conj string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}

// buildPenalty returns the penalty of the spec on p predictors and the ν
// used (0 for ridge), with a note when the default ν had to fall back or
// rests on an upper bound of M_G.
func buildPenalty(f penaltySpec, p int) (penalty.Penalty, float64, string, error) {
	kind, err := lookupPenalty(f.penalty, "unknown --penalty", nil)
	if err != nil {
		return nil, 0, "", err
	}
	in := penalty.Inputs{P: p}
	switch kind.Needs {
	case penalty.NeedsGroups:
		in.Groups, err = parseGroups(f.groups, p)
	case penalty.NeedsG:
		in.G, err = readMatrix(f.gFile, p)
	}
	if err != nil {
		return nil, 0, "", err
	}
	in.Nu, in.Alpha = f.nu.v, penalty.DefaultAlpha
	if f.alpha.set {
		in.Alpha = f.alpha.v
	}
	pen, nu, err := bounds.Build(kind, in, f.nu.set)
	if err != nil && kind.Alpha {
		return nil, 0, "", usagef("--alpha: %v", strings.TrimPrefix(err.Error(), "penalty: "))
	}
	if err != nil {
		return nil, 0, "", err
	}
	return pen, nu.Value, nu.Note(), nil
}
