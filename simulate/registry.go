package simulate

import (
	"fmt"
	"slices"
	"strings"
)

// All returns every experiment in the order `cardreg simulate list` shows
// them.
func All() []Experiment {
	return []Experiment{
		RegressionVsLasso(),
		LinearGrid(),
		TensorRegression(),
		Matmul(),
		Powers(),
		Markov(),
		Memory(),
		Bound(),
		Digits(),
		Letter(),
	}
}

// Lookup returns the experiment with the given name.
func Lookup(name string) (Experiment, error) {
	all := All()
	i := slices.IndexFunc(all, func(e Experiment) bool { return e.Name == name })
	if i < 0 {
		names := make([]string, len(all))
		for j, e := range all {
			names[j] = e.Name
		}
		return Experiment{}, fmt.Errorf("unknown experiment %q (one of %s)", name, strings.Join(names, ", "))
	}
	return all[i], nil
}
