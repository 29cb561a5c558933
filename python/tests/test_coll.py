import numpy as np
import pytest

import remora


def test_allreduce_new_array(size, rank):
    a = np.arange(6, dtype=np.float64).reshape(2, 3) + rank
    r = remora.allreduce(a)
    assert r is not a and r.shape == (2, 3)
    np.testing.assert_allclose(r, size * np.arange(6).reshape(2, 3) + size * (size - 1) / 2)
    np.testing.assert_array_equal(a, np.arange(6).reshape(2, 3) + rank)  # input unchanged


@pytest.mark.parametrize("algorithm", [None, "recursive_doubling", "ring", "rabenseifner"])
def test_allreduce_max_in_place_and_out(algorithm, size, rank):
    a = np.array([rank, -rank, 7], dtype=np.int32)
    out = np.empty(3, dtype=np.int32)
    r = remora.allreduce(a, op="max", out=out, algorithm=algorithm)
    assert r is out
    np.testing.assert_array_equal(out, [size - 1, 0, 7])
    b = np.array([rank + 1], dtype=np.int64)
    assert remora.allreduce(b, op="prod", in_place=True) is b
    assert b[0] == np.prod(np.arange(1, size + 1))


def test_bcast(rank):
    a = np.full(5, rank, dtype=np.complex128)
    assert remora.bcast(a, root=remora.size() - 1) is a
    np.testing.assert_array_equal(a, np.full(5, remora.size() - 1))


