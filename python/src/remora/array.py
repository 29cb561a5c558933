"""remora.Array: distributed arrays (remora/array.h) with numpy-style indexing."""

import operator

import numpy as _np

from . import _core

__all__ = ["Array", "gemm", "copy_patch", "add_patch", "dot_patch", "gemm_patch",
           "elem_patch", "Mutexes", "AxpyBatch"]


def _error(cls, message, code):
    e = cls(message)
    e.code = code
    return e


class Array(_core._Array):
    """An N-dimensional array whose elements are spread over the ranks (Global Arrays' model).

    Array(shape, dtype=float64, layout="block", block=None, grid=None, map=None, name=None)
    is collective (every rank passes the same arguments); elements start at zero. Layouts:
    "block" (any ndim), "irregular" (map: the block starts of each dimension), "block_cyclic"
    (2-D, block=(rows, columns), grid=(prow, pcol) or None) and "element_cyclic" (2-D).

    A[i0:i1, j0:j1] gets the patch as a new numpy array (one-sided: only this rank takes
    part); A[...] = x puts x (broadcast to the patch); A.accumulate(index, x, alpha=1) adds
    alpha * x atomically per element. Integer indices drop their dimension; slices must have
    step 1 and lie inside the array. A.local() is this rank's block (no copy). Puts and
    accumulates are complete everywhere after remora.sync() (collective) or at their targets
    after A.flush(). fill, scale, zero, add, dot, norm, transpose, copy and gemm (A @ B) are
    collective."""

    def __init__(self, shape, dtype=_np.float64, layout="block", block=None, grid=None,
                 map=None, name=None, comm=None, _source=None):
        if _source is not None:
            super().__init__(None, None, "block", None, None, None, name, _source)
            return
        if comm is None:
            super().__init__(shape, dtype, layout, block, grid, map, name)
            return
        _core._set_array_comm(comm)
        try:
            super().__init__(shape, dtype, layout, block, grid, map, name)
        finally:
            _core._set_array_comm(None)

    # ---- indexing ----
    def _patch(self, index):
        """(lo, hi, result shape) of an index of ints and step-1 slices."""
        shape = self.shape
        if not isinstance(index, tuple):
            index = (index,)
        if any(ix is Ellipsis for ix in index):
            k = index.index(Ellipsis)
            fill = (slice(None),) * (len(shape) - len(index) + 1)
            index = index[:k] + fill + index[k + 1:]
        if len(index) > len(shape):
            raise _error(_core.RangeError, "too many indices: %d for an array of %d dimensions"
                         % (len(index), len(shape)), -3)
        index = index + (slice(None),) * (len(shape) - len(index))
        lo, hi, out = [], [], []
        for d, (ix, n) in enumerate(zip(index, shape)):
            if isinstance(ix, slice):
                if ix.step not in (None, 1):
                    raise _error(_core.ArgumentError, "slice step %r in dimension %d: only "
                                 "step 1 is supported" % (ix.step, d), -1)
                for bound in (ix.start, ix.stop):
                    if bound is not None and not -n <= operator.index(bound) <= n:
                        raise _error(_core.RangeError, "slice %s:%s in dimension %d lies "
                                     "outside the extent %d" % (ix.start, ix.stop, d, n), -3)
                start, stop, _ = ix.indices(n)
                if stop <= start:
                    raise _error(_core.ArgumentError, "slice %s:%s in dimension %d is empty"
                                 % (ix.start, ix.stop, d), -1)
                lo.append(start)
                hi.append(stop - 1)
                out.append(stop - start)
            else:
                try:
                    i = operator.index(ix)
                except TypeError:
                    raise _error(_core.ArgumentError, "index %r in dimension %d: expected an "
                                 "integer or a slice" % (ix, d), -1) from None
                if not -n <= i < n:
                    raise _error(_core.RangeError, "index %d is out of range for dimension %d "
                                 "of extent %d" % (i, d, n), -3)
                i = i + n if i < 0 else i
                lo.append(i)
                hi.append(i)
        return lo, hi, tuple(out)

    def __getitem__(self, index):
        lo, hi, shape = self._patch(index)
        return self._get(lo, hi, _np.empty(shape, dtype=self.dtype))

    def get(self, index, out=None):
        """The patch at index, into out (C-contiguous, the patch's number of elements)."""
        lo, hi, shape = self._patch(index)
        return self._get(lo, hi, _np.empty(shape, dtype=self.dtype) if out is None else out)

    def iget(self, index):
        """Nonblocking get: a request whose wait() returns the patch."""
        lo, hi, shape = self._patch(index)
        return self._iget(lo, hi, _np.empty(shape, dtype=self.dtype))

    def _patch_data(self, x, shape, what="value"):
        if isinstance(x, _np.ndarray) and x.dtype != self.dtype:
            raise _error(_core.DatatypeError, "%s has dtype %s, expected %s (no implicit "
                         "conversion of arrays)" % (what, x.dtype, self.dtype), -1)
        x = _np.asarray(x, dtype=self.dtype)
        if x.shape != shape:
            try:
                x = _np.broadcast_to(x, shape)
            except ValueError:
                raise _error(_core.ArgumentError, "%s of shape %s does not fit the patch of "
                             "shape %s" % (what, x.shape, shape), -1) from None
        return _np.ascontiguousarray(x)

    def __setitem__(self, index, value):
        lo, hi, shape = self._patch(index)
        self._put(lo, hi, self._patch_data(value, shape))

    def iput(self, index, value):
        """Nonblocking put: a request; value may be reused after wait()."""
        lo, hi, shape = self._patch(index)
        return self._iput(lo, hi, self._patch_data(value, shape))

    def accumulate(self, index, x, alpha=1):
        """A[index] += alpha * x, atomically per element."""
        lo, hi, shape = self._patch(index)
        self._acc(lo, hi, self._patch_data(x, shape, "x"), alpha)

    def iaccumulate(self, index, x, alpha=1):
        """Nonblocking accumulate: a request; x may be reused after wait()."""
        lo, hi, shape = self._patch(index)
        return self._nbacc(lo, hi, self._patch_data(x, shape, "x"), alpha)

    # ---- element lists ----
    def gather(self, subscripts):
        """The elements at subscripts (an (n, ndim) integer array, one row per element; a
        1-D array of n indices for a 1-D array) as a new array of n elements. One-sided."""
        return self._gather(subscripts)

    def scatter(self, subscripts, values):
        """Element subscripts[k] = values[k] for each k (one-sided; complete after flush() or
        remora.sync())."""
        self._scatter(subscripts, self._list_data(values), 1, False)

    def scatter_acc(self, subscripts, values, alpha=1):
        """Element subscripts[k] += alpha * values[k], atomically per element."""
        self._scatter(subscripts, self._list_data(values), alpha, True)

    def _list_data(self, values):
        if isinstance(values, _np.ndarray) and values.dtype != self.dtype:
            raise _error(_core.DatatypeError, "values has dtype %s, expected %s (no implicit "
                         "conversion of arrays)" % (values.dtype, self.dtype), -1)
        return values

    def _lohi(self, index):
        if index is None:
            return [0] * self.ndim, [n - 1 for n in self.shape]
        lo, hi, _ = self._patch(index)
        return lo, hi

    def locate(self, index):
        """The ranks owning part of the patch at index, in rank order, as a list of
        (rank, tuple of slices): the part of the patch in that rank's block (for cyclic
        layouts the bounding box of the rank's elements in the patch)."""
        lo, hi, _ = self._patch(index)
        return self._locate(lo, hi)

    def distribution(self, rank=None):
        """The block that rank (default: this rank) owns, as a tuple of slices (block and
        irregular layouts; None when it owns nothing)."""
        if rank is None:
            rank = _core.rank()
        lo, hi = self._distribution(rank)
        if any(h < l for l, h in zip(lo, hi)):
            return None
        return tuple(slice(l, h + 1) for l, h in zip(lo, hi))

    # ---- collective operations ----
    def duplicate(self, name=None):
        """Collective: a new zero array of the same shape, dtype and distribution."""
        return Array(None, _source=self, name=name)

    def zero(self, index=None):
        """Collective: the elements (of the patch index, default all) = 0."""
        if index is None:
            _core._Array.zero(self)
        else:
            self._zero_patch(*self._lohi(index))

    def fill(self, value, index=None):
        """Collective: the elements (of the patch index, default all) = value."""
        if index is None:
            _core._Array.fill(self, value)
        else:
            self._fill_patch(*self._lohi(index), value)

    def scale(self, alpha, index=None):
        """Collective: the elements (of the patch index, default all) *= alpha."""
        if index is None:
            _core._Array.scale(self, alpha)
        else:
            self._scale_patch(*self._lohi(index), alpha)

    def add_constant(self, value, index=None):
        """Collective: the elements (of the patch index, default all) += value."""
        if index is None:
            _core._Array.add_constant(self, value)
        else:
            self._add_constant_patch(*self._lohi(index), value)

    def abs(self, index=None):
        """Collective: the elements (of the patch) = their absolute values (complex: the
        magnitude)."""
        self._abs_patch(*self._lohi(index))

    def reciprocal(self, index=None):
        """Collective: the elements (of the patch) = 1 / themselves (integers: integer
        division; a zero element raises ArgumentError)."""
        self._recip_patch(*self._lohi(index))

    def enumerate(self, start=0, inc=1, index=None):
        """Collective, 1-D: element lo + i = start + i * inc over the patch (default all)."""
        if self.ndim != 1:
            raise _error(_core.ArgumentError, "enumerate is for 1-D arrays; this one has %d "
                         "dimensions" % self.ndim, -1)
        lo, hi = self._lohi(index)
        self._enum(lo[0], hi[0], start, inc)

    def copy(self, out=None):
        """Collective: out (default: a new block array) = self."""
        if out is None:
            out = Array(self.shape, self.dtype)
        self._copy_to(out)
        return out

    def add(self, other, alpha=1, beta=1, out=None):
        """Collective: out = alpha * self + beta * other (out default: a new array)."""
        if out is None:
            out = Array(self.shape, self.dtype)
        out._add(alpha, self, beta, other)
        return out

    def transpose(self, out=None):
        """Collective: the transpose of a 2-D array (out default: a new array)."""
        if out is None:
            out = Array(tuple(reversed(self.shape)), self.dtype)
        self._transpose_to(out)
        return out

    @property
    def T(self):
        return self.transpose()

    def __matmul__(self, other):
        return gemm(self, other)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.destroy()
        return False

    def __repr__(self):
        if self.destroyed:
            return "<remora.Array (destroyed)>"
        return "<remora.Array shape=%s dtype=%s layout=%s>" % (self.shape, self.dtype,
                                                                self.layout)


