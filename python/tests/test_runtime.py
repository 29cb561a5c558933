import numpy as np
import pytest

import remora


def test_rank_and_size():
    assert remora.initialized()
    n = remora.size()
    assert n >= 1
    assert 0 <= remora.rank() < n
    # every rank reports a distinct rank: their sum is 0 + 1 + ... + n-1
    total = remora.allreduce(np.array([remora.rank()], dtype=np.int64))
    assert total[0] == n * (n - 1) // 2


def test_barrier_orders_window_stores(size, rank):
    with remora.Window.allocate(1, np.int64) as w:
        w.local[0] = 100 + rank
        remora.barrier()
        with w.lock((rank + 1) % size, exclusive=False):
            got = w.get((rank + 1) % size)
        assert got[0] == 100 + (rank + 1) % size


def test_wtime_increases():
    t0 = remora.wtime()
    t1 = remora.wtime()
    assert t1 >= t0


def test_error_hierarchy():
    assert issubclass(remora.ArgumentError, remora.Error)
    assert issubclass(remora.ArgumentError, ValueError)
    assert issubclass(remora.DatatypeError, remora.ArgumentError)
    assert issubclass(remora.DatatypeError, TypeError)
    assert issubclass(remora.RankError, IndexError)
    assert issubclass(remora.RangeError, IndexError)
    assert issubclass(remora.StateError, remora.Error)
    assert issubclass(remora.UnsupportedError, NotImplementedError)


def test_bad_rank_raises_rank_error(win, size):
    with pytest.raises(remora.RankError) as e:
        win.lock(size + 3)
    assert str(size + 3) in str(e.value)
    assert e.value.code == -2
    # the job is still usable
    remora.barrier()


def test_init_is_idempotent_and_refuses_a_late_communicator():
    remora.init()  # already started at import: nothing happens
    assert remora.COMM_WORLD.size == remora.size()
    with pytest.raises(remora.StateError, match="REMORAPY_INIT=0"):
        remora.init(comm=object())


def test_deferred_init(rank):
    """REMORAPY_INIT=0: nothing starts at import; calls before init() raise
    NotInitializedError; init() starts a job (here a separate one-rank job)."""
    import os
    import subprocess
    import sys

    if rank != 0:
        return
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("REMORA_", "PMI_", "PMIX_", "OMPI_", "HYDRA_", "MPI_"))}
    env["REMORAPY_INIT"] = "0"
    code = ("import remora\n"
            "assert not remora.initialized() and remora.COMM_WORLD is None\n"
            "try:\n    remora.rank()\n    raise SystemExit('rank() did not raise')\n"
            "except remora.NotInitializedError:\n    pass\n"
            "remora.init()\n"
            "assert (remora.rank(), remora.size(), remora.COMM_WORLD.size) == (0, 1, 1)\n"
            "print('deferred ok')\n")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0 and "deferred ok" in r.stdout, r.stdout + r.stderr
