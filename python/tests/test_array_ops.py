"""Patch operations, element lists, AXPY batches, mutexes and duplicates of distributed arrays."""

import numpy as np
import pytest

import remora


def reference(shape, dtype=np.float64):
    return np.arange(np.prod(shape), dtype=dtype).reshape(shape)


@pytest.fixture
def A(rank):
    a = remora.Array((8, 6), np.float64)
    if rank == 0:
        a[:, :] = reference((8, 6))
    remora.sync()
    yield a
    a.destroy()


def test_patch_fill_scale_zero_add_constant(A):
    ref = reference((8, 6))
    A.fill(-1.0, index=(slice(0, 2), slice(None)))
    ref[0:2, :] = -1.0
    A.scale(3.0, index=(slice(2, 5), slice(1, 3)))
    ref[2:5, 1:3] *= 3.0
    A.zero(index=(7, slice(None)))
    ref[7, :] = 0.0
    A.add_constant(0.5, index=(slice(5, 7), slice(4, 6)))
    ref[5:7, 4:6] += 0.5
    np.testing.assert_array_equal(A[:, :], ref)


def test_abs_reciprocal_enumerate(rank, size):
    with remora.Array((5, 4)) as X, remora.Array((12,), np.int64) as E:
        if rank == 0:
            X[:, :] = -reference((5, 4)) - 1.0
        remora.sync()
        X.abs(index=(slice(0, 3), slice(None)))
        X.reciprocal()
        ref = -reference((5, 4)) - 1.0
        ref[0:3] = np.abs(ref[0:3])
        np.testing.assert_allclose(X[:, :], 1.0 / ref)
        E.enumerate(start=10, inc=3)
        np.testing.assert_array_equal(E[:], 10 + 3 * np.arange(12))
        E.enumerate(start=0, inc=1, index=slice(4, 8))
        expect = 10 + 3 * np.arange(12)
        expect[4:8] = np.arange(4)
        np.testing.assert_array_equal(E[:], expect)


def test_copy_add_dot_patch(A):
    ref = reference((8, 6))
    with remora.Array((3, 8), layout="block_cyclic", block=(2, 2)) as B:
        # B[0:2, 1:4] = A[1:4, 0:2] transposed (shape (2, 3))
        remora.copy_patch(A, (slice(1, 4), slice(0, 2)), B, (slice(0, 2), slice(1, 4)),
                          transpose=True)
        expect_b = np.zeros((3, 8))
        expect_b[0:2, 1:4] = ref[1:4, 0:2].T
        np.testing.assert_array_equal(B[:, :], expect_b)
        # the patches differ in shape, same count (row-major order)
        remora.copy_patch(A, (0, slice(None)), B, (2, slice(2, 8)))
        expect_b[2, 2:8] = ref[0, :]
        np.testing.assert_array_equal(B[:, :], expect_b)
        remora.add_patch(2.0, A, (slice(0, 2), slice(0, 3)), -1.0, B, (slice(0, 2), slice(1, 4)),
                         A, (slice(6, 8), slice(3, 6)))
        ref_after = ref.copy()
        ref_after[6:8, 3:6] = 2.0 * ref[0:2, 0:3] - expect_b[0:2, 1:4]
        np.testing.assert_array_equal(A[:, :], ref_after)
        d = remora.dot_patch(A, (slice(0, 2), slice(0, 3)), B, (slice(0, 2), slice(1, 4)))
        assert d == pytest.approx(float(np.sum(ref_after[0:2, 0:3] * expect_b[0:2, 1:4])))


