package data

import (
	"bytes"
	"compress/gzip"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestReadTable(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, data string
		sep        rune
		names      []string
		cols       [][]float64
	}{
		{"plain", "a,b\n1,2\n3,4\n", ',', []string{"a", "b"}, [][]float64{{1, 3}, {2, 4}}},
		{"CRLF", "a,b\r\n1,2\r\n3,4\r\n", ',', []string{"a", "b"}, [][]float64{{1, 3}, {2, 4}}},
		{"no final newline", "a,b\n1,2\n3,4", ',', []string{"a", "b"}, [][]float64{{1, 3}, {2, 4}}},
		{"BOM", "\ufeffa,b\n1,2\n", ',', []string{"a", "b"}, [][]float64{{1}, {2}}},
		{"BOM before a quoted name", "\ufeff\"a\",b\n1,2\n", ',', []string{"a", "b"}, [][]float64{{1}, {2}}},
		{"quoted fields", "\"a,1\",\"b \"\"2\"\"\"\n\"1.5\",\" -2 \"\n", ',', []string{"a,1", `b "2"`}, [][]float64{{1.5}, {-2}}},
		{"spaces and blank lines", "\n a , b \n\n 1 ,2e3\n\n", ',', []string{"a", "b"}, [][]float64{{1}, {2000}}},
		{"semicolon", "a;b\n1;2\n", ';', []string{"a", "b"}, [][]float64{{1}, {2}}},
		{"underflow is zero", "a\n1e-400\n", ',', []string{"a"}, [][]float64{{0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, dir, "t.csv", tc.data)
			tab, err := readTable(path, tc.sep)
			require.NoError(t, err)
			require.Equal(t, tc.names, tab.names)
			require.Equal(t, tc.cols, tab.cols)
		})
	}
}

// FuzzReadTable feeds arbitrary bytes to readTable: it must not panic, an
// error is one line naming the file, and a table has unique, non-empty,
// trimmed names and equal-length columns of finite numbers.
func FuzzReadTable(f *testing.F) {
	for _, s := range []string{
		"a,b,y\n1,2,3\n4,5,6\n",
		"a,b,y\r\n1,2,3\r\n4,5,6\r\n",
		"\ufeffa,b,y\n1,2,3\n",
		"\ufeff\ufeffa,b\n1,2\n",
		"\"a\",\"b,c\",\"d\"\"e\"\n\"1\",\" 2 \",3\n",
		"a,b\n\"1\n\",2\n",
		"a,b,y\n1,,3\n",
		"a,b,y\nNaN,2,3\n",
		"a,b,y\n1,Inf,-Infinity\n",
		"a,b\n1e400,0x1p-2\n",
		"a,b,y\n",
		"",
		"\n\n",
		"a,b,y\n1,2\n",
		"a,a\n1,2\n",
		"a,,b\n1,2,3\n",
		" a , b \n 1 , 2 \n",
		"a,b\n1,2\"x\n",
		"\"a\nb\",c\n1,2\n",
		"a,b\r1,2\r",
		"a\n\"unterminated\n",
		"\x00,\xff\n1,2\n",
		"id,a,y\nr1,2,3\n",
	} {
		for mode := range uint8(8) {
			f.Add([]byte(s), mode)
		}
	}
	// One file per fuzzing process (its inputs run one at a time); a
	// t.TempDir per input would cost more than readTable itself.
	path := filepath.Join(f.TempDir(), "in.csv")
	// mode: bit 0 gzips the bytes, bit 1 skips every other column, bit 2
	// reads the first column as text labels. One gzip writer, reset for
	// each input (a new one costs more than the read).
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		content := data
		if mode&1 != 0 {
			gz.Reset()
			zw.Reset(&gz)
			zw.Write(data)
			zw.Close()
			content = gz.Bytes()
		}
		require.NoError(t, os.WriteFile(path, content, 0o644))
		o := Options{Sep: ','}
		if mode&2 != 0 {
			o.Columns = func(header []string) ([]bool, error) {
				keep := make([]bool, len(header))
				for j := range keep {
					keep[j] = j%2 == 0
				}
				return keep, nil
			}
		}
		var first string
		if mode&4 != 0 {
			o.Labels = func(name string) bool {
				if first == "" {
					first = name
				}
				return name == first
			}
		}
		var tab *Table
		var err error
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("readTable panicked on %q: %v\n%s", data, p, debug.Stack())
				}
			}()
			tab, err = Read(path, o)
		}()
		if err != nil {
			require.Nil(t, tab)
			msg := err.Error()
			require.Contains(t, msg, path)
			require.NotContains(t, msg, "\n", "error is not one line")
			require.Less(t, len(msg), 2*len(path)+600, "a long message: %q", msg)
			return
		}
		require.Len(t, tab.cols, len(tab.names))
		require.Len(t, tab.text, len(tab.names))
		if mode&2 == 0 {
			require.NotEmpty(t, tab.names)
		}
		seen := map[string]bool{}
		for j, name := range tab.names {
			require.NotEmpty(t, name)
			require.Equal(t, strings.TrimSpace(name), name)
			require.False(t, seen[name], "duplicate name %q", name)
			seen[name] = true
			if tab.text[j] != nil {
				require.Nil(t, tab.cols[j])
				require.Len(t, tab.text[j], tab.Rows(), "column %d", j+1)
				continue
			}
			require.Len(t, tab.cols[j], tab.Rows(), "column %d", j+1)
			require.NotZero(t, tab.Rows())
			for _, v := range tab.cols[j] {
				require.False(t, math.IsNaN(v) || math.IsInf(v, 0), "non-finite %v in column %d", v, j+1)
			}
		}
		if mode&2 == 0 && bytes.HasPrefix(data, UTF8BOM) && !bytes.HasPrefix(data[len(UTF8BOM):], UTF8BOM) {
			require.False(t, strings.HasPrefix(tab.names[0], "\ufeff"), "BOM kept in %q", tab.names[0])
		}
	})
}

