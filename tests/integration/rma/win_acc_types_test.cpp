// Every element type and operator of the accumulate family from every rank to the same
// locations at once, with the window's default strategy: across nodes (REMORA_NODE_SIZE=1, and
// =2 at 4 ranks: ranks of the target's node and of the other node mixed) MPI's accumulates for
// every target (docs/rma.md, "Across nodes"), on one node the lock table. Every check compares
// with a value computed here:
//   * each integer type: SUM (accumulate, get_accumulate and fetch_and_op mixed on the same
//     elements), BOR, BAND, BXOR, MAX, MIN, LOR, LXOR, LAND: exact results;
//   * float, double, float complex: SUM, SCALED_SUM (alpha 2) and PROD of exactly representable
//     values; MAX and MIN (not complex): exact;
//   * fetch_and_op REPLACE on one word by every rank: the previous values seen and the final
//     value are the initial value and every rank's value, each exactly once;
//   * compare-and-swap increments of an int8, int32 and int64 counter: exact totals;
//   * accumulates to each target inside lock/unlock and inside fence epochs, read by the target
//     with plain loads after a barrier (the unlock and the fence completed them, also on the
//     origin's own node);
//   * the unsigned types (which take the strategy's other path across nodes: MPICH 4.0.2 orders
//     them as signed in MPI_MIN and MPI_MAX) beside the others in the same window; MIN and MAX
//     start from values with the top bit set for unsigned types, to catch exactly that.
#include <complex>
#include <cstdint>
#include <cstring>
#include <vector>

#include "multirank.hpp"

