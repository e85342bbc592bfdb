// Command gendata writes a deterministic synthetic regression data set as CSV.
//
// The file has a header row "x1,...,xp,y" followed by n data rows. X has
// i.i.d. standard Gaussian entries, the true coefficient vector beta* has
// entries drawn uniformly from {-2, -1, 1, 2}, and y = X beta* + N(0,1) noise.
// The same -seed always produces a byte-identical file. Values are written
// with 17 significant digits so they round-trip exactly to float64, or with
// -digits D (fewer digits: a smaller file of rounded values). With -parquet
// the same values go to a Parquet file instead (one required DOUBLE column
// each, uncompressed; columns in name order: x1, x10, …, y).
//
// Usage:
//
//	go run ./bench/gendata -n 5000 -p 500 -seed 1 -out data.csv
//	go run ./bench/gendata -n 10000000 -p 50 -digits 8 -out big.csv
//	go run ./bench/gendata -n 10000000 -p 50 -digits 8 -parquet -out big.parquet
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

func main() {
	n := flag.Int("n", 5000, "number of observations (rows)")
	p := flag.Int("p", 500, "number of predictors (columns of X)")
	seed := flag.Uint64("seed", 1, "random seed")
	out := flag.String("out", "", "output CSV file (required)")
	digits := flag.Int("digits", 17, "significant digits of each value (1-17)")
	pq := flag.Bool("parquet", false, "write Parquet instead of CSV")
	flag.Parse()

	if *out == "" {
		fmt.Fprintln(os.Stderr, "gendata: -out FILE is required")
		flag.Usage()
		os.Exit(2)
	}
	if *n <= 0 || *p <= 0 || *digits < 1 || *digits > 17 {
		fmt.Fprintln(os.Stderr, "gendata: -n and -p must be positive, -digits between 1 and 17")
		os.Exit(2)
	}
	if err := run(*n, *p, *seed, *digits, *pq, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gendata:", err)
		os.Exit(1)
	}
}

func run(n, p int, seed uint64, digits int, pq bool, out string) (err error) {
	// PCG with both state words derived from the seed.
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))

	// beta* is drawn first so it does not depend on n.
	levels := [4]float64{-2, -1, 1, 2}
	beta := make([]float64, p)
	for j := range beta {
		beta[j] = levels[rng.IntN(len(levels))]
	}

	// Write to a temporary file next to the destination and rename at the end,
	// so a partial file is never visible under the final name.
	dir := filepath.Dir(out)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(out)+".tmp-*")
	if err != nil {
		return err
	}
	tmpName := tmp.Name()
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmpName)
		}
	}()

	w := bufio.NewWriterSize(tmp, 1<<20)
	var sink rowWriter
	if pq {
		sink = newParquetRows(w, p)
	} else {
		sink = &csvRows{w: w, digits: digits}
	}
	if err = sink.header(p); err != nil {
		return err
	}

	// Rows are generated one at a time: x_i1..x_ip, then the noise term.
	x := make([]float64, p)
	for i := 0; i < n; i++ {
		y := 0.0
		for j := range x {
			x[j] = rng.NormFloat64()
			y += x[j] * beta[j]
		}
		y += rng.NormFloat64()
		if digits < 17 { // the same rounded values in either format
			for j, v := range x {
				x[j] = round(v, digits)
			}
			y = round(y, digits)
		}
		if err = sink.row(x, y); err != nil {
			return err
		}
	}
	if err = sink.close(); err != nil {
		return err
	}
	if err = w.Flush(); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	// CreateTemp uses mode 0600; make the result readable like a normal file.
	if err = os.Chmod(tmpName, 0o644); err != nil {
		return err
	}
	if err = os.Rename(tmpName, out); err != nil {
		return errors.Join(err, os.Remove(tmpName))
	}
	return nil
}

// rowWriter writes the data set in one format.
type rowWriter interface {
	header(p int) error
	row(x []float64, y float64) error
	close() error
}

// csvRows writes CSV with the given significant digits.
type csvRows struct {
	w      *bufio.Writer
	digits int
	buf    []byte
}

func (c *csvRows) header(p int) error {
	for j := 1; j <= p; j++ {
		c.buf = append(c.buf, 'x')
		c.buf = strconv.AppendInt(c.buf, int64(j), 10)
		c.buf = append(c.buf, ',')
	}
	c.buf = append(c.buf, 'y', '\n')
	_, err := c.w.Write(c.buf)
	return err
}

func (c *csvRows) row(x []float64, y float64) error {
	c.buf = c.buf[:0]
	for _, v := range x {
		c.buf = strconv.AppendFloat(c.buf, v, 'g', c.digits, 64)
		c.buf = append(c.buf, ',')
	}
	c.buf = strconv.AppendFloat(c.buf, y, 'g', c.digits, 64)
	c.buf = append(c.buf, '\n')
	_, err := c.w.Write(c.buf)
	return err
}

func (c *csvRows) close() error { return nil }

// round returns v rounded to the given significant digits.
func round(v float64, digits int) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', digits, 64), 64)
	return r
}
