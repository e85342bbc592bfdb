package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestGenerated checks the small sets: the CSR and CSC copies hold the same
// entries, rows have unit length to the rounding, the density is near the one
// asked for, the svmlight file reads back to the same values bit for bit, the
// binary CSC file to the same arrays, and the same seed gives the same bytes.
func TestGenerated(t *testing.T) {
	for _, kind := range []string{"rcv1", "e2006"} {
		t.Run(kind, func(t *testing.T) {
			s, err := preset(kind, true)
			if err != nil {
				t.Fatal(err)
			}
			s.seed = 7
			dir := t.TempDir()
			out := filepath.Join(dir, kind)
			if err := run(s, out, true); err != nil {
				t.Fatal(err)
			}
			m := generate(s)
			checkMatrix(t, s, m)
			y, _ := respond(s, m)
			checkSVM(t, out+".svm", m, y, kind == "rcv1")
			checkCSC(t, out+".csc", m, y)
			again := filepath.Join(dir, "again")
			if err := run(s, again, false); err != nil {
				t.Fatal(err)
			}
			for _, ext := range []string{".svm", ".csc"} {
				a, _ := os.ReadFile(out + ext)
				b, _ := os.ReadFile(again + ext)
				if !bytes.Equal(a, b) {
					t.Errorf("%s: the same seed wrote different files", ext)
				}
			}
		})
	}
}

func checkMatrix(t *testing.T, s spec, m *matrix) {
	t.Helper()
	nnz := len(m.cols)
	if len(m.rows) != nnz {
		t.Fatalf("CSR holds %d entries, CSC %d", nnz, len(m.rows))
	}
	d := float64(nnz) / float64(s.n*s.p)
	if math.Abs(d-s.density) > 0.1*s.density {
		t.Errorf("density %g, asked %g", d, s.density)
	}
	byRow := map[[2]int32]float64{}
	for i := 0; i < m.n; i++ {
		ss := 0.0
		for k := m.rowPtr[i]; k < m.rowPtr[i+1]; k++ {
			if k > m.rowPtr[i] && m.cols[k] <= m.cols[k-1] {
				t.Fatalf("row %d: columns not increasing", i)
			}
			byRow[[2]int32{int32(i), m.cols[k]}] = m.rowVals[k]
			ss += m.rowVals[k] * m.rowVals[k]
		}
		if math.Abs(ss-1) > 1e-5 {
			t.Errorf("row %d: squared length %g", i, ss)
		}
	}
	for j := 0; j < m.p; j++ {
		for k := m.colPtr[j]; k < m.colPtr[j+1]; k++ {
			if k > m.colPtr[j] && m.rows[k] <= m.rows[k-1] {
				t.Fatalf("column %d: rows not increasing", j)
			}
			v, ok := byRow[[2]int32{m.rows[k], int32(j)}]
			if !ok || v != m.colVals[k] || v == 0 {
				t.Fatalf("entry (%d, %d): CSC %g, CSR %g (present %v)", m.rows[k], j, m.colVals[k], v, ok)
			}
		}
	}
}

func checkSVM(t *testing.T, name string, m *matrix, y []float64, binary bool) {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	i := 0
	for ; sc.Scan(); i++ {
		fields := strings.Fields(sc.Text())
		lab, err := strconv.ParseFloat(fields[0], 64)
		want := y[i]
		if binary {
			want = math.Max(want, 0) // −1 is written 0
		}
		if err != nil || lab != want || (binary && lab != 1 && lab != 0) {
			t.Fatalf("line %d: label %q, want %g", i+1, fields[0], y[i])
		}
		if len(fields)-1 != int(m.rowPtr[i+1]-m.rowPtr[i]) {
			t.Fatalf("line %d: %d entries, want %d", i+1, len(fields)-1, m.rowPtr[i+1]-m.rowPtr[i])
		}
		for k, fld := range fields[1:] {
			idx, val, _ := strings.Cut(fld, ":")
			j, err1 := strconv.Atoi(idx)
			v, err2 := strconv.ParseFloat(val, 64)
			at := m.rowPtr[i] + int32(k)
			if err1 != nil || err2 != nil || j != int(m.cols[at])+1 || v != m.rowVals[at] {
				t.Fatalf("line %d entry %d: %q, want %d:%g", i+1, k+1, fld, m.cols[at]+1, m.rowVals[at])
			}
		}
	}
	if i != m.n {
		t.Errorf("%d lines, want %d", i, m.n)
	}
}

func checkCSC(t *testing.T, name string, m *matrix, y []float64) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	r := bytes.NewReader(b)
	le := binary.LittleEndian
	head := make([]int32, 3)
	colPtr := make([]int32, m.p+1)
	rows := make([]int32, len(m.rows))
	vals := make([]float64, len(m.rows))
	yy := make([]float64, m.n)
	for _, v := range []any{head, colPtr, rows, vals, yy} {
		if err := binary.Read(r, le, v); err != nil {
			t.Fatal(err)
		}
	}
	if r.Len() != 0 || head[0] != int32(m.n) || head[1] != int32(m.p) || head[2] != int32(len(m.rows)) {
		t.Fatalf("header %v, %d bytes left", head, r.Len())
	}
	for k := range rows {
		if rows[k] != m.rows[k] || vals[k] != m.colVals[k] {
			t.Fatalf("entry %d differs", k)
		}
	}
	for i := range yy {
		if yy[i] != y[i] {
			t.Fatalf("y[%d] differs", i)
		}
	}
}

// TestZipfScale checks the solved scale against the target sum.
func TestZipfScale(t *testing.T) {
	for _, s := range []float64{0, 0.5, 1, 1.5} {
		c := zipfScale(1000, s, 20)
		sum := 0.0
		for r := 1; r <= 1000; r++ {
			sum += math.Min(maxFreq, c*math.Pow(float64(r), -s))
		}
		if math.Abs(sum-20) > 1e-9 {
			t.Errorf("s=%g: sum %g, want 20", s, sum)
		}
	}
}

// TestBadFlags checks the refusals of override.
func TestBadFlags(t *testing.T) {
	s, _ := preset("rcv1", true)
	for _, c := range []struct {
		name    string
		n, p, k int
		d, z    float64
	}{
		{"density above 0.5", 0, 0, 0, 0.6, 0},
		{"negative density", 0, 0, 0, -1, 0},
		{"k above p", 0, 0, 5000, 0, 0},
		{"one row", 1, 0, 0, 0, 0},
		{"zipf", 0, 0, 0, 0, 9},
		{"overflow", 1 << 29, 1 << 29, 0, 0.5, 0},
	} {
		if _, err := override(s, c.n, c.p, c.k, c.d, c.z, 1); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
	if _, err := preset("news20", false); err == nil {
		t.Error("an unknown kind was accepted")
	}
}
