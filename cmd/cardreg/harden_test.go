package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cardsparse/cardreg/internal/atomicfile"
	"github.com/cardsparse/cardreg/internal/outfile"
	"github.com/stretchr/testify/require"
)

// oneLine checks a failed run: the exit code, nothing on stdout, one line
// on stderr holding every want.
func oneLine(t *testing.T, res cliResult, code int, want ...string) {
	t.Helper()
	require.Equal(t, code, res.code, "stderr: %s", res.stderr)
	require.Empty(t, res.stdout)
	require.Equal(t, 1, strings.Count(res.stderr, "\n"), "want one line on stderr, got %q", res.stderr)
	for _, w := range want {
		require.Contains(t, res.stderr, w)
	}
}

const small = "a,b,y\n1,2,3\n2,1,5\n3,3,3\n4,0,1\n5,5,5\n6,1,2\n7,2,8\n8,3,4\n9,1,9\n10,4,6\n"

// Input formats: gzip is read, stdin is "-", and what is not CSV text is
// named for what it looks like.
func TestInputFormats(t *testing.T) {
	dir := t.TempDir()
	plain := writeFile(t, dir, "d.csv", small)
	want := cardreg(t, "fit", "--lambda", "1", "--format", "json", plain)
	require.Equal(t, 0, want.code, want.stderr)

	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(small))
	zw.Close()
	for _, name := range []string{"d.csv.gz", "d-gzip-without-suffix.csv"} {
		got := cardreg(t, "fit", "--lambda", "1", "--format", "json", writeFile(t, dir, name, gz.String()))
		require.Equal(t, 0, got.code, got.stderr)
		require.Equal(t, want.stdout, strings.ReplaceAll(got.stdout, name, "d.csv"))
	}
	truncated := writeFile(t, dir, "cut.csv.gz", gz.String()[:gz.Len()-12])
	oneLine(t, cardreg(t, "fit", "--lambda", "1", truncated), 1, "cut.csv.gz", "gzip")

	t.Run("stdin", func(t *testing.T) {
		f, err := os.Open(plain)
		require.NoError(t, err)
		defer f.Close()
		old := os.Stdin
		os.Stdin = f
		defer func() { os.Stdin = old }()
		got := cardreg(t, "fit", "--lambda", "1", "--format", "json", "-")
		require.Equal(t, 0, got.code, got.stderr)
		require.Equal(t, want.stdout, got.stdout)
	})

	utf16 := func(bom bool) string {
		var b []byte
		if bom {
			b = append(b, 0xff, 0xfe)
		}
		for _, c := range []byte(small) {
			b = append(b, c, 0)
		}
		return string(b)
	}
	for _, tc := range []struct{ name, content, want string }{
		{"utf16.csv", utf16(true), "UTF-16"},
		{"utf16-nobom.csv", utf16(false), "UTF-16"},
		{"data.parquet", "PAR1\x15\x04rest", "Parquet"},
		{"book.xlsx", "PK\x03\x04\x14\x00", "ZIP"},
		{"blob.csv", "a,b,y\n1,\x00\x01\x02,3\n", "binary"},
		{"x.csv.xz", "\xfd7zXZ\x00\x00", "xz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			oneLine(t, cardreg(t, "fit", writeFile(t, dir, tc.name, tc.content)), 1, tc.name, tc.want)
		})
	}
}

// Messages quote at most a short prefix of a cell or a name, and a file
// that seems to use another separator gets a --sep hint.
func TestMessages(t *testing.T) {
	dir := t.TempDir()
	huge := strings.Repeat("x", 1<<20)
	res := cardreg(t, "fit", writeFile(t, dir, "huge.csv", "a,b,y\n1,2,3\n4,"+huge+",6\n"))
	oneLine(t, res, 1, "huge.csv:3", `column "b"`, "bytes)")
	require.Less(t, len(res.stderr), 300)
	res = cardreg(t, "fit", writeFile(t, dir, "hugename.csv", "a,"+huge+",y\n1,2,3\n1,2,3\n1,x,3\n"))
	require.Less(t, len(res.stderr), 300)

	semi := writeFile(t, dir, "semi.csv", strings.ReplaceAll(small, ",", ";"))
	oneLine(t, cardreg(t, "fit", semi), 1, "semi.csv", "--sep ';'")
	tsv := writeFile(t, dir, "tab.tsv", strings.ReplaceAll(small, ",", "\t"))
	oneLine(t, cardreg(t, "fit", tsv), 1, "tab.tsv", `--sep '\t'`)
	for _, sep := range []string{`\t`, "\t", "tab"} {
		ok := cardreg(t, "fit", "--lambda", "1", "--sep", sep, tsv)
		require.Equal(t, 0, ok.code, "--sep %q: %s", sep, ok.stderr)
	}

	// Library errors name the file and the way out.
	three := writeFile(t, dir, "three.csv", "a,b,y\n1,2,3\n2,1,5\n3,3,3\n")
	oneLine(t, cardreg(t, "fit", three), 1, "three.csv", "10 folds for 3 observations", "--folds 3")
	oneLine(t, cardreg(t, "cv", three), 1, "three.csv", "--folds")
}

