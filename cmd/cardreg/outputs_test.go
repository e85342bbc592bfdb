package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cardsparse/cardreg/internal/atomicfile"
	"github.com/cardsparse/cardreg/internal/outfile"
	"github.com/stretchr/testify/require"
)

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
		{[]string{"fit", "--stream", "--folds", "5", "--memory", "4GB", wide},
			[]string{"statistics of 20001 variables on 5 folds need about 70.4 GB (11 matrices of 20001 × 20001 float64, doubled", "more than --memory 4 GB; drop columns (--predictors, --drop), fit in memory without --stream when the rows are few or use fewer --folds (3 at least)\n"}},
		{[]string{"fit", "--stream", "--lambda", "1", "--memory", "4GB", wide},
			[]string{"statistics of 20001 variables need about 44.8 GB (7 matrices", "more than --memory 4 GB; drop columns (--predictors, --drop) or fit in memory without --stream when the rows are few\n"}},
		{[]string{"cv", "--stream", "--folds", "10", "--memory", "4GB", wide},
			[]string{"on 10 folds need about 128 GB"}},
		{[]string{"path", "--stream", "--memory", "4GB", wide}, []string{"need about"}},
		{[]string{"fit", "--family", "binomial", "--stream", "--lambda", "1", "--memory", "4GB", wide},
			[]string{"Newton statistics of 20000 predictors need about 32 GB (5 matrices of 20001 × 20001 float64, doubled", "more than --memory 4 GB; drop columns (--predictors, --drop) or fit in memory without --stream when the rows are few\n"}},
		{[]string{"cv", "--family", "poisson", "--stream", "--memory", "4GB", wide}, []string{"Newton statistics"}},
	} {
		start := time.Now()
		oneLine(t, cardreg(t, c.args...), 1, append(c.want, wide+": ")...)
		require.Less(t, time.Since(start), 5*time.Second, c.args)
	}
	// A Newton step fits, the rounds' Gram matrices per fold do not.
	mid := wideCSV(t, dir, 3, 2000)
	oneLine(t, cardreg(t, "cv", "--family", "binomial", "--stream", "--memory", "1GB", mid), 1,
		mid+": a fit in rounds of 2000 predictors on 10 folds needs about", "more than --memory 1 GB; drop columns")

	// Streaming by itself (the file passes --memory): the note, then the
	// refusal, which does not suggest leaving out --stream.
	res := cardreg(t, "fit", "--lambda", "1", "--memory", "100kB", wide)
	require.Equal(t, 1, res.code)
	require.Equal(t, []string{
		"cardreg: " + wide + ": streaming (249 kB as float64 × 17 > --memory 100 kB)",
		"cardreg fit: " + wide + ": the streamed statistics of 20001 variables need about 44.8 GB (7 matrices of 20001 × 20001 float64, doubled for the garbage collector), more than --memory 100 kB; drop columns (--predictors, --drop)",
	}, strings.Split(strings.TrimSpace(res.stderr), "\n"))

	// --db: the server names 20001 columns; no statistics are asked for.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !strings.Contains(string(body), "LIMIT 0") {
			t.Errorf("query after the refusal: %.80s", body)
			http.Error(w, "no", http.StatusBadRequest)
			return
		}
		names, types := make([]string, 20001), make([]string, 20001)
		for j := range names {
			names[j], types[j] = fmt.Sprintf("x%d", j), "Float64"
		}
		io.WriteString(w, strings.Join(names, "\t")+"\n"+strings.Join(types, "\t")+"\n")
	}))
	defer srv.Close()
	oneLine(t, cardreg(t, "cv", "--folds", "5", "--db", srv.URL, "--table", "wide", "--memory", "4GB"), 1,
		"statistics of 20001 variables on 5 folds need about 70.4 GB", "more than --memory 4 GB", "fewer --folds")

	// In memory, XᵀX is formed when n ≥ p: 100 × 100 takes 2 × 6 × 80 kB.
	square := wideCSV(t, dir, 100, 100)
	oneLine(t, cardreg(t, "fit", "--lambda", "1", "--memory", "800kB", square), 1,
		"Gram matrices of 100 predictors need about 960 kB (6 matrices of 100 × 100 float64, doubled for the garbage collector), more than --memory 800 kB")
	res = cardreg(t, "fit", "--lambda", "1", "--memory", "1.2MB", square)
	require.Equal(t, 0, res.code, res.stderr)

	// --foldid grows the folds as they come: each new one is checked.
	var b strings.Builder
	b.WriteString("a,b,fold,y\n")
	for i := range 60 {
		fmt.Fprintf(&b, "%d,%d,%d,%d\n", i%5, i%3, i+1, i%7)
	}
	folds := writeFile(t, dir, "folds.csv", b.String())
	oneLine(t, cardreg(t, "cv", "--stream", "--foldid", "fold", "--memory", "5kB", folds), 1,
		`folds.csv:19: column "fold"`, "on 18 folds need about 5.18 kB", "more than --memory 5 kB", "(--foldid)")
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
		{data, []string{"net", "--arch", "2,1", "--epochs", "1", "--out", data, "-"}},
		{data, []string{"net", "--arch", "2,1", "--epochs", "1", "--save-model", link, "-"}},
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
	// net refuses its outputs naming its data too (it did not check).
	for _, args := range [][]string{
		{"net", "--arch", "2,1", "--epochs", "1", "--out", data, data},
		{"net", "--arch", "2,1", "--epochs", "1", "--save-model", hard, data},
		{"net", "--arch", "2,1", "--epochs", "1", "--out", other(dir), "--save-model", other(dir), data},
	} {
		oneLine(t, cardreg(t, args...), 2, "refusing")
	}
	b, err := os.ReadFile(data)
	require.NoError(t, err)
	require.Equal(t, small, string(b))
	require.NoFileExists(t, other(dir))

	// Another file is written as usual.
	other := filepath.Join(dir, "fit.txt")
	withStdin(t, data, func() {
		res := cardreg(t, "fit", "--lambda", "1", "--out", other, "-")
		require.Equal(t, 0, res.code, res.stderr)
	})
	b, err = os.ReadFile(other)
	require.NoError(t, err)
	require.Contains(t, string(b), "penalty")
}

