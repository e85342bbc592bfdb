"""Loading libcardreg and calling it: the only module that touches ctypes.

The library is the Go package ``clib`` built as a C shared library; its
contract is ``clib/cardreg.h``. It is found at ``$CARDREG_LIB`` when that
variable is set, else as ``libcardreg.so`` beside this file (where
``pip install ./python`` builds it).
"""

import ctypes
import json
import os
import threading
import weakref

__all__ = ["CardregError", "library", "library_path", "version", "Handle",
           "describe", "response"]


class CardregError(RuntimeError):
    """A call into libcardreg failed; the message is the library's.

    ``status`` is the call's non-zero return value. Bad input (a wrong
    length, NaN, an unknown option, an option the library refuses) raises
    :class:`CardregValueError`, which is also a ``ValueError``.
    """

    def __init__(self, message, status=None, function=None):
        super().__init__(message)
        self.status = status
        self.function = function


class CardregValueError(CardregError, ValueError):
    """Bad input refused by libcardreg (also a ``ValueError``)."""


_lock = threading.Lock()
_lib = None
_path = None

_p = ctypes.c_void_p
_i64 = ctypes.c_int64
_i32 = ctypes.c_int32
_int = ctypes.c_int

_SIGNATURES = {
    "cardreg_version": (ctypes.c_char_p, []),
    "cardreg_last_error": (ctypes.c_char_p, []),
    "cardreg_fit": (_int, [_p, _i64, _i64, _i32, _p, _p, _p, _p, _i64,
                           ctypes.c_char_p, ctypes.POINTER(_i64)]),
    "cardreg_path": (_int, [_p, _i64, _i64, _i32, _p, _p, _p, _p, _i64,
                            ctypes.c_char_p, ctypes.POINTER(_i64)]),
    "cardreg_cv": (_int, [_p, _i64, _i64, _i32, _p, _p, _p, _p, _i64,
                          ctypes.c_char_p, ctypes.POINTER(_i64)]),
    "cardreg_fit_csc": (_int, [_i64, _i64, _p, _p, _p, _p, _p, _p, _p,
                               _i64, ctypes.c_char_p, ctypes.POINTER(_i64)]),
    "cardreg_path_csc": (_int, [_i64, _i64, _p, _p, _p, _p, _p, _p, _p,
                                _i64, ctypes.c_char_p, ctypes.POINTER(_i64)]),
    "cardreg_cv_csc": (_int, [_i64, _i64, _p, _p, _p, _p, _p, _p, _p,
                              _i64, ctypes.c_char_p, ctypes.POINTER(_i64)]),
    "cardreg_predict_csc": (_int, [_i64, _i64, _i64, _i64, _p, _p, _p, _p,
                                   _i64, _p, ctypes.c_char_p, _p]),
    "cardreg_dims": (_int, [_i64, ctypes.POINTER(_i64), ctypes.POINTER(_i64)]),
    "cardreg_coef": (_int, [_i64, _i64, _p, _p]),
    "cardreg_status": (_int, [_i64, _i64, ctypes.POINTER(ctypes.c_double),
                              ctypes.POINTER(ctypes.c_double),
                              ctypes.POINTER(_i32)]),
    "cardreg_json": (_int, [_i64, ctypes.POINTER(ctypes.c_void_p)]),
    "cardreg_predict": (_int, [_i64, _i64, _p, _i64, _i64, _i32, _p, _i64,
                               _p, ctypes.c_char_p, _p]),
    "cardreg_describe": (_int, [ctypes.POINTER(ctypes.c_void_p)]),
    "cardreg_response": (_int, [ctypes.c_char_p, _p, _i64, ctypes.c_char_p,
                                _p]),
    "cardreg_free": (_int, [_i64]),
    "cardreg_string_free": (None, [ctypes.c_void_p]),
}


def library_path():
    """The path libcardreg is (or would be) loaded from."""
    env = os.environ.get("CARDREG_LIB")
    if env:
        return env
    return os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "libcardreg.so")


def library():
    """The loaded library (ctypes.CDLL), loaded on first use.

    Raises OSError naming the path tried when it cannot be loaded.
    """
    global _lib, _path
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is None:
            path = library_path()
            if not os.path.exists(path):
                raise OSError(
                    "libcardreg not found at %s: install the package with "
                    "pip (it builds the library with Go), or set "
                    "CARDREG_LIB to a libcardreg.so built by "
                    "`go build -buildmode=c-shared -o libcardreg.so ./clib`"
                    % path)
            lib = ctypes.CDLL(path)
            for name, (res, args) in _SIGNATURES.items():
                fn = getattr(lib, name)
                fn.restype = res
                fn.argtypes = args
            _lib, _path = lib, path
    return _lib


def version():
    """The library's version string, e.g. ``cardreg 0.9.0 (abc1234)``."""
    return library().cardreg_version().decode("utf-8", "replace")


def _take_string(lib, s):
    """The UTF-8 text the library returned at s, freed."""
    try:
        return ctypes.string_at(s.value).decode("utf-8")
    finally:
        lib.cardreg_string_free(s)


_described = None


def describe():
    """What the library offers, read from its registries (a dict, parsed
    once): ``families`` (each ``name``, ``link``, ``parameter`` (None or
    its ``name`` and ``range``: written after the name and a colon, as
    ``"tweedie:1.5"``) and ``measures`` (``name``, cv.glmnet's ``title``;
    the default first)), ``penalties`` (``name``, ``nu``, ``inputs``: the
    options it needs, ``glm``, ``grid``) and ``options``: per call
    (``fit``, ``path``, ``cv``) the option names it accepts, as the
    command line's flags. The package keeps no list of its own."""
    global _described
    if _described is None:
        lib = library()
        s = ctypes.c_void_p()
        check(lib.cardreg_describe(ctypes.byref(s)), "cardreg_describe")
        _described = json.loads(_take_string(lib, s))
    return _described


