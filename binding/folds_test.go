package binding

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFewerFolds: for 2 observations the advice was "use folds 2 or
// fewer", which Options.check then refuses (at least 3).
func TestFewerFolds(t *testing.T) {
	require.Equal(t, "too few to cross-validate (3 observations at least, one per fold); fit at a given lambda instead", fewerFolds(2))
	require.Equal(t, "use folds 4 or fewer", fewerFolds(4))
	o := &Options{Folds: 2}
	o.defaults()
	require.ErrorContains(t, o.check("cv"), "folds must be at least 3")
}
