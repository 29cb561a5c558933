// Accumulate atomicity under contention, for the strategy chosen by REMORA_ACC_STRATEGY: all
// ranks accumulate many times into the same (or overlapping) locations of one target and the
// results are exact, for every op and a sample of types; get_accumulate with NO_OP racing
// REPLACE sees element-wise consistent values; REPLACE through fetch_and_op is an exchange
// (each value written is read back exactly once); get_accumulate returns each state exactly
// once; single-element and range accumulates on the same elements stay exact, for each of
// fetch_and_op, compare_and_swap and get_accumulate of one element; a range of unaligned
// doubles over many stripes, with single elements at its edges, sums exactly; sums of 8-512 B
// from every rank into one location stay exact; sums over the whole window (every stripe) race
// single elements exactly; large overlapping ranges (updated piece by piece) sum exactly and
// their get_accumulate results land in place.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "multirank.hpp"

namespace {

int rank_, size_;
constexpr int kRounds = 150;
constexpr size_t kCount = 5;  // elements per accumulate: several stripes with small granularity
constexpr size_t kWindowBytes = 1024;

using cfloat = std::complex<float>;
using cdouble = std::complex<double>;

// All ranks accumulate `operand(rank)` with op into kCount elements at byte 64 of `target`'s
// window, kRounds times (alternating accumulate and get_accumulate); the target then finds
// expected() in each element.
template <typename T>
void contend(remora_win_t win, int target, remora_datatype_t type, remora_op_t op, T initial,
             const std::function<T(int)>& operand, const T* alpha, T expected, const char* what) {
  constexpr size_t disp = 64;  // bytes: the window's disp_unit is 1
  unsigned char* base = nullptr;
  REQUIRE_OK(remora_win_base(win, reinterpret_cast<void**>(&base)));
  T* elements = reinterpret_cast<T*>(base + disp);
  if (rank_ == target)
    for (size_t i = 0; i < kCount; ++i) elements[i] = initial;
  REQUIRE_OK(remora_win_sync(win));
  REQUIRE_OK(remora_barrier());

  std::vector<T> origin(kCount, operand(rank_)), previous(kCount);
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int round = 0; round < kRounds; ++round) {
    if (round % 2 == 0)
      REQUIRE_OK(remora_win_accumulate(win, target, disp, origin.data(), kCount, type, op, alpha));
    else
      REQUIRE_OK(remora_win_get_accumulate(win, target, disp, origin.data(), previous.data(),
                                           kCount, type, op, alpha));
  }
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  if (rank_ == target)
    for (size_t i = 0; i < kCount; ++i)
      REQUIRE(elements[i] == expected, "%s: element %zu wrong", what, i);
  REQUIRE_OK(remora_barrier());
}

template <typename T>
T repeat(T value, long times, const std::function<T(T, T)>& combine, T start) {
  for (long i = 0; i < times; ++i) start = combine(start, value);
  return start;
}

