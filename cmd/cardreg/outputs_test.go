package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// parseBytes takes positive whole byte counts with or without a unit and
// refuses the rest.
func TestParseBytes(t *testing.T) {
	for s, want := range map[string]int64{
		"8000000000": 8e9, "8GB": 8e9, "8gb": 8e9, "8G": 8e9, "512MiB": 512 << 20, "4e9": 4e9,
		"1.5GB": 15e8, "10kB": 1e4, "2 TiB": 2 << 40, "100B": 100, "1": 1,
	} {
		got, err := parseBytes(s)
		require.NoError(t, err, s)
		require.Equal(t, want, got, s)
	}
	for _, s := range []string{"-5", "0", "-1GB", "abc", "", "1.5", "0.0005kB", "GB", "NaN", "Inf", "1e30", "12XB"} {
		_, err := parseBytes(s)
		require.Error(t, err, s)
	}
}

// An invalid --memory is a usage error (exit 2), on every command that
// takes it, before any data are read.
func TestMemoryFlagInvalid(t *testing.T) {
	for _, v := range []string{"-5", "0", "abc", "-1GB", "1.5"} {
		oneLine(t, cardreg(t, "fit", "--memory", v, "no-such-file.csv"), 2, "-memory", "not a")
		oneLine(t, cardreg(t, "fit", "--memory="+v, "no-such-file.csv"), 2, "-memory", "not a")
		// path and cv print their usage after a bad flag (pathcv.go):
		// only the status and the message are checked here.
		for _, cmd := range []string{"path", "cv"} {
			res := cardreg(t, cmd, "--memory", v, "no-such-file.csv")
			require.Equal(t, 2, res.code)
			require.Contains(t, res.stderr, "-memory")
		}
	}
}

// Streaming by itself (the file × the in-memory factor passes --memory)
// says so in exactly one line, for least squares and the other families,
// and the result is printed.
func TestAutoStreamNote(t *testing.T) {
	data := "../../examples/cardinality.csv"
	for _, args := range [][]string{
		{"fit", "--lambda", "1", data},
		{"fit", data},
		{"path", data},
		{"cv", data},
		{"fit", "--family", "binomial", "--lambda", "4", "../../examples/credit.csv"},
	} {
		res := cardreg(t, append([]string{args[0], "--memory", "1MB"}, args[1:]...)...)
		require.Equal(t, 0, res.code, res.stderr)
		require.NotEmpty(t, res.stdout)
		file := args[len(args)-1]
		note := fmt.Sprintf("cardreg: %s: streaming (", file)
		require.Equal(t, 1, strings.Count(res.stderr, note), "want the note once: %q", res.stderr)
		require.Contains(t, res.stderr, "as float64 × 17 > --memory 1 MB)\n")
		// Within the budget, or with --stream asked for: no note.
		for _, extra := range []string{"--memory=1GB", "--stream"} {
			res := cardreg(t, append([]string{args[0], extra}, args[1:]...)...)
			require.Equal(t, 0, res.code, res.stderr)
			require.NotContains(t, res.stderr, "streaming (")
		}
	}
}

// wideCSV writes n rows of p predictors and a response, small integers.
func wideCSV(t *testing.T, dir string, n, p int) string {
	t.Helper()
	var b strings.Builder
	for j := range p {
		fmt.Fprintf(&b, "x%d,", j)
	}
	b.WriteString("y\n")
	for i := range n {
		for j := range p + 1 {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprint(&b, (i*7+j*3)%4)
		}
		b.WriteByte('\n')
	}
	return writeFile(t, dir, fmt.Sprintf("wide%d.csv", p), b.String())
}