def test_gemm_and_elem_patch(rank):
    a = reference((4, 5)) - 7.0
    b = reference((5, 3)) / 4.0
    with remora.Array((4, 5)) as A, remora.Array((5, 3)) as B, remora.Array((6, 6)) as C:
        if rank == 0:
            A[:, :] = a
            B[:, :] = b
            C[:, :] = 1.0
        remora.sync()
        # C[1:3, 2:5] = 2 * A[0:2, 1:4] @ B[1:4, 0:3] + 0.5 * C[1:3, 2:5]
        remora.gemm_patch(A, (slice(0, 2), slice(1, 4)), B, (slice(1, 4), slice(0, 3)),
                          C, (slice(1, 3), slice(2, 5)), alpha=2.0, beta=0.5)
        c = np.ones((6, 6))
        c[1:3, 2:5] = 2.0 * a[0:2, 1:4] @ b[1:4, 0:3] + 0.5
        np.testing.assert_allclose(C[:, :], c)
        remora.elem_patch("multiply", A, (slice(0, 2), slice(0, 3)), B, (slice(0, 2), slice(0, 3)),
                          C, (slice(4, 6), slice(0, 3)))
        c[4:6, 0:3] = a[0:2, 0:3] * b[0:2, 0:3]
        remora.elem_patch("maximum", A, (3, slice(0, 3)), B, (4, slice(0, 3)), C, (0, slice(3, 6)))
        c[0, 3:6] = np.maximum(a[3, 0:3], b[4, 0:3])
        np.testing.assert_allclose(C[:, :], c)
        with pytest.raises(remora.ArgumentError, match="element-wise"):
            remora.elem_patch("power", A, (0, 0), B, (0, 0), C, (0, 0))


def test_norms_symmetrize_duplicate(A, rank):
    ref = reference((8, 6)) - 20.0
    if rank == 0:
        A[:, :] = ref
    remora.sync()
    assert A.norm1() == pytest.approx(np.abs(ref).sum(axis=0).max())
    assert A.norm_inf() == pytest.approx(np.abs(ref).sum(axis=1).max())
    with remora.Array((4, 4), layout="block_cyclic", block=(1, 2)) as S:
        if rank == 0:
            S[:, :] = reference((4, 4))
        remora.sync()
        S.symmetrize()
        r = reference((4, 4))
        np.testing.assert_allclose(S[:, :], (r + r.T) / 2)
        D = S.duplicate(name="dup")
        assert D.layout == "block_cyclic" and D.shape == (4, 4) and D.grid == S.grid
        np.testing.assert_array_equal(D[:, :], np.zeros((4, 4)))
        D.destroy()
    starts = [0, 3] if remora.size() >= 2 else [0]
    with remora.Array((5, 2), np.int64, layout="irregular", map=[starts, [0]]) as R:
        D = R.duplicate()
        assert D.layout == "irregular" and D.dtype == np.int64
        for q in range(remora.size()):
            assert D.distribution(q) == R.distribution(q)
        D.destroy()


def test_element_lists(A, rank, size):
    ref = reference((8, 6))
    subs = np.array([[0, 0], [7, 5], [3, 2], [3, 2], [6, 1]])
    np.testing.assert_array_equal(A.gather(subs), ref[subs[:, 0], subs[:, 1]])
    remora.sync()
    # every rank adds rank + 1 to each listed element (the repeated one twice)
    A.scatter_acc(subs, np.full(5, rank + 1.0), alpha=2.0)
    remora.sync()
    expect = ref.copy()
    np.add.at(expect, (subs[:, 0], subs[:, 1]), 2.0 * size * (size + 1) / 2)
    np.testing.assert_array_equal(A[:, :], expect)
    remora.sync()
    if rank == size - 1:
        A.scatter([[1, 1], [2, 3]], [-5.0, -6.0])
    remora.sync()
    expect[1, 1], expect[2, 3] = -5.0, -6.0
    np.testing.assert_array_equal(A[:, :], expect)
    with remora.Array((10,), np.int32) as V:
        V.scatter(np.arange(rank, 10, size), np.arange(rank, 10, size, dtype=np.int32) * 3)
        remora.sync()
        np.testing.assert_array_equal(V.gather(np.arange(10)[::-1]), 3 * np.arange(10)[::-1])


def test_element_list_errors(A):
    with pytest.raises(remora.ArgumentError, match="subscripts of shape"):
        A.gather(np.zeros((3, 3), dtype=np.int64))
    with pytest.raises(remora.RangeError):
        A.gather([[0, 0], [8, 0]])
    with pytest.raises(remora.ArgumentError, match="values has 1 elements"):
        A.scatter([[0, 0], [1, 1]], [1.0])
    with pytest.raises(remora.DatatypeError, match="float32"):
        A.scatter([[0, 0]], np.ones(1, dtype=np.float32))
    np.testing.assert_array_equal(A.gather([[1, 2]]), [reference((8, 6))[1, 2]])  # still usable


