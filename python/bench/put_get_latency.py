"""Per-call cost of an 8-byte put and get issued from Python: remora.Window.put/get against
mpi4py's Win.Put/Win.Get, on 2 ranks of one node.

    remorarun -n 2 python put_get_latency.py remora [iterations] [repetitions]
    mpiexec -n 2 --mca osc sm python put_get_latency.py mpi4py [iterations] [repetitions]

Rank 0 opens a passive-target epoch on every rank (lock_all), then times `iterations` calls of
put (then one flush, included) and of get of one float64 to rank 1, `repetitions` times; it
prints the median time per call in microseconds as one CSV line:
    library,operation,median_us,min_us,iterations,repetitions
Rank 1 only waits in the closing barrier. Each get's value is checked (rank 1's memory holds
its rank), so the loop cannot be optimised away."""

import sys
import time

import numpy as np

lib = sys.argv[1] if len(sys.argv) > 1 else "remora"
iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
repetitions = int(sys.argv[3]) if len(sys.argv) > 3 else 15


def report(op, samples):
    per_call = np.array(samples) / iterations * 1e6
    print("%s,%s,%.4f,%.4f,%d,%d" % (lib, op, np.median(per_call), per_call.min(), iterations,
                                     repetitions), flush=True)


def run(put, get, flush, barrier, rank):
    src = np.array([42.0])
    out = np.empty(1)
    if rank == 0:
        put_times, get_times = [], []
        for _ in range(repetitions):
            t0 = time.perf_counter()
            for _ in range(iterations):
                put(src)
            flush()
            put_times.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            for _ in range(iterations):
                get(out)
            get_times.append(time.perf_counter() - t0)
            if out[0] != 42.0:
                raise SystemExit("get returned %r, expected 42.0" % out[0])
        report("put", put_times)
        report("get", get_times)
    barrier()


if lib == "remora":
    import remora

    win = remora.Window.allocate(1, np.float64)
    win.lock_all()
    # win.get(1, out=out) is the allocation-free form, as mpi4py's Get into a given buffer
    run(lambda s: win.put(s, 1), lambda o: win.get(1, out=o), lambda: win.flush(1),
        remora.barrier, remora.rank())
    win.unlock_all()
    remora.barrier()
    win.free()
elif lib == "mpi4py":
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    win = MPI.Win.Allocate(8, 8, comm=comm)
    win.Lock_all()
    run(lambda s: win.Put(s, 1), lambda o: win.Get(o, 1), lambda: win.Flush(1),
        comm.Barrier, comm.Get_rank())
    win.Unlock_all()
    comm.Barrier()
    win.Free()
else:
    raise SystemExit("usage: put_get_latency.py remora|mpi4py [iterations] [repetitions]")
