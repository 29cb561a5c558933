import numpy as np
import pytest

import remora


@pytest.fixture
def A():
    a = remora.Array((10, 7), np.float64)
    yield a
    a.destroy()


def reference(shape):
    return np.arange(np.prod(shape), dtype=np.float64).reshape(shape)


def test_put_get_slices(A, rank):
    ref = reference((10, 7))
    if rank == 0:
        A[:, :] = ref
    remora.sync()
    np.testing.assert_array_equal(A[:, :], ref)
    np.testing.assert_array_equal(A[2:5, 1:4], ref[2:5, 1:4])
    np.testing.assert_array_equal(A[3], ref[3])           # an integer drops the dimension
    np.testing.assert_array_equal(A[-1, 2:], ref[-1, 2:])
    assert A[4, 5] == ref[4, 5]
    out = np.empty((2, 2))
    assert A.get((slice(0, 2), slice(0, 2)), out=out) is out
    np.testing.assert_array_equal(out, ref[:2, :2])


def test_broadcast_put_and_accumulate(A, size, rank):
    if rank == 0:
        A[1:3, :] = 5.0
    remora.sync()
    A.accumulate((slice(0, 4), slice(2, 3)), np.ones((4, 1)), alpha=2.0)
    remora.sync()
    expect = np.zeros((10, 7))
    expect[1:3, :] = 5.0
    expect[0:4, 2] += 2.0 * size
    np.testing.assert_array_equal(A[:, :], expect)


def test_local_view_and_distribution(A, rank, size):
    blk = A.distribution()
    loc = A.local()
    if blk is None:
        assert loc.size == 0
    else:
        assert loc.shape == tuple(s.stop - s.start for s in blk)
        loc[...] = rank + 1  # stores go straight to the array
    remora.sync()
    owners = np.zeros((10, 7))
    for r in range(size):
        b = A.distribution(r)
        if b is not None:
            owners[b] = r + 1
    np.testing.assert_array_equal(A[:, :], owners)
    assert (owners > 0).all()  # the blocks cover the array


def test_read_inc_counter(size):
    with remora.Array((1,), np.int64) as c:
        tickets = [c.read_inc(0) for _ in range(10)]
        got = remora.allgather(np.array(tickets, dtype=np.int64))
        assert sorted(got.ravel().tolist()) == list(range(10 * size))
        remora.sync()
        assert c[0] == 10 * size


def test_fill_scale_dot_norm(A):
    A.fill(2.0)
    A.scale(1.5)
    np.testing.assert_array_equal(A[:, :], np.full((10, 7), 3.0))
    assert A.dot(A) == pytest.approx(70 * 9.0)
    assert A.norm() == pytest.approx(np.sqrt(70 * 9.0))
    B = A.add(A, alpha=2.0, beta=-1.0)
    np.testing.assert_array_equal(B[:, :], np.full((10, 7), 3.0))
    B.destroy()


def test_transpose_and_gemm(rank):
    a = reference((4, 3))
    b = reference((3, 5)) - 3
    with remora.Array((4, 3)) as A, remora.Array((3, 5)) as B:
        if rank == 0:
            A[:, :] = a
            B[:, :] = b
        remora.sync()
        C = A @ B
        np.testing.assert_allclose(C[:, :], a @ b)
        T = A.T
        np.testing.assert_array_equal(T[:, :], a.T)
        D = remora.gemm(A, A, transa=True, alpha=0.5)
        np.testing.assert_allclose(D[:, :], 0.5 * a.T @ a)
        for x in (C, T, D):
            x.destroy()


@pytest.mark.parametrize("layout,kw", [("block_cyclic", {"block": (2, 3)}),
                                       ("element_cyclic", {}),
                                       ("irregular", {"map": [[0, 3], [0, 4]]})])
def test_layouts(layout, kw, rank, size):
    if layout == "irregular" and size < 4:
        kw = {"map": [[0], [0, 4]] if size >= 2 else [[0], [0]]}
    ref = reference((9, 8))
    with remora.Array((9, 8), np.float64, layout=layout, **kw) as X:
        assert X.layout == layout
        if rank == size - 1:
            X[:, :] = ref
        remora.sync()
        np.testing.assert_array_equal(X[1:8, 2:7], ref[1:8, 2:7])
        remora.sync()  # every rank has read before any accumulates
        X.accumulate((slice(0, 9), slice(0, 8)), np.ones((9, 8)))
        remora.sync()
        np.testing.assert_array_equal(X[:, :], ref + size)


def test_iget_iput(A, rank, size):
    if rank == 0:
        r = A.iput((slice(0, 10), slice(0, 7)), reference((10, 7)))
        assert r.wait() is None
    remora.sync()
    q = A.iget((slice(2, 4), 3))
    np.testing.assert_array_equal(q.wait(), reference((10, 7))[2:4, 3])


def test_int32_array_and_add_constant():
    with remora.Array((6,), np.int32) as X:
        X.add_constant(4)
        np.testing.assert_array_equal(X[:], np.full(6, 4, dtype=np.int32))
        remora.sync()
        old = X.read_inc(2, 3)
        assert old >= 4 and (old - 4) % 3 == 0
        remora.sync()
        assert X[2] == 4 + 3 * remora.size()


def test_array_errors(A):
    with pytest.raises(remora.RangeError, match="out of range"):
        A[10, 0]
    with pytest.raises(remora.RangeError, match="outside"):
        A[0:11, :]
    with pytest.raises(remora.RangeError, match="too many"):
        A[1, 2, 3]
    with pytest.raises(remora.ArgumentError, match="step"):
        A[::2, :]
    with pytest.raises(remora.ArgumentError, match="does not fit"):
        A[0:2, 0:2] = np.ones((3, 3))
    with pytest.raises(remora.DatatypeError, match="float32"):
        A[0:2, 0:2] = np.ones((2, 2), dtype=np.float32)
    with pytest.raises(remora.ArgumentError, match="layout"):
        remora.Array((4, 4), layout="diagonal")
    with pytest.raises(remora.DatatypeError):
        remora.Array((4,), np.bool_)
    remora.barrier()


def test_cyclic_local_is_unsupported():
    with remora.Array((4, 4), layout="element_cyclic") as X:
        with pytest.raises(remora.UnsupportedError):
            X.local()