void every_op(remora_win_t win, int target) {
  const long total = long{size_} * kRounds;
  // Sums (integer sums wrap, floating sums of small integers are exact).
  contend<int8_t>(
      win, target, REMORA_INT8, REMORA_OP_SUM, 0, [](int) { return int8_t{1}; }, nullptr,
      static_cast<int8_t>(static_cast<uint8_t>(total % 256)), "SUM INT8");
  contend<int32_t>(
      win, target, REMORA_INT32, REMORA_OP_SUM, 7, [](int r) { return r + 1; }, nullptr,
      static_cast<int32_t>(7 + kRounds * size_ * (size_ + 1) / 2), "SUM INT32");
  contend<uint64_t>(
      win, target, REMORA_UINT64, REMORA_OP_SUM, 0, [](int) { return ~0ull; }, nullptr,
      0ull - static_cast<uint64_t>(total), "SUM UINT64");
  contend<float>(
      win, target, REMORA_FLOAT, REMORA_OP_SUM, 0.f, [](int) { return 1.f; }, nullptr,
      static_cast<float>(total), "SUM FLOAT");
  contend<double>(
      win, target, REMORA_DOUBLE, REMORA_OP_SUM, 0., [](int) { return 0.5; }, nullptr,
      0.5 * static_cast<double>(total), "SUM DOUBLE");
  contend<cfloat>(
      win, target, REMORA_FLOAT_COMPLEX, REMORA_OP_SUM, {}, [](int) { return cfloat(1, -2); },
      nullptr, cfloat(static_cast<float>(total), -2.f * static_cast<float>(total)),
      "SUM FLOAT_COMPLEX");
  contend<cdouble>(
      win, target, REMORA_DOUBLE_COMPLEX, REMORA_OP_SUM, {}, [](int) { return cdouble(1, 3); },
      nullptr, cdouble(static_cast<double>(total), 3. * static_cast<double>(total)),
      "SUM DOUBLE_COMPLEX");
  // Products: wrap-around for integers, powers of two for doubles.
  contend<uint32_t>(
      win, target, REMORA_UINT32, REMORA_OP_PROD, 1, [](int) { return 3u; }, nullptr,
      repeat<uint32_t>(
          3u, total, [](uint32_t a, uint32_t b) { return a * b; }, 1u),
      "PROD UINT32");
  contend<double>(
      win, target, REMORA_DOUBLE, REMORA_OP_PROD, 1., [](int) { return 2.; }, nullptr,
      repeat<double>(
          2., total, [](double a, double b) { return a * b; }, 1.),
      "PROD DOUBLE");
  // Orderings.
  contend<int16_t>(
      win, target, REMORA_INT16, REMORA_OP_MIN, 0,
      [](int r) { return static_cast<int16_t>(-3 * r - 1); }, nullptr,
      static_cast<int16_t>(-3 * (size_ - 1) - 1), "MIN INT16");
  contend<double>(
      win, target, REMORA_DOUBLE, REMORA_OP_MAX, -1., [](int r) { return r * 1.5; }, nullptr,
      (size_ - 1) * 1.5, "MAX DOUBLE");
  // Bitwise.
  uint64_t all_bits = 0, parity = 0;
  for (int r = 0; r < size_; ++r) all_bits |= 1ull << (3 * r);
  for (int r = 0; r < size_; ++r) parity ^= (kRounds % 2) ? (0x9e3779b97f4a7c15ull * (r + 1)) : 0;
  contend<uint64_t>(
      win, target, REMORA_UINT64, REMORA_OP_BOR, 0, [](int r) { return 1ull << (3 * r); }, nullptr,
      all_bits, "BOR UINT64");
  contend<uint64_t>(
      win, target, REMORA_UINT64, REMORA_OP_BAND, ~0ull, [](int r) { return ~(1ull << (3 * r)); },
      nullptr, ~all_bits, "BAND UINT64");
  contend<uint64_t>(
      win, target, REMORA_UINT64, REMORA_OP_BXOR, 0,
      [](int r) { return 0x9e3779b97f4a7c15ull * (r + 1); }, nullptr, parity, "BXOR UINT64");
  // Logical: LXOR with 1 flips once per update, so the result is the parity of all updates.
  contend<int8_t>(
      win, target, REMORA_INT8, REMORA_OP_LXOR, 0, [](int) { return int8_t{1}; }, nullptr,
      static_cast<int8_t>(total % 2), "LXOR INT8");
  contend<uint16_t>(
      win, target, REMORA_UINT16, REMORA_OP_LAND, 5,
      [](int r) { return static_cast<uint16_t>(r == size_ - 1 ? 0 : 9); }, nullptr, 0,
      "LAND UINT16");
  contend<int32_t>(
      win, target, REMORA_INT32, REMORA_OP_LOR, 0, [](int r) { return r == 0 ? 4 : 0; }, nullptr, 1,
      "LOR INT32");
  // Scaled sums.
  const int64_t alpha64 = 3;
  contend<int64_t>(
      win, target, REMORA_INT64, REMORA_OP_SCALED_SUM, 1, [](int) { return -2; }, &alpha64,
      1 - 6 * total, "SCALED_SUM INT64");
  const cdouble alphac(0, 1);  // i * (1 + 0i) = i
  contend<cdouble>(
      win, target, REMORA_DOUBLE_COMPLEX, REMORA_OP_SCALED_SUM, {},
      [](int) { return cdouble(1, 0); }, &alphac, cdouble(0, static_cast<double>(total)),
      "SCALED_SUM DOUBLE_COMPLEX");
}

// Ranks accumulate into ranges shifted by rank % 3 elements: each element ends with
// kRounds times the number of ranks whose range covers it.
void overlapping_ranges(remora_win_t win, int target) {
  int64_t* base = nullptr;
  REQUIRE_OK(remora_win_base(win, reinterpret_cast<void**>(&base)));
  constexpr size_t kSpan = 7;
  if (rank_ == target)
    for (size_t i = 0; i < kSpan + 2; ++i) base[i] = 0;
  REQUIRE_OK(remora_win_sync(win));
  REQUIRE_OK(remora_barrier());
  const std::vector<int64_t> ones(kSpan, 1);
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int round = 0; round < kRounds; ++round)
    REQUIRE_OK(remora_win_accumulate(win, target, 8 * static_cast<size_t>(rank_ % 3), ones.data(),
                                     kSpan, REMORA_INT64, REMORA_OP_SUM, nullptr));
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  if (rank_ == target)
    for (size_t i = 0; i < kSpan + 2; ++i) {
      int64_t covering = 0;
      for (int r = 0; r < size_; ++r) covering += (i >= size_t(r % 3) && i < r % 3 + kSpan);
      REQUIRE(base[i] == covering * kRounds, "overlap element %zu: %lld", i, (long long)base[i]);
    }
  REQUIRE_OK(remora_barrier());
}

