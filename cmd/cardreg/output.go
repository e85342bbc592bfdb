package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
)

// writeOutput writes to stdout (path "" or "-"), or to a file. A regular
// file (or a new one) is written to a file with no name in its directory
// (O_TMPFILE, where the system has it; else a hidden temporary file) that
// replaces it only once complete, so a failure never leaves a partial file
// and a killed run leaves nothing; a new file gets the usual permissions
// (0666 less the umask), a replaced one keeps its own. A symbolic link is
// followed, not replaced: one that names no file yet (dangling) gets its
// target created, as a shell's > does. Anything else (a device such as
// /dev/stdout, a FIFO) is written to directly, never replaced. Every write
// error is returned.
func writeOutput(flagName, path string, stdout io.Writer, fn func(io.Writer) error) error {
	if path == "" || path == "-" {
		return writeChecked(stdout, fn)
	}
	target, err := resolveLinks(path)
	if err != nil {
		return fmt.Errorf("%s %s: %v", flagName, path, err)
	}
	if fi, err := os.Stat(target); err == nil && !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return fmt.Errorf("%s %s: is a directory", flagName, path)
		}
		return writeThrough(flagName, path, fn)
	}
	out, err := createOutput(target)
	if err != nil {
		return fmt.Errorf("%s %s: %v", flagName, path, createError(target, err))
	}
	defer out.discard()
	if err := writeChecked(out.f, fn); err != nil {
		return fmt.Errorf("%s %s: %w", flagName, path, err)
	}
	if err := out.commit(target); err != nil {
		return fmt.Errorf("%s %s: %v", flagName, path, err)
	}
	return nil
}

// createError says why target could not be created, naming it rather
// than a temporary file.
func createError(target string, err error) error {
	dir := filepath.Dir(target)
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist) && !exists(dir):
		return fmt.Errorf("cannot create %s: the directory %s does not exist", target, dir)
	case errors.As(err, &pe):
		return fmt.Errorf("cannot create %s: %v", target, pe.Err)
	}
	return err
}

// exists reports whether path names a file (after its links).
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// maxLinks bounds a chain of symbolic links, as the kernel does (ELOOP).
const maxLinks = 40

// resolveLinks follows path's symbolic links to the file they name, which
// may not exist yet (a dangling link's target); a path that is not a link
// is returned as it is.
func resolveLinks(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return path, nil
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dir := filepath.Dir(path)
			if real, err := filepath.EvalSymlinks(dir); err == nil {
				dir = real
			}
			// Not filepath.Join: "sub/.." must be resolved by the
			// system, not cleaned away.
			if dir != "." {
				dest = dir + string(filepath.Separator) + dest
			}
		}
		path = dest
	}
	return "", errors.New("too many levels of symbolic links")
}

// output is a file being written in a directory: unnamed (O_TMPFILE) or
// under a temporary name until commit gives it its final name.
type output struct {
	f     *os.File
	dir   string
	named string // the temporary name, "" while unnamed
	done  bool
}

// createOutput starts an output to become target, in its directory:
// unnamed where the system and the file system allow it (its errors then
// name target), else under a temporary name.
func createOutput(target string) (*output, error) {
	dir := filepath.Dir(target)
	if f, err := openUnnamed(dir, target); err == nil {
		return &output{f: f, dir: dir}, nil
	}
	f, err := createTemp(dir)
	if err != nil {
		return nil, err
	}
	return &output{f: f, dir: dir, named: f.Name()}, nil
}

// commit gives the complete output the name target, replacing the file
// there at once: an unnamed file is first linked under a temporary name
// (or, where linking fails, copied to a temporary file); a replaced file's
// permissions are kept.
func (o *output) commit(target string) error {
	if fi, err := os.Stat(target); err == nil && fi.Mode().IsRegular() {
		if err := o.f.Chmod(fi.Mode().Perm()); err != nil {
			return err
		}
	}
	if o.named == "" {
		if err := o.name(); err != nil {
			return err
		}
	}
	err := o.f.Close()
	o.f = nil
	if err != nil {
		return err
	}
	if err := os.Rename(o.named, target); err != nil {
		var le *os.LinkError
		if errors.As(err, &le) {
			err = fmt.Errorf("cannot create %s: %v", target, le.Err)
		}
		return err
	}
	o.done = true
	return nil
}

// name gives an unnamed output a temporary name in its directory.
func (o *output) name() error {
	name, err := linkTemp(o.f, o.dir)
	if err == nil {
		o.named = name
		return nil
	}
	// No link from /proc (not mounted?): copy the bytes instead.
	tmp, err := createTemp(o.dir)
	if err != nil {
		return err
	}
	o.named = tmp.Name()
	if _, err := o.f.Seek(0, io.SeekStart); err != nil {
		tmp.Close()
		return err
	}
	if _, err := io.Copy(tmp, o.f); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(o.mode()); err != nil {
		tmp.Close()
		return err
	}
	o.f.Close()
	o.f = tmp
	return nil
}

// mode returns the permissions of the output file (0666 less the umask
// when new).
func (o *output) mode() os.FileMode {
	if fi, err := o.f.Stat(); err == nil {
		return fi.Mode().Perm()
	}
	return 0o644
}

// discard closes and removes an output that was not committed.
func (o *output) discard() {
	if o.f != nil {
		o.f.Close()
	}
	if o.named != "" && !o.done {
		removeTemp(o.named)
	} else if o.named != "" {
		forgetTemp(o.named)
	}
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
	var f *os.File
	_, err := claimTemp(dir, func(name string) error {
		var err error
		f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		return err
	})
	return f, err
}

// claimTemp creates a file under a fresh temporary name in dir with
// create (which fails with os.ErrExist when the name is taken) and
// records the name for removal on a signal.
func claimTemp(dir string, create func(name string) error) (string, error) {
	temps.Lock()
	defer temps.Unlock()
	for range 100 {
		name := filepath.Join(dir, fmt.Sprintf(".cardreg-%d.tmp", rand.Uint64()))
		err := create(name)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		if temps.names == nil {
			temps.names = map[string]bool{}
		}
		temps.names[name] = true
		return name, nil
	}
	return "", errors.New("cannot create a temporary file")
}

// removeTemp removes a temporary file (already renamed or not).
func removeTemp(name string) {
	temps.Lock()
	defer temps.Unlock()
	os.Remove(name)
	delete(temps.names, name)
}

// forgetTemp stops tracking a temporary file that was renamed.
func forgetTemp(name string) {
	temps.Lock()
	defer temps.Unlock()
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
	// Neither exists yet: compare the files they would create (a
	// dangling link's target).
	if ra, err := resolveLinks(a); err == nil {
		a = ra
	}
	if rb, err := resolveLinks(b); err == nil {
		b = rb
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}