// other is a file in dir that no test writes.
func other(dir string) string { return filepath.Join(dir, "other.out") }

// A dangling symbolic link given as an output gets its target created (as
// a shell's > does) and stays a link; a target that cannot be created, or
// a loop of links, is an error that leaves the links as they were.
func TestDanglingSymlinkOutput(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", small)
	plain := cardreg(t, "fit", "--lambda", "1", data)
	require.Equal(t, 0, plain.code)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	links := map[string]string{ // link → what it names
		"rel":    "new-rel.txt",
		"abs":    filepath.Join(dir, "sub", "new-abs.txt"),
		"chain":  "chain2",
		"chain2": "sub/new-chain.txt",
		"insub":  "../new-insub.txt", // relative to the link's own directory
		"bad":    "missing/x.txt",
		"loop":   "loop2",
		"loop2":  "loop",
	}
	for link, dest := range links {
		at := filepath.Join(dir, link)
		if link == "insub" {
			at = filepath.Join(dir, "sub", link)
		}
		require.NoError(t, os.Symlink(dest, at))
	}
	for _, c := range []struct{ link, created string }{
		{"rel", "new-rel.txt"},
		{"abs", "sub/new-abs.txt"},
		{"chain", "sub/new-chain.txt"},
		{"sub/insub", "new-insub.txt"},
	} {
		res := cardreg(t, "fit", "--lambda", "1", "--out", filepath.Join(dir, c.link), data)
		require.Equal(t, 0, res.code, res.stderr)
		b, err := os.ReadFile(filepath.Join(dir, c.created))
		require.NoError(t, err, c.link)
		require.Equal(t, plain.stdout, string(b))
	}
	// --save-model and path --out follow them too.
	require.NoError(t, os.Symlink("model.json", filepath.Join(dir, "m")))
	require.Equal(t, 0, cardreg(t, "fit", "--lambda", "1", "--save-model", filepath.Join(dir, "m"), data).code)
	require.FileExists(t, filepath.Join(dir, "model.json"))
	require.NoError(t, os.Symlink("path.csv", filepath.Join(dir, "p")))
	require.Equal(t, 0, cardreg(t, "path", "--nlambda", "3", "--out", filepath.Join(dir, "p"), data).code)
	require.FileExists(t, filepath.Join(dir, "path.csv"))

	oneLine(t, cardreg(t, "fit", "--lambda", "1", "--out", filepath.Join(dir, "bad"), data), 1,
		"--out "+filepath.Join(dir, "bad"), "missing/x.txt", "does not exist")
	oneLine(t, cardreg(t, "fit", "--lambda", "1", "--out", filepath.Join(dir, "loop"), data), 1,
		"too many levels of symbolic links")
	for link, dest := range links {
		at := filepath.Join(dir, link)
		if link == "insub" {
			at = filepath.Join(dir, "sub", link)
		}
		got, err := os.Readlink(at)
		require.NoError(t, err, "%s is no longer a link", link)
		require.Equal(t, dest, got)
	}
	require.NoDirExists(t, filepath.Join(dir, "missing"))

	// Two dangling links to one file, or a link and the file it would
	// create, are one output named twice.
	require.NoError(t, os.Symlink("twice.txt", filepath.Join(dir, "t1")))
	require.NoError(t, os.Symlink("twice.txt", filepath.Join(dir, "t2")))
	for _, pair := range [][2]string{{"t1", "t2"}, {"t1", "twice.txt"}} {
		oneLine(t, cardreg(t, "fit", "--lambda", "1", "--out", filepath.Join(dir, pair[0]),
			"--save-model", filepath.Join(dir, pair[1]), data), 2, "name the same file")
	}
	require.NoFileExists(t, filepath.Join(dir, "twice.txt"))
}