// Single-element fetch_and_op and compare-free range accumulates race on the same elements
// (each strategy must take one path per location whatever the count: a single-element CPU
// atomic and a lock-table range update of the same element would lose updates). Each rank
// alternates a fetch_and_op SUM of 1 on element (rank + round) % kSpan and an accumulate of 1
// on all kSpan elements; every element's final value is exact.
void mixed_sizes(remora_win_t win, int target) {
  int64_t* base = nullptr;
  REQUIRE_OK(remora_win_base(win, reinterpret_cast<void**>(&base)));
  constexpr size_t kSpan = 9, kFirst = 12;  // bytes 96..168: several 16-byte stripes
  if (rank_ == target)
    for (size_t i = 0; i < kSpan; ++i) base[kFirst + i] = 0;
  REQUIRE_OK(remora_win_sync(win));
  REQUIRE_OK(remora_barrier());
  const std::vector<int64_t> ones(kSpan, 1);
  const int64_t one = 1;
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int round = 0; round < kRounds; ++round) {
    const size_t element = (static_cast<size_t>(rank_) + static_cast<size_t>(round)) % kSpan;
    int64_t previous = -1;
    REQUIRE_OK(remora_win_fetch_and_op(win, target, 8 * (kFirst + element), &one, &previous,
                                       REMORA_INT64, REMORA_OP_SUM));
    REQUIRE(previous >= 0, "mixed sizes: fetch_and_op read %lld", (long long)previous);
    REQUIRE_OK(remora_win_accumulate(win, target, 8 * kFirst, ones.data(), kSpan, REMORA_INT64,
                                     REMORA_OP_SUM, nullptr));
  }
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  if (rank_ == target)
    for (size_t i = 0; i < kSpan; ++i) {
      int64_t singles = 0;  // fetch_and_ops that chose element i
      for (int r = 0; r < size_; ++r)
        for (int round = 0; round < kRounds; ++round)
          singles += (static_cast<size_t>(r) + static_cast<size_t>(round)) % kSpan == i;
      const int64_t want = singles + int64_t{size_} * kRounds;
      REQUIRE(base[kFirst + i] == want, "mixed sizes: element %zu is %lld, expected %lld", i,
              (long long)base[kFirst + i], (long long)want);
    }
  REQUIRE_OK(remora_barrier());
}

