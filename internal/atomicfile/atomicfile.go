// Package atomicfile writes a file that appears complete or not at all:
// the bytes go to a file with no name in the target's directory
// (O_TMPFILE, where the system and the file system have it), which is
// given the target's name only once complete, so a failure never leaves a
// partial file and a killed process (kill -9 included) leaves nothing.
// Elsewhere the file is written under a hidden temporary name
// (.cardreg-N.tmp), removed on failure and, after RemoveOnSignal, on an
// interrupt, hang-up or termination signal.
//
// It is the one home of this writer for the cardreg command and the
// simulate package.
package atomicfile

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

// File is a file being written to become target: unnamed, or under a
// temporary name, until Commit gives it the target's name.
type File struct {
	f      *os.File
	dir    string
	target string
	named  string // the temporary name, "" while unnamed
	done   bool
}

// Create starts a file to become target, in its directory: unnamed where
// the system and the file system allow it (its errors then name target),
// else under a temporary name. Its errors are the system's (*fs.PathError,
// naming the temporary file in the named case).
func Create(target string) (*File, error) {
	dir := filepath.Dir(target)
	if f, err := openUnnamed(dir, target); err == nil {
		return &File{f: f, dir: dir, target: target}, nil
	}
	f, err := createTemp(dir)
	if err != nil {
		return nil, err
	}
	return &File{f: f, dir: dir, target: target, named: f.Name()}, nil
}

// Write writes to the file.
func (o *File) Write(p []byte) (int, error) { return o.f.Write(p) }

// Commit gives the complete file the target's name, replacing the file
// there at once: an unnamed file is first linked under a temporary name
// (or, where linking fails, copied to a temporary file). A new file has
// mode 0666 less the umask; a replaced regular file's permissions are
// kept.
func (o *File) Commit() error {
	if fi, err := os.Stat(o.target); err == nil && fi.Mode().IsRegular() {
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
	if err := os.Rename(o.named, o.target); err != nil {
		var le *os.LinkError
		if errors.As(err, &le) {
			err = fmt.Errorf("cannot create %s: %v", o.target, le.Err)
		}
		return err
	}
	o.done = true
	return nil
}

// name gives an unnamed file a temporary name in its directory.
func (o *File) name() error {
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

// mode returns the permissions of the file (0666 less the umask when
// new).
func (o *File) mode() os.FileMode {
	if fi, err := o.f.Stat(); err == nil {
		return fi.Mode().Perm()
	}
	return 0o644
}

// Discard closes and removes a file that was not committed; after Commit
// it only forgets the temporary name. It may be deferred right after
// Create.
func (o *File) Discard() {
	if o.f != nil {
		o.f.Close()
		o.f = nil
	}
	if o.named != "" && !o.done {
		removeTemp(o.named)
	} else if o.named != "" {
		forgetTemp(o.named)
	}
}

// temps are the temporary files being written, removed on a signal.
var temps struct {
	sync.Mutex
	names map[string]bool
}

// createTemp is os.CreateTemp with mode 0666 (less the umask) instead of
// 0600, since the file becomes the user's. The file is removed if the
// process is interrupted (see RemoveOnSignal) before removeTemp.
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

// RemoveOnSignal makes the process remove its temporary files when it
// gets an interrupt, hang-up or termination signal, then exit with 128 +
// the signal's number, as a shell reports it. A program calls it once, at
// its start.
func RemoveOnSignal() {
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
