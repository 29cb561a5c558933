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