// The three one-element operations (fetch_and_op SUM, compare_and_swap as an increment loop,
// get_accumulate of count 1) race multi-element accumulates that cover their elements, from
// every rank, the target included: each one-element update must exclude the range updates of
// the same bytes (with the lock table: take their stripe). Also an int64 at a misaligned byte
// offset, which straddles two stripes of the 16-byte tables. Also accumulates and
// get_accumulates of two elements within one 16-byte block (one stripe: the in-place path of
// a few elements). Every final value is exact.
void mixed_one_element_ops(remora_win_t win, int target) {
  unsigned char* bytes = nullptr;
  REQUIRE_OK(remora_win_base(win, reinterpret_cast<void**>(&bytes)));
  constexpr size_t kSpan = 7, kFirst = 26;  // int64 elements at bytes 208..263
  constexpr size_t kStraddle = 300;         // two int64 at bytes 300..315 (disp_unit 1)
  auto element_of = [](int rank, int round, int which) {
    return (static_cast<size_t>(rank) + static_cast<size_t>(which * round + which)) % kSpan;
  };
  auto pair_of = [](int rank, int round) {  // elements 2 p and 2 p + 1, p < 3
    return (static_cast<size_t>(rank) + static_cast<size_t>(round)) % 3;
  };
  if (rank_ == target) {
    std::memset(bytes + 8 * kFirst, 0, 8 * kSpan);
    std::memset(bytes + kStraddle, 0, 16);
  }
  REQUIRE_OK(remora_win_sync(win));
  REQUIRE_OK(remora_barrier());
  const std::vector<int64_t> ones(kSpan, 1);
  const int64_t one = 1;
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int round = 0; round < kRounds; ++round) {
    int64_t previous = -1;
    REQUIRE_OK(remora_win_fetch_and_op(win, target, 8 * (kFirst + element_of(rank_, round, 1)),
                                       &one, &previous, REMORA_INT64, REMORA_OP_SUM));
    REQUIRE(previous >= 0, "one-element ops: fetch_and_op read %lld", (long long)previous);
    // compare_and_swap increments: read the element atomically, then swap value + 1 for value
    // until the swap finds what it compared with.
    const size_t cas_disp = 8 * (kFirst + element_of(rank_, round, 2));
    int64_t seen = 0;
    REQUIRE_OK(remora_win_fetch_and_op(win, target, cas_disp, nullptr, &seen, REMORA_INT64,
                                       REMORA_OP_NO_OP));
    for (;;) {
      const int64_t desired = seen + 1;
      int64_t found = -1;
      REQUIRE_OK(remora_win_compare_and_swap(win, target, cas_disp, &desired, &seen, &found,
                                             REMORA_INT64));
      if (found == seen) break;
      seen = found;
    }
    REQUIRE_OK(remora_win_get_accumulate(win, target, 8 * (kFirst + element_of(rank_, round, 3)),
                                         &one, &previous, 1, REMORA_INT64, REMORA_OP_SUM, nullptr));
    REQUIRE_OK(remora_win_fetch_and_op(win, target, kStraddle, &one, &previous, REMORA_INT64,
                                       REMORA_OP_SUM));
    // Two elements within one 16-byte block (bytes 208 + 16 p): one stripe of every table here.
    int64_t pair[2] = {-1, -1};
    REQUIRE_OK(remora_win_get_accumulate(win, target, 8 * (kFirst + 2 * pair_of(rank_, round)),
                                         ones.data(), pair, 2, REMORA_INT64, REMORA_OP_SUM,
                                         nullptr));
    REQUIRE(pair[0] >= 0 && pair[1] >= 0, "one-element ops: get_accumulate of 2 read %lld, %lld",
            (long long)pair[0], (long long)pair[1]);
    REQUIRE_OK(remora_win_accumulate(win, target, 8 * (kFirst + 2 * pair_of(rank_, round + 1)),
                                     ones.data(), 2, REMORA_INT64, REMORA_OP_SUM, nullptr));
    REQUIRE_OK(remora_win_accumulate(win, target, 8 * kFirst, ones.data(), kSpan, REMORA_INT64,
                                     REMORA_OP_SUM, nullptr));
    REQUIRE_OK(remora_win_accumulate(win, target, kStraddle, ones.data(), 2, REMORA_INT64,
                                     REMORA_OP_SUM, nullptr));
  }
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  if (rank_ == target) {
    for (size_t i = 0; i < kSpan; ++i) {
      int64_t want = int64_t{size_} * kRounds;  // the range accumulates
      for (int r = 0; r < size_; ++r)
        for (int round = 0; round < kRounds; ++round)
          for (int which = 1; which <= 3; ++which) want += element_of(r, round, which) == i;
      for (int r = 0; r < size_; ++r)
        for (int round = 0; round < kRounds; ++round)
          for (int next = 0; next <= 1; ++next) want += pair_of(r, round + next) == i / 2;
      int64_t value = 0;
      std::memcpy(&value, bytes + 8 * (kFirst + i), 8);
      REQUIRE(value == want, "one-element ops: element %zu is %lld, expected %lld", i,
              (long long)value, (long long)want);
    }
    int64_t straddle[2] = {0, 0};
    std::memcpy(straddle, bytes + kStraddle, 16);
    REQUIRE(straddle[0] == 2 * int64_t{size_} * kRounds && straddle[1] == int64_t{size_} * kRounds,
            "one-element ops: misaligned elements are %lld, %lld, expected %lld, %lld",
            (long long)straddle[0], (long long)straddle[1], 2LL * size_ * kRounds,
            (long long)size_ * kRounds);
  }
  REQUIRE_OK(remora_barrier());
}

