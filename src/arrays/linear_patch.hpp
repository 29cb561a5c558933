// A patch of an array seen as one row-major sequence of its elements, so that patches of
// different shapes but equal element counts can be matched element by element (GA's reshaping
// copy_patch, add_patch, dot_patch). With `reversed` the patch's axes are taken in reverse
// order (GA's 't' operand: for a 2-D patch, its transpose).
//
// A range of the sequence is moved as at most 2 * ndim boxes, each one coalesced patch
// transfer (Array::get_dense / put_dense); a reversed box is permuted locally.
#pragma once

#include <cstdint>

#include "arrays/array.hpp"

namespace remora::arrays {

class LinearPatch {
 public:
  LinearPatch(Array& a, const int64_t* lo, const int64_t* hi, bool reversed = false);

  int64_t elements() const { return elements_; }
  // Elements [first, first + count) of the sequence, densely into / out of buffer.
  int get(int64_t first, int64_t count, void* buffer) const;
  int put(int64_t first, int64_t count, const void* buffer) const;

 private:
  template <bool Put, typename Buffer>
  int transfer(int64_t first, int64_t count, Buffer* buffer) const;

  Array& array_;
  int ndim_;
  bool reversed_;
  int64_t lo_[REMORA_ARRAY_MAX_DIM] = {};
  int64_t extent_[REMORA_ARRAY_MAX_DIM] = {};  // of the sequence's axes (reversed when asked)
  int64_t elements_ = 1;
};

// out (row-major, extents reversed) = in (row-major, extents ext) with its axes reversed:
// out[j(n-1), ..., j0] = in[j0, ..., j(n-1)]. Applying it twice gives the input back.
void reverse_axes(const char* in, int ndim, const int64_t* ext, size_t element, char* out);

}  // namespace remora::arrays
