"""Remora for Python: one-sided communication (windows), collectives and distributed arrays on
numpy arrays. See docs/python.md in the repository.

Importing the package starts Remora (remora_init); it ends at interpreter exit."""

import atexit as _atexit
import os as _os
import sys as _sys

import numpy as _np

from . import _core
from ._core import (  # noqa: F401
    AbortedError,
    AlignmentError,
    ArgumentError,
    Comm,
    ConfigError,
    DatatypeError,
    Error,
    Group,
    Layout,
    InternalError,
    NotInitializedError,
    OutOfMemoryError,
    RangeError,
    RankError,
    Request,
    StateError,
    SystemCallError,
    UnsupportedError,
    abort,
    allgather,
    alltoall,
    gather,
    scan,
    scatter,
    allreduce,
    barrier,
    bcast,
    finalize,
    iallreduce,
    iallgather,
    ialltoall,
    ibarrier,
    ibcast,
    igather,
    ireduce,
    ireduce_scatter,
    iscan,
    iscatter,
    reduce_scatter,
    waitall,
    initialized,
    local_rank,
    local_size,
    node,
    progress,
    rank,
    reduce,
    size,
    wtime,
)
from .window import Window  # noqa: F401
from .array import (  # noqa: F401
    Array,
    AxpyBatch,
    Mutexes,
    add_patch,
    copy_patch,
    dot_patch,
    elem_patch,
    gemm,
    gemm_patch,
)
from ._core import ArrayRequest, sync  # noqa: F401

__version__ = "0.1.0"

# Assertions of Window.fence, lock and start (REMORA_MODE_* of remora/win.h).
MODE_NOCHECK = 1
MODE_NOSTORE = 2
MODE_NOPUT = 4
MODE_NOPRECEDE = 8
MODE_NOSUCCEED = 16

COMM_WORLD = None  # the world communicator, set when Remora starts
_mpi_comm = None  # the mpi4py communicator Remora was started on, kept alive


def init(comm=None):
    """Starts Remora (collective); importing remora calls init() unless the environment has
    REMORAPY_INIT=0. comm: an mpi4py communicator (MPI already initialised, by mpi4py): Remora
    then runs over that communicator's ranks, in its order (remora_init_mpi_comm; needs the
    package built with the MPI transport, else UnsupportedError). Without comm, a program
    that imported mpi4py first runs Remora over mpi4py's MPI_COMM_WORLD."""
    global COMM_WORLD, _mpi_comm
    if initialized():
        if comm is not None:
            raise _error(StateError, "Remora is already started (importing remora starts it: "
                         "set REMORAPY_INIT=0 before the import to start it on an mpi4py "
                         "communicator with remora.init(comm))", -6)
        return
    if comm is None:
        _core.init()
    else:
        try:
            from mpi4py import MPI
        except ImportError:
            raise _error(ArgumentError, "comm = %r: a communicator to start on must be an "
                         "mpi4py communicator, and mpi4py is not installed" % (comm,), -1) \
                from None
        if not isinstance(comm, MPI.Comm) or comm == MPI.COMM_NULL:
            raise _error(ArgumentError, "comm = %r is not an mpi4py communicator (or is "
                         "COMM_NULL)" % (comm,), -1)
        _core._init_mpi_comm(MPI._addressof(comm))
        _mpi_comm = comm
    COMM_WORLD = _core._world()


def _error(cls, message, code):
    e = cls(message)
    e.code = code
    return e


if _os.environ.get("REMORAPY_INIT", "1") != "0":
    init()


def _finalize():
    if initialized():
        finalize()


_atexit.register(_finalize)


def _abort_on_uncaught(kind, value, tb, _previous=_sys.excepthook):
    """An uncaught exception on one rank ends the whole job (the other ranks would otherwise
    wait for it in their next collective call, or in finalize, for ever)."""
    _previous(kind, value, tb)
    if initialized() and size() > 1 and _os.environ.get("REMORAPY_ABORT", "1") != "0":
        _sys.stderr.flush()
        abort(1, "uncaught Python exception %s" % kind.__name__)


_sys.excepthook = _abort_on_uncaught
