"""Done-when 4: the C interface fed bad input through ctypes returns an
error with a message, never a crash; and the Python layer turns those
errors into exceptions carrying the message."""

import ctypes
import json
import threading
import unittest

import numpy as np

import cardreg
from cardreg import _lib


def addr(a):
    return None if a is None else a.ctypes.data


class RawABI(unittest.TestCase):
    """Calls libcardreg's functions directly, as any C caller would."""

    def setUp(self):
        self.lib = _lib.library()
        rng = np.random.default_rng(3)
        self.n, self.p = 30, 3
        self.x = rng.standard_normal((self.n, self.p))
        self.y = self.x @ np.array([1.0, 1.0, -1.0]) + rng.standard_normal(
            self.n)

    def call(self, kind="fit", x="default", n=None, p=None, layout=0,
             y="default", w=None, off=None, codes=None, nf=0,
             options=b'{"lambda": 1}', out=True):
        x = self.x if isinstance(x, str) else x
        y = self.y if isinstance(y, str) else y
        h = ctypes.c_int64(0)
        fn = getattr(self.lib, "cardreg_" + kind)
        st = fn(addr(x), self.n if n is None else n,
                self.p if p is None else p, layout, addr(y), addr(w),
                addr(off), addr(codes), nf, options,
                ctypes.byref(h) if out else None)
        return st, h.value

    def assertFails(self, status, *words):
        self.assertNotEqual(status, 0)
        msg = _lib.last_error()
        self.assertTrue(msg, "no message")
        for w in words:
            self.assertIn(w.lower(), msg.lower())
        return msg

    def test_good_call(self):
        st, h = self.call()
        self.assertEqual(st, 0, _lib.last_error())
        self.assertNotEqual(h, 0)
        self.assertEqual(self.lib.cardreg_free(h), 0)

    def test_names_do_not_match_p(self):
        opts = json.dumps({"names": ["a", "b"], "lambda": 1}).encode()
        self.assertFails(self.call(options=opts)[0], "names")

    def test_nan_in_x(self):
        x = self.x.copy()
        x[4, 1] = np.nan
        self.assertFails(self.call(x=x)[0], "finite")
        x[4, 1] = np.inf
        self.assertFails(self.call(x=x, layout=1)[0], "finite")

    def test_nan_in_y_weights_offset(self):
        y = self.y.copy()
        y[0] = np.nan
        self.assertFails(self.call(y=y)[0])
        w = np.ones(self.n)
        w[2] = -1
        self.assertFails(self.call(w=w)[0])
        off = np.zeros(self.n)
        off[1] = np.nan
        self.assertFails(self.call(off=off)[0])

    def test_null_pointers(self):
        self.assertFails(self.call(y=None)[0], "y")
        self.assertFails(self.call(x=None)[0], "x")
        self.assertFails(self.call(out=False)[0])
        self.assertFails(self.call(nf=1, codes=None, options=json.dumps(
            {"lambda": 1, "factors": [{"name": "f", "levels": ["a", "b"]}]}
        ).encode())[0])

    def test_bad_sizes(self):
        self.assertFails(self.call(n=0)[0])
        self.assertFails(self.call(n=-5)[0])
        self.assertFails(self.call(p=-1)[0])
        self.assertFails(self.call(layout=7)[0], "layout")

    def test_unknown_option(self):
        msg = self.assertFails(
            self.call(options=b'{"lambda": 1, "lamda": 2}')[0], "lamda")
        self.assertTrue(msg)
        self.assertFails(self.call(options=b'{"family": "weibull"}')[0],
                         "weibull")
        self.assertFails(self.call(options=b'{"lambda": -1}')[0])
        self.assertFails(self.call(options=b'{"lambda": "often"}')[0])
        self.assertFails(self.call(kind="path",
                                   options=b'{"lambda": "cv"}')[0])

    def test_invalid_json(self):
        for bad in (b'{"lambda": 1', b'[1, 2]', b'{lambda: 1}', b'\xff\xfe',
                    b'{"names": 3}', b'{"lambda": 1} {"x": 2}'):
            self.assertFails(self.call(options=bad)[0])

    def test_bad_factor_codes(self):
        codes = np.zeros((self.n, 1), dtype=np.int32, order="F")
        codes[3, 0] = 5  # only two levels
        opts = json.dumps({"lambda": 1, "factors": [
            {"name": "f", "levels": ["a", "b"]}]}).encode()
        self.assertFails(self.call(codes=codes, nf=1, options=opts)[0])
        codes[3, 0] = -1
        self.assertFails(self.call(codes=codes, nf=1, options=opts)[0])
        # Factors announced in the options but not passed, or the reverse.
        self.assertFails(self.call(codes=codes, nf=2, options=opts)[0])

    def test_predict_bad_codes(self):
        rng = np.random.default_rng(5)
        codes = np.asfortranarray(
            rng.integers(0, 3, (self.n, 1)).astype(np.int32))
        opts = json.dumps({"lambda": 1, "factors": [
            {"name": "f", "levels": ["a", "b", "c"]}]}).encode()
        st, h = self.call(codes=codes, nf=1, options=opts)
        self.assertEqual(st, 0, _lib.last_error())
        try:
            out = np.empty(self.n)
            for bad in (-1, 3):
                c = codes.copy(order="F")
                c[4, 0] = bad
                self.assertFails(self.lib.cardreg_predict(
                    h, 0, self.x.ctypes.data, self.n, self.p, 0,
                    c.ctypes.data, 1, None, b"link", out.ctypes.data),
                    "row 5", '"f"')
            # The factor left out at prediction.
            self.assertFails(self.lib.cardreg_predict(
                h, 0, self.x.ctypes.data, self.n, self.p, 0, None, 0, None,
                b"link", out.ctypes.data))
        finally:
            self.assertEqual(self.lib.cardreg_free(h), 0)

    def test_bad_handles(self):
        m, c = ctypes.c_int64(), ctypes.c_int64()
        for h in (0, -1, 123456789):
            self.assertFails(self.lib.cardreg_dims(h, ctypes.byref(m),
                                                   ctypes.byref(c)), "handle")
            self.assertFails(self.lib.cardreg_free(h), "handle")
        st, h = self.call()
        self.assertEqual(st, 0)
        self.assertEqual(self.lib.cardreg_free(h), 0)
        self.assertFails(self.lib.cardreg_free(h), "handle")  # double free
        s = ctypes.c_void_p()
        self.assertFails(self.lib.cardreg_json(h, ctypes.byref(s)), "handle")

    def test_accessors_out_of_range(self):
        st, h = self.call(kind="path", options=b'{"nlambda": 5}')
        self.assertEqual(st, 0, _lib.last_error())
        try:
            coef = np.empty(self.p)
            b0 = ctypes.c_double()
            for k in (-1, 5, 1 << 40):
                self.assertFails(self.lib.cardreg_coef(
                    h, k, coef.ctypes.data, ctypes.addressof(b0)))
            self.assertFails(self.lib.cardreg_coef(h, 0, None, None))
            self.assertFails(self.lib.cardreg_status(h, 0, None, None, None))
            self.assertFails(self.lib.cardreg_json(h, None))
            self.assertFails(self.lib.cardreg_dims(h, None, None))
            out = np.empty(self.n)
            # Wrong number of columns, NaN, an unknown type, NULL type.
            self.assertFails(self.lib.cardreg_predict(
                h, 0, self.x.ctypes.data, self.n, 2, 0, None, 0, None,
                b"response", out.ctypes.data))
            x = self.x.copy()
            x[0, 0] = np.nan
            self.assertFails(self.lib.cardreg_predict(
                h, 0, x.ctypes.data, self.n, self.p, 0, None, 0, None,
                b"response", out.ctypes.data))
            self.assertFails(self.lib.cardreg_predict(
                h, 0, self.x.ctypes.data, self.n, self.p, 0, None, 0, None,
                b"probability", out.ctypes.data))
            self.assertFails(self.lib.cardreg_predict(
                h, 0, self.x.ctypes.data, self.n, self.p, 0, None, 0, None,
                None, out.ctypes.data))
            self.assertFails(self.lib.cardreg_predict(
                h, 9, self.x.ctypes.data, self.n, self.p, 0, None, 0, None,
                b"link", out.ctypes.data))
            self.assertFails(self.lib.cardreg_predict(
                h, 0, None, self.n, self.p, 0, None, 0, None, b"link",
                out.ctypes.data))
            # "class" is for binomial fits only.
            self.assertFails(self.lib.cardreg_predict(
                h, 0, self.x.ctypes.data, self.n, self.p, 0, None, 0, None,
                b"class", out.ctypes.data))
        finally:
            self.assertEqual(self.lib.cardreg_free(h), 0)

    def test_string_free_null(self):
        self.lib.cardreg_string_free(None)  # ignored, as the header says

    def test_errors_are_per_thread(self):
        """A failing call's message is its thread's, even while other
        threads fail with other messages."""
        results = {}

        def worker(i):
            msgs = []
            for _ in range(20):
                opt = json.dumps({"lambda": 1, "option%d" % i: 1}).encode()
                st, _ = self.call(options=opt)
                msgs.append((st, _lib.last_error()))
            results[i] = msgs

        ts = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(len(results), 4, "a worker raised")
        for i, msgs in results.items():
            for st, m in msgs:
                self.assertNotEqual(st, 0)
                self.assertIn("option%d" % i, m)


