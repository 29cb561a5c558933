"""The Hartree-Fock proxy's RMA variants (apps/hf_proxy) in Python on a distributed array.

A distributed counter (read_inc) hands out tasks. Phase 1: task t adds weight(t) * g(i, j)
to every element of tile t mod T of an n x n distributed matrix, as a Fock build adds a shell
quartet's integrals to a block. Phase 2: task t reads tile T-1 - (t mod T) and checks it.
Variant "rma_nb" keeps up to 8 nonblocking accumulates / gets in flight (A.iaccumulate,
A.iget), "rma_blocking" uses A.accumulate and A[...]. Weights and g are small integers, so
every sum is exact: each rank checks what it read in phase 2 and a slab of the final matrix
against sums computed from the task ids alone, and the job exits non-zero on any mismatch.

    remorarun -n 4 python hf_proxy.py [--n 256] [--tile 16] [--tasks 1024]
        [--layout block|element_cyclic|all] [--variant rma_nb|rma_blocking|all]
        [--inject-error]   (perturbs one contribution: verification must then fail)
"""

import argparse
import sys

import numpy as np

import remora

OUTSTANDING = 8  # nonblocking operations in flight, as HF_OUTSTANDING in apps/hf_proxy


class Tiling:
    def __init__(self, n, tile):
        self.n, self.tile = n, tile
        self.per_row = (n + tile - 1) // tile
        self.count = self.per_row * self.per_row

    def index(self, k):
        """Tile k's patch as a tuple of slices."""
        r, c = divmod(k, self.per_row)
        return (slice(r * self.tile, min((r + 1) * self.tile, self.n)),
                slice(c * self.tile, min((c + 1) * self.tile, self.n)))


def weight(task):
    return float(1 + task % 5)


def element_values(rows, cols):
    """g(i, j) = 1 + (7 i + 3 j) mod 11 over a block of rows and columns."""
    i = np.arange(rows.start, rows.stop)[:, None]
    j = np.arange(cols.start, cols.stop)[None, :]
    return (1 + (i * 7 + j * 3) % 11).astype(np.float64)


def expected_weights(tiling, tasks):
    """weight_sum[k]: the sum of weight(t) over t < tasks with t mod T = k."""
    w = np.zeros(tiling.count)
    for t in range(tasks):
        w[t % tiling.count] += weight(t)
    return w


def expected_block(tiling, wsum, rows, cols):
    i = np.arange(rows.start, rows.stop)[:, None] // tiling.tile
    j = np.arange(cols.start, cols.stop)[None, :] // tiling.tile
    return element_values(rows, cols) * wsum[i * tiling.per_row + j]


def run(A, counter, args, variant):
    """One run of both phases; returns (seconds, mismatches over all ranks, checksum)."""
    tiling = Tiling(args.n, args.tile)
    wsum = expected_weights(tiling, args.tasks)
    values = {}  # phase 1's tiles of g, computed on first use
    A.zero()
    counter.zero()
    remora.barrier()
    start = remora.wtime()
    mismatches = 0

    # Phase 1: accumulate.
    inflight = []
    while True:
        task = counter.read_inc(0)
        if task >= args.tasks:
            break
        k = task % tiling.count
        idx = tiling.index(k)
        if k not in values:
            values[k] = element_values(*idx)
        alpha = weight(task) + (1.0 if args.inject_error and task == args.tasks // 2 else 0.0)
        if variant == "rma_nb":
            if len(inflight) == OUTSTANDING:
                inflight.pop(0).wait()
            inflight.append(A.iaccumulate(idx, values[k], alpha=alpha))
        else:
            A.accumulate(idx, values[k], alpha=alpha)
    for r in inflight:
        r.wait()
    remora.sync()

    # Phase 2: get and check.
    inflight = []

    def check(k, got):
        return int(np.count_nonzero(got != expected_block(tiling, wsum, *tiling.index(k))))

    while True:
        task = counter.read_inc(1)
        if task >= args.tasks:
            break
        k = tiling.count - 1 - task % tiling.count
        if variant == "rma_nb":
            if len(inflight) == OUTSTANDING:
                kk, req = inflight.pop(0)
                mismatches += check(kk, req.wait())
            inflight.append((k, A.iget(tiling.index(k))))
        else:
            mismatches += check(k, A[tiling.index(k)])
    for kk, req in inflight:
        mismatches += check(kk, req.wait())
    remora.barrier()
    seconds = remora.wtime() - start

    # The final matrix: each rank checks a slab of rows.
    rank, size, n = remora.rank(), remora.size(), args.n
    first, last = n * rank // size, n * (rank + 1) // size
    checksum = 0.0
    if first < last:
        rows = A[first:last, :]
        mismatches += int(np.count_nonzero(
            rows != expected_block(tiling, wsum, slice(first, last), slice(0, n))))
        checksum = float(rows.sum())
    mismatches = int(remora.allreduce(np.array([mismatches], dtype=np.int64))[0])
    checksum = float(remora.allreduce(np.array([checksum]))[0])
    return seconds, mismatches, checksum


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n", type=int, default=256)
    p.add_argument("--tile", type=int, default=16)
    p.add_argument("--tasks", type=int, default=1024)
    p.add_argument("--layout", default="all", choices=["block", "element_cyclic", "all"])
    p.add_argument("--variant", default="all", choices=["rma_nb", "rma_blocking", "all"])
    p.add_argument("--inject-error", action="store_true")
    args = p.parse_args()
    layouts = ["block", "element_cyclic"] if args.layout == "all" else [args.layout]
    variants = ["rma_nb", "rma_blocking"] if args.variant == "all" else [args.variant]
    me = remora.rank()
    if me == 0:
        print("hf_proxy.py: %d ranks, n=%d tile=%d, %d tasks per phase"
              % (remora.size(), args.n, args.tile, args.tasks))
        print("%-15s %-13s %10s %10s  %-14s %s" % ("layout", "variant", "tasks/s", "seconds",
                                                   "sum", "check"))
    failures = 0
    with remora.Array((2,), np.int64, name="counter") as counter:
        for layout in layouts:
            with remora.Array((args.n, args.n), np.float64, layout=layout, name="fock") as A:
                for variant in variants:
                    seconds, bad, total = run(A, counter, args, variant)
                    failures += bad != 0
                    if me == 0:
                        print("%-15s %-13s %10.0f %10.4f  %-14.6g %s" % (
                            layout, variant, 2 * args.tasks / seconds, seconds, total,
                            "ok" if bad == 0 else "%d WRONG" % bad))
    if me == 0:
        print("hf_proxy.py: %s" % ("verified" if failures == 0 else "NOT verified"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
