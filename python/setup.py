"""Build and install the cardreg Python package.

The package calls libcardreg, the Go package ./clib of the repository this
folder lives in, built here as a C shared library at install time:

    go build -buildmode=c-shared -o <package>/libcardreg.so ./clib

run from the repository root (``..`` of this folder; CARDREG_SOURCE
overrides it). Go is found as $GO, on PATH, or at /usr/local/go/bin/go;
cgo needs a C compiler (gcc, or $CC).
Nothing is downloaded by pip: install with Debian's Python (not a pyenv or
other python3 that may come first on PATH, which lacks Debian's packages)

    /usr/bin/python3 -m venv --system-site-packages .venv
    .venv/bin/pip install --no-build-isolation ./python

Without build isolation pip builds with what the environment has: the
build checks first that it has setuptools, wheel (setuptools' bdist_wheel
before 70.1) and numpy, and says in one line what to run instead.
"""

import importlib.util
import os
import shutil
import subprocess
import sys

# (module, Debian package): what the build and the package need from the
# environment. pip's own message for a missing wheel is "invalid command
# 'bdist_wheel'", and for a missing numpy a download attempt.
_NEEDS = (("setuptools", "python3-setuptools"), ("wheel", "python3-wheel"),
          ("numpy", "python3-numpy"))


def _has(module):
    if module == "wheel" and importlib.util.find_spec("setuptools"):
        # setuptools 70.1 and later has bdist_wheel itself.
        try:
            if importlib.util.find_spec("setuptools.command.bdist_wheel"):
                return True
        except ImportError:  # pragma: no cover
            pass
    return importlib.util.find_spec(module) is not None


def _check_environment():
    missing = [(m, deb) for m, deb in _NEEDS if not _has(m)]
    if missing:
        sys.exit(
            "cardreg: this Python (%s, under %s) has no %s; run instead, "
            "with Debian's Python and its packages: apt-get install "
            "python3-venv %s python3-pandas python3-sklearn gcc && "
            "/usr/bin/python3 -m venv --system-site-packages .venv && "
            ".venv/bin/pip install --no-build-isolation ./python"
            % (sys.executable, sys.base_prefix,
               ", ".join(m for m, _ in missing),
               " ".join(deb for _, deb in _NEEDS)))


_check_environment()

from setuptools import Distribution, setup  # noqa: E402 (checked above)
from setuptools.command.build_py import build_py  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def _go():
    for cand in (os.environ.get("GO"), shutil.which("go"),
                 "/usr/local/go/bin/go"):
        if cand and os.path.exists(cand) and os.access(cand, os.X_OK):
            return cand
    sys.exit("cardreg: building libcardreg needs Go 1.24 or later: put `go` "
             "on PATH or set GO=/path/to/go")


def _source():
    src = os.environ.get("CARDREG_SOURCE") or os.path.dirname(HERE)
    if not os.path.exists(os.path.join(src, "go.mod")) or not os.path.isdir(
            os.path.join(src, "clib")):
        sys.exit("cardreg: %s is not the cardreg repository (no go.mod and "
                 "clib/); install from a clone with pip install ./python, "
                 "or set CARDREG_SOURCE to the repository" % src)
    return src


def _check_cc():
    cc = os.environ.get("CC", "gcc").split()[0]
    if not shutil.which(cc):
        sys.exit("cardreg: building libcardreg (Go with cgo) needs a C compiler "
                 "and %r is not on PATH: apt-get install gcc libc6-dev, or "
                 "set CC" % cc)


class BuildWithGo(build_py):
    """build_py that also builds libcardreg.so into the package."""

    def run(self):
        super().run()
        # Absolute: go build runs in the repository root, not here.
        _check_cc()
        out = os.path.abspath(os.path.join(self.build_lib, "cardreg",
                                           "libcardreg.so"))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        env = dict(os.environ)
        env.setdefault("CGO_ENABLED", "1")
        if "HOME" not in env and "GOCACHE" not in env:
            env["GOCACHE"] = os.path.abspath(os.path.join(HERE, "build",
                                                          "gocache"))
        # -mod=mod: modules are resolved from go.mod/go.sum, downloaded
        # through the module proxy into Go's module cache when missing. A
        # flag, not GOFLAGS, so that the user's GOFLAGS still apply.
        cmd = [_go(), "build", "-mod=mod", "-trimpath", "-buildmode=c-shared",
               "-o", out, "./clib"]
        print("cardreg: %s (in %s)" % (" ".join(cmd), _source()), flush=True)
        subprocess.check_call(cmd, cwd=_source(), env=env)
        header = os.path.splitext(out)[0] + ".h"
        if os.path.exists(header):  # go build's generated header
            os.remove(header)


class BinaryDistribution(Distribution):
    """The wheel holds a shared library: not pure Python."""

    def has_ext_modules(self):
        return True


setup(
    name="cardreg",
    version="0.1.0",
    description="Regularised regression under cardinality sparsity "
                "(Python interface to the Go toolkit cardreg)",
    long_description=open(os.path.join(HERE, "README.md"),
                          encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    packages=["cardreg"],
    package_data={"cardreg": ["libcardreg.so"]},
    python_requires=">=3.9",
    install_requires=["numpy"],
    extras_require={"sklearn": ["scikit-learn"], "pandas": ["pandas"],
                    "plot": ["matplotlib"]},
    cmdclass={"build_py": BuildWithGo},
    distclass=BinaryDistribution,
    zip_safe=False,
)
