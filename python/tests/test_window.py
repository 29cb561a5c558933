import numpy as np
import pytest

import remora


def test_local_is_zero_copy_view(rank):
    with remora.Window.allocate((3, 4), np.float64) as w:
        a = w.local
        assert a.shape == (3, 4) and a.dtype == np.float64
        assert not a.any()  # zero-initialised
        a[1, 2] = 7.5 + rank
        assert w.local[1, 2] == 7.5 + rank  # same memory
        assert w.shape == (3, 4) and w.dtype == np.float64


def test_fence_put_get_ring(size, rank):
    with remora.Window.allocate(8, np.float64) as w:
        right = (rank + 1) % size
        w.fence()
        w.put(np.arange(8.0) + 10 * rank, right)
        w.fence()
        left = (rank - 1) % size
        np.testing.assert_array_equal(w.local, np.arange(8.0) + 10 * left)
        got = w.get(right, disp=2, count=3)
        w.fence()
        np.testing.assert_array_equal(got, np.arange(2.0, 5.0) + 10 * rank)


def test_get_defaults_and_out(win, rank, size):
    win.local[:] = np.arange(16) * (rank + 1)
    remora.barrier()
    t = (rank + 1) % size
    with win.lock(t, exclusive=False):
        whole = win.get(t)
        tail = win.get(t, disp=10)
        out = np.empty(4, dtype=np.int64)
        r = win.get(t, disp=1, out=out)
    assert r is out
    np.testing.assert_array_equal(whole, np.arange(16) * (t + 1))
    np.testing.assert_array_equal(tail, np.arange(10, 16) * (t + 1))
    np.testing.assert_array_equal(out, np.arange(1, 5) * (t + 1))


def test_put_noncontiguous_and_list(win, rank, size):
    t = (rank + 1) % size
    src = np.arange(32, dtype=np.int64)[::2]  # a strided view
    with win.lock(t):
        win.put(src[:4], t, disp=0)
        win.put([100, 101], t, disp=4)  # a list is converted to the window's dtype
    remora.barrier()
    np.testing.assert_array_equal(win.local[:6], [0, 2, 4, 6, 100, 101])


def test_accumulate_sum_from_every_rank(win, size):
    with win.lock_all():
        for t in range(size):
            win.accumulate(np.arange(16, dtype=np.int64), t)
    remora.barrier()
    np.testing.assert_array_equal(win.local, np.arange(16) * size)


def test_accumulate_scaled_and_max(size, rank):
    with remora.Window.allocate(4, np.float64) as w:
        w.fence()
        w.accumulate(np.ones(4), 0, alpha=0.5)
        w.fence()
        if rank == 0:
            np.testing.assert_allclose(w.local, 0.5 * size)
        # the fence opened the next epoch: other ranks' operations may already arrive, so
        # they wait until rank 0 has read
        remora.barrier()
        w.accumulate(np.full(2, float(rank)), 0, disp=2, op="max")
        w.fence()
        if rank == 0:
            m = max(0.5 * size, size - 1)
            np.testing.assert_allclose(w.local, [0.5 * size, 0.5 * size, m, m])


def test_fetch_and_op_counter(win, size):
    seen = []
    with win.lock_all():
        for _ in range(5):
            seen.append(int(win.fetch_and_op(1, 0, disp=3)))
    allseen = remora.allgather(np.array(seen, dtype=np.int64))
    # every ticket 0 .. 5*size-1 handed out exactly once
    assert sorted(allseen.ravel().tolist()) == list(range(5 * size))
    remora.barrier()
    if remora.rank() == 0:
        assert win.local[3] == 5 * size


def test_get_accumulate_and_no_op(win, rank, size):
    with win.lock(0):
        old = win.get_accumulate(np.full(2, 3, dtype=np.int64), 0, disp=5)
    assert old.shape == (2,) and old.dtype == np.int64
    remora.barrier()
    with win.lock(0, exclusive=False):
        now = win.get_accumulate(None, 0, disp=5, op="no_op", count=2)
    np.testing.assert_array_equal(now, [3 * size, 3 * size])
    olds = remora.allgather(old)
    assert sorted(olds[:, 0].tolist()) == [3 * k for k in range(size)]


def test_compare_and_swap_elects_one(win, rank, size):
    with win.lock_all():
        prev = win.compare_and_swap(rank + 1, 0, 0, disp=7)
    winners = remora.allreduce(np.array([1 if prev == 0 else 0], dtype=np.int64))
    assert winners[0] == 1
    remora.barrier()
    if rank == 0:
        assert 1 <= win.local[7] <= size


def test_flush_makes_put_visible(win, rank, size):
    t = (rank + 1) % size
    with win.lock_all():
        win.put(np.array([rank + 40]), t, disp=9)
        win.flush(t)
        win.flush()
        win.flush_local()
        assert win.get(t, disp=9, count=1)[0] == rank + 40