// fetch_and_op REPLACE is an exchange: the values read back plus the final value are exactly
// the values written plus the initial one (checked through their sum and sum of squares).
void replace_is_exchange(remora_win_t win, int target) {
  REQUIRE_OK(remora_barrier());
  int64_t sums[2] = {0, 0};
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int round = 0; round < kRounds; ++round) {
    const int64_t token = 1 + rank_ * kRounds + round;
    int64_t previous = 0;
    REQUIRE_OK(remora_win_fetch_and_op(win, target, 8 * 40, &token, &previous, REMORA_INT64,
                                       REMORA_OP_REPLACE));
    sums[0] += previous;
    sums[1] += previous * previous;
  }
  REQUIRE_OK(remora_win_flush_all(win));
  REQUIRE_OK(remora_barrier());
  if (rank_ == target) {  // the final value counts as read
    int64_t last = 0;
    REQUIRE_OK(remora_win_get(win, target, 8 * 40, &last, 1, REMORA_INT64));
    sums[0] += last;
    sums[1] += last * last;
  }
  REQUIRE_OK(
      remora_win_accumulate(win, target, 8 * 41, sums, 2, REMORA_INT64, REMORA_OP_SUM, nullptr));
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  if (rank_ == target) {
    const int64_t tokens = int64_t{size_} * kRounds;
    int64_t* base = nullptr;
    REQUIRE_OK(remora_win_base(win, reinterpret_cast<void**>(&base)));
    REQUIRE(base[41] == tokens * (tokens + 1) / 2, "sum of exchanged values %lld",
            (long long)base[41]);
    REQUIRE(base[42] == tokens * (tokens + 1) * (2 * tokens + 1) / 6, "sum of squares %lld",
            (long long)base[42]);
  }
  REQUIRE_OK(remora_barrier());
}

// Every rank adds 1 to one int64 kRounds times through get_accumulate: each call must see a
// state no other call saw, so the previous values returned, over all ranks, are exactly
// 0, 1, ..., size * kRounds - 1.
void get_accumulate_sees_each_state_once(remora_win_t win, int target) {
  constexpr size_t disp = 8 * 48;
  int64_t* base = nullptr;
  REQUIRE_OK(remora_win_base(win, reinterpret_cast<void**>(&base)));
  if (rank_ == target) base[48] = 0;
  REQUIRE_OK(remora_win_sync(win));
  REQUIRE_OK(remora_barrier());
  std::vector<int64_t> seen(kRounds);
  const int64_t one = 1;
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int round = 0; round < kRounds; ++round)
    REQUIRE_OK(remora_win_get_accumulate(win, target, disp, &one, &seen[round], 1, REMORA_INT64,
                                         REMORA_OP_SUM, nullptr));
  REQUIRE_OK(remora_win_unlock_all(win));
  std::vector<int64_t> all(static_cast<size_t>(size_) * kRounds);
  remora_comm_t world = nullptr;
  REQUIRE_OK(remora_comm_world(&world));
  REQUIRE_OK(
      remora_allgather(seen.data(), all.data(), kRounds, REMORA_INT64, world, REMORA_COLL_AUTO));
  std::sort(all.begin(), all.end());
  for (size_t i = 0; i < all.size(); ++i)
    REQUIRE(all[i] == static_cast<int64_t>(i), "get_accumulate: sorted previous value %zu is %lld",
            i, (long long)all[i]);
  REQUIRE_OK(remora_barrier());
}

// Writers replace all elements with (v, -v) for a fresh v; readers atomically read them
// (get_accumulate NO_OP): each element must be some (v, -v), never a torn mix.
void atomic_read_races_replace(remora_win_t win, int target) {
  constexpr size_t kElements = 8;
  const size_t disp = 128;
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_lock_all(win, 0));
  std::vector<cdouble> values(kElements), seen(kElements);
  for (int round = 0; round < kRounds; ++round) {
    if (rank_ % 2 == 0) {
      const double v = rank_ * 1000.0 + round + 1;
      values.assign(kElements, cdouble(v, -v));
      REQUIRE_OK(remora_win_accumulate(win, target, disp, values.data(), kElements,
                                       REMORA_DOUBLE_COMPLEX, REMORA_OP_REPLACE, nullptr));
    }
    REQUIRE_OK(remora_win_get_accumulate(win, target, disp, nullptr, seen.data(), kElements,
                                         REMORA_DOUBLE_COMPLEX, REMORA_OP_NO_OP, nullptr));
    for (const cdouble& element : seen)
      REQUIRE(element.real() == -element.imag(), "torn element (%g, %g)", element.real(),
              element.imag());
  }
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
}

// The target zeroes its whole window, then every rank may use it; returns the window's base.
unsigned char* zeroed_window(remora_win_t win, int target) {
  unsigned char* base = nullptr;
  REQUIRE_OK(remora_win_base(win, reinterpret_cast<void**>(&base)));
  if (rank_ == target) std::memset(base, 0, kWindowBytes);
  REQUIRE_OK(remora_win_sync(win));
  REQUIRE_OK(remora_barrier());
  return base;
}

