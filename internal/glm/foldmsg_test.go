package glm

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFoldErrorFewerFolds: a fold with one class in its training rows
// advised "or fewer folds" at 3 folds, the fewest a cross-validation
// takes.
func TestFoldErrorFewerFolds(t *testing.T) {
	at3 := (&FoldError{Fold: 2, Folds: 3, Only: "only y = 0", Rest: 4, N: 9}).Error()
	require.NotContains(t, at3, "fewer folds")
	require.Contains(t, at3, "use fold ids that spread those rows over the folds (stratified)")
	require.Contains(t, (&FoldError{Fold: 2, Folds: 5, Only: "only y = 0", Rest: 4, N: 9}).Error(), "(stratified), or fewer folds")
}