// Outputs: devices and FIFOs are written through, symbolic links
// followed, inputs and other outputs never overwritten.
func TestOutputTargets(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", small)
	model := filepath.Join(dir, "m.json")
	plain := cardreg(t, "fit", "--lambda", "1", data)
	require.Equal(t, 0, plain.code)

	t.Run("fifo", func(t *testing.T) {
		fifo := filepath.Join(dir, "fifo")
		require.NoError(t, syscall.Mkfifo(fifo, 0o644))
		got := make(chan []byte)
		go func() {
			f, err := os.Open(fifo)
			if err != nil {
				got <- nil
				return
			}
			b, _ := io.ReadAll(f)
			f.Close()
			got <- b
		}()
		res := cardreg(t, "fit", "--lambda", "1", "--out", fifo, data)
		require.Equal(t, 0, res.code, res.stderr)
		require.Equal(t, plain.stdout, string(<-got))
		fi, err := os.Lstat(fifo)
		require.NoError(t, err)
		require.True(t, fi.Mode()&os.ModeNamedPipe != 0, "the FIFO was replaced by %v", fi.Mode())
	})
	t.Run("device", func(t *testing.T) {
		res := cardreg(t, "fit", "--lambda", "1", "--out", "/dev/null", data)
		require.Equal(t, 0, res.code, res.stderr)
		fi, err := os.Stat("/dev/null")
		require.NoError(t, err)
		require.True(t, fi.Mode()&os.ModeCharDevice != 0, "/dev/null was replaced")
		if _, err := os.Stat("/dev/full"); err == nil {
			oneLine(t, cardreg(t, "fit", "--lambda", "1", "--out", "/dev/full", data), 1, "/dev/full", "no space")
			fi, err := os.Stat("/dev/full")
			require.NoError(t, err)
			require.True(t, fi.Mode()&os.ModeCharDevice != 0, "/dev/full was replaced")
		}
	})
	t.Run("symlink", func(t *testing.T) {
		target := writeFile(t, dir, "target.txt", "old\n")
		link := filepath.Join(dir, "link.txt")
		require.NoError(t, os.Symlink(target, link))
		require.Equal(t, 0, cardreg(t, "fit", "--lambda", "1", "--out", link, data).code)
		fi, err := os.Lstat(link)
		require.NoError(t, err)
		require.True(t, fi.Mode()&os.ModeSymlink != 0, "the link was replaced")
		b, err := os.ReadFile(target)
		require.NoError(t, err)
		require.Equal(t, plain.stdout, string(b))
	})
	t.Run("same file twice", func(t *testing.T) {
		before, err := os.ReadFile(data)
		require.NoError(t, err)
		for _, args := range [][]string{
			{"fit", "--lambda", "1", "--out", data, data},
			{"fit", "--lambda", "1", "--save-model", data, data},
			{"fit", "--lambda", "1", "--out", model, "--save-model", model, data},
			{"fit", "--lambda", "1", "--out", filepath.Join(dir, ".", "d.csv"), data},
			{"path", "--out", data, data},
			{"cv", "--plot", filepath.Join(dir, "p.png"), "--out", filepath.Join(dir, "p.png"), data},
			{"predict", "--model", model, "--out", data, data},
		} {
			oneLine(t, cardreg(t, args...), 2, "refusing")
		}
		after, err := os.ReadFile(data)
		require.NoError(t, err)
		require.Equal(t, before, after)
	})
}

