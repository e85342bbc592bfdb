package main

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
)

// writeOutput writes to stdout (path "" or "-"), or to a file. A regular
// file (or a new one) is written through a temporary file in its directory
// that replaces it only once complete, so a failure never leaves a partial
// file; a new file gets the usual permissions (0666 less the umask), a
// replaced one keeps its own, and a symbolic link is followed, not replaced.
// Anything else (a device such as /dev/stdout, a FIFO) is written to
// directly, never replaced. Every write error is returned.
func writeOutput(flagName, path string, stdout io.Writer, fn func(io.Writer) error) error {
	if path == "" || path == "-" {
		return writeChecked(stdout, fn)
	}
	target := path
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		target = resolved
	}
	if fi, err := os.Stat(target); err == nil && !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return fmt.Errorf("%s %s: is a directory", flagName, path)
		}
		return writeThrough(flagName, path, fn)
	}
	tmp, err := createTemp(filepath.Dir(target))
	if err != nil {
		return fmt.Errorf("%s %s: %v", flagName, path, err)
	}
	defer removeTemp(tmp.Name())
	if err := writeChecked(tmp, fn); err != nil {
		tmp.Close()
		return fmt.Errorf("%s %s: %w", flagName, path, err)
	}
	if fi, err := os.Stat(target); err == nil && fi.Mode().IsRegular() {
		tmp.Chmod(fi.Mode().Perm())
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s %s: %v", flagName, path, err)
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return fmt.Errorf("%s %s: %v", flagName, path, err)
	}
	return nil
}

// writeThrough writes to a file that is not a regular one (a device, a
// FIFO) in place.
func writeThrough(flagName, path string, fn func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("%s %s: %v", flagName, path, err)
	}
	err = writeChecked(f, fn)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", flagName, path, err)
	}
	return nil
}

// writeChecked runs fn on w and returns fn's error or, if fn ignored one,
// the first error writing to w.
func writeChecked(w io.Writer, fn func(io.Writer) error) error {
	ew := &errWriter{w: w}
	if err := fn(ew); err != nil {
		return err
	}
	return ew.err
}

// errWriter remembers the first write error; later writes fail with it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, err
}

// temps are the temporary files being written, removed on a signal.
var temps struct {
	sync.Mutex
	names map[string]bool
}

// createTemp is os.CreateTemp with mode 0666 (less the umask) instead of
// 0600, since the file becomes the user's output. The file is removed if
// the process is interrupted (see removeTempsOnSignal) before removeTemp.
func createTemp(dir string) (*os.File, error) {
	temps.Lock()
	defer temps.Unlock()
	for range 100 {
		name := filepath.Join(dir, fmt.Sprintf(".cardreg-%d.tmp", rand.Uint64()))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err == nil {
			if temps.names == nil {
				temps.names = map[string]bool{}
			}
			temps.names[name] = true
		}
		return f, err
	}
	return nil, errors.New("cannot create a temporary file")
}

// removeTemp removes a temporary file (already renamed or not).
func removeTemp(name string) {
	temps.Lock()
	defer temps.Unlock()
	os.Remove(name)
	delete(temps.names, name)
}

// removeTempsOnSignal removes the temporary files when the process gets an
// interrupt, hang-up or termination signal, then exits with 128 + the
// signal's number, as a shell reports it.
func removeTempsOnSignal() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		s := <-ch
		temps.Lock() // held until exit: no new temporary file
		for name := range temps.names {
			os.Remove(name)
		}
		code := 1
		if n, ok := s.(syscall.Signal); ok {
			code = 128 + int(n)
		}
		os.Exit(code)
	}()
}

// checkPaths refuses a command line whose outputs would overwrite one of
// its inputs or each other. outputs are pairs of flag name and path
// ("" for unset); inputs are data files read ("-": standard input, which
// an output may not name either when it is a file).
func checkPaths(inputs []string, outputs ...string) error {
	type named struct{ flag, path string }
	var outs []named
	for i := 0; i+1 < len(outputs); i += 2 {
		if p := outputs[i+1]; p != "" && p != "-" {
			outs = append(outs, named{outputs[i], p})
		}
	}
	for i, o := range outs {
		for _, in := range inputs {
			if in == "-" && isStdin(o.path) {
				return usagef("%s %s is the standard input of this command, an input; refusing to overwrite it", o.flag, o.path)
			}
			if in != "-" && samePath(o.path, in) {
				return usagef("%s %s is an input of this command; refusing to overwrite it", o.flag, o.path)
			}
		}
		for _, p := range outs[:i] {
			if samePath(o.path, p.path) {
				return usagef("%s and %s name the same file %s; refusing to write it twice", p.flag, o.flag, o.path)
			}
		}
	}
	return nil
}

// isStdin reports whether path names the regular file standard input
// reads (a redirection: cardreg fit --out d.csv - < d.csv).
func isStdin(path string) bool {
	in, err := os.Stdin.Stat()
	if err != nil || !in.Mode().IsRegular() {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && os.SameFile(in, fi)
}

// samePath reports whether two paths name the same regular file (existing,
// or to be created). Devices and FIFOs may be named twice.
func samePath(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb) && fa.Mode().IsRegular()
	}
	if errA == nil || errB == nil {
		return false
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}