def response(family, eta, kind="response"):
    """The library's predictions ``kind`` ("response": the family's
    inverse link; "link"; "class" for binomial) of family at the linear
    predictors eta (a float64 array, C order); a new array."""
    import numpy as np
    eta = np.ascontiguousarray(eta, dtype=np.float64)
    out = np.empty_like(eta)
    check(library().cardreg_response(family.encode("utf-8"), eta.ctypes.data,
                                      eta.size, kind.encode("ascii"),
                                      out.ctypes.data), "cardreg_response")
    return out


def last_error():
    """The message of the last failed call on this thread."""
    msg = library().cardreg_last_error()
    return msg.decode("utf-8", "replace") if msg else ""


def check(status, function):
    """Raise the library's error if status is non-zero.

    The library has one failure status (1) for everything; its failures
    are bad input (CardregValueError, a ValueError) but for a recovered
    panic, whose message starts "internal error" (CardregError). The message
    must be read right after the failing call, on the same thread: call
    this immediately.
    """
    if status == 0:
        return
    msg = last_error() or "%s failed with status %d (no message)" % (
        function, status)
    cls = CardregError if msg.startswith("internal error") else \
        CardregValueError
    raise cls(msg, status=status, function=function)


def _free(h):
    lib = _lib
    if lib is not None and h:
        lib.cardreg_free(h)


class Handle:
    """A result of libcardreg (a fit, a path or a cross-validation).

    The handle is freed when this object is garbage collected (or at
    :meth:`close`); every accessor raises after that.
    """

    def __init__(self, value):
        self._h = int(value)
        self._finalizer = weakref.finalize(self, _free, self._h)

    @property
    def value(self):
        if not self._finalizer.alive:
            raise ValueError("this cardreg result has been closed")
        return self._h

    def close(self):
        """Free the library's result now (idempotent)."""
        self._finalizer()

    def dims(self):
        """(models, columns) of the result."""
        m, c = _i64(), _i64()
        check(library().cardreg_dims(self.value, ctypes.byref(m),
                                     ctypes.byref(c)), "cardreg_dims")
        return m.value, c.value

    def coef(self, k, out):
        """Model k's coefficients into out (float64, writable, C order);
        returns the intercept."""
        b0 = ctypes.c_double()
        check(library().cardreg_coef(self.value, k, out.ctypes.data,
                                     ctypes.addressof(b0)), "cardreg_coef")
        return b0.value

    def status(self, k):
        """Model k's (lambda, gap, converged)."""
        lam, gap, conv = ctypes.c_double(), ctypes.c_double(), _i32()
        check(library().cardreg_status(self.value, k, ctypes.byref(lam),
                                       ctypes.byref(gap), ctypes.byref(conv)),
              "cardreg_status")
        return lam.value, gap.value, bool(conv.value)

    def json(self):
        """The result's JSON document, parsed."""
        lib = library()
        s = ctypes.c_void_p()
        check(lib.cardreg_json(self.value, ctypes.byref(s)), "cardreg_json")
        return json.loads(_take_string(lib, s))


def call_fit(kind, x, n, p, layout, y, w, off, codes, nfactors, options):
    """Call cardreg_fit, cardreg_path or cardreg_cv (kind); return a Handle.

    The array arguments are ctypes addresses (int or None); the arrays must
    stay alive for the call (the caller holds them).
    """
    lib = library()
    fn = getattr(lib, "cardreg_" + kind)
    out = _i64(0)
    opt = options.encode("utf-8") if isinstance(options, str) else options
    status = fn(x, n, p, layout, y, w, off, codes, nfactors, opt,
                ctypes.byref(out))
    check(status, "cardreg_" + kind)
    return Handle(out.value)


def call_predict(handle, k, x, n, p, layout, codes, nfactors, off, kind, out):
    """Call cardreg_predict; out is the address of n float64 values."""
    check(library().cardreg_predict(handle.value, k, x, n, p, layout, codes,
                                    nfactors, off, kind.encode("ascii"), out),
          "cardreg_predict")


def call_fit_csc(kind, n, p, colstart, rowind, values, y, w, off, codes,
                 nfactors, options):
    """Call cardreg_fit_csc, cardreg_path_csc or cardreg_cv_csc (kind) on
    CSC arrays (colstart int64, rowind int32, values float64: ctypes
    addresses the caller keeps alive); return a Handle."""
    lib = library()
    fn = getattr(lib, "cardreg_" + kind + "_csc")
    out = _i64(0)
    opt = options.encode("utf-8") if isinstance(options, str) else options
    status = fn(n, p, colstart, rowind, values, y, w, off, codes, nfactors,
                opt, ctypes.byref(out))
    check(status, "cardreg_" + kind + "_csc")
    return Handle(out.value)


def call_predict_csc(handle, k, n, p, colstart, rowind, values, codes,
                     nfactors, off, kind, out):
    """Call cardreg_predict_csc; out is the address of n float64 values."""
    check(library().cardreg_predict_csc(handle.value, k, n, p, colstart,
                                        rowind, values, codes, nfactors, off,
                                        kind.encode("ascii"), out),
          "cardreg_predict_csc")