// failWriter fails every write, like a full disk or a closed pipe.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// Every command fails (non-zero) when its output cannot be written.
func TestWriteErrorsExitNonZero(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", small)
	model := filepath.Join(dir, "m.json")
	require.Equal(t, 0, cardreg(t, "fit", "--lambda", "1", "--save-model", model, data).code)
	for _, args := range [][]string{
		{"fit", "--lambda", "1", data},
		{"fit", "--lambda", "1", "--format", "json", data},
		{"fit", "--lambda", "1", "--format", "csv", data},
		{"path", "--nlambda", "3", data},
		{"cv", "--nlambda", "3", "--folds", "2", data},
		{"predict", "--model", model, data},
		{"lambda", "--arch", "4,3,1", "--n", "100", "--xnorm", "1"},
		{"bound", "--max-rows", "3", "--cols", "1", "--partitions", "0"},
		{"net", "--arch", "2,3,1", "--epochs", "2", "--lr", "0.01", data}, // 0.1 diverges on these unscaled data
	} {
		t.Run(strings.Join(args[:1], " "), func(t *testing.T) {
			var stderr bytes.Buffer
			code := run(args, &outfile.ErrWriter{W: failWriter{}}, &stderr)
			stdout := &outfile.ErrWriter{W: failWriter{}}
			code2 := run(args, stdout, &stderr)
			if code == 0 && code2 == 0 {
				// What main does for a command that printed without
				// checking.
				require.Error(t, stdout.Err, "%v exited 0 with its output lost", args)
			}
		})
	}
}

// --nu: every value the theory allows is honoured, the rest refused.
func TestNuHonoured(t *testing.T) {
	data := writeFile(t, t.TempDir(), "d.csv", small)
	for _, bad := range []string{"0", "-1", "Inf", "NaN"} {
		oneLine(t, cardreg(t, "fit", "--nu", bad, data), 2, "--nu")
	}
	res := cardreg(t, "fit", "--lambda", "1", "--nu", "0.25", "--format", "json", data)
	require.Equal(t, 0, res.code, res.stderr)
	require.InDelta(t, 0.25, *decodeFit(t, res.stdout).Nu, 0)
	oneLine(t, cardreg(t, "lambda", "--arch", "4,3,1", "--n", "100", "--xnorm", "1", "--nu", "0"), 2, "--nu")
}

func TestVersionAndHelp(t *testing.T) {
	res := cardreg(t, "--version")
	require.Equal(t, 0, res.code)
	require.True(t, strings.HasPrefix(res.stdout, "cardreg "), res.stdout)
	oneLine(t, cardreg(t, "help", "nosuch"), 2, `"nosuch"`)
	for cmd, flag := range map[string]string{"path": "-nlambda", "cv": "-folds", "predict": "-model"} {
		res := cardreg(t, cmd, "-h")
		require.Equal(t, 0, res.code)
		require.Contains(t, res.stdout, flag, "%s -h lists its flags", cmd)
	}
}

// Columns: --drop and --predictors leave columns out (text ones too);
// predict reads only the model's columns.
func TestColumnSelection(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("id,a,b,note,y\n")
	for i, row := range strings.Split(strings.TrimSpace(small), "\n")[1:] {
		f := strings.Split(row, ",")
		b.WriteString("row" + f[0] + "," + f[0] + "," + f[1] + ",text " + string(rune('a'+i)) + "," + f[2] + "\n")
	}
	withID := writeFile(t, dir, "id.csv", b.String())
	want := cardreg(t, "fit", "--lambda", "1", "--format", "json", writeFile(t, dir, "d.csv", small))
	for _, args := range [][]string{
		{"--drop", "id,note"},
		{"--predictors", "a,b"},
		{"--predictors", "a, b", "--target", "y"},
	} {
		got := cardreg(t, append(append([]string{"fit", "--lambda", "1", "--format", "json"}, args...), withID)...)
		require.Equal(t, 0, got.code, "%v: %s", args, got.stderr)
		require.Equal(t, decodeFit(t, want.stdout).Coefficients, decodeFit(t, got.stdout).Coefficients)
	}
	// A text column is a factor: one with a level per row is refused as an
	// identifier.
	oneLine(t, cardreg(t, "fit", withID), 1, "id.csv: ", `column "id"`, "probably an ID column; --drop it")
	oneLine(t, cardreg(t, "fit", "--drop", "y,id,note", withID), 2, "--drop", `"y"`)
	oneLine(t, cardreg(t, "fit", "--drop", "zz", withID), 2, "--drop", `"zz"`)
	oneLine(t, cardreg(t, "fit", "--predictors", "a,y", withID), 2, "--predictors", `"y"`)

	model := filepath.Join(dir, "m.json")
	require.Equal(t, 0, cardreg(t, "fit", "--lambda", "1", "--drop", "id,note", "--save-model", model, withID).code)
	// A blank response and text columns do not matter to predict.
	blank := writeFile(t, dir, "new.csv", "id,b,a,y,note\nr1,2,1,,x\nr2,1,2,,y\n")
	res := cardreg(t, "predict", "--model", model, blank)
	require.Equal(t, 0, res.code, res.stderr)
	require.Equal(t, 3, strings.Count(res.stdout, "\n"))
	oneLine(t, cardreg(t, "predict", "--model", model, writeFile(t, dir, "noa.csv", "id,b\nr,1\n")), 1, "noa.csv", `predictor "a"`)
}

