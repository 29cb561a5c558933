"""remora.Window: RMA windows (remora/win.h) whose memory is a numpy array on every rank."""

import numpy as _np

from . import _core

__all__ = ["Window"]


def _info_string(info):
    parts = []
    for key, value in info.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        parts.append("%s=%s" % (key, value))
    return ",".join(parts)


class _Epoch:
    """Closes an epoch on leaving a with-block."""

    __slots__ = ("_close",)

    def __init__(self, close):
        self._close = close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._close()
        return False


class Window(_core._Window):
    """Memory that every rank exposes for one-sided access inside synchronisation epochs.

    Window.allocate(shape, dtype, comm=None, **info) is collective; .local is this rank's
    memory as a numpy array (no copy). Operations address a target rank's memory in elements
    of the window's dtype: win.put(data, target, disp=0), win.get(target, disp=0, count=None),
    accumulate, get_accumulate, fetch_and_op, compare_and_swap and the request forms rput,
    rget, raccumulate, rget_accumulate. Epochs: fence(); with win.lock(target):;
    with win.lock_all():; with win.access(group): / with win.exposure(group): (PSCW)."""

    @classmethod
    def allocate(cls, shape, dtype=_np.float64, comm=None, **info):
        """Collective: shape elements of dtype on every rank (shapes may differ per rank),
        zero-initialised. info keys as keyword arguments (acc_strategy="owner",
        lock="deferred", ...), the same on every rank."""
        return cls(shape, dtype, _info_string(info) if info else None, comm)

    @classmethod
    def create(cls, array, **info):
        """Collective: a window over the caller's own numpy array (C-contiguous, writeable;
        shapes and sizes may differ per rank, dtypes must agree), which the window keeps alive
        until free(). .local is a view of that array. Other ranks reach it with a single
        kernel copy where the system allows it, else through this rank's progress agent
        (info key user_memory="auto"|"single_copy"|"agent"); accumulates use a lock table."""
        return cls(None, None, _info_string(info) if info else None, None, array)

    def lock(self, target, exclusive=True, nocheck=False):
        """Opens a passive-target epoch to target now; the returned object unlocks it at the
        end of a with-block (or call unlock(target))."""
        self._lock(target, exclusive, nocheck)
        return _Epoch(lambda: self.unlock(target))

    def lock_all(self, nocheck=False):
        """A shared lock on every rank; closed at the end of a with-block or by unlock_all()."""
        self._lock_all(nocheck)
        return _Epoch(self.unlock_all)

    def access(self, group, nocheck=False):
        """PSCW start(group): an access epoch to the ranks of group, completed (complete())
        at the end of a with-block."""
        self._start(group, _core_mode_nocheck if nocheck else 0)
        return _Epoch(self.complete)

    def exposure(self, group):
        """PSCW post(group): an exposure epoch to the ranks of group, ended by wait() at the
        end of a with-block."""
        self._post(group, 0)
        return _Epoch(self.wait)

    def post(self, group):
        self._post(group, 0)

    def start(self, group, nocheck=False):
        self._start(group, _core_mode_nocheck if nocheck else 0)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free()
        return False

    def __repr__(self):
        if self.freed:
            return "<remora.Window (freed)>"
        return "<remora.Window shape=%s dtype=%s rank %d of %d>" % (
            self.shape, self.dtype, self.comm_rank, self.comm_size)


_core_mode_nocheck = 1  # REMORA_MODE_NOCHECK
