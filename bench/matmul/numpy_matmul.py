#!/usr/bin/python3
"""NumPy anchors for binary / small-cardinality matrix products.

    /usr/bin/python3 bench/matmul/numpy_matmul.py --n 2048 --reps 5 --seed 1

Times, in-process with time.perf_counter() (wall) and time.process_time()
(CPU, every BLAS thread), only the `A @ B` call (median of --reps runs after
one untimed warm-up), and prints `name value` lines (NAME the wall time,
NAME_cpu the CPU time):

  numpy_binary_f64_N  A, B: N x N, entries 0/1 (uniform), float64
  numpy_binary_f32_N  the same matrices as float32
  numpy_letter_f64    X (20000 x 16, integers uniform on 0..9, float64)
                      @ W (16 x 1024, standard normal float64)

Lines starting with `#` describe the BLAS that NumPy actually loaded.
--no-letter skips the letter-like product (used when only another N is
wanted).
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np


def time_matmul(a, b, reps):
    """(median wall, median process CPU) seconds of `a @ b`."""
    c = a @ b  # warm-up (untimed)
    del c
    times, cpu = [], []
    for _ in range(reps):
        c0, t0 = time.process_time(), time.perf_counter()
        c = a @ b
        t1, c1 = time.perf_counter(), time.process_time()
        times.append(t1 - t0)
        cpu.append(c1 - c0)
        del c
    return statistics.median(times), statistics.median(cpu)


def report(name, t):
    """Print NAME (wall seconds) and NAME_cpu (process CPU seconds)."""
    print(f"{name} {t[0]:.6g}\n{name}_cpu {t[1]:.6g}", flush=True)


def blas_comment_lines():
    """Best-effort description of the BLAS in use; never raises."""
    out = [f"# numpy {np.__version__}, python {sys.version.split()[0]}"]
    libs = set()
    try:
        # Make sure the BLAS is loaded, then read what is mapped.
        _ = np.ones((4, 4)) @ np.ones((4, 4))
        with open("/proc/self/maps") as f:
            for ln in f:
                path = ln.split()[-1] if ln.strip() else ""
                base = os.path.basename(path).lower()
                if path.startswith("/") and any(k in base for k in ("blas", "lapack", "mkl", "blis", "atlas")):
                    libs.add(os.path.realpath(path))
        if libs:
            out.append("# blas libraries mapped: " + ", ".join(sorted(libs)))
    except Exception as e:  # noqa: BLE001 - diagnostics only
        out.append(f"# blas libraries mapped: unknown ({type(e).__name__})")
    try:
        import ctypes

        # NumPy's BLAS is loaded RTLD_LOCAL, so look it up by its mapped path.
        cands = [p for p in libs if "openblas" in os.path.basename(p)]
        lib = ctypes.CDLL(cands[0]) if cands else ctypes.CDLL(None)
        get_cfg = getattr(lib, "openblas_get_config", None)
        get_thr = getattr(lib, "openblas_get_num_threads", None)
        if get_cfg is not None:
            get_cfg.restype = ctypes.c_char_p
            out.append("# openblas config: " + get_cfg().decode(errors="replace").strip())
        if get_thr is not None:
            get_thr.restype = ctypes.c_int
            out.append(f"# openblas threads: {get_thr()}")
    except Exception:  # noqa: BLE001
        pass
    try:
        from threadpoolctl import threadpool_info

        info = threadpool_info()
        if info:
            parts = [f"{d.get('internal_api')}/{d.get('num_threads')} threads" for d in info]
            out.append("# threadpoolctl: " + "; ".join(parts))
    except Exception:  # noqa: BLE001
        pass
    env = {k: os.environ[k] for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS") if k in os.environ}
    out.append(f"# cpus: {os.cpu_count()}, thread env: {env if env else 'unset'}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=2048)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-letter", action="store_true", help="skip the letter-like product")
    args = ap.parse_args()
    if args.n < 1 or args.reps < 1 or args.seed < 0:
        ap.error("--n and --reps must be >= 1, --seed >= 0")

    for ln in blas_comment_lines():
        print(ln)
    sys.stdout.flush()

    rng = np.random.default_rng(args.seed)
    n = args.n
    a = rng.integers(0, 2, size=(n, n)).astype(np.float64)
    b = rng.integers(0, 2, size=(n, n)).astype(np.float64)
    report(f"numpy_binary_f64_{n}", time_matmul(a, b, args.reps))
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    del a, b
    report(f"numpy_binary_f32_{n}", time_matmul(a32, b32, args.reps))
    del a32, b32

    if not args.no_letter:
        x = rng.integers(0, 10, size=(20000, 16)).astype(np.float64)
        w = rng.standard_normal(size=(16, 1024))
        report("numpy_letter_f64", time_matmul(x, w, args.reps))
    return 0


if __name__ == "__main__":
    sys.exit(main())