// Numeric cells are decimal numbers only: strconv.ParseFloat also reads
// Go's literals, so 1_000 and 0x1p3 were read as 1000 and 8 (while 0x10
// was refused), where R and pandas read text. Decimal spellings still
// read, and the Inf/NaN spellings are still "not a finite number".
func TestCellsAreDecimalOnly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.csv")
	for _, cell := range []string{"1_000", "0x1p3", "0x10", "-0X1P-2", "+0x1.8p1", "1e5_0", "0x"} {
		require.NoError(t, os.WriteFile(path, []byte("a,y\n1,2\n"+cell+",1\n3,3\n"), 0o644))
		_, err := Read(path, Options{})
		require.EqualError(t, err, path+`:3: column "a": "`+cell+`" is not a decimal number (hexadecimal numbers and digit separators such as 1_000 are not read)`)
		_, err = ParseNumber([]byte(cell))
		require.ErrorIs(t, err, errNotDecimal, cell)
	}
	for _, cell := range []string{"+1.5e+3", ".5", "5.", "-0", "1E-2", " 7 ", "123456789012345678901234567890"} {
		v, err := ParseNumber([]byte(cell))
		require.NoError(t, err, cell)
		want, _ := strconv.ParseFloat(strings.TrimSpace(cell), 64)
		require.Equal(t, want, v, cell)
	}
	for _, cell := range []string{"Inf", "-infinity", "NaN", "1e400"} {
		_, err := ParseNumber([]byte(cell))
		require.ErrorIs(t, err, errNotFinite, cell)
	}
}

func TestNumbers(t *testing.T) {
	v, ok := Numbers([]string{"1", " -2.5 ", "3e2"})
	require.True(t, ok)
	require.Equal(t, []float64{1, -2.5, 300}, v)
	for _, bad := range [][]string{{"1", "x"}, {"NaN"}, {""}, {"0x10"}} {
		_, ok = Numbers(bad)
		require.False(t, ok, "%q", bad)
	}
}
