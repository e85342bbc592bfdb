#!/usr/bin/python3
"""PyTorch CPU anchor: time one full-batch gradient-descent step of a small
bias-free ReLU network on the UCI/sklearn 8x8 digits data.

Usage (from anywhere):
    /usr/bin/python3 bench/deepreg/torch_digits.py [--data PATH] [--arch 64,40,10]
        [--iters 1000] [--lr 0.1] [--reps 3] [--dtype float64|float32|both]
        [--threads 1|2|both] [--blas-threads same|N] [--init FILE | --seed 1]
        [--check-out FILE]

Data. CSV with a header line; 64 feature columns pixel_* (integer grey levels
0..16) and a last column `digit` (0..9). All rows are used (1797 for the
standard file). INPUTS ARE SCALED BY 1/16, so every feature lies in [0, 1].
No other preprocessing (no centring, no intercept column).

Model, for --arch p_0,p_1,...,p_L (default 64,40,10):
    h_0 = x / 16                          (p_0 = 64 features)
    z_l = W_l h_{l-1} ... written for a batch as Z_l = H_{l-1} W_l^T
    h_l = relu(z_l)                       for every layer but the last
    logits = z_L                          (identity at the output)
W_l has shape p_{l+1} x p_l (the nn.Linear weight layout). There are NO biases.

Loss. Softmax cross-entropy averaged over the n samples,
    loss(W) = (1/n) sum_i [ logsumexp(z_i) - z_i[y_i] ],
computed by F.cross_entropy(logits, y) (reduction='mean').

Update. Plain full-batch gradient descent, applied by hand under
torch.no_grad() (no torch.optim):
    W_l <- W_l - lr * dloss/dW_l   for every l,
after which the gradients are discarded (grad = None), so every iteration is
exactly: forward, loss, backward, update.

Initial weights. With --init FILE: JSON {"weights": [W_0, W_1, ...]}, each W_l
a list of p_{l+1} rows of length p_l. Otherwise
numpy.random.default_rng(seed).normal(0, sqrt(1/p_l), size=(p_{l+1}, p_l)) for
l = 0, 1, ... in that order (variance 1/p_l). The float32 runs use the same
float64 initial weights rounded to float32.

Timing. For every (dtype, threads) pair: torch.set_num_threads(t) and, since
that call does not reach the BLAS library, the thread count of the OpenBLAS
loaded by torch is set to t as well (via openblas_set_num_threads). Then a
short untimed warm-up (5 iterations from the initial weights), then --reps
runs, each starting from the same initial weights and timing --iters
iterations with time.perf_counter(); --blas-threads N pins the OpenBLAS
count to N instead (the output names then get a _blas<N> suffix), to study
the OpenMP/OpenBLAS interaction; the reported time per iteration is the
median over runs of (run time)/iters. Data loading and conversion are not
timed. The final loss (loss at the weights after the last update, evaluated
outside the timed loop) and training accuracy (argmax of the logits vs. the
labels, on all n rows) are from the last run.

Output: machine-readable "name value" lines on stdout, comments start with #:
    # torch VERSION
    torch_<dtype>_<t>thread_sec_per_iter VALUE      (median wall time)
    torch_<dtype>_<t>thread_cpu_sec_per_iter VALUE  (median process CPU time,
                                                     time.process_time())
    torch_<dtype>_<t>thread_final_loss VALUE
    torch_<dtype>_<t>thread_accuracy VALUE

--check-out FILE additionally runs --iters iterations once in float64 with
1 thread (untimed) and writes JSON with keys
    loss_first   loss at the initial weights (the first iteration's loss),
    loss_last    loss at the weights after the last update,
    weights      the final weights, same layout as --init,
plus, for convenience, init_weights (the initial weights, usable as --init
input for a Go run), arch, iters, lr, n, and accuracy.
"""

import argparse
import ctypes
import json
import os
import statistics
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_DATA = os.path.normpath(os.path.join(REPO_ROOT, "..", "shared", "data", "digits.csv"))
WARMUP_ITERS = 5


