// Package outfile writes a command's outputs: to standard output, or to a
// file written whole or not at all (package atomicfile), following
// symbolic links, writing devices and FIFOs in place, and never over one
// of the command's inputs (CheckPaths). Errors name the flag that gave
// the path.
package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cardsparse/cardreg/internal/atomicfile"
)

// Write writes to stdout (path "" or "-"), or to a file. A regular
// file (or a new one) is written through atomicfile: to a file with no
// name in its directory (O_TMPFILE, where the system has it; else a hidden
// temporary file) that replaces it only once complete, so a failure never
// leaves a partial file and a killed run leaves nothing; a new file gets
// the usual permissions (0666 less the umask), a replaced one keeps its
// own. A symbolic link is
// followed, not replaced: one that names no file yet (dangling) gets its
// target created, as a shell's > does. Anything else (a device such as
// /dev/stdout, a FIFO) is written to directly, never replaced. Every write
// error is returned.
func Write(flagName, path string, stdout io.Writer, fn func(io.Writer) error) error {
	if path == "" || path == "-" {
		return Checked(stdout, fn)
	}
	target, inPlace, err := targetOf(flagName, path)
	if err != nil {
		return err
	}
	if inPlace {
		return writeThrough(flagName, path, fn)
	}
	out, err := create(flagName, path, target)
	if err != nil {
		return err
	}
	defer out.Discard()
	if err := Checked(out, fn); err != nil {
		return fmt.Errorf("%s %s: %w", flagName, path, err)
	}
	if err := out.Commit(); err != nil {
		return fmt.Errorf("%s %s: %v", flagName, path, err)
	}
	return nil
}

// WriteSet writes several files that form one output (an experiment's
// table, summary and figures) all or none: every path is checked first
// (symbolic links followed, as Write does; a directory, device or FIFO is
// refused, since it cannot be replaced with the others), every file is
// written to a file with no name (atomicfile), and only then are they
// given their names. A failure before that leaves every file as it was;
// a rename that fails after others succeeded leaves those renamed new
// (the error names them) and the rest as they were.
// contents[i] is the content of paths[i].
func WriteSet(flagName string, paths []string, contents [][]byte) error {
	targets := make([]string, len(paths))
	for i, p := range paths {
		t, inPlace, err := targetOf(flagName, p)
		if err == nil && inPlace {
			err = fmt.Errorf("%s %s: is not a regular file", flagName, p)
		}
		if err != nil {
			return fmt.Errorf("%w; none of the %d files was written", err, len(paths))
		}
		targets[i] = t
	}
	outs := make([]*atomicfile.File, 0, len(paths))
	defer func() {
		for _, o := range outs {
			o.Discard()
		}
	}()
	for i, t := range targets {
		o, err := create(flagName, paths[i], t)
		if err != nil {
			return err
		}
		outs = append(outs, o)
		if _, err := o.Write(contents[i]); err != nil {
			return fmt.Errorf("%s %s: %w", flagName, paths[i], err)
		}
	}
	for i, o := range outs {
		if err := o.Commit(); err != nil {
			if i > 0 {
				return fmt.Errorf("%s %s: %v (%s already replaced by this run's; the others as they were)", flagName, paths[i], err, strings.Join(paths[:i], ", "))
			}
			return fmt.Errorf("%s %s: %v", flagName, paths[i], err)
		}
	}
	return nil
}

// targetOf follows path's symbolic links to the file to write, which may
// not exist yet, and reports inPlace when it exists and is neither a
// regular file nor a directory (a device such as /dev/stdout, a FIFO):
// such a file is written in place, never replaced. A directory is an
// error. Errors name the flag and the path.
func targetOf(flagName, path string) (target string, inPlace bool, err error) {
	target, err = resolveLinks(path)
	if err != nil {
		return "", false, fmt.Errorf("%s %s: %v", flagName, path, err)
	}
	fi, err := os.Stat(target)
	switch {
	case err != nil || fi.Mode().IsRegular():
		return target, false, nil
	case fi.IsDir():
		return "", false, fmt.Errorf("%s %s: is a directory", flagName, path)
	}
	return target, true, nil
}

// create starts the file that replaces target (given as path, with the
// flag) once committed; its error names target, not a temporary file.
func create(flagName, path, target string) (*atomicfile.File, error) {
	out, err := atomicfile.Create(target)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v", flagName, path, createError(target, err))
	}
	return out, nil
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

// writeThrough writes to a file that is not a regular one (a device, a
// FIFO) in place.
func writeThrough(flagName, path string, fn func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("%s %s: %v", flagName, path, err)
	}
	err = Checked(f, fn)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", flagName, path, err)
	}
	return nil
}

// Checked runs fn on w and returns fn's error or, if fn ignored one,
// the first error writing to w.
func Checked(w io.Writer, fn func(io.Writer) error) error {
	ew := &ErrWriter{W: w}
	if err := fn(ew); err != nil {
		return err
	}
	return ew.Err
}

// ErrWriter remembers the first write error of W in Err; later writes
// fail with it.
type ErrWriter struct {
	W   io.Writer
	Err error
}

// Write writes p to W unless an earlier write failed.
func (e *ErrWriter) Write(p []byte) (int, error) {
	if e.Err != nil {
		return 0, e.Err
	}
	n, err := e.W.Write(p)
	if err != nil {
		e.Err = err
	}
	return n, err
}

// CheckPaths refuses a command line whose outputs would overwrite one of
// its inputs or each other. outputs are pairs of flag name and path
// ("" for unset); inputs are data files read ("-": standard input, which
// an output may not name either when it is a file).
func CheckPaths(inputs []string, outputs ...string) error {
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
				return fmt.Errorf("%s %s is the standard input of this command, an input; refusing to overwrite it", o.flag, o.path)
			}
			if in != "-" && samePath(o.path, in) {
				return fmt.Errorf("%s %s is an input of this command; refusing to overwrite it", o.flag, o.path)
			}
		}
		for _, p := range outs[:i] {
			if samePath(o.path, p.path) {
				return fmt.Errorf("%s and %s name the same file %s; refusing to write it twice", p.flag, o.flag, o.path)
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