namespace {

int rank_, size_;
constexpr int kRounds = 6;
constexpr size_t kCount = 3;
constexpr size_t kSlot = 64;  // bytes per operator region: kCount elements of up to 16 bytes
constexpr size_t kWindowBytes = 1 << 16;

unsigned char* base_ = nullptr;
template <typename T>
T* at(size_t offset) {
  return reinterpret_cast<T*>(base_ + offset);
}

void reset(remora_win_t win, unsigned char fill = 0) {
  REQUIRE_OK(remora_barrier());
  std::memset(base_, fill, kWindowBytes);
  REQUIRE_OK(remora_win_sync(win));
  REQUIRE_OK(remora_barrier());
}

// After every rank's lock_all epoch: this rank's memory, synchronised.
void settle(remora_win_t win) {
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
}

template <typename T>
void fill(std::vector<T>* values, T value) {
  values->assign(kCount, value);
}

// One operator from every rank to every rank's region at `offset`, kRounds times when
// `rounds`, else once; the call (accumulate, get_accumulate, fetch_and_op) rotates.
template <typename T>
void to_everyone(remora_win_t win, size_t offset, const std::vector<T>& values,
                 remora_datatype_t type, remora_op_t op, int rounds) {
  std::vector<T> previous(kCount);
  for (int round = 0; round < rounds; ++round)
    for (int step = 0; step < size_; ++step) {
      const int target = (rank_ + step) % size_;
      switch ((round + step) % 3) {
        case 0:
          REQUIRE_OK(
              remora_win_accumulate(win, target, offset, values.data(), kCount, type, op, nullptr));
          break;
        case 1:
          REQUIRE_OK(remora_win_get_accumulate(win, target, offset, values.data(), previous.data(),
                                               kCount, type, op, nullptr));
          break;
        default:
          for (size_t i = 0; i < kCount; ++i)
            REQUIRE_OK(remora_win_fetch_and_op(win, target, offset + i * sizeof(T), &values[i],
                                               &previous[i], type, op));
      }
    }
}

template <typename T>
void expect(size_t offset, T want, const char* what) {
  for (size_t i = 0; i < kCount; ++i) {
    T got;
    std::memcpy(&got, base_ + offset + i * sizeof(T), sizeof(T));
    REQUIRE(got == want, "%s, %zu-byte element %zu: %lld, want %lld", what, sizeof(T), i,
            static_cast<long long>(got), static_cast<long long>(want));
  }
}

// Integer type T: every operator.
template <typename T>
void integers(remora_win_t win, remora_datatype_t type) {
  constexpr int kBits = 8 * sizeof(T);
  reset(win);
  const T one_bit = static_cast<T>(T{1} << (rank_ % kBits));
  std::vector<T> values;
  REQUIRE_OK(remora_win_lock_all(win, 0));
  fill(&values, T{1});
  to_everyone(win, 0 * kSlot, values, type, REMORA_OP_SUM, kRounds);
  fill(&values, one_bit);
  to_everyone(win, 1 * kSlot, values, type, REMORA_OP_BOR, 1);
  to_everyone(win, 2 * kSlot, values, type, REMORA_OP_BXOR, 1);
  fill(&values, static_cast<T>(rank_ + 1));
  to_everyone(win, 3 * kSlot, values, type, REMORA_OP_MAX, 1);
  fill(&values, static_cast<T>(rank_ == 0 ? 1 : 0));
  to_everyone(win, 4 * kSlot, values, type, REMORA_OP_LOR, 1);
  fill(&values, T{1});
  to_everyone(win, 5 * kSlot, values, type, REMORA_OP_LXOR, 1);
  settle(win);
  T bits = 0;
  for (int r = 0; r < size_; ++r) bits = static_cast<T>(bits | T{1} << (r % kBits));
  T xor_bits = 0;
  for (int r = 0; r < size_; ++r) xor_bits = static_cast<T>(xor_bits ^ T{1} << (r % kBits));
  expect<T>(0 * kSlot, static_cast<T>(kRounds * size_), "SUM");
  expect<T>(1 * kSlot, bits, "BOR");
  expect<T>(2 * kSlot, xor_bits, "BXOR");
  expect<T>(3 * kSlot, static_cast<T>(size_), "MAX");
  expect<T>(4 * kSlot, T{1}, "LOR");
  expect<T>(5 * kSlot, static_cast<T>(size_ % 2), "LXOR");
  // From 0x7f in every byte (positive, signed or not): BAND clears each rank's bit, MIN takes
  // the smallest, LAND of non-zero is 1.
  reset(win, 0x7f);
  T pattern;
  std::memset(&pattern, 0x7f, sizeof pattern);
  REQUIRE_OK(remora_win_lock_all(win, 0));
  fill(&values, static_cast<T>(~one_bit));
  to_everyone(win, 0 * kSlot, values, type, REMORA_OP_BAND, 1);
  fill(&values, static_cast<T>(rank_ + 1));
  to_everyone(win, 1 * kSlot, values, type, REMORA_OP_MIN, 1);
  fill(&values, static_cast<T>(rank_ + 2));
  to_everyone(win, 2 * kSlot, values, type, REMORA_OP_LAND, 1);
  settle(win);
  expect<T>(0 * kSlot, static_cast<T>(pattern & ~bits), "BAND");
  expect<T>(1 * kSlot, T{1}, "MIN");
  expect<T>(2 * kSlot, T{1}, "LAND");
  // MAX and MIN from zero with the top bit set in rank 0's value: the largest for an unsigned
  // type, the most negative for a signed one.
  reset(win);
  REQUIRE_OK(remora_win_lock_all(win, 0));
  const T top = static_cast<T>(T{1} << (kBits - 1));
  fill(&values, rank_ == 0 ? top : T{1});
  to_everyone(win, 0 * kSlot, values, type, REMORA_OP_MAX, 1);
  to_everyone(win, 1 * kSlot, values, type, REMORA_OP_MIN, 1);
  settle(win);
  T largest = 0, smallest = 0;
  for (int r = 0; r < size_; ++r) {
    const T value = r == 0 ? top : T{1};
    largest = value > largest ? value : largest;
    smallest = value < smallest ? value : smallest;
  }
  expect<T>(0 * kSlot, largest, "MAX with the top bit");
  expect<T>(1 * kSlot, smallest, "MIN with the top bit");
}

template <typename T>
void expect_value(size_t offset, T want, const char* what) {
  for (size_t i = 0; i < kCount; ++i) {
    T got;
    std::memcpy(&got, base_ + offset + i * sizeof(T), sizeof(T));
    REQUIRE(got == want, "%s, %zu-byte element %zu: (%g, %g), want (%g, %g)", what, sizeof(T), i,
            static_cast<double>(std::real(got)), static_cast<double>(std::imag(got)),
            static_cast<double>(std::real(want)), static_cast<double>(std::imag(want)));
  }
}

// Floating type T (real or complex): SUM, SCALED_SUM, PROD; MIN and MAX when real.
template <typename T, bool kComplex>
void floating(remora_win_t win, remora_datatype_t type) {
  using Real = decltype(std::real(T{}));
  reset(win);
  REQUIRE_OK(remora_win_lock_all(win, 0));
  std::vector<T> values;
  fill(&values, T(Real(0.25) * static_cast<Real>(rank_ + 1)));
  to_everyone(win, 0 * kSlot, values, type, REMORA_OP_SUM, kRounds);
  const T alpha(2);
  for (int target = 0; target < size_; ++target)
    REQUIRE_OK(remora_win_accumulate(win, target, 1 * kSlot, values.data(), kCount, type,
                                     REMORA_OP_SCALED_SUM, &alpha));
  if constexpr (!kComplex) {
    fill(&values, T(static_cast<Real>(rank_) - Real(0.5)));
    to_everyone(win, 2 * kSlot, values, type, REMORA_OP_MAX, 1);
    to_everyone(win, 3 * kSlot, values, type, REMORA_OP_MIN, 1);
  }
  settle(win);
  const Real ranks_sum = static_cast<Real>(size_ * (size_ + 1) / 2);
  expect_value<T>(0 * kSlot, T(Real(0.25) * ranks_sum * Real(kRounds)), "SUM");
  expect_value<T>(1 * kSlot, T(Real(0.5) * ranks_sum), "SCALED_SUM");
  if constexpr (!kComplex) {
    // From zero: rank 0's -0.5 is the minimum, the maximum is the last rank's unless negative.
    const Real largest = static_cast<Real>(size_ - 1) - Real(0.5);
    expect_value<T>(2 * kSlot, T(largest > Real(0) ? largest : Real(0)), "MAX");
    expect_value<T>(3 * kSlot, T(Real(-0.5)), "MIN");
  }
  // PROD from one: every rank multiplies by 2 (by 2i for complex: (2i)^n).
  reset(win);
  for (size_t i = 0; i < kCount; ++i) at<T>(0)[i] = T(1);
  REQUIRE_OK(remora_win_sync(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_lock_all(win, 0));
  if constexpr (kComplex)
    fill(&values, T(Real(0), Real(2)));
  else
    fill(&values, T(2));
  to_everyone(win, 0, values, type, REMORA_OP_PROD, 1);
  settle(win);
  T want(1);
  for (int r = 0; r < size_; ++r) want *= values[0];
  expect_value<T>(0, want, "PROD");
}

// REPLACE by every rank on one word of every target: a chain of swaps.
void replace_chain(remora_win_t win) {
  reset(win);
  for (int target = 0; target < size_; ++target) {
    // Each rank swaps in its id + 1 ten times (value 100 * round + rank + 1).
    REQUIRE_OK(remora_win_lock_all(win, 0));
    std::vector<int64_t> seen;
    for (int round = 0; round < 10; ++round) {
      const int64_t mine = 100 * round + rank_ + 1;
      int64_t previous = -1;
      REQUIRE_OK(remora_win_fetch_and_op(win, target, 0, &mine, &previous, REMORA_INT64,
                                         REMORA_OP_REPLACE));
      seen.push_back(previous);
    }
    REQUIRE_OK(remora_win_unlock_all(win));
    // Count every value: each of the size_ * 10 swapped in and the initial 0 appears exactly
    // once among all previous values and the final one.
    std::vector<int64_t> counts(100 * 10 + 64, 0);
    for (int64_t value : seen) {
      REQUIRE(value >= 0 && value < static_cast<int64_t>(counts.size()), "REPLACE saw %lld",
              static_cast<long long>(value));
      counts[static_cast<size_t>(value)] += 1;
    }
    std::vector<int64_t> all(counts.size(), 0);
    REQUIRE_OK(remora_barrier());
    int64_t final_value = -1;
    REQUIRE_OK(remora_win_lock_all(win, 0));
    const int64_t unused = 0;
    REQUIRE_OK(remora_win_fetch_and_op(win, target, 0, &unused, &final_value, REMORA_INT64,
                                       REMORA_OP_NO_OP));
    REQUIRE_OK(remora_win_unlock_all(win));
    remora_comm_t world = REMORA_COMM_NULL;
    REQUIRE_OK(remora_comm_world(&world));
    REQUIRE_OK(remora_allreduce(counts.data(), all.data(), counts.size(), REMORA_INT64,
                                REMORA_OP_SUM, world, REMORA_COLL_AUTO));
    all[static_cast<size_t>(final_value)] += 1;
    for (size_t value = 0; value < all.size(); ++value) {
      const bool swapped_in =
          value % 100 >= 1 && value % 100 <= static_cast<size_t>(size_) && value / 100 < 10;
      const int64_t want = value == 0 || swapped_in ? 1 : 0;
      REQUIRE(all[value] == want, "target %d: value %zu seen %lld times, want %lld", target, value,
              static_cast<long long>(all[value]), static_cast<long long>(want));
    }
    REQUIRE_OK(remora_barrier());
  }
}

// Increments by compare-and-swap, retried until they succeed, of a T counter on every rank.
template <typename T>
void cas_counter(remora_win_t win, remora_datatype_t type, int increments) {
  reset(win);
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int i = 0; i < increments; ++i)
    for (int step = 0; step < size_; ++step) {
      const int target = (rank_ + step) % size_;
      T expected{};
      const T unused{};
      REQUIRE_OK(
          remora_win_fetch_and_op(win, target, 0, &unused, &expected, type, REMORA_OP_NO_OP));
      for (;;) {
        const T desired = expected + T(1);
        T seen{};
        REQUIRE_OK(remora_win_compare_and_swap(win, target, 0, &desired, &expected, &seen, type));
        if (std::memcmp(&seen, &expected, sizeof(T)) == 0) break;
        expected = seen;
      }
    }
  settle(win);
  const T want = static_cast<T>(increments * size_);
  REQUIRE(*at<T>(0) == want, "compare-and-swap counter of %zu bytes: %g, want %g", sizeof(T),
          static_cast<double>(*at<T>(0)), static_cast<double>(want));
}

// Accumulates completed by unlock and by fence, then read with plain loads by the target.
void epochs(remora_win_t win) {
  reset(win);
  const int64_t add = rank_ + 1;
  for (int target = 0; target < size_; ++target) {
    REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, target, 0));
    REQUIRE_OK(
        remora_win_accumulate(win, target, 0, &add, 1, REMORA_INT64, REMORA_OP_SUM, nullptr));
    REQUIRE_OK(remora_win_unlock(win, target));
  }
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  const int64_t ranks_sum = int64_t{size_} * (size_ + 1) / 2;
  REQUIRE(*at<int64_t>(0) == ranks_sum, "after unlock: %lld, want %lld",
          static_cast<long long>(*at<int64_t>(0)), static_cast<long long>(ranks_sum));
  REQUIRE_OK(remora_win_fence(win, 0));
  for (int target = 0; target < size_; ++target)
    REQUIRE_OK(
        remora_win_accumulate(win, target, 8, &add, 1, REMORA_INT64, REMORA_OP_SUM, nullptr));
  REQUIRE_OK(remora_win_fence(win, 0));
  REQUIRE(*at<int64_t>(8) == ranks_sum, "after fence: %lld, want %lld",
          static_cast<long long>(*at<int64_t>(8)), static_cast<long long>(ranks_sum));
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSUCCEED));
}

}  // namespace