class PythonErrors(unittest.TestCase):
    """The same failures through the package: exceptions with the
    library's message."""

    def setUp(self):
        rng = np.random.default_rng(4)
        self.x = rng.standard_normal((40, 3))
        self.y = self.x.sum(axis=1) + rng.standard_normal(40)

    def test_value_errors(self):
        x = self.x.copy()
        x[2, 2] = np.nan
        with self.assertRaisesRegex(ValueError, "finite"):
            cardreg.fit(x, self.y, lam=1.0)
        with self.assertRaisesRegex(ValueError, "lamda"):
            cardreg.fit(self.x, self.y, lamda=1.0)
        with self.assertRaisesRegex(ValueError, "names"):
            cardreg.fit(self.x, self.y, names=["a", "b"])
        with self.assertRaisesRegex(ValueError, "y has 39 values"):
            cardreg.fit(self.x, self.y[:-1])
        with self.assertRaisesRegex(ValueError, "finite"):
            cardreg.fit(self.x, self.y, lam=float("nan"))
        with self.assertRaises(cardreg.CardregError) as cm:
            cardreg.fit(self.x, self.y, family="weibull")
        self.assertIn("weibull", str(cm.exception))
        self.assertNotEqual(cm.exception.status, 0)

    def test_handle_freed(self):
        r = cardreg.path(self.x, self.y, nlambda=4)
        h = r._handle.value
        self.assertEqual(r.predict(self.x, 1).shape, (40,))
        r.close()
        with self.assertRaisesRegex(ValueError, "closed"):
            r.predict(self.x, 1)
        r.close()  # idempotent
        # The library no longer knows the handle.
        m, c = ctypes.c_int64(), ctypes.c_int64()
        self.assertNotEqual(_lib.library().cardreg_dims(
            h, ctypes.byref(m), ctypes.byref(c)), 0)

    def test_handle_freed_by_garbage_collection(self):
        r = cardreg.fit(self.x, self.y, lam=1.0)
        h = r._handle.value
        del r
        import gc
        gc.collect()
        m, c = ctypes.c_int64(), ctypes.c_int64()
        self.assertNotEqual(_lib.library().cardreg_dims(
            h, ctypes.byref(m), ctypes.byref(c)), 0)

    def test_version(self):
        self.assertTrue(cardreg.version())


class Threads(unittest.TestCase):
    """Fits from several Python threads at once (ctypes releases the GIL
    during a call): each gets its own, correct result."""

    def test_parallel_fits(self):
        rng = np.random.default_rng(9)
        X = rng.standard_normal((500, 20))
        ys = [X @ rng.choice([-1.0, 1.0], 20) + rng.standard_normal(500)
              for _ in range(4)]
        serial = [cardreg.fit(X, y, lam=30.0).coef for y in ys]
        got = [None] * 4

        def work(i):
            for _ in range(5):
                got[i] = cardreg.fit(X, ys[i], lam=30.0).coef

        ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        for a, b in zip(serial, got):
            np.testing.assert_array_equal(a, b)


if __name__ == "__main__":
    unittest.main()
