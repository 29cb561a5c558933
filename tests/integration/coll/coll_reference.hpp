// Locally computed references for the collective tests: every rank can compute every rank's
// input, so each rank checks its own result against a fold done here, without communication.
#pragma once

#include <sched.h>

#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#include "multirank.hpp"
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

// Every algorithm each operation accepts, auto first (the library's list, algorithms_of).
inline const std::vector<remora_coll_algorithm_t> kBarrierAlgorithms = algorithms_of("barrier");
inline const std::vector<remora_coll_algorithm_t> kBcastAlgorithms = algorithms_of("bcast");
inline const std::vector<remora_coll_algorithm_t> kReduceAlgorithms = algorithms_of("reduce");
inline const std::vector<remora_coll_algorithm_t> kAllreduceAlgorithms = algorithms_of("allreduce");
inline const std::vector<remora_coll_algorithm_t> kReduceScatterAlgorithms =
    algorithms_of("reduce_scatter");
inline const std::vector<remora_coll_algorithm_t> kGatherAlgorithms = algorithms_of("gather");
inline const std::vector<remora_coll_algorithm_t> kScatterAlgorithms = algorithms_of("scatter");
inline const std::vector<remora_coll_algorithm_t> kAllgatherAlgorithms = algorithms_of("allgather");
inline const std::vector<remora_coll_algorithm_t> kAlltoallAlgorithms = algorithms_of("alltoall");
inline const std::vector<remora_coll_algorithm_t> kScanAlgorithms = algorithms_of("scan");

// Block data for the data-movement collectives: which rank, which element.
inline int32_t tagged(int from, int to, size_t i) {
  return from * 1000000 + to * 10000 + static_cast<int32_t>(i);
}

// How the matrix tests call each collective: its blocking form, or its nonblocking form
// completed by remora_request_wait or by a loop of remora_request_test. The same references
// check both, so the nonblocking twins get the blocking tests' whole matrix.
enum class Calls { blocking, wait, test };

// From the program's first argument: none or "blocking", "wait", "test".
inline Calls calls_from(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "blocking") == 0) return Calls::blocking;
  if (std::strcmp(argv[1], "wait") == 0) return Calls::wait;
  if (std::strcmp(argv[1], "test") == 0) return Calls::test;
  std::fprintf(stderr, "unknown mode '%s' (blocking, wait or test)\n", argv[1]);
  std::exit(2);
}

// Completes a started collective as `how` says; the status is the collective's.
inline int complete(Calls how, remora_request_t* request) {
  if (how == Calls::wait) return remora_request_wait(request);
  int flag = 0;
  while (true) {
    const int status = remora_request_test(request, &flag);
    if (status != REMORA_SUCCESS || flag) return status;
    sched_yield();
  }
}

// blocking(args...), or nonblocking(args..., &request) completed as `how` says; a started
// collective has a request, which completing frees (sets to null).
template <typename... B, typename... N, typename... A>
int call(Calls how, int (*blocking)(B...), int (*nonblocking)(N...), A... args) {
  if (how == Calls::blocking) return blocking(args...);
  remora_request_t request = REMORA_REQUEST_NULL;
  const int status = nonblocking(args..., &request);
  if (status != REMORA_SUCCESS) return status;
  REQUIRE(request != REMORA_REQUEST_NULL, "a started collective gave a null request");
  const int done = complete(how, &request);
  REQUIRE(done != REMORA_SUCCESS || request == REMORA_REQUEST_NULL,
          "a completed request was not freed");
  return done;
}

// What a collective must leave alone (gaps between blocks, past a block).
inline constexpr int32_t kUntouched = -7;

// Rank j's block in the v-forms: (j + salt) % 4 elements, so some blocks are empty.
inline std::vector<size_t> varying(int size, size_t salt) {
  std::vector<size_t> counts(static_cast<size_t>(size));
  for (size_t j = 0; j < counts.size(); ++j) counts[j] = (j + salt) % 4;
  return counts;
}

// Displacements with a gap of one element between blocks (which must stay untouched).
inline std::vector<size_t> spaced(const std::vector<size_t>& counts, size_t* total) {
  std::vector<size_t> displs;
  size_t at = 0;
  for (size_t count : counts) {
    displs.push_back(at);
    at += count + 1;
  }
  *total = at;
  return displs;
}

}  // namespace coll_test