int main(int argc, char** argv) {
  remora_test::init(&argc, &argv, &rank_, &size_);
  remora_win_t win = nullptr;
  REQUIRE_OK(remora_win_allocate(kWindowBytes, 1, "", reinterpret_cast<void**>(&base_), &win));
  integers<int8_t>(win, REMORA_INT8);
  integers<int16_t>(win, REMORA_INT16);
  integers<int32_t>(win, REMORA_INT32);
  integers<int64_t>(win, REMORA_INT64);
  integers<uint8_t>(win, REMORA_UINT8);
  integers<uint16_t>(win, REMORA_UINT16);
  integers<uint32_t>(win, REMORA_UINT32);
  integers<uint64_t>(win, REMORA_UINT64);
  floating<float, false>(win, REMORA_FLOAT);
  floating<double, false>(win, REMORA_DOUBLE);
  floating<std::complex<float>, true>(win, REMORA_FLOAT_COMPLEX);
  floating<std::complex<double>, true>(win, REMORA_DOUBLE_COMPLEX);
  replace_chain(win);
  cas_counter<int8_t>(win, REMORA_INT8, 10);
  cas_counter<int32_t>(win, REMORA_INT32, 20);
  cas_counter<int64_t>(win, REMORA_INT64, 20);
  epochs(win);
  REQUIRE_OK(remora_win_free(&win));
  REQUIRE_OK(remora_finalize());
  return 0;
}