// Sums origin onto the doubles at disp: accumulate in even rounds, get_accumulate in odd ones.
void sum_onto(remora_win_t win, int target, size_t disp, const std::vector<double>& origin,
              std::vector<double>& previous, int round) {
  if (round % 2 == 0)
    REQUIRE_OK(remora_win_accumulate(win, target, disp, origin.data(), origin.size(), REMORA_DOUBLE,
                                     REMORA_OP_SUM, nullptr));
  else
    REQUIRE_OK(remora_win_get_accumulate(win, target, disp, origin.data(), previous.data(),
                                         origin.size(), REMORA_DOUBLE, REMORA_OP_SUM, nullptr));
}

// A range of doubles at an unaligned byte offset, over many blocks of a small lock table (it
// wraps around the table, and elements straddle two stripes; with 4 KiB blocks it lies within
// one, the one-element path's case): every rank
// accumulates rank + 1 onto all of it, alternating accumulate and get_accumulate, and adds 1 to
// its first and last elements (the partial blocks at its edges) one element at a time. The sums
// are exact and the bytes around the range stay zero.
void straddling_blocks(remora_win_t win, int target) {
  constexpr size_t kElements = 40, disp = 67, guard = 8;
  static_assert(disp + kElements * sizeof(double) + guard <= kWindowBytes);
  unsigned char* base = zeroed_window(win, target);
  const std::vector<double> origin(kElements, rank_ + 1.0);
  std::vector<double> previous(kElements);
  const double one = 1;
  double old = 0;
  const size_t last = disp + (kElements - 1) * sizeof(double);
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int round = 0; round < kRounds; ++round) {
    sum_onto(win, target, disp, origin, previous, round);
    REQUIRE_OK(
        remora_win_fetch_and_op(win, target, disp, &one, &old, REMORA_DOUBLE, REMORA_OP_SUM));
    REQUIRE_OK(
        remora_win_fetch_and_op(win, target, last, &one, &old, REMORA_DOUBLE, REMORA_OP_SUM));
  }
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  if (rank_ == target) {
    const double sum = kRounds * size_ * (size_ + 1) / 2.0;
    for (size_t i = 0; i < kElements; ++i) {
      double value;
      std::memcpy(&value, base + disp + i * sizeof(double), sizeof value);
      const double edge = i == 0 || i == kElements - 1 ? double{kRounds} * size_ : 0;
      REQUIRE(value == sum + edge, "straddling_blocks: element %zu is %g, not %g", i, value,
              sum + edge);
    }
    for (size_t b = disp - guard; b < disp; ++b)
      REQUIRE(base[b] == 0, "straddling_blocks: byte %zu before the range changed", b);
    for (size_t b = disp + kElements * sizeof(double);
         b < disp + kElements * sizeof(double) + guard; ++b)
      REQUIRE(base[b] == 0, "straddling_blocks: byte %zu after the range changed", b);
  }
  REQUIRE_OK(remora_barrier());
}

// All ranks sum 1, 4, 16 and 64 doubles (8-512 B, acc_bandwidth's small sizes) into the same
// location, with accumulate, get_accumulate and fetch_and_op: with the default table each is
// within one stripe (the one-element path: compare-and-swap, update in place, release store;
// busy stripes fall back to the waiting path), with the small ones it spans several. Rank r
// adds r + 1 each time; the sums are exact and the element after the largest range stays 0.
void small_sums_one_stripe(remora_win_t win, int target) {
  constexpr size_t disp = 128, kMost = 64;
  static_assert(disp + (kMost + 1) * sizeof(double) <= kWindowBytes);
  unsigned char* base = nullptr;
  REQUIRE_OK(remora_win_base(win, reinterpret_cast<void**>(&base)));
  if (rank_ == target) std::memset(base + disp, 0, (kMost + 1) * sizeof(double));
  REQUIRE_OK(remora_win_sync(win));
  REQUIRE_OK(remora_barrier());
  const std::vector<double> origin(kMost, rank_ + 1.0);
  std::vector<double> previous(kMost);
  double old = 0;
  std::vector<long> added(kMost, 0);  // times this rank added to each element
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int round = 0; round < 2 * kRounds; ++round) {
    const size_t count = size_t{1} << (2 * (round % 4));  // 1, 4, 16, 64
    if (count == 1)
      REQUIRE_OK(remora_win_fetch_and_op(win, target, disp, origin.data(), &old, REMORA_DOUBLE,
                                         REMORA_OP_SUM));
    else if (round % 8 < 4)
      REQUIRE_OK(remora_win_accumulate(win, target, disp, origin.data(), count, REMORA_DOUBLE,
                                       REMORA_OP_SUM, nullptr));
    else
      REQUIRE_OK(remora_win_get_accumulate(win, target, disp, origin.data(), previous.data(), count,
                                           REMORA_DOUBLE, REMORA_OP_SUM, nullptr));
    REQUIRE_OK(remora_win_flush(win, target));
    for (size_t i = 0; i < count; ++i) ++added[i];
  }
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  if (rank_ == target) {
    for (size_t i = 0; i <= kMost; ++i) {
      // Every rank made the same calls: element i got added[i] times the sum of r + 1.
      const double want = i < kMost ? static_cast<double>(added[i]) * size_ * (size_ + 1) / 2 : 0;
      double value;
      std::memcpy(&value, base + disp + i * sizeof(double), sizeof value);
      REQUIRE(value == want, "small_sums_one_stripe: element %zu is %g, not %g", i, value, want);
    }
  }
  REQUIRE_OK(remora_barrier());
}