def test_iaccumulate(A, size):
    r = A.iaccumulate((slice(0, 2), slice(0, 2)), np.ones((2, 2)), alpha=0.5)
    assert r.wait() is None
    remora.sync()
    expect = reference((8, 6))
    expect[0:2, 0:2] += 0.5 * size
    np.testing.assert_array_equal(A[:, :], expect)


@pytest.mark.parametrize("detach", ["nbx", "eom"])
def test_axpy_batch(detach, rank, size):
    with remora.Array((6, 5)) as A:
        if rank == 0:
            A[:, :] = reference((6, 5))
        remora.sync()
        out = np.ones((2, 5))
        with A.axpy_batch(detach=detach) as batch:
            batch.add((slice(0, 3), slice(1, 3)), np.full((3, 2), rank + 1.0), alpha=2.0)
            batch.fetch((slice(4, 6), slice(None)), out, alpha=-1.0)
        assert batch.detached
        expect = reference((6, 5))
        np.testing.assert_array_equal(out, 1.0 - expect[4:6, :])
        expect[0:3, 1:3] += 2.0 * size * (size + 1) / 2
        remora.sync()
        np.testing.assert_array_equal(A[:, :], expect)
        with pytest.raises(remora.StateError, match="detached"):
            batch.add((0, 0), 1.0)
    with pytest.raises(remora.ArgumentError, match="detach"):
        remora.AxpyBatch(A, detach="never")  # A is destroyed: the detach check comes first


def test_mutexes_protect_read_modify_write(rank, size):
    with remora.Mutexes(2) as m, remora.Array((1,), np.int64) as c:
        assert m.count == 2
        for _ in range(5):
            with m.hold(1):
                v = c[0]
                c[0] = v + 1  # not atomic by itself: the mutex makes it so
                c.flush()
        remora.sync()
        assert c[0] == 5 * size
        m.lock(0)
        with pytest.raises(remora.StateError, match="already held"):
            m.lock(0)
        m.unlock(0)
        with pytest.raises(remora.StateError, match="not held"):
            m.unlock(0)
        with pytest.raises(remora.ArgumentError, match="index=2"):
            m.lock(2)
        remora.barrier()


def test_array_on_sub_communicator(rank, size):
    color = rank % 2
    sub = remora.COMM_WORLD.split(color)
    with remora.Array((4, 3), np.int64, comm=sub) as X:
        if sub.rank == 0:
            X[:, :] = color + 1
        X.flush()
        remora.barrier()
        np.testing.assert_array_equal(X[:, :], np.full((4, 3), color + 1))
        remora.barrier()
    sub.free()


def test_patch_errors_leave_array_usable(A):
    with pytest.raises(remora.RangeError):
        A.fill(1.0, index=(slice(0, 9), 0))
    with pytest.raises(remora.ArgumentError):
        A.enumerate()
    with remora.Array((2, 2)) as B:
        with pytest.raises(remora.ArgumentError):
            remora.copy_patch(A, (slice(0, 3), 0), B, (slice(0, 2), 0))
    np.testing.assert_array_equal(A[0:2, 0:2], reference((8, 6))[0:2, 0:2])


def test_locate_local_shape_and_sync_comm(A, rank, size):
    parts = A.locate((slice(1, 7), slice(2, 6)))
    assert [r for r, _ in parts] == sorted(r for r, _ in parts)
    covered = np.zeros((8, 6), dtype=int)
    for r, box in parts:
        blk = A.distribution(r)
        assert all(b.start <= s.start and s.stop <= b.stop for s, b in zip(box, blk))
        covered[box] += 1
    expect = np.zeros((8, 6), dtype=int)
    expect[1:7, 2:6] = 1
    np.testing.assert_array_equal(covered, expect)  # the parts tile the patch exactly once
    total = remora.allreduce(np.array([np.prod(A.local_shape())], dtype=np.int64))
    assert total[0] == 48
    with remora.Array((5, 7), layout="element_cyclic") as X:
        shapes = [X.local_shape(r) for r in range(size)]
        assert sum(a * b for a, b in shapes) == 35
        assert len(X.locate((slice(0, 5), slice(0, 7)))) == size
    A[rank % 8, 0] = -1.0
    remora.sync(comm=remora.COMM_WORLD)
    col = A[:, 0]
    assert all(col[r % 8] == -1.0 for r in range(size))
