package data

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHugeLevelCopies checks what reading a long quoted level of a factor
// allocates beside it, on one core (the reader of whole lines) and on
// several (blocks): its line's pieces and their join, and the level kept,
// three times its length at most (and the block it starts in on several
// cores). The record was copied once more to be
// unquoted, and the level once more for the message refusing it (a 150 MB
// level peaked at 3.06 times its length in memory, 4.04 on one core).
func TestHugeLevelCopies(t *testing.T) {
	const size = 8 << 20
	var b strings.Builder
	b.WriteString("g,y\na,1\nb,2\n\"")
	b.WriteString(strings.Repeat("z", size))
	b.WriteString("\",3\na,4\nb,5\n")
	path := filepath.Join(t.TempDir(), "huge.csv")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	b.Reset()
	for _, procs := range []int{1, 2} {
		prev := runtime.GOMAXPROCS(procs)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := ReadRows(path, Spec{}, RowsOptions{})
		runtime.ReadMemStats(&after)
		runtime.GOMAXPROCS(prev)
		require.ErrorContains(t, err, "appears in 1 row(s), fewer than 2")
		ratio := float64(after.TotalAlloc-before.TotalAlloc) / size
		t.Logf("GOMAXPROCS %d: %.2f", procs, ratio)
		require.Less(t, ratio, 3.5+0.25*float64(procs-1), "GOMAXPROCS %d", procs)
	}
}
