"""The Python side of bench/bindings/run.sh: a 5000 x 500 gaussian
cardinality fit at one λ through the cardreg package, from a numpy array
read in place (C order, layout 0).

    python3 bench.py write FILE [--n 5000 --p 500 --seed 1]
        writes the data: X (n·p float64, row-major) then y (n float64),
        little-endian, no header; y = Xβ + N(0, 1), β drawn from
        {−2, −1, 1, 2}
    python3 bench.py fit FILE [--n 5000 --p 500 --lambda 50 --reps 3]
        reads it and times cardreg.fit (wall: time.perf_counter; CPU:
        time.process_time, the process's user + system time), one line
        per repetition
"""

import argparse
import sys
import time

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["write", "fit"])
    ap.add_argument("file")
    ap.add_argument("--n", type=int, default=5000)
    ap.add_argument("--p", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lambda", dest="lam", type=float, default=50.0)
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    if a.mode == "write":
        rng = np.random.default_rng(a.seed)
        x = rng.standard_normal((a.n, a.p))
        beta = rng.choice([-2.0, -1.0, 1.0, 2.0], size=a.p)
        y = x @ beta + rng.standard_normal(a.n)
        with open(a.file, "wb") as f:
            f.write(x.astype("<f8").tobytes())
            f.write(y.astype("<f8").tobytes())
        return
    raw = np.fromfile(a.file, dtype="<f8")
    if raw.size != a.n * a.p + a.n:
        sys.exit("bench.py: %s holds %d values, not n·p + n = %d"
                 % (a.file, raw.size, a.n * a.p + a.n))
    x = raw[:a.n * a.p].reshape(a.n, a.p)  # C order: read in place
    y = raw[a.n * a.p:]
    import cardreg
    for r in range(a.reps):
        w0, c0 = time.perf_counter(), time.process_time()
        res = cardreg.fit(x, y, lam=a.lam, penalty="cardinality")
        w1, c1 = time.perf_counter(), time.process_time()
        print("python rep=%d wall_seconds=%.4f cpu_seconds=%.4f "
              "iterations=%s gap=%.3g clusters=%d objective=%.17g" % (
                  r + 1, w1 - w0, c1 - c0, res.iterations, res.duality_gap,
                  len(res.clusters), res.summary["objective"]), flush=True)
        res.close()


if __name__ == "__main__":
    main()
