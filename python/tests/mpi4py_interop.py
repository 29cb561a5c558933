"""Remora with mpi4py in one program (run by run-tests.sh under mpiexec.mpich; the package
and mpi4py must both be built against MPICH). Not a pytest file: each mode is one MPI job.

    mpiexec.mpich -n 2 python mpi4py_interop.py world   mpi4py initialises MPI, then
        `import remora` starts Remora on that MPI: the same ranks, both usable side by side.
    mpiexec.mpich -n 3 python mpi4py_interop.py comm    REMORAPY_INIT=0, then remora.init(comm)
        on an mpi4py communicator of world ranks 1 and 0 (in that order); rank 2 uses MPI only.
Prints "mpi4py_interop MODE: ok" on world rank 0 and exits 0 when every check held."""

import os
import sys

import numpy as np

mode = sys.argv[1] if len(sys.argv) > 1 else "world"
if mode == "comm":
    os.environ["REMORAPY_INIT"] = "0"

from mpi4py import MPI  # noqa: E402  (initialises MPI)

import remora  # noqa: E402

world = MPI.COMM_WORLD


def ring_window_check(rank, size):
    """A put ring through a Remora window and an allreduce, checked against mpi4py's."""
    with remora.Window.allocate(4, np.int64) as win:
        win.fence()
        win.put(np.full(4, rank, dtype=np.int64), (rank + 1) % size)
        win.fence()
        assert (win.local == (rank - 1) % size).all(), win.local
    mine = np.array([rank + 1.0, 2.0 * rank])
    theirs = np.empty(2)
    comm = world if mode == "world" else _sub
    comm.Allreduce(mine, theirs, op=MPI.SUM)
    np.testing.assert_array_equal(remora.allreduce(mine), theirs)


if mode == "world":
    assert remora.initialized()
    assert (remora.rank(), remora.size()) == (world.rank, world.size), (
        remora.rank(), remora.size(), world.rank, world.size)
    ring_window_check(remora.rank(), remora.size())
    with remora.Array((6, 4), np.int64) as A:
        if remora.rank() == 0:
            A[:, :] = np.arange(24).reshape(6, 4)
        remora.sync()
        got = A[2:4, 1:3]
    # mpi4py still works while Remora runs: gather what every rank read
    every = world.allgather(got.tolist())
    assert all(g == [[9, 10], [13, 14]] for g in every), every
    try:
        remora.init(comm=world)
        raise SystemExit("remora.init(comm) after the start did not raise")
    except remora.StateError as e:
        assert "REMORAPY_INIT=0" in str(e), str(e)
elif mode == "comm":
    assert not remora.initialized() and remora.COMM_WORLD is None
    _sub = world.Split(0 if world.rank < 2 else MPI.UNDEFINED, key=-world.rank)
    if _sub != MPI.COMM_NULL:
        try:
            remora.init(comm=MPI.COMM_NULL)
            raise SystemExit("remora.init(COMM_NULL) did not raise")
        except remora.ArgumentError as e:
            assert "COMM_NULL" in str(e), str(e)
        remora.init(comm=_sub)
        assert remora.size() == 2 and remora.rank() == _sub.rank == 1 - world.rank, (
            remora.rank(), remora.size(), _sub.rank, world.rank)
        assert remora.COMM_WORLD.size == 2
        ring_window_check(remora.rank(), remora.size())
    world.Barrier()  # rank 2 used MPI alone meanwhile
else:
    raise SystemExit("usage: mpi4py_interop.py world|comm")

if world.rank == 0:
    print("mpi4py_interop %s: ok" % mode, flush=True)
