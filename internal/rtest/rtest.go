// Package rtest runs the R reference scripts of the tests (bench/*.R, R's
// glmnet) in one R process per test binary instead of one Rscript per
// case: R and glmnet take about a second to start, the reference fits a
// few milliseconds, so a package that compares dozens of cases with glmnet
// spent most of its time starting R.
//
// The first call starts `Rscript` with a small driver that reads jobs from
// its standard input, one per line: the output file, the script, then the
// script's arguments. For each job the driver sources the script with
// commandArgs() returning those arguments and quit() ending only the job,
// and writes what the script prints to the output file. Jobs run one at a
// time (R is single-threaded); callers may call Output concurrently. The
// process ends when the test binary exits (its standard input closes).
package rtest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// driver is the R side: it loads glmnet once, then runs one job per line
// of standard input, fields separated by the unit separator (0x1f).
const driver = `
suppressPackageStartupMessages(library(glmnet))
.rtest_args <- character(0)
commandArgs <- function(trailingOnly = FALSE) .rtest_args
quit <- function(...) stop(structure(class = c("rtestquit", "error", "condition"),
                                     list(message = "quit", call = NULL)))
q <- quit
.rtest_in <- file("stdin")
open(.rtest_in)
cat("ready\n"); flush(stdout())
while (length(.rtest_line <- readLines(.rtest_in, n = 1)) > 0) {
  .rtest_f <- strsplit(.rtest_line, "\x1f", fixed = TRUE)[[1]]
  .rtest_args <- .rtest_f[-(1:2)]
  .rtest_out <- file(.rtest_f[1], open = "wt")
  sink(.rtest_out)
  sink(.rtest_out, type = "message")
  .rtest_status <- tryCatch({
    sys.source(.rtest_f[2], envir = new.env(parent = globalenv()))
    "ok"
  }, rtestquit = function(e) "ok",
     error = function(e) paste("error:", conditionMessage(e)))
  sink(type = "message")
  sink()
  close(.rtest_out)
  cat(gsub("\n", " ", .rtest_status), "\n", sep = "")
  flush(stdout())
}
`

// server is the one R process of this test binary.
type server struct {
	mu  sync.Mutex
	in  io.WriteCloser
	out *bufio.Reader
	err error // why R could not be started, if it could not
}

var (
	once sync.Once
	srv  server
)

func start() {
	cmd := exec.Command("Rscript", "-e", driver)
	cmd.Stderr = os.Stderr
	var err error
	if srv.in, err = cmd.StdinPipe(); err != nil {
		srv.err = err
		return
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		srv.err = err
		return
	}
	if err = cmd.Start(); err != nil {
		srv.err = fmt.Errorf("starting Rscript: %w", err)
		return
	}
	srv.out = bufio.NewReader(stdout)
	line, err := srv.out.ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "ready" {
		srv.err = fmt.Errorf("rtest: R with glmnet did not start (%q, %v)", line, err)
		// R may be waiting for a job on its standard input: end it.
		srv.in.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
}

// Available reports whether R with glmnet could be started.
func Available() bool {
	once.Do(start)
	return srv.err == nil
}

// SkipUnlessAvailable skips t when R or its glmnet package is missing, as
// the tests always have (CI installs r-cran-glmnet).
func SkipUnlessAvailable(t testing.TB) {
	t.Helper()
	if !Available() {
		t.Skipf("R's glmnet is not available (apt-get install r-cran-glmnet): %v", srv.err)
	}
}

// Output runs the R script with args in the shared R process, as
// `Rscript script args…` would, and returns what it printed (standard
// output and messages). An error in the script is returned with its
// message; the process stays usable.
func Output(script string, args ...string) ([]byte, error) {
	if !Available() {
		return nil, srv.err
	}
	for _, a := range append([]string{script}, args...) {
		if strings.ContainsAny(a, "\x1f\n") {
			return nil, fmt.Errorf("rtest: argument %q holds a separator or a newline", a)
		}
	}
	f, err := os.CreateTemp("", "rtest-*.txt")
	if err != nil {
		return nil, err
	}
	out := f.Name()
	f.Close()
	defer os.Remove(out)
	srv.mu.Lock()
	defer srv.mu.Unlock()
	job := strings.Join(append([]string{out, script}, args...), "\x1f") + "\n"
	if _, err := io.WriteString(srv.in, job); err != nil {
		return nil, fmt.Errorf("rtest: R is gone: %w", err)
	}
	status, err := srv.out.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("rtest: R is gone: %w", err)
	}
	text, rerr := os.ReadFile(out)
	if rerr != nil {
		return nil, rerr
	}
	if s := strings.TrimSpace(status); s != "ok" {
		return text, errors.New(s)
	}
	return text, nil
}