def test_pscw_ring(size, rank):
    with remora.Window.allocate(2, np.int64) as w:
        left, right = (rank - 1) % size, (rank + 1) % size
        with w.exposure(remora.Group(sorted({left}))):
            with w.access(remora.Group(sorted({right}))):
                w.put(np.array([rank, rank * 2]), right)
        np.testing.assert_array_equal(w.local, [left, left * 2])


def test_request_forms(win, rank, size):
    t = (rank + 1) % size
    with win.lock(t):
        r1 = win.rput(np.array([5, 6], dtype=np.int64), t, disp=0)
        assert r1.wait() is None
        r2 = win.raccumulate(np.array([1, 1], dtype=np.int64), t, disp=0)
        r2.wait()
        win.flush(t)
        r3 = win.rget(t, disp=0, count=2)
        np.testing.assert_array_equal(r3.wait(), [6, 7])
        r4 = win.rget_accumulate(np.array([10, 10], dtype=np.int64), t, disp=0)
        while not r4.test():
            pass
        np.testing.assert_array_equal(r4.wait(), [6, 7])
    remora.barrier()
    np.testing.assert_array_equal(win.local[:2], [16, 17])


@pytest.mark.parametrize("info", [{"acc_strategy": "caller"}, {"lock": "deferred"},
                                  {"fence": "deferred"}])
def test_info_keys(info, size, rank):
    with remora.Window.allocate(4, np.int32, **info) as w:
        w.fence()
        w.accumulate(np.ones(4, dtype=np.int32), 0)
        w.fence(remora.MODE_NOSUCCEED)
        # a lock epoch may follow only once every rank has closed the fence epoch
        remora.barrier()
        with w.lock((rank + 1) % size):
            w.put(np.arange(2, dtype=np.int32) + 0, (rank + 1) % size, disp=2)  # a temporary
        remora.barrier()
        if rank == 0:
            assert w.local[0] == size
        np.testing.assert_array_equal(w.local[2:], [0, 1])
        if "acc_strategy" in info:
            assert w.acc_strategy == info["acc_strategy"]


def test_complex_and_float32(size):
    for dt in (np.complex128, np.float32, np.uint16):
        with remora.Window.allocate(3, dt) as w:
            w.fence()
            w.accumulate(np.ones(3, dtype=dt), 0)
            w.fence()
            if remora.rank() == 0:
                np.testing.assert_array_equal(w.local, np.full(3, size, dtype=dt))


# ---- Errors: the right exception, a clear message, and the job stays usable ----

def test_wrong_dtype_is_datatype_error(win):
    with win.lock(0):
        with pytest.raises(remora.DatatypeError, match="float32.*expected int64"):
            win.put(np.zeros(2, dtype=np.float32), 0)


def test_unsupported_dtype():
    with pytest.raises(remora.DatatypeError, match="bool"):
        remora.Window.allocate(4, np.bool_)
    remora.barrier()


def test_out_of_range_put(win):
    with win.lock(0):
        with pytest.raises(remora.RangeError, match="outside"):
            win.put(np.zeros(4, dtype=np.int64), 0, disp=14)
        with pytest.raises(remora.RangeError, match="negative"):
            win.get(0, disp=-1, count=1)


def test_operation_outside_epoch_is_state_error(win):
    with pytest.raises(remora.StateError):
        win.put(np.zeros(1, dtype=np.int64), 0)
    # usable afterwards
    with win.lock(0):
        win.put(np.zeros(1, dtype=np.int64), 0)


def test_shape_mismatch_out(win):
    with win.lock(0, exclusive=False):
        with pytest.raises(remora.ArgumentError, match="out has 3 elements"):
            win.get(0, count=2, out=np.empty(3, dtype=np.int64))
        with pytest.raises(remora.ArgumentError, match="op"):
            win.accumulate(np.ones(1, dtype=np.int64), 0, op="plus")


def test_freed_window_is_state_error():
    w = remora.Window.allocate(2, np.int64)
    w.free()
    with pytest.raises(remora.StateError, match="freed"):
        w.put(np.zeros(1, dtype=np.int64), 0)


def test_window_on_sub_communicator(size, rank):
    half = remora.COMM_WORLD.split(rank % 2, key=rank)
    with remora.Window.allocate(2, np.int64, comm=half) as w:
        assert w.comm_size == half.size and w.comm_rank == half.rank
        with w.lock_all():
            w.accumulate(np.array([1, rank], dtype=np.int64), 0)
        remora.barrier()
        if half.rank == 0:
            members = [r for r in range(size) if r % 2 == rank % 2]
            np.testing.assert_array_equal(w.local, [len(members), sum(members)])
    half.free()


