//go:build linux

package atomicfile

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// Unnamed says whether files are first written with no name (O_TMPFILE);
// tests turn it off to check the named fallback.
var Unnamed = true

// openUnnamed opens a new file with no name in dir (O_TMPFILE; mode 0666
// less the umask), called name in errors, or fails where the kernel or the
// file system does not support it.
func openUnnamed(dir, name string) (*os.File, error) {
	if !Unnamed {
		return nil, unix.EOPNOTSUPP
	}
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_RDWR|unix.O_CLOEXEC, 0o666)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}

// ProcFD names an open file in /proc, for linking (a variable so that
// tests can make linking fail).
var ProcFD = "/proc/self/fd/%d"

// linkTemp links the unnamed file f into dir under a temporary name
// (through /proc/self/fd, which needs no privilege) and returns it.
func linkTemp(f *os.File, dir string) (string, error) {
	proc := fmt.Sprintf(ProcFD, f.Fd())
	return claimTemp(dir, func(name string) error {
		err := unix.Linkat(unix.AT_FDCWD, proc, unix.AT_FDCWD, name, unix.AT_SYMLINK_FOLLOW)
		if err == unix.EEXIST {
			return os.ErrExist
		}
		return err
	})
}
