package data

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The fold column of a streamed file is read into 0-based folds; a bad
// id is reported at its line, an empty fold with the flag.
func TestStreamFoldIDs(t *testing.T) {
	dir := t.TempDir()
	spec := Spec{FoldID: "f", Flags: Flags{FoldID: "--foldid", Offset: "--offset"}}
	got, err := StreamFoldIDs(writeFile(t, dir, "g.csv", "f,x,y\n2,1,1\n1,2,0\n2,3,1\n"), spec)
	require.NoError(t, err)
	require.Equal(t, []int{1, 0, 1}, got)

	_, err = StreamFoldIDs(writeFile(t, dir, "z.csv", "f,x,y\n1,1,1\n0,2,0\n"), spec)
	require.ErrorContains(t, err, `z.csv:3: column "f": fold ids must be integers`)
	_, err = StreamFoldIDs(writeFile(t, dir, "e.csv", "f,x,y\n1,1,1\n3,2,0\n"), spec)
	require.ErrorContains(t, err, `fold 2 of 1…3 has no rows (--foldid)`)
}
