package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// atomicWrite writes a file through fill into a temporary file beside it and
// renames it at the end, so that a partial file never carries the name.
func atomicWrite(name string, fill func(w *bufio.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	w := bufio.NewWriterSize(tmp, 1<<20)
	if err = fill(w); err != nil {
		return err
	}
	if err = w.Flush(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

// label is the response's text: 1 or 0 for classification (the labels a
// binomial fit takes; rcv1.binary writes +1/−1, which liblinear reads alike
// but cardreg refuses), else the shortest decimal that reads back as the same
// float64.
func label(v float64, binary bool) string {
	if binary {
		if v > 0 {
			return "1"
		}
		return "0"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// writeSVM writes the svmlight file: one row per line, 1-based indices.
func writeSVM(name string, m *matrix, y []float64, binary bool) error {
	return atomicWrite(name, func(w *bufio.Writer) error {
		buf := make([]byte, 0, 64)
		for i := 0; i < m.n; i++ {
			w.WriteString(label(y[i], binary))
			for k := m.rowPtr[i]; k < m.rowPtr[i+1]; k++ {
				buf = append(buf[:0], ' ')
				buf = strconv.AppendInt(buf, int64(m.cols[k])+1, 10)
				buf = append(buf, ':')
				buf = strconv.AppendFloat(buf, m.rowVals[k], 'g', -1, 64)
				w.Write(buf)
			}
			if err := w.WriteByte('\n'); err != nil {
				return err
			}
		}
		return nil
	})
}

// writeCSC writes the little-endian arrays R's readBin reads (see the package
// comment).
func writeCSC(name string, m *matrix, y []float64) error {
	return atomicWrite(name, func(w *bufio.Writer) error {
		le := binary.LittleEndian
		for _, v := range []any{[]int32{int32(m.n), int32(m.p), int32(len(m.rows))}, m.colPtr, m.rows, m.colVals, y} {
			if err := binary.Write(w, le, v); err != nil {
				return err
			}
		}
		return nil
	})
}

// writeCSV writes the data as a dense CSV: header x1..xp,y, zeros written "0".
func writeCSV(name string, m *matrix, y []float64, binary bool) error {
	return atomicWrite(name, func(w *bufio.Writer) error {
		for j := 1; j <= m.p; j++ {
			fmt.Fprintf(w, "x%d,", j)
		}
		w.WriteString("y\n")
		row := make([]float64, m.p)
		buf := make([]byte, 0, 32)
		for i := 0; i < m.n; i++ {
			clear(row)
			for k := m.rowPtr[i]; k < m.rowPtr[i+1]; k++ {
				row[m.cols[k]] = m.rowVals[k]
			}
			for _, v := range row {
				w.Write(strconv.AppendFloat(buf[:0], v, 'g', -1, 64))
				w.WriteByte(',')
			}
			w.WriteString(label(y[i], binary))
			if err := w.WriteByte('\n'); err != nil {
				return err
			}
		}
		return nil
	})
}

// report prints the "name value" lines.
func report(s spec, m *matrix, t truth, out string) {
	nnz := len(m.rows)
	pr := func(k string, v any) { fmt.Printf("sparsegen_%s %v\n", k, v) }
	pr("kind", s.kind)
	pr("seed", s.seed)
	pr("n", m.n)
	pr("p", m.p)
	pr("nnz", nnz)
	pr("density", strconv.FormatFloat(float64(nnz)/float64(m.n)/float64(m.p), 'g', 4, 64))
	pr("density_asked", s.density)
	pr("zipf_exponent", s.zipf)
	pr("max_column_rows", m.maxDF)
	empty := 0
	for j := 0; j < m.p; j++ {
		if m.colPtr[j] == m.colPtr[j+1] {
			empty++
		}
	}
	pr("empty_columns", empty)
	pr("empty_rows_filled", m.emptyRowsFilled)
	pr("true_nonzeros", len(t.support))
	pr("eta_sd", s.etaSD)
	if s.kind == "rcv1" {
		pr("positive_rate", strconv.FormatFloat(t.positiveRate, 'g', 4, 64))
	} else {
		pr("noise_sd", s.noise)
	}
	pr("csc_storage_bytes", 4*(m.p+1)+12*nnz)
	if st, err := os.Stat(out + ".svm"); err == nil {
		pr("svm_bytes", st.Size())
	}
}