// Every rank sums onto the whole window (all stripes of the small tables: a range that takes
// every stripe at once, waiting on the busy one while another rank holds it) and, between
// those, adds 1 to one element (one stripe) that moves with the round, all on the same bytes.
// Rank r adds r + 1 to every element per whole-window update; the sums are exact.
void whole_window_sums(remora_win_t win, int target) {
  constexpr size_t kElements = kWindowBytes / sizeof(double);
  unsigned char* base = zeroed_window(win, target);
  const std::vector<double> origin(kElements, rank_ + 1.0);
  std::vector<double> previous(kElements);
  const double one = 1;
  double old = 0;
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int round = 0; round < kRounds; ++round) {
    sum_onto(win, target, 0, origin, previous, round);
    const size_t element = static_cast<size_t>(round) % kElements;
    REQUIRE_OK(remora_win_fetch_and_op(win, target, element * sizeof(double), &one, &old,
                                       REMORA_DOUBLE, REMORA_OP_SUM));
  }
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  if (rank_ == target) {
    const double sum = double{kRounds} * size_ * (size_ + 1) / 2.0;
    for (size_t i = 0; i < kElements; ++i) {
      // Element i got one fetch_and_op per rank for each round r < kRounds with r % kElements == i.
      const double ones =
          static_cast<double>(size_) * ((kRounds / kElements) + (i < kRounds % kElements ? 1 : 0));
      double value;
      std::memcpy(&value, base + i * sizeof(double), sizeof value);
      REQUIRE(value == sum + ones, "whole_window_sums: element %zu is %g, not %g", i, value,
              sum + ones);
    }
  }
  REQUIRE_OK(remora_barrier());
}

// Large ranges, updated in place piece by piece (src/rma/accumulate/acc_pieces.hpp: one piece
// of the range's stripes held at a time, each origin starting at its own piece and skipping
// busy ones), overlapping between ranks: rank r sums 1 onto the int64 elements
// [r % 3, r % 3 + span(r)) of a window of kBigBytes, alternating accumulate and
// get_accumulate, and between those adds 1 with fetch_and_op to one element of its range that
// moves with the round. Element i starts at i << 20: the target finds i << 20 plus exactly the
// number of updates that covered it, and every value a get_accumulate returns for element i
// lies in [i << 20, (i + 1) << 20) (a piece's result stored at the wrong place would not).
constexpr size_t kBigBytes = 128 * 1024 + 64;
bool every_rank_maps(int target) {
  for (int r = 0; r < size_; ++r)
    if (remora_rank_node(r) != remora_rank_node(target)) return false;
  return true;
}
// Rounds: many where every rank maps the target (the pieces' path: an update outside its piece's
// stripes failed 1 of 6 runs at 60 rounds, 0 of 4 at 8), few across nodes (through MPI, slow).
int big_rounds(int target) {
  return every_rank_maps(target) ? 100 : 8;
}

// Elements each rank sums: kLargeSpan (two pieces) or kMidSpan (several blocks of the default
// table within one piece: taken all together, or block by block once a stripe is found busy,
// locked_update.cpp), plus 37 per rank.
constexpr size_t kLargeSpan = 100 * 1024 / 8, kMidSpan = 24 * 1024 / 8;
size_t big_span(size_t span, int rank) {
  return span + 37 * static_cast<size_t>(rank);
}
size_t big_first(int rank) {
  return static_cast<size_t>(rank % 3);
}
size_t big_moving(size_t span, int rank, int round) {
  return (997 * static_cast<size_t>(rank) + 131 * static_cast<size_t>(round)) %
         big_span(span, rank);
}

