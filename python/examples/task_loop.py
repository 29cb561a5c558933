"""Dynamic load balancing with a distributed counter (read_inc).

Tasks of very different costs are handed out by an atomic counter in a remora.Array: each rank
takes the next task number with read_inc until none are left, so fast ranks take more tasks.
Each task writes its result into a distributed result array; at the end every rank checks
that every task was done exactly once and that the results are right.

    remorarun -n 4 python task_loop.py [tasks]
"""

import sys

import numpy as np

import remora

ntasks = int(sys.argv[1]) if len(sys.argv) > 1 else 200
rank, size = remora.rank(), remora.size()


def work(t):
    """A task whose cost varies with t: the sum of the first (t % 17) * 1000 integers."""
    n = (t % 17) * 1000
    return float(np.arange(n, dtype=np.float64).sum())


counter = remora.Array((1,), np.int64)
results = remora.Array((ntasks,), np.float64)
done_by = remora.Array((ntasks,), np.int64)  # how many times each task was done

mine = 0
while True:
    t = counter.read_inc(0)
    if t >= ntasks:
        break
    results[t] = work(t)
    done_by.accumulate(slice(t, t + 1), np.ones(1, dtype=np.int64))
    mine += 1
remora.sync()

counts = remora.allgather(np.array([mine]))
expected = np.array([work(t) for t in range(ntasks)])
ok = (np.array_equal(done_by[:], np.ones(ntasks, dtype=np.int64))
      and np.array_equal(results[:], expected) and int(counts.sum()) == ntasks)
if rank == 0:
    print("%d tasks on %d ranks, taken per rank %s: %s"
          % (ntasks, size, counts.ravel().tolist(), "correct" if ok else "WRONG"))
status = int(remora.allreduce(np.array([0 if ok else 1]), op="max")[0])
for a in (counter, results, done_by):
    a.destroy()
sys.exit(status)
