// Command gendata writes a deterministic synthetic regression data set as CSV.
//
// The file has a header row "x1,...,xp,y" followed by n data rows. X has
// i.i.d. standard Gaussian entries, the true coefficient vector beta* has
// entries drawn uniformly from {-2, -1, 1, 2}, and y = X beta* + N(0,1) noise.
// The same -seed always produces a byte-identical file. Values are written
// with 17 significant digits so they round-trip exactly to float64.
//
// Usage:
//
//	go run ./bench/gendata -n 5000 -p 500 -seed 1 -out data.csv
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
	flag.Parse()

	if *out == "" {
		fmt.Fprintln(os.Stderr, "gendata: -out FILE is required")
		flag.Usage()
		os.Exit(2)
	}
	if *n <= 0 || *p <= 0 {
		fmt.Fprintln(os.Stderr, "gendata: -n and -p must be positive")
		os.Exit(2)
	}
	if err := run(*n, *p, *seed, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gendata:", err)
		os.Exit(1)
	}
}

func run(n, p int, seed uint64, out string) (err error) {
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
	buf := make([]byte, 0, 32*(p+1))

	// Header.
	for j := 1; j <= p; j++ {
		buf = append(buf, 'x')
		buf = strconv.AppendInt(buf, int64(j), 10)
		buf = append(buf, ',')
	}
	buf = append(buf, 'y', '\n')
	if _, err = w.Write(buf); err != nil {
		return err
	}

	// Rows are generated one at a time: x_i1..x_ip, then the noise term.
	x := make([]float64, p)
	for i := 0; i < n; i++ {
		buf = buf[:0]
		y := 0.0
		for j := range x {
			x[j] = rng.NormFloat64()
			y += x[j] * beta[j]
		}
		y += rng.NormFloat64()
		for j := range x {
			buf = strconv.AppendFloat(buf, x[j], 'g', 17, 64)
			buf = append(buf, ',')
		}
		buf = strconv.AppendFloat(buf, y, 'g', 17, 64)
		buf = append(buf, '\n')
		if _, err = w.Write(buf); err != nil {
			return err
		}
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
