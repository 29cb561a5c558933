#include "arrays/linear_patch.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

namespace remora::arrays {

LinearPatch::LinearPatch(Array& a, const int64_t* lo, const int64_t* hi, bool reversed)
    : array_(a), ndim_(a.ndim()), reversed_(reversed && a.ndim() > 1) {
  for (int d = 0; d < ndim_; ++d) {
    lo_[d] = lo[d];
    const int axis = reversed_ ? ndim_ - 1 - d : d;
    extent_[d] = hi[axis] - lo[axis] + 1;
    elements_ *= extent_[d];
  }
}

void reverse_axes(const char* in, int ndim, const int64_t* ext, size_t element, char* out) {
  // Stride in out of each axis of in: out's axis n-1-d is in's axis d.
  int64_t stride[REMORA_ARRAY_MAX_DIM] = {}, index[REMORA_ARRAY_MAX_DIM] = {};
  int64_t total = 1;
  for (int d = 0; d < ndim; ++d) {
    stride[d] = total;  // out is row-major over ext[n-1], ..., ext[0]: ext[0] varies fastest
    total *= ext[d];
  }
  int64_t offset = 0;
  for (int64_t i = 0; i < total; ++i) {
    std::memcpy(out + static_cast<size_t>(offset) * element, in + static_cast<size_t>(i) * element,
                element);
    for (int d = ndim - 1; d >= 0; --d) {  // next index of in, row-major
      offset += stride[d];
      if (++index[d] < ext[d]) break;
      offset -= stride[d] * ext[d];
      index[d] = 0;
    }
  }
}

// The range is cut into boxes of the sequence's axes: a fixed prefix of indices, a run in one
// axis d, and every index of the axes after d. Each box is contiguous in the sequence.
template <bool Put, typename Buffer>
int LinearPatch::transfer(int64_t first, int64_t count, Buffer* buffer) const {
  const size_t element = array_.element();
  std::vector<char> scratch;
  const int64_t end = first + count;
  for (int64_t at = first; at < end;) {
    int64_t index[REMORA_ARRAY_MAX_DIM] = {};
    for (int64_t rest = at, d = ndim_ - 1; d >= 0; --d) {
      index[d] = rest % extent_[d];
      rest /= extent_[d];
    }
    // Widen the box upwards while it starts at index 0 of the axes below and fits the range.
    int d = ndim_ - 1;
    int64_t span = 1;
    while (d > 0 && index[d] == 0 && span * extent_[d] <= end - at) span *= extent_[d--];
    const int64_t run = std::min(extent_[d] - index[d], (end - at) / span);
    int64_t box_lo[REMORA_ARRAY_MAX_DIM] = {}, box_hi[REMORA_ARRAY_MAX_DIM] = {};
    int64_t box_ext[REMORA_ARRAY_MAX_DIM] = {};
    for (int e = 0; e < ndim_; ++e) {
      const int64_t from = e < d ? index[e] : e == d ? index[d] : 0;
      const int64_t extent = e < d ? 1 : e == d ? run : extent_[e];
      const int axis = reversed_ ? ndim_ - 1 - e : e;  // the array axis of sequence axis e
      box_lo[axis] = lo_[axis] + from;
      box_hi[axis] = box_lo[axis] + extent - 1;
      box_ext[axis] = extent;
    }
    const int64_t n = run * span;
    auto* place = static_cast<std::conditional_t<Put, const char, char>*>(buffer) +
                  static_cast<size_t>(at - first) * element;
    int status = REMORA_SUCCESS;
    if (!reversed_) {
      if constexpr (Put)
        status = array_.put_dense(box_lo, box_hi, place);
      else
        status = array_.get_dense(box_lo, box_hi, place);
    } else {
      scratch.resize(static_cast<size_t>(n) * element);
      if constexpr (Put) {
        int64_t seq_ext[REMORA_ARRAY_MAX_DIM] = {};
        for (int e = 0; e < ndim_; ++e) seq_ext[e] = box_ext[ndim_ - 1 - e];
        reverse_axes(place, ndim_, seq_ext, element, scratch.data());
        status = array_.put_dense(box_lo, box_hi, scratch.data());
      } else {
        status = array_.get_dense(box_lo, box_hi, scratch.data());
        if (status == REMORA_SUCCESS) reverse_axes(scratch.data(), ndim_, box_ext, element, place);
      }
    }
    if (status != REMORA_SUCCESS) return status;
    at += n;
  }
  return REMORA_SUCCESS;
}

int LinearPatch::get(int64_t first, int64_t count, void* buffer) const {
  return transfer<false>(first, count, buffer);
}

int LinearPatch::put(int64_t first, int64_t count, const void* buffer) const {
  return transfer<true>(first, count, buffer);
}

}  // namespace remora::arrays