// Where an unnamed output cannot be linked in (no /proc), its bytes are
// copied to a temporary file renamed over the target: the same result,
// nothing left behind.
func TestOutputLinkFallback(t *testing.T) {
	if !atomicfile.Unnamed {
		t.Skip("no unnamed outputs on this system")
	}
	old := atomicfile.ProcFD
	atomicfile.ProcFD = "/nonexistent/%d"
	defer func() { atomicfile.ProcFD = old }()
	dir := t.TempDir()
	existing := writeFile(t, dir, "old.txt", "old\n")
	require.NoError(t, os.Chmod(existing, 0o640))
	for _, target := range []string{existing, filepath.Join(dir, "new.txt")} {
		require.NoError(t, outfile.Write("--out", target, nil, func(w io.Writer) error {
			_, err := io.WriteString(w, strings.Repeat("row\n", 100000))
			return err
		}))
		b, err := os.ReadFile(target)
		require.NoError(t, err)
		require.Equal(t, strings.Repeat("row\n", 100000), string(b))
	}
	require.Equal(t, []string{"new.txt", "old.txt"}, listDir(t, dir))
	fi, err := os.Stat(existing)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o640), fi.Mode().Perm())
	fi, err = os.Stat(filepath.Join(dir, "new.txt"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o666)&^umask(), fi.Mode().Perm())
}

// While an output is written no file of any name is in its directory (it
// is unnamed until complete); then the target holds exactly what was
// written, a replaced file keeps its permissions, and nothing else is
// left. The named fallback gives the same results.
func TestOutputUnnamedWhileWriting(t *testing.T) {
	for _, unnamed := range []bool{true, false} {
		t.Run(fmt.Sprint("unnamed=", unnamed), func(t *testing.T) {
			old := atomicfile.Unnamed
			atomicfile.Unnamed = unnamed
			defer func() { atomicfile.Unnamed = old }()
			dir := t.TempDir()
			existing := writeFile(t, dir, "old.txt", "old\n")
			require.NoError(t, os.Chmod(existing, 0o600))
			for _, target := range []string{filepath.Join(dir, "new.txt"), existing} {
				before := listDir(t, dir)
				err := outfile.Write("--out", target, nil, func(w io.Writer) error {
					io.WriteString(w, "first half\n")
					during := listDir(t, dir)
					if unnamed {
						require.Equal(t, before, during, "a named file exists while writing")
					} else {
						require.Len(t, during, len(before)+1, "the fallback writes a temporary file")
					}
					_, err := io.WriteString(w, "second half\n")
					return err
				})
				require.NoError(t, err)
				b, err := os.ReadFile(target)
				require.NoError(t, err)
				require.Equal(t, "first half\nsecond half\n", string(b))
			}
			require.Equal(t, []string{"new.txt", "old.txt"}, listDir(t, dir))
			fi, err := os.Stat(existing)
			require.NoError(t, err)
			require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
			fi, err = os.Stat(filepath.Join(dir, "new.txt"))
			require.NoError(t, err)
			require.Equal(t, os.FileMode(0o666)&^umask(), fi.Mode().Perm())
			// A failed write leaves the old file and nothing else.
			err = outfile.Write("--out", existing, nil, func(w io.Writer) error {
				io.WriteString(w, "partial")
				return errors.New("disk full")
			})
			require.ErrorContains(t, err, "disk full")
			b, err := os.ReadFile(existing)
			require.NoError(t, err)
			require.Equal(t, "first half\nsecond half\n", string(b))
			require.Equal(t, []string{"new.txt", "old.txt"}, listDir(t, dir))
		})
	}
}