def gemm(a, b, c=None, alpha=1, beta=0, transa=False, transb=False):
    """Collective: c = alpha * op(a) @ op(b) + beta * c for 2-D arrays of one floating or
    complex dtype (op transposes when transa / transb); c defaults to a new array."""
    if c is None:
        m = a.shape[1] if transa else a.shape[0]
        n = b.shape[0] if transb else b.shape[1]
        c = Array((m, n), a.dtype)
    c._gemm(transa, transb, alpha, a, b, beta)
    return c


def _lohi(a, index):
    return a._lohi(index)


def copy_patch(a, a_index, b, b_index, transpose=False):
    """Collective: b[b_index] = a[a_index] (transposed when transpose). The patches hold the same
    number of elements, matched in row-major order; they may differ in shape and distribution."""
    b_lo, b_hi = _lohi(b, b_index)
    a._copy_patch(transpose, *_lohi(a, a_index), b, b_lo, b_hi)


def add_patch(alpha, a, a_index, beta, b, b_index, c, c_index):
    """Collective: c[c_index] = alpha * a[a_index] + beta * b[b_index]."""
    c._add_patch(*_lohi(c, c_index), alpha, a, *_lohi(a, a_index), beta, b, *_lohi(b, b_index))


def dot_patch(a, a_index, b, b_index, transpose_a=False, transpose_b=False):
    """Collective: the sum of a[a_index] * b[b_index] element by element (no conjugation);
    when transpose_a and transpose_b differ, b's patch is taken transposed."""
    a_lo, a_hi = _lohi(a, a_index)
    b_lo, b_hi = _lohi(b, b_index)
    return a._dot_patch(transpose_a, a_lo, a_hi, b, transpose_b, b_lo, b_hi)