void large_overlapping_sums(remora_win_t win, int target, size_t base_span) {
  constexpr size_t kElements = kBigBytes / 8;
  static_assert(2 + kLargeSpan + 37 * 8 < kElements);
  int64_t* base = nullptr;
  REQUIRE_OK(remora_win_base(win, reinterpret_cast<void**>(&base)));
  if (rank_ == target)
    for (size_t i = 0; i < kElements; ++i) base[i] = static_cast<int64_t>(i) << 20;
  REQUIRE_OK(remora_win_sync(win));
  REQUIRE_OK(remora_barrier());
  const size_t first = big_first(rank_), span = big_span(base_span, rank_);
  const std::vector<int64_t> ones(span, 1);
  std::vector<int64_t> previous(span);
  const int64_t one = 1;
  int64_t old = 0;
  REQUIRE_OK(remora_win_lock_all(win, 0));
  const int rounds = big_rounds(target);
  for (int round = 0; round < rounds; ++round) {
    if (round % 2 == 0) {
      REQUIRE_OK(remora_win_accumulate(win, target, 8 * first, ones.data(), span, REMORA_INT64,
                                       REMORA_OP_SUM, nullptr));
    } else {
      REQUIRE_OK(remora_win_get_accumulate(win, target, 8 * first, ones.data(), previous.data(),
                                           span, REMORA_INT64, REMORA_OP_SUM, nullptr));
      REQUIRE_OK(remora_win_flush(win, target));
      for (size_t j = 0; j < span; ++j)
        REQUIRE(previous[j] >> 20 == static_cast<int64_t>(first + j),
                "large_overlapping_sums: get_accumulate returned %lld for element %zu",
                (long long)previous[j], first + j);
    }
    REQUIRE_OK(remora_win_fetch_and_op(win, target,
                                       8 * (first + big_moving(base_span, rank_, round)), &one,
                                       &old, REMORA_INT64, REMORA_OP_SUM));
  }
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  if (rank_ == target) {
    std::vector<int64_t> want(kElements);
    for (size_t i = 0; i < kElements; ++i) want[i] = static_cast<int64_t>(i) << 20;
    for (int r = 0; r < size_; ++r) {
      for (size_t j = 0; j < big_span(base_span, r); ++j) want[big_first(r) + j] += rounds;
      for (int round = 0; round < rounds; ++round)
        ++want[big_first(r) + big_moving(base_span, r, round)];
    }
    for (size_t i = 0; i < kElements; ++i)
      REQUIRE(base[i] == want[i], "large_overlapping_sums: element %zu is %lld, not %lld", i,
              (long long)base[i], (long long)want[i]);
  }
  REQUIRE_OK(remora_barrier());
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  rank_ = remora_rank();
  size_ = remora_size();
  // The default lock table, and small ones whose stripes are narrower than an accumulate
  // (ranges wrap around the table), with a stripe count that is a power of two (stripes by
  // shift and mask) and one that is not (by division).
  for (const char* info :
       {static_cast<const char*>(nullptr), "acc_lock_stripes=3,acc_lock_granularity=16",
        "acc_lock_stripes=4,acc_lock_granularity=16"}) {
    remora_win_t win;
    REQUIRE_OK(remora_win_allocate(kWindowBytes, 1, info, nullptr, &win));
    const int target = size_ - 1;
    every_op(win, target);
    overlapping_ranges(win, 0);
    mixed_sizes(win, target);
    mixed_one_element_ops(win, target);
    get_accumulate_sees_each_state_once(win, target);
    replace_is_exchange(win, target);
    atomic_read_races_replace(win, 0);
    straddling_blocks(win, target);
    small_sums_one_stripe(win, target);
    whole_window_sums(win, 0);
    REQUIRE_OK(remora_win_free(&win));
  }
  // Ranges of several pieces (two of 64 KiB, acc_pieces.hpp): the default table, and one whose
  // granularity (1002 bytes: pieces of 66 stripes, 66,132 bytes, not a multiple of the element)
  // cuts a piece inside an element and whose 64 stripes (62.6 KiB) a range wraps around.
  for (const char* info :
       {static_cast<const char*>(nullptr), "acc_lock_stripes=64,acc_lock_granularity=1002"}) {
    remora_win_t win;
    REQUIRE_OK(remora_win_allocate(kBigBytes, 1, info, nullptr, &win));
    large_overlapping_sums(win, size_ - 1, kLargeSpan);
    // Block by block only where the target is mapped (across nodes: the same path as before).
    if (every_rank_maps(0)) large_overlapping_sums(win, 0, kMidSpan);
    REQUIRE_OK(remora_win_free(&win));
  }
  REQUIRE_OK(remora_finalize());
  return 0;
}