func TestGroupsFile(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", "a,b,c,y\n1,2,0,3\n2,1,1,5\n3,3,0,3\n4,0,1,1\n5,5,0,5\n6,1,1,2\n7,2,1,8\n")
	inline := cardreg(t, "fit", "--penalty", "grouped", "--groups", "g,g,h", "--lambda", "2", "--format", "json", data)
	require.Equal(t, 0, inline.code, inline.stderr)
	file := cardreg(t, "fit", "--penalty", "grouped", "--groups", writeFile(t, dir, "groups.txt", "g\ng\n\nh\n"), "--lambda", "2", "--format", "json", data)
	require.Equal(t, 0, file.code, file.stderr)
	require.Equal(t, inline.stdout, file.stdout)
	oneLine(t, cardreg(t, "fit", "--penalty", "grouped", "--groups", writeFile(t, dir, "two.txt", "g\nh\n"), data), 2, "two.txt", "2 labels for 3 predictors")
}

// A fit that stops at the iteration cap is printed, with one warning line.
func TestUnconvergedWarning(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	res := cardreg(t, "fit", "--lambda", "5", "--max-iter", "1", "--save-model", model, "../../examples/cardinality.csv")
	require.Equal(t, 0, res.code, res.stderr)
	require.NotEmpty(t, res.stdout)
	require.Equal(t, 1, strings.Count(res.stderr, "\n"), res.stderr)
	require.Contains(t, res.stderr, "warning: the fit did not converge")
	require.Contains(t, res.stderr, "saved model records converged: false")
	var saved map[string]any
	b, err := os.ReadFile(model)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &saved))
	require.Equal(t, false, saved["converged"])
	require.Contains(t, saved, "duality_gap")

	res = cardreg(t, "path", "--nlambda", "4", "--max-iter", "1", "../../examples/cardinality.csv")
	require.Equal(t, 0, res.code, res.stderr)
	require.Contains(t, res.stderr, "path fits did not converge")
	ok := cardreg(t, "fit", "--lambda", "5", "../../examples/cardinality.csv")
	require.Empty(t, ok.stderr)
}

// An interrupted write leaves no temporary file: the test binary runs
// itself as cardreg, blocked while writing, and is sent SIGINT.
func TestSignalRemovesTemp(t *testing.T) {
	if os.Getenv("CARDREG_SIGNAL_CHILD") != "" {
		atomicfile.Unnamed = false // the named fallback is what a signal cleans up
		atomicfile.RemoveOnSignal()
		outfile.Write("--out", os.Getenv("CARDREG_SIGNAL_CHILD"), nil, func(w io.Writer) error {
			io.WriteString(w, "partial")
			os.Stdout.WriteString("writing\n")
			time.Sleep(time.Minute)
			return nil
		})
		os.Exit(0)
	}
	dir := t.TempDir()
	cmd := writingChild(t, "TestSignalRemovesTemp", "CARDREG_SIGNAL_CHILD", filepath.Join(dir, "out.txt"))
	require.Len(t, listDir(t, dir), 1, "the temporary file exists while writing")
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	err := cmd.Wait()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	require.Equal(t, 130, ee.ExitCode())
	require.Empty(t, listDir(t, dir), "the temporary file was left behind")
}

// writingChild runs the test binary as cardreg for the test named, with
// env set to out, and returns once the child says it is writing out.
func writingChild(t *testing.T, test, env, out string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run", "^"+test+"$")
	cmd.Env = append(os.Environ(), env+"="+out)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	buf := make([]byte, 8)
	_, err = io.ReadFull(stdout, buf)
	require.NoError(t, err)
	require.Equal(t, "writing\n", string(buf))
	return cmd
}

