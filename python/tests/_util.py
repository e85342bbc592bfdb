"""Shared by the tests: where the repository is, the command line built
from it, and comparisons."""

import json
import os
import shutil
import subprocess
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
# The cardreg repository whose library the package was built from
# (run_tests.sh sets CARDREG_SOURCE; default: this checkout).
REPO = os.environ.get("CARDREG_SOURCE") or os.path.dirname(
    os.path.dirname(HERE))
EXAMPLES = os.path.join(REPO, "examples")


def go():
    for cand in (os.environ.get("GO"), shutil.which("go"),
                 "/usr/local/go/bin/go"):
        if cand and os.path.exists(cand):
            return cand
    return None


_cli = None
_tmp = None


def cli_binary():
    """The command line built once from REPO (the same code as `go run
    ./cmd/cardreg`; $CARDREG_CLI when run_tests.sh built it already), or
    SkipTest without Go."""
    global _cli, _tmp
    if _cli is None and os.environ.get("CARDREG_CLI"):
        _cli = os.environ["CARDREG_CLI"]  # built by run_tests.sh
    if _cli is None:
        g = go()
        if g is None:
            raise unittest.SkipTest("Go is not installed")
        _tmp = tempfile.mkdtemp(prefix="cardreg-cli-")
        out = os.path.join(_tmp, "cardreg")
        subprocess.run([g, "build", "-mod=mod", "-o", out, "./cmd/cardreg"],
                       cwd=REPO, check=True)
        _cli = out
    return _cli


def cli_json(*args):
    """`cardreg fit --format json ARGS...` run from the repository root,
    parsed."""
    cmd = [cli_binary(), "fit", "--format", "json"] + list(args)
    p = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    if p.returncode != 0:
        raise AssertionError("%s failed: %s" % (" ".join(cmd), p.stderr))
    return json.loads(p.stdout)


def assert_close(tc, a, b, rtol, msg=""):
    """|a − b| ≤ rtol·max(|a|, |b|) elementwise (exact zeros must match to
    rtol times the largest magnitude)."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    tc.assertEqual(a.shape, b.shape, msg)
    scale = np.maximum(np.abs(a), np.abs(b))
    floor = rtol * max(float(np.max(scale, initial=0.0)), 1e-300)
    err = np.abs(a - b)
    bad = err > np.maximum(rtol * scale, floor)
    if np.any(bad):
        i = np.flatnonzero(bad.ravel())[0]
        tc.fail("%s: %r != %r (relative error %.3g > %g)" % (
            msg, a.ravel()[i], b.ravel()[i],
            err.ravel()[i] / max(scale.ravel()[i], 1e-300), rtol))
