package kernel

import (
	"os"
	"strings"
	"testing"
)

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// stripHeader drops the first line, which names the output paths.
func stripHeader(s string) string {
	_, rest, _ := strings.Cut(s, "\n")
	return rest
}