// scaledCSV writes the bundled example with every predictor × sx and the
// response × sy (one column × tiny too, when tiny is not 0).
func scaledCSV(t *testing.T, dir string, sx, sy float64, tinyCol int, tiny float64) string {
	t.Helper()
	b, err := os.ReadFile("../../examples/cardinality.csv")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var out strings.Builder
	out.WriteString(lines[0] + "\n")
	for _, line := range lines[1:] {
		f := strings.Split(line, ",")
		for j := range f {
			v, err := strconv.ParseFloat(f[j], 64)
			require.NoError(t, err)
			s := sx
			if j == len(f)-1 {
				s = sy
			} else if j == tinyCol && tiny != 0 {
				s *= tiny
			}
			f[j] = strconv.FormatFloat(v*s, 'g', -1, 64)
		}
		out.WriteString(strings.Join(f, ",") + "\n")
	}
	return writeFile(t, dir, fmt.Sprintf("scaled-%g-%g-%g.csv", sx, sy, tiny), out.String())
}

// Scale: the same data at 1e-160, 1e-300 or 1e200 give the same fit
// (mapped back), not all-zero coefficients or "the response is constant";
// a column × 1e-12 is standardised, not set aside as constant.
func TestScaleClasses(t *testing.T) {
	dir := t.TempDir()
	ref := decodeFit(t, cardreg(t, "fit", "--format", "json", "--tol", "1e-10", "../../examples/cardinality.csv").stdout)
	for _, s := range []struct{ sx, sy float64 }{{1e-160, 1e-160}, {1e-300, 1e-300}, {1e200, 1e100}, {1, 1e-300}} {
		path := scaledCSV(t, dir, s.sx, s.sy, 0, 0)
		res := cardreg(t, "fit", "--format", "json", "--tol", "1e-10", path)
		require.Equal(t, 0, res.code, "%v: %s", s, res.stderr)
		got := decodeFit(t, res.stdout)
		require.InDelta(t, *ref.R2, *got.R2, 1e-7, "%v", s)
		require.Equal(t, len(ref.DistinctValues), len(got.DistinctValues), "%v", s)
		for j := range ref.Coefficients {
			require.InEpsilon(t, ref.Coefficients[j]*s.sy/s.sx, got.Coefficients[j], 1e-6, "%v", s)
		}
	}
	// One column × 1e-12, standardised: the same standardised fit, and not
	// listed as constant.
	want := decodeFit(t, cardreg(t, "fit", "--standardize", "--lambda", "20", "--format", "json", "../../examples/cardinality.csv").stdout)
	res := cardreg(t, "fit", "--standardize", "--lambda", "20", "--format", "json", scaledCSV(t, dir, 1, 1, 2, 1e-12))
	require.Equal(t, 0, res.code, res.stderr)
	got := decodeFit(t, res.stdout)
	require.NotContains(t, res.stdout, "constant_predictors")
	require.InDeltaSlice(t, want.DistinctValues, got.DistinctValues, 1e-7)
	// A truly constant column is named, at any magnitude.
	constCol := writeFile(t, dir, "const.csv", "a,c,y\n1,1e-300,2\n2,1e-300,3\n3,1e-300,5\n4,1e-300,4\n")
	res = cardreg(t, "fit", "--lambda", "1", "--format", "json", constCol)
	require.Equal(t, 0, res.code, res.stderr)
	var named struct {
		Constant []string `json:"constant_predictors"`
	}
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &named))
	require.Equal(t, []string{"c"}, named.Constant)
}

// A response near 1e200 fits; its objective (units of y², about 1e400) is
// beyond float64 and printed as null, not an encoder error.
func TestHugeResponseObjective(t *testing.T) {
	path := scaledCSV(t, t.TempDir(), 1, 1e200, 0, 0)
	res := cardreg(t, "fit", "--lambda", "1e200", "--format", "json", path)
	require.Equal(t, 0, res.code, res.stderr)
	require.Contains(t, res.stdout, `"objective": null`)
	text := cardreg(t, "fit", "--lambda", "1e200", path)
	require.Equal(t, 0, text.code, text.stderr)
	require.Contains(t, text.stdout, "beyond float64")
}
