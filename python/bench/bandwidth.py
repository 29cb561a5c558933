"""Bandwidth of window puts and gets of 1 KiB .. 16 MiB numpy arrays issued from Python: the
same operations as bandwidth.c (its peer in C, same library build), on 2 ranks of one node.

    remorarun -n 2 python bandwidth.py [repetitions]

Both ranks allocate a 16 MiB float64 window; rank 0 opens a lock_all epoch and, for each size,
times n back-to-back win.put(array, 1) followed by one flush, n win.get(1, out=array) (into a
given array) and n win.get(1, count=...) (a new array each call) each followed by one flush,
`repetitions` times; n gives about 64 MiB per timing (at least 8 calls). One CSV line per
operation and size:
    python,operation,bytes,median_GBps,max_GBps,calls,repetitions
The data read back is checked."""

import sys
import time

import numpy as np

import remora

MAX_BYTES = 16 << 20
reps = int(sys.argv[1]) if len(sys.argv) > 1 else 9


def report(op, nbytes, gbps, calls):
    print("python,%s,%d,%.3f,%.3f,%d,%d" % (op, nbytes, np.median(gbps), max(gbps), calls, reps),
          flush=True)


def timed(fn, calls, nbytes):
    out = []
    for r in range(-1, reps):  # r = -1: warm-up
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        win.flush(1)
        if r >= 0:
            out.append(nbytes * calls / (time.perf_counter() - t0) / 1e9)
    return out


if remora.size() != 2:
    raise SystemExit("bandwidth.py: run on 2 ranks")
win = remora.Window.allocate(MAX_BYTES // 8, np.float64)
src = np.arange(MAX_BYTES // 8, dtype=np.float64)
dst = np.zeros(MAX_BYTES // 8)
remora.barrier()
if remora.rank() == 0:
    win.lock_all()
    nbytes = 1024
    while nbytes <= MAX_BYTES:
        count = nbytes // 8
        calls = max(8, (64 << 20) // nbytes)
        s, d = src[:count], dst[:count]  # contiguous views, made once
        report("put", nbytes, timed(lambda: win.put(s, 1), calls, nbytes), calls)
        report("get", nbytes, timed(lambda: win.get(1, out=d), calls, nbytes), calls)
        if d[-1] != count - 1:
            raise SystemExit("get read %r, expected %r" % (d[-1], count - 1))
        report("get_new", nbytes, timed(lambda: win.get(1, count=count), calls, nbytes), calls)
        nbytes *= 4
    win.unlock_all()
remora.barrier()
win.free()