// umask returns the process's umask.
func umask() os.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return os.FileMode(m)
}

// A run killed (SIGKILL, no chance to clean up) while writing leaves no
// file behind: the test binary runs itself as cardreg, blocked writing.
func TestKilledWriteLeavesNothing(t *testing.T) {
	if out := os.Getenv("CARDREG_KILL_CHILD"); out != "" {
		outfile.Write("--out", out, nil, func(w io.Writer) error {
			w.Write(make([]byte, 1<<20))
			os.Stdout.WriteString("writing\n")
			time.Sleep(time.Minute)
			return nil
		})
		os.Exit(0)
	}
	dir := t.TempDir()
	cmd := writingChild(t, "TestKilledWriteLeavesNothing", "CARDREG_KILL_CHILD", filepath.Join(dir, "out.txt"))
	require.NoError(t, cmd.Process.Kill())
	cmd.Wait()
	require.Empty(t, listDir(t, dir), "a killed write left a file")
}

// An output that cannot be created is a one-line error naming it and the
// cause, never the temporary file.
func TestOutputCreateErrors(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", small)
	notDir := writeFile(t, dir, "file", "x\n")
	for _, c := range []struct{ out, want string }{
		{filepath.Join(dir, "nodir", "x.csv"), "cannot create " + filepath.Join(dir, "nodir", "x.csv") + ": the directory " + filepath.Join(dir, "nodir") + " does not exist"},
		{filepath.Join(notDir, "x.csv"), "cannot create " + filepath.Join(notDir, "x.csv") + ": not a directory"},
	} {
		for _, unnamed := range []bool{true, false} {
			old := atomicfile.Unnamed
			atomicfile.Unnamed = unnamed && old
			res := cardreg(t, "fit", "--lambda", "1", "--out", c.out, data)
			atomicfile.Unnamed = old
			oneLine(t, res, 1, "--out "+c.out+": "+c.want)
			require.NotContains(t, res.stderr, ".cardreg-")
		}
	}
}

// Every file a fit reads is an input no output may overwrite: the data and
// the files of --G, --groups and --penalty-factor (--out naming the
// penalty-factor file replaced it with the fit table).
func TestInputFilesAreInputs(t *testing.T) {
	dir := t.TempDir()
	factors := writeFile(t, dir, "factors.txt", strings.Repeat("1\n", 12))
	groups := writeFile(t, dir, "groups.txt", strings.Repeat("1\n", 6)+strings.Repeat("2\n", 6))
	for _, args := range [][]string{
		{"fit", "--penalty", "lasso", "--lambda", "5", "--penalty-factor", factors, "--out", factors},
		{"fit", "--penalty", "lasso", "--lambda", "5", "--penalty-factor", factors, "--save-model", factors},
		{"path", "--penalty", "lasso", "--penalty-factor", factors, "--out", factors},
		{"cv", "--penalty", "lasso", "--penalty-factor", factors, "--out", factors},
		{"fit", "--penalty", "grouped", "--lambda", "5", "--groups", groups, "--out", groups},
	} {
		oneLine(t, cardreg(t, append(args, cardinalityData)...), 2, "is an input of this command", "refusing to overwrite it")
	}
	b, err := os.ReadFile(factors)
	require.NoError(t, err)
	require.Equal(t, strings.Repeat("1\n", 12), string(b))
	// An inline list names no file.
	res := cardreg(t, "fit", "--penalty", "lasso", "--lambda", "5", "--penalty-factor", strings.TrimSuffix(strings.Repeat("1,", 12), ","), "--out", filepath.Join(dir, "fit.txt"), cardinalityData)
	require.Equal(t, 0, res.code, res.stderr)
}

// A gaussian fit streamed with an offset goes through per-fold
// statistics like one without; its check counted the Newton statistics
// (5 matrices) instead, so a cv that needed 20 ran past --memory.
func TestStreamedOffsetStatsChecked(t *testing.T) {
	wide := wideCSV(t, t.TempDir(), 40, 300)
	oneLine(t, cardreg(t, "cv", "--stream", "--offset", "x0", "--folds", "10", "--memory", "8MB", wide), 1,
		"statistics of 300 variables on 10 folds need about 28.8 MB (20 matrices of 300 × 300", "more than --memory 8 MB")
}
