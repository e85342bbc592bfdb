package data

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/cardsparse/cardreg/internal/testfiles"

	"github.com/stretchr/testify/require"
)

// flipByte returns a copy of data with byte at (mod its length) XORed by b:
// the Parquet fuzzers' mutation on top of the engine's own.
func flipByte(data []byte, at uint16, b byte) []byte {
	if len(data) == 0 {
		return data
	}
	data = bytes.Clone(data)
	data[int(at)%len(data)] ^= b
	return data
}

// FuzzParquet mutates a valid Parquet file: no panic, one-line errors
// naming the file, and finite numbers in any table read; ReadRows with
// factors does not panic either.
func FuzzParquet(f *testing.F) {
	dir := f.TempDir()
	pq, _ := testfiles.Example(f, dir, 20, 3)
	good, err := os.ReadFile(pq)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good, uint16(0), byte(0))
	f.Add(good, uint16(100), byte(0xff))
	path := filepath.Join(dir, "fuzz.parquet")
	f.Fuzz(func(t *testing.T, data []byte, at uint16, b byte) {
		require.NoError(t, os.WriteFile(path, flipByte(data, at, b), 0o644))
		// Read with factors: the string column id and b, an integer one.
		_, err := ReadRows(path, Spec{Responses: []string{"y"}, DropMissing: at%2 == 0,
			Factors: FactorSpec{Nominal: []string{"b"}, NALevel: at%3 == 0, MinCount: 1}}, RowsOptions{})
		if err != nil {
			require.Contains(t, err.Error(), path)
			require.NotContains(t, err.Error(), "\n")
		}
		tab, err := Read(path, Options{Labels: func(name string) bool { return name == "id" }, DropMissing: at%2 == 0})
		if err != nil {
			require.Contains(t, err.Error(), path)
			require.NotContains(t, err.Error(), "\n")
			return
		}
		for j := range tab.names {
			if tab.text[j] == nil {
				require.Len(t, tab.cols[j], tab.Rows())
			}
		}
	})
}