# ---------------------------------------------------------------- BLAS threads
def _find_openblas():
    """Return a ctypes handle on the OpenBLAS already mapped into this process
    (the one torch was linked against), or None if there is none."""
    try:
        with open("/proc/self/maps") as f:
            paths = {line.split()[-1] for line in f if "openblas" in line.lower() and "/" in line}
    except OSError:
        return None
    for path in sorted(paths):
        try:
            lib = ctypes.CDLL(path)
            lib.openblas_set_num_threads.argtypes = [ctypes.c_int]
            lib.openblas_get_num_threads.restype = ctypes.c_int
            return path, lib
        except (OSError, AttributeError):
            continue
    return None


def set_threads(t, blas, blas_t=None):
    torch.set_num_threads(t)
    if blas is not None:
        blas[1].openblas_set_num_threads(t if blas_t is None else blas_t)


def blas_threads(blas):
    return blas[1].openblas_get_num_threads() if blas is not None else None


# ------------------------------------------------------------------------ data
def load_digits(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
    if len(header) < 2 or header[-1] != "digit" or not all(h.startswith("pixel_") for h in header[:-1]):
        raise SystemExit(f"{path}: expected header pixel_*,...,digit; got {header[:3]}...{header[-2:]}")
    raw = np.loadtxt(path, delimiter=",", skiprows=1, dtype=np.float64, ndmin=2)
    x = raw[:, :-1] / 16.0
    y = raw[:, -1].astype(np.int64)
    if y.min() < 0:
        raise SystemExit(f"{path}: negative label")
    return x, y


# --------------------------------------------------------------------- weights
def init_weights(arch, seed, init_file):
    shapes = [(arch[l + 1], arch[l]) for l in range(len(arch) - 1)]
    if init_file:
        with open(init_file) as f:
            ws = [np.asarray(w, dtype=np.float64) for w in json.load(f)["weights"]]
        got = [w.shape for w in ws]
        if got != shapes:
            raise SystemExit(f"--init {init_file}: weight shapes {got} do not match --arch shapes {shapes}")
        return ws
    rng = np.random.default_rng(seed)
    return [rng.normal(0.0, np.sqrt(1.0 / p_in), size=(p_out, p_in)) for p_out, p_in in shapes]


# ------------------------------------------------------------------- the model
def forward(ws, x):
    h = x
    last = len(ws) - 1
    for l, w in enumerate(ws):
        h = h.matmul(w.t())
        if l < last:
            h = torch.relu(h)
    return h


def train(ws0, x, y, iters, lr, dtype, want_first_loss=False):
    """Run `iters` gradient-descent steps from copies of ws0. Returns
    ((wall seconds, process CPU seconds), weights, first_loss)."""
    ws = [torch.tensor(w, dtype=dtype).requires_grad_(True) for w in ws0]
    first = None
    c0, t0 = time.process_time(), time.perf_counter()
    for it in range(iters):
        loss = F.cross_entropy(forward(ws, x), y)
        loss.backward()
        with torch.no_grad():
            for w in ws:
                w.sub_(w.grad, alpha=lr)
                w.grad = None
        if want_first_loss and it == 0:
            first = loss.item()
    secs = (time.perf_counter() - t0, time.process_time() - c0)
    return secs, [w.detach() for w in ws], first


def evaluate(ws, x, y):
    with torch.no_grad():
        logits = forward(ws, x)
        loss = F.cross_entropy(logits, y).item()
        acc = (logits.argmax(dim=1) == y).double().mean().item()
    return loss, acc


# ------------------------------------------------------------------------ main
def parse_list(s, name, conv):
    try:
        return [conv(v) for v in s.split(",") if v.strip()]
    except ValueError:
        raise SystemExit(f"bad {name}: {s!r}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--arch", default="64,40,10")
    ap.add_argument("--iters", type=int, default=1000)
    ap.add_argument("--lr", type=float, default=0.1)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--dtype", default="both", choices=["float64", "float32", "both"])
    ap.add_argument("--threads", default="both", help="1, 2, both (=1,2) or a comma list")
    ap.add_argument("--blas-threads", default="same",
                    help="OpenBLAS threads: same (= torch threads, default) or a fixed N")
    ap.add_argument("--init", default=None, help='JSON {"weights": [W0, W1, ...]}, W_l of shape p_{l+1} x p_l')
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check-out", default=None)
    a = ap.parse_args()

    arch = parse_list(a.arch, "--arch", int)
    threads = [1, 2] if a.threads == "both" else parse_list(a.threads, "--threads", int)
    dtypes = ["float64", "float32"] if a.dtype == "both" else [a.dtype]
    if a.blas_threads == "same":
        blas_fixed = None
    else:
        blas_fixed = parse_list(a.blas_threads, "--blas-threads", int)
        if len(blas_fixed) != 1 or blas_fixed[0] < 1:
            raise SystemExit("--blas-threads must be 'same' or one positive integer")
        blas_fixed = blas_fixed[0]
    if len(arch) < 2 or min(arch) < 1 or a.iters < 1 or a.reps < 1 or not threads or min(threads) < 1:
        raise SystemExit("need --arch with >= 2 positive sizes, --iters >= 1, --reps >= 1, --threads >= 1")

    print(f"# torch {torch.__version__}", flush=True)

    x_np, y_np = load_digits(a.data)
    n, p = x_np.shape
    if arch[0] != p:
        raise SystemExit(f"--arch starts with {arch[0]} but the data has {p} features")
    if y_np.max() >= arch[-1]:
        raise SystemExit(f"labels go up to {y_np.max()} but --arch ends with {arch[-1]} outputs")
    ws0 = init_weights(arch, a.seed, a.init)
    blas = _find_openblas()

    init_desc = f"init={a.init}" if a.init else f"init=N(0,1/p_l) numpy default_rng({a.seed})"
    print(f"# numpy {np.__version__}; data {a.data} n={n} p={p}; arch {','.join(map(str, arch))} "
          f"no bias, relu hidden; x/16; mean softmax CE; GD lr={a.lr}; iters={a.iters} reps={a.reps}; {init_desc}")
    print(f"# blas: {blas[0] if blas else 'no OpenBLAS found, BLAS threads NOT controlled'}")

    y = torch.from_numpy(y_np)
    for dname in dtypes:
        dtype = getattr(torch, dname)
        x = torch.from_numpy(x_np).to(dtype).contiguous()
        for t in threads:
            set_threads(t, blas, blas_fixed)
            train(ws0, x, y, WARMUP_ITERS, a.lr, dtype)
            per_iter, cpu_per_iter = [], []
            ws = None
            for _ in range(a.reps):
                secs, ws, _ = train(ws0, x, y, a.iters, a.lr, dtype)
                per_iter.append(secs[0] / a.iters)
                cpu_per_iter.append(secs[1] / a.iters)
            loss, acc = evaluate(ws, x, y)
            tag = f"torch_{dname}_{t}thread" + ("" if blas_fixed is None else f"_blas{blas_fixed}")
            print(f"# {tag}: torch threads={torch.get_num_threads()} blas threads={blas_threads(blas)}; "
                  f"per-rep sec/iter " + " ".join(f"{v:.4e}" for v in per_iter))
            print(f"{tag}_sec_per_iter {statistics.median(per_iter):.6e}")
            print(f"{tag}_cpu_sec_per_iter {statistics.median(cpu_per_iter):.6e}")
            print(f"{tag}_final_loss {loss:.10g}")
            print(f"{tag}_accuracy {acc:.6f}", flush=True)

    if a.check_out:
        set_threads(1, blas)
        x = torch.from_numpy(x_np).to(torch.float64).contiguous()
        _, ws, first = train(ws0, x, y, a.iters, a.lr, torch.float64, want_first_loss=True)
        loss, acc = evaluate(ws, x, y)
        out = {
            "loss_first": first,
            "loss_last": loss,
            "weights": [w.tolist() for w in ws],
            "init_weights": [w.tolist() for w in ws0],
            "arch": arch,
            "iters": a.iters,
            "lr": a.lr,
            "n": n,
            "accuracy": acc,
        }
        with open(a.check_out, "w") as f:
            json.dump(out, f)
        print(f"# check-out written to {a.check_out} (float64, 1 thread): "
              f"loss_first={first:.17g} loss_last={loss:.17g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
