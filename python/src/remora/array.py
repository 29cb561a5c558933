"""remora.Array: distributed arrays (remora/array.h) with numpy-style indexing."""

import operator

import numpy as _np

from . import _core

__all__ = ["Array", "gemm"]


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
                 map=None, name=None):
        super().__init__(shape, dtype, layout, block, grid, map, name)

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
    def duplicate(self):
        """Collective: a new zero array of the same shape, dtype and layout (block layouts
        are duplicated exactly; cyclic ones get the default grid)."""
        return Array(self.shape, self.dtype)

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
