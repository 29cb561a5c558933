// Locally computed references for the collective tests: every rank can compute every rank's
// input, so each rank checks its own result against a fold done here, without communication.
#pragma once

#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#include "remora.h"

namespace coll_test {

// REMORA_COLL_AUTO and every algorithm the library lists for operation ("bcast"), so that the
// tests run each algorithm of the list (src/coll/algorithms/list.def) without naming it.
inline std::vector<remora_coll_algorithm_t> algorithms_of(const char* operation) {
  int count = 0;
  if (remora_coll_algorithms(operation, 0, nullptr, nullptr, &count) != REMORA_SUCCESS ||
      count < 1) {
    std::fprintf(stderr, "remora_coll_algorithms(\"%s\") failed or listed none\n", operation);
    std::abort();
  }
  std::vector<remora_coll_algorithm_t> all(static_cast<size_t>(count) + 1, REMORA_COLL_AUTO);
  if (remora_coll_algorithms(operation, count, all.data() + 1, nullptr, &count) != REMORA_SUCCESS)
    std::abort();
  return all;
}

template <typename T>
struct is_complex : std::false_type {};
template <typename T>
struct is_complex<std::complex<T>> : std::true_type {};

// Small integers, so that floating-point sums and products are exact in any order; products
// use 1..3 so that 8 ranks stay within a float's 24-bit mantissa.
template <typename T>
T input(int op, int rank, size_t i) {
  const int value = op == REMORA_OP_PROD ? 1 + (rank + static_cast<int>(i)) % 3
                                         : (rank * 7 + static_cast<int>(i) * 3) % 6;
  return static_cast<T>(value);
}

template <typename T>
T combine(int op, T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    using P = std::common_type_t<U, unsigned int>;
    switch (op) {  // wrapping, as the library defines it
      case REMORA_OP_SUM:
        return static_cast<T>(
            static_cast<U>(static_cast<P>(static_cast<U>(a)) + static_cast<U>(b)));
      case REMORA_OP_PROD:
        return static_cast<T>(
            static_cast<U>(static_cast<P>(static_cast<U>(a)) * static_cast<U>(b)));
      case REMORA_OP_BAND:
        return static_cast<T>(a & b);
      case REMORA_OP_BOR:
        return static_cast<T>(a | b);
      case REMORA_OP_BXOR:
        return static_cast<T>(a ^ b);
      case REMORA_OP_LAND:
        return static_cast<T>(a != 0 && b != 0);
      case REMORA_OP_LOR:
        return static_cast<T>(a != 0 || b != 0);
      case REMORA_OP_LXOR:
        return static_cast<T>((a != 0) != (b != 0));
      default:
        break;
    }
  } else {
    if (op == REMORA_OP_SUM) return a + b;
    if (op == REMORA_OP_PROD) return a * b;
  }
  if constexpr (!is_complex<T>::value) {
    if (op == REMORA_OP_MIN) return b < a ? b : a;
    if (op == REMORA_OP_MAX) return a < b ? b : a;
  }
  return a;
}

// The fold of input over ranks [first, last], or nothing when the range is empty.
template <typename T>
T fold(int op, int first, int last, size_t i) {
  T result = input<T>(op, first, i);
  for (int rank = first + 1; rank <= last; ++rank)
    result = combine(op, result, input<T>(op, rank, i));
  return result;
}

template <typename T>
bool same(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Block data for the data-movement collectives: which rank, which element.
inline int32_t tagged(int from, int to, size_t i) {
  return from * 1000000 + to * 10000 + static_cast<int32_t>(i);
}

}  // namespace coll_test