def test_reduce(size, rank):
    r = remora.reduce(np.array([rank, 1], dtype=np.int64), root=0)
    if rank == 0:
        np.testing.assert_array_equal(r, [size * (size - 1) // 2, size])
    else:
        assert r is None


def test_iallreduce(size, rank):
    a = np.array([float(rank)] * 4)
    req = remora.iallreduce(a, op="sum")
    a[:] = -1.0  # the input was copied: changing it does not change the result
    res = req.wait()
    np.testing.assert_allclose(res, size * (size - 1) / 2)
    assert req.wait() is res


def test_allgather(size, rank):
    g = remora.allgather(np.array([rank, rank * rank], dtype=np.int64))
    assert g.shape == (size, 2)
    np.testing.assert_array_equal(g[:, 1], np.arange(size) ** 2)


def test_comm_split_and_dup(size, rank):
    half = remora.COMM_WORLD.split(rank % 2, key=rank)
    assert half.size == (size + 1 - rank % 2) // 2
    s = remora.allreduce(np.array([1], dtype=np.int64), comm=half)
    assert s[0] == half.size
    d = remora.COMM_WORLD.dup()
    assert d.size == size and d.rank == rank
    remora.barrier(comm=d, algorithm="dissemination")
    d.free()
    half.free()


def test_collective_errors():
    with pytest.raises(remora.DatatypeError):
        remora.allreduce(np.zeros(2, dtype=np.bool_))
    with pytest.raises(remora.ArgumentError, match="algorithm"):
        remora.allreduce(np.zeros(2), algorithm="fastest")
    with pytest.raises(remora.ArgumentError, match="out has"):
        remora.allreduce(np.zeros(2), out=np.zeros(3))
    with pytest.raises(remora.ArgumentError, match="numpy array"):
        remora.bcast([1, 2])


def test_gather_scatter_alltoall(size, rank):
    g = remora.gather(np.array([rank, -rank], dtype=np.int32), root=size - 1)
    if rank == size - 1:
        np.testing.assert_array_equal(g, np.stack([np.arange(size), -np.arange(size)], axis=1))
    else:
        assert g is None
    src = np.arange(size * 3, dtype=np.float64).reshape(size, 3) * (10 if rank == 0 else -1)
    part = remora.scatter(src, root=0)
    np.testing.assert_array_equal(part, np.arange(rank * 3, rank * 3 + 3) * 10.0)
    a = np.array([[100 * rank + j] for j in range(size)], dtype=np.int64)
    r = remora.alltoall(a)
    np.testing.assert_array_equal(r.ravel(), [100 * j + rank for j in range(size)])


def test_scan_and_exscan(size, rank):
    s = remora.scan(np.array([rank + 1], dtype=np.int64))
    assert s[0] == (rank + 1) * (rank + 2) // 2
    e = remora.scan(np.array([rank + 1], dtype=np.int64), exclusive=True)
    assert e[0] == rank * (rank + 1) // 2


def test_scatter_shape_error(size):
    with pytest.raises(remora.ArgumentError, match="first extent"):
        remora.scatter(np.zeros((size + 1, 2)))


def test_nonblocking_collectives(size, rank):
    a = np.array([rank, 2 * rank + 1], dtype=np.int64)
    reqs = {
        "barrier": remora.ibarrier(),
        "bcast": remora.ibcast(np.full(3, rank, dtype=np.float64), root=size - 1),
        "reduce": remora.ireduce(a, op="max", root=0),
        "allgather": remora.iallgather(a),
        "gather": remora.igather(a, root=size - 1),
        "scatter": remora.iscatter(np.arange(2 * size, dtype=np.int32).reshape(size, 2) * (rank + 1),
                                   root=0),
        "alltoall": remora.ialltoall(np.arange(size, dtype=np.int64) + 100 * rank),
        "scan": remora.iscan(a),
        "exscan": remora.iscan(a, exclusive=True),
        "reduce_scatter": remora.ireduce_scatter(np.ones((size, 3), dtype=np.float64) * rank),
    }
    a[:] = -7  # inputs were copied
    res = {k: r.wait() for k, r in reqs.items()}
    assert res["barrier"] is None
    np.testing.assert_array_equal(res["bcast"], np.full(3, size - 1.0))
    if rank == 0:
        np.testing.assert_array_equal(res["reduce"], [size - 1, 2 * size - 1])
    else:
        assert res["reduce"] is None
    every = np.array([[r, 2 * r + 1] for r in range(size)])
    np.testing.assert_array_equal(res["allgather"], every)
    if rank == size - 1:
        np.testing.assert_array_equal(res["gather"], every)
    else:
        assert res["gather"] is None
    np.testing.assert_array_equal(res["scatter"], [2 * rank, 2 * rank + 1])
    np.testing.assert_array_equal(res["alltoall"], 100 * np.arange(size) + rank)
    np.testing.assert_array_equal(res["scan"], every[: rank + 1].sum(axis=0))
    np.testing.assert_array_equal(res["exscan"], every[:rank].sum(axis=0))
    np.testing.assert_array_equal(res["reduce_scatter"], np.full(3, size * (size - 1) / 2))
    assert reqs["scan"].test()


def test_reduce_scatter_and_waitall(size, rank):
    x = np.arange(size * 2, dtype=np.int32).reshape(size, 2) + rank
    r = remora.reduce_scatter(x, op="sum")
    np.testing.assert_array_equal(r, size * np.array([2 * rank, 2 * rank + 1]) + size * (size - 1) // 2)
    with remora.Array((3,), np.int64) as A:
        A.accumulate(slice(0, 3), np.ones(3, dtype=np.int64))
        remora.sync()
        got = remora.waitall([remora.iallreduce(np.ones(2)), remora.ibarrier(), A.iget(slice(0, 3))])
        np.testing.assert_array_equal(got[0], [size, size])
        assert got[1] is None
        np.testing.assert_array_equal(got[2], [size] * 3)


def test_nonblocking_errors_leave_job_usable(size):
    with pytest.raises(remora.ArgumentError, match="first extent"):
        remora.iscatter(np.zeros((size + 1, 2)))
    with pytest.raises(remora.ArgumentError, match="op"):
        remora.ireduce(np.zeros(2), op="avg")
    with pytest.raises(remora.DatatypeError):
        remora.iallgather(np.zeros(2, dtype=np.float16))
    with pytest.raises(remora.ArgumentError, match="algorithm"):
        remora.ibarrier(algorithm="telepathy")
    np.testing.assert_array_equal(remora.iallgather(np.ones(1)).wait(), np.ones((size, 1)))
