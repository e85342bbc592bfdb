#!/usr/bin/env python3
"""Anchor for internal/kernel's BenchmarkGram: NumPy X.T@X on the same shapes.

    OPENBLAS_NUM_THREADS=1 /usr/bin/python3 bench/kernel/gram.py

SHAPES (e.g. "5000x500,100000x100") keeps the shapes named, as gramgo's
-shapes does. GFlop/s counts n·p² flops (the full XᵀX), as the Go benchmarks do. Prints
the median wall time (time.perf_counter) and the median process CPU time
(time.process_time, every BLAS thread) of REPS runs after one warm-up.
"""
import os
import sys
import time

import numpy as np

REPS = int(os.environ.get("REPS", "7"))
KEEP = [s for s in os.environ.get("SHAPES", "").split(",") if s]
for n, p in [(5000, 500), (100000, 100), (1000, 50), (200, 20)]:
    if KEEP and f"{n}x{p}" not in KEEP:
        continue
    x = np.random.default_rng(1).standard_normal((n, p))
    x.T @ x
    ts, cs = [], []
    for _ in range(REPS):
        c, t = time.process_time(), time.perf_counter()
        x.T @ x
        ts.append(time.perf_counter() - t)
        cs.append(time.process_time() - c)
    t = sorted(ts)[len(ts) // 2]
    c = sorted(cs)[len(cs) // 2]
    print(f"numpy {n}x{p} threads={os.environ.get('OPENBLAS_NUM_THREADS', 'default')} "
          f"{t * 1e3:.3f} ms {c * 1e3:.3f} ms_cpu {n * p * p / t / 1e9:.2f} GFlop/s")
sys.stdout.flush()