// O(p²) statistics that pass --memory are refused up front, in one line
// saying what they need, what there is and what to do, at once: the
// streamed least-squares statistics (per fold), the streamed Newton
// statistics of the other families, and the in-memory Gram matrices.
func TestQuadraticMemoryRefused(t *testing.T) {
	dir := t.TempDir()
	wide := wideCSV(t, dir, 3, 20000)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"fit", "--stream", "--memory", "4GB", wide},
			[]string{"statistics of 20001 variables on 5 folds need about 35.2 GB (11 matrices of 20001 × 20001 float64)", "more than --memory 4 GB", "drop columns", "fewer --folds"}},
		{[]string{"fit", "--stream", "--lambda", "1", "--memory", "4GB", wide},
			[]string{"statistics of 20001 variables need about 22.4 GB (7 matrices", "more than --memory 4 GB"}},
		{[]string{"cv", "--stream", "--folds", "10", "--memory", "4GB", wide},
			[]string{"on 10 folds need about 64 GB"}},
		{[]string{"path", "--stream", "--memory", "4GB", wide}, []string{"need about"}},
		{[]string{"fit", "--family", "binomial", "--stream", "--lambda", "1", "--memory", "4GB", wide},
			[]string{"Newton statistics of 20000 predictors need about 16 GB (5 matrices of 20001 × 20001 float64)", "more than --memory 4 GB"}},
		{[]string{"cv", "--family", "poisson", "--stream", "--memory", "4GB", wide}, []string{"Newton statistics"}},
	} {
		start := time.Now()
		oneLine(t, cardreg(t, c.args...), 1, append(c.want, wide+": ")...)
		require.Less(t, time.Since(start), 5*time.Second, c.args)
	}

	// --db: the server names 20001 columns; no statistics are asked for.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !strings.Contains(string(body), "LIMIT 0") {
			t.Errorf("query after the refusal: %.80s", body)
			http.Error(w, "no", http.StatusBadRequest)
			return
		}
		names := make([]string, 20001)
		for j := range names {
			names[j] = fmt.Sprintf("x%d", j)
		}
		io.WriteString(w, strings.Join(names, "\t")+"\n")
	}))
	defer srv.Close()
	oneLine(t, cardreg(t, "cv", "--db", srv.URL, "--table", "wide", "--memory", "4GB"), 1,
		"statistics of 20001 variables on 5 folds need about 35.2 GB", "more than --memory 4 GB", "fewer --folds")

	// In memory, XᵀX is formed when n ≥ p: 100 × 100 takes 6 × 80 kB.
	square := wideCSV(t, dir, 100, 100)
	oneLine(t, cardreg(t, "fit", "--lambda", "1", "--memory", "400kB", square), 1,
		"Gram matrices of 100 predictors need about 480 kB (6 matrices of 100 × 100 float64), more than --memory 400 kB")
	res := cardreg(t, "fit", "--lambda", "1", "--memory", "1MB", square)
	require.Equal(t, 0, res.code, res.stderr)

	// --foldid grows the folds as they come: each new one is checked.
	var b strings.Builder
	b.WriteString("a,b,fold,y\n")
	for i := range 60 {
		fmt.Fprintf(&b, "%d,%d,%d,%d\n", i%5, i%3, i+1, i%7)
	}
	folds := writeFile(t, dir, "folds.csv", b.String())
	oneLine(t, cardreg(t, "cv", "--stream", "--foldid", "fold", "--memory", "5kB", folds), 1,
		"folds.csv:36: --foldid fold", "on 35 folds need about 5.04 kB", "more than --memory 5 kB")
}

// withStdin runs fn with standard input read from the file at path.
func withStdin(t *testing.T, path string, fn func()) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	old := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = old }()
	fn()
}

// Standard input is an input: an output naming the file behind it (by
// its name, a symbolic link or a hard link) is refused, and the file is
// left as it was; other outputs are written.
func TestStdinIsAnInput(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", small)
	png := writeFile(t, dir, "d.png", small) // data under a plot's name
	link := filepath.Join(dir, "link.csv")
	require.NoError(t, os.Symlink(data, link))
	hard := filepath.Join(dir, "hard.csv")
	require.NoError(t, os.Link(data, hard))
	model := filepath.Join(dir, "m.json")
	require.Equal(t, 0, cardreg(t, "fit", "--lambda", "1", "--save-model", model, data).code)
	for _, c := range []struct {
		stdin string
		args  []string
	}{
		{data, []string{"fit", "--lambda", "1", "--out", data, "-"}},
		{data, []string{"fit", "--lambda", "1", "--out", filepath.Join(dir, ".", "d.csv"), "-"}},
		{data, []string{"fit", "--lambda", "1", "--out", link, "-"}},
		{data, []string{"fit", "--lambda", "1", "--out", hard, "-"}},
		{data, []string{"fit", "--lambda", "1", "--save-model", data, "-"}},
		{data, []string{"path", "--out", data, "-"}},
		{data, []string{"cv", "--out", data, "-"}},
		{png, []string{"cv", "--plot", png, "-"}},
		{data, []string{"predict", "--model", model, "--out", data, "-"}},
	} {
		withStdin(t, c.stdin, func() {
			oneLine(t, cardreg(t, c.args...), 2, "is the standard input of this command", "refusing to overwrite it")
		})
	}
	for _, p := range []string{data, png} {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		require.Equal(t, small, string(b))
	}
	// Another file is written as usual.
	other := filepath.Join(dir, "fit.txt")
	withStdin(t, data, func() {
		res := cardreg(t, "fit", "--lambda", "1", "--out", other, "-")
		require.Equal(t, 0, res.code, res.stderr)
	})
	b, err := os.ReadFile(other)
	require.NoError(t, err)
	require.Contains(t, string(b), "penalty")
}