def gemm_patch(a, a_index, b, b_index, c, c_index, alpha=1, beta=0, transa=False,
               transb=False):
    """Collective: c[c_index] = alpha * op(a[a_index]) @ op(b[b_index]) + beta * c[c_index]
    for 2-D arrays of one type (c distinct from a and b)."""
    c._gemm_patch(*_lohi(c, c_index), transa, transb, alpha, beta, a, *_lohi(a, a_index), b,
                  *_lohi(b, b_index))


def elem_patch(op, a, a_index, b, b_index, c, c_index):
    """Collective: c[c_index] = a[a_index] op b[b_index] element by element, op one of
    "multiply", "divide", "maximum", "minimum"."""
    c._elem_patch(*_lohi(c, c_index), op, a, *_lohi(a, a_index), b, *_lohi(b, b_index))


class Mutexes(_core.Mutexes):
    """Mutexes(count): count mutexes shared by the job (collective). lock(i) waits until this
    rank holds mutex i, unlock(i) releases it (one-sided); `with m.hold(i):` does both around
    a block. destroy() is collective; a set is also a context manager that destroys it."""

    def hold(self, index):
        self.lock(index)
        return _Held(self, index)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.destroy()
        return False


class _Held:
    __slots__ = ("_m", "_i")

    def __init__(self, m, i):
        self._m, self._i = m, i

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._m.unlock(self._i)
        return False


class AxpyBatch(_core._AxpyBatch):
    """A batch of AXPY transfers on an array (Elemental's AxpyInterface): collective
    A.axpy_batch(detach="nbx"|"eom"); add(index, x, alpha) queues A[index] += alpha * x,
    fetch(index, out, alpha) queues out += alpha * A[index]; nothing is complete before
    detach() (collective), which the end of a with-block calls."""

    def __init__(self, array, detach="nbx"):
        super().__init__(array, detach)
        self._array = array

    def add(self, index, x, alpha=1):
        lo, hi, shape = self._array._patch(index)
        self._axpy(self._array, True, lo, hi, self._array._patch_data(x, shape, "x"), alpha)

    def fetch(self, index, out, alpha=1):
        lo, hi, _ = self._array._patch(index)
        self._axpy(self._array, False, lo, hi, out, alpha)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.detach()
        return False


def _axpy_batch(self, detach="nbx"):
    """Collective: opens an AXPY batch on this array (see AxpyBatch)."""
    return AxpyBatch(self, detach)


Array.axpy_batch = _axpy_batch
