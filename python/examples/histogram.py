"""Parallel histogram with one-sided accumulates.

Every rank draws its own samples, bins them locally, and adds its counts into the histogram
held by rank 0 with win.accumulate inside a lock_all epoch; no rank waits for another until
the final barrier. Rank 0 then checks the total against the histogram computed from every
rank's samples (each rank can regenerate any other's samples from its seed).

    remorarun -n 4 python histogram.py [samples_per_rank] [bins]
"""

import sys

import numpy as np

import remora

samples = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
bins = int(sys.argv[2]) if len(sys.argv) > 2 else 64
rank, size = remora.rank(), remora.size()


def draw(r):
    return np.random.default_rng(1000 + r).normal(0.0, 1.0, samples)


edges = np.linspace(-4.0, 4.0, bins + 1)
# rank 0 holds the histogram; the others expose no memory
win = remora.Window.allocate(bins if rank == 0 else 0, np.int64)

counts, _ = np.histogram(draw(rank), edges)
with win.lock_all():
    win.accumulate(counts.astype(np.int64), 0)  # atomic per element: no update is lost
remora.barrier()

if rank == 0:
    expected = sum(np.histogram(draw(r), edges)[0] for r in range(size))
    ok = np.array_equal(win.local, expected)
    print("histogram of %d samples from %d ranks in %d bins: %s"
          % (samples * size, size, bins, "correct" if ok else "WRONG"))
    status = 0 if ok else 1
else:
    status = 0
status = int(remora.allreduce(np.array([status]), op="max")[0])
win.free()
sys.exit(status)
