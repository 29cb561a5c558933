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
    init,
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

init()
COMM_WORLD = _core._world()


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
