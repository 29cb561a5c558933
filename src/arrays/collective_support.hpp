// Pieces shared by the whole-array and the patch collective operations: the sync bracket, the
// allreduce over an array's ranks, a rank's share of a range, and the element kernels (written once
// as templates over the element types).
#pragma once

#include <cstdint>

#include "arrays/array.hpp"
#include "arrays/element_types.hpp"
#include "coll/internal_calls.hpp"

namespace remora::arrays {

// This rank's share of [0, total) among a's ranks: [first, first + count), near-equal.
inline void rank_share(const Array& a, int64_t total, int64_t* first, int64_t* count) {
  const int64_t ranks = a.comm_size(), rank = a.comm_rank();
  *first = total * rank / ranks;
  *count = total * (rank + 1) / ranks - *first;
}

// In-place allreduce of count values of type over a's ranks, for the entry point function.
inline int allreduce(const char* function, const Array& a, void* values, size_t count, int type,
                     remora_op_t op) {
  return coll::run_allreduce(function, a.context().collectives, a.comm(), values, count, type, op);
}

// Runs body between two syncs over a's ranks (the arrays of one operation share them).
template <typename Body>
int collective(Array& a, Body&& body) {
  if (int status = a.sync()) return status;
  const int status = body();
  const int closing = a.sync();
  return status != REMORA_SUCCESS ? status : closing;
}

template <typename T>
T* as(void* p) {
  return static_cast<T*>(p);
}
template <typename T>
const T* as(const void* p) {
  return static_cast<const T*>(p);
}

// c[i] = alpha a[i] + beta b[i] over n elements.
inline void axpby(int type, int64_t n, const void* alpha, const void* a, const void* beta,
                  const void* b, void* c) {
  dispatch(type, [&](auto zero) {
    using T = decltype(zero);
    const T x = *as<T>(alpha), y = *as<T>(beta);
    for (int64_t i = 0; i < n; ++i) as<T>(c)[i] = x * as<T>(a)[i] + y * as<T>(b)[i];
  });
}

// *result = sum a[i] b[i] over n elements (no conjugation).
inline void local_dot(int type, int64_t n, const void* a, const void* b, void* result) {
  dispatch(type, [&](auto zero) {
    using T = decltype(zero);
    T sum{};
    for (int64_t i = 0; i < n; ++i) sum += as<T>(a)[i] * as<T>(b)[i];
    *as<T>(result) = sum;
  });
}

}  // namespace remora::arrays