def test_bad_target_and_bad_op_for_type(win, size):
    with win.lock_all():
        with pytest.raises(remora.RankError, match=str(size)):
            win.put(np.zeros(1, dtype=np.int64), size)
    with remora.Window.allocate(1, np.float64) as f:
        with f.lock(0):
            with pytest.raises(remora.ArgumentError):
                f.fetch_and_op(1.0, 0, op="band")


def test_create_over_user_array(size, rank):
    mine = np.full(6 + rank, -1, dtype=np.int32)
    with remora.Window.create(mine) as w:
        assert w.shape == (6 + rank,) and w.dtype == np.int32
        assert w.target_size((rank + 1) % size) == 6 + (rank + 1) % size
        assert w.path(rank) in ("local", "shared")
        right = (rank + 1) % size
        w.fence()
        w.put(np.arange(3, dtype=np.int32) + 10 * rank, right, disp=2)
        w.accumulate(np.ones(2, dtype=np.int32), right, disp=0)
        w.fence()
        left = (rank - 1) % size
        expect = np.full(6 + rank, -1, dtype=np.int32)
        expect[2:5] = np.arange(3) + 10 * left
        expect[0:2] += 1
        np.testing.assert_array_equal(mine, expect)  # the user's own array holds the window
        np.testing.assert_array_equal(w.local, expect)
        with w.lock(right, exclusive=False):
            np.testing.assert_array_equal(w.get(right, disp=2, count=3),
                                          np.arange(3) + 10 * rank)
        remora.barrier()


def test_create_errors(win):
    with pytest.raises(remora.ArgumentError, match="contiguous"):
        remora.Window.create(np.zeros((4, 4))[:, ::2])
    with pytest.raises(remora.DatatypeError):
        remora.Window.create(np.zeros(4, dtype=np.bool_))
    with pytest.raises(remora.ArgumentError, match="numpy array"):
        remora.Window.create([1, 2, 3])
    win.fence()
    win.put(np.array([5]), remora.rank(), disp=1)
    win.fence()
    assert win.local[1] == 5


def test_layout_put_get_accumulate(size, rank):
    # Each rank's window is a 4 x 6 matrix; the right neighbour writes column 1 and a 2 x 3 box.
    right, left = (rank + 1) % size, (rank - 1) % size
    col = remora.Layout.vector(4, 1, 6)
    box = remora.Layout.subarray((4, 6), (2, 3), (1, 2))
    assert (col.elements, col.extent) == (4, 19)
    assert (box.elements, box.extent) == (6, 6 * 2 + 5)
    with remora.Window.allocate((4, 6), np.float64) as w:
        w.fence()
        w.put_layout(np.arange(4.0) + 100 * rank, right, col, disp=1)
        w.accumulate_layout(np.full(6, rank + 1.0), right, box, alpha=2.0)
        w.fence()
        expect = np.zeros((4, 6))
        expect[:, 1] = np.arange(4.0) + 100 * left
        expect[1:3, 2:5] += 2.0 * (left + 1)
        np.testing.assert_array_equal(w.local, expect)
        remora.barrier()
        writer = (rank - 2) % size  # who wrote into left's window
        with w.lock(left, exclusive=False):
            np.testing.assert_array_equal(w.get_layout(left, box),
                                          expect_of(writer)[1:3, 2:5].ravel())
            # into every other element of out
            out = np.full(8, -1.0)
            w.get_layout(left, col, disp=1, out=out, result_layout=remora.Layout.vector(4, 1, 2))
            np.testing.assert_array_equal(out[::2], np.arange(4.0) + 100 * writer)
            np.testing.assert_array_equal(out[1::2], -1.0)
        remora.barrier()


def expect_of(writer):
    e = np.zeros((4, 6))
    e[:, 1] = np.arange(4.0) + 100 * writer
    e[1:3, 2:5] += 2.0 * (writer + 1)
    return e


def test_layout_errors(win):
    with pytest.raises(remora.ArgumentError, match="order"):
        remora.Layout.subarray((4,), (2,), (0,), order="X")
    with pytest.raises(remora.ArgumentError, match="entries"):
        remora.Layout.subarray((4, 4), (2,), (0, 0))
    with pytest.raises(remora.ArgumentError):
        remora.Layout.subarray((4,), (3,), (2,))  # the box leaves the array
    win.fence()
    with pytest.raises(remora.ArgumentError):
        win.put_layout(np.arange(3, dtype=np.int64), 0, remora.Layout.vector(4, 1, 2))
    with pytest.raises(remora.RangeError):
        win.put_layout(np.arange(4, dtype=np.int64), 0, remora.Layout.vector(4, 1, 6))
    win.put_layout(np.arange(4, dtype=np.int64), remora.rank(), remora.Layout.vector(4, 1, 4))
    win.fence()
    np.testing.assert_array_equal(win.local[0:16:4], np.arange(4))
