// fetch_and_op (and get_accumulate of one element without alpha, which takes the same inline
// path) of every element type and every op that applies to it, from every rank onto the same
// element of every target at once, with the strategy of REMORA_ACC_STRATEGY, on windows with
// an immediate and with a deferred lock, in lock_all epochs and in shared lock epochs per target
// (a deferred one begins with a put, which takes the word, so that its fetches run at once).
// Every fetched value is logged to the target, which checks them all against values computed
// here (docs/rma.md, "A few elements"):
//   * SUM of 1, PROD by a constant and REPLACE by distinct values: the fetched values and the
//     final one are exactly the states the element went through (a lost or torn update shows
//     as a value twice or a value missing);
//   * MIN, MAX, BAND, BOR, LAND, LOR: the final value is the fold of every operand, and each
//     origin's fetched values only grow in the op's order, each past its own previous operand;
//   * BXOR, LXOR: the final value is the fold of every operand;
//   * NO_OP (a read, origin NULL) by odd ranks racing SUMs of 1 by even ranks: the final sum
//     exact, every read between the initial and the final value, each origin's reads ordered;
//   * fetch_and_op SUMs racing accumulates of a two-element range over the same element (the
//     lock table's range path): exact totals.
#include <algorithm>
#include <array>
#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "multirank.hpp"

namespace {

int rank_ = 0, size_ = 1;
constexpr int kRounds = 4;
constexpr size_t kElement = 16;        // bytes per element slot (the largest type)
constexpr int kOps = REMORA_OP_NO_OP;  // SUM .. NO_OP (fetch_and_op takes no SCALED_SUM)
constexpr int kTypes = REMORA_DOUBLE_COMPLEX;

using Bytes = std::array<unsigned char, kElement>;

template <typename T>
Bytes bytes_of(T value) {
  Bytes b{};
  std::memcpy(b.data(), &value, sizeof(T));
  return b;
}
template <typename T>
T value_of(const unsigned char* at) {
  T value;
  std::memcpy(&value, at, sizeof(T));
  return value;
}

template <typename T>
constexpr bool kComplex = !std::is_arithmetic_v<T>;

// An element of value v (complex: v + 0i).
template <typename T>
T make(int v) {
  if constexpr (kComplex<T>)
    return T(static_cast<typename T::value_type>(v));
  else
    return static_cast<T>(v);
}

template <typename T>
bool applies(int op) {
  if (op >= REMORA_OP_BAND && op <= REMORA_OP_LXOR) return std::is_integral_v<T>;
  if (op == REMORA_OP_MIN || op == REMORA_OP_MAX) return !kComplex<T>;
  return true;
}

// The element after `target op source`, as MPI defines it (integers wrap).
template <typename T>
T apply(int op, T target, T source) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    switch (op) {
      case REMORA_OP_SUM:
        return static_cast<T>(
            static_cast<U>(static_cast<uint64_t>(static_cast<U>(target)) + static_cast<U>(source)));
      case REMORA_OP_PROD:
        return static_cast<T>(
            static_cast<U>(static_cast<uint64_t>(static_cast<U>(target)) * static_cast<U>(source)));
      case REMORA_OP_MIN:
        return std::min(target, source);
      case REMORA_OP_MAX:
        return std::max(target, source);
      case REMORA_OP_BAND:
        return static_cast<T>(target & source);
      case REMORA_OP_BOR:
        return static_cast<T>(target | source);
      case REMORA_OP_BXOR:
        return static_cast<T>(target ^ source);
      case REMORA_OP_LAND:
        return static_cast<T>(target != 0 && source != 0);
      case REMORA_OP_LOR:
        return static_cast<T>(target != 0 || source != 0);
      case REMORA_OP_LXOR:
        return static_cast<T>((target != 0) != (source != 0));
      default:
        break;
    }
  } else {
    switch (op) {
      case REMORA_OP_SUM:
        return target + source;
      case REMORA_OP_PROD:
        return target * source;
      default:
        break;
    }
    if constexpr (!kComplex<T>) {
      if (op == REMORA_OP_MIN) return std::min(target, source);
      if (op == REMORA_OP_MAX) return std::max(target, source);
    }
  }
  return op == REMORA_OP_REPLACE ? source : target;  // NO_OP
}

// Which op a rank issues in the test of `op`: the NO_OP test races even ranks' SUMs.
int op_of(int op, int origin) {
  return op == REMORA_OP_NO_OP && origin % 2 == 0 ? REMORA_OP_SUM : op;
}

template <typename T>
T initial(int op) {
  const int states = size_ * kRounds;
  switch (op) {
    case REMORA_OP_PROD:
    case REMORA_OP_LAND:
      return make<T>(1);
    case REMORA_OP_MIN:
      return make<T>(states + 1);
    case REMORA_OP_NO_OP:
      return make<T>(5);
    default:
      break;
  }
  if constexpr (std::is_integral_v<T>)
    if (op == REMORA_OP_BAND) return static_cast<T>(~T{0});
  return make<T>(0);
}

// Origin r's operand in round k.
template <typename T>
T operand(int op, int origin, int round) {
  const int serial = origin * kRounds + round;  // distinct over every origin and round
  switch (op) {
    case REMORA_OP_SUM:
    case REMORA_OP_NO_OP:
    case REMORA_OP_LXOR:
      return make<T>(1);
    case REMORA_OP_PROD:
      if constexpr (kComplex<T>)
        return T(0, 1);  // i: the states cycle through 1, i, -1, -i exactly
      else if constexpr (std::is_integral_v<T>)
        return make<T>(3);
      else
        return make<T>(2);  // powers of two are exact
    case REMORA_OP_MIN:
    case REMORA_OP_MAX:
    case REMORA_OP_REPLACE:
      return make<T>(serial + 1);
    case REMORA_OP_LAND:
      return make<T>(serial == 0 ? 0 : 2);
    case REMORA_OP_LOR:
      return make<T>(serial == size_ * kRounds - 1 ? 3 : 0);
    default:
      break;
  }
  if constexpr (std::is_integral_v<T>) {
    constexpr int kBits = 8 * sizeof(T);
    const T bit = static_cast<T>(T{1} << (serial % kBits));
    if (op == REMORA_OP_BOR) return bit;
    if (op == REMORA_OP_BAND) return static_cast<T>(~bit);
    if (op == REMORA_OP_BXOR) return static_cast<T>(T{1} << (origin % kBits));
  }
  return make<T>(0);
}

// Element slot of (type, op) in the data window; after them one scratch slot for the puts
// that take the deferred lock word, and the two elements of the mixed test.
size_t slot(int type, int op) {
  return (static_cast<size_t>(type - 1) * kOps + static_cast<size_t>(op - 1)) * kElement;
}
constexpr size_t kSlots = static_cast<size_t>(kTypes) * kOps;
constexpr size_t kScratch = kSlots * kElement;
constexpr size_t kMixed = kScratch + 64;
constexpr size_t kDataBytes = kMixed + 64;
// Log: per (type, op) slot, per origin and round, the fetched value.
size_t log_at(size_t slot_index, int origin, int round) {
  return ((slot_index * static_cast<size_t>(size_) + static_cast<size_t>(origin)) * kRounds +
          static_cast<size_t>(round)) *
         kElement;
}
size_t log_bytes() {
  return log_at(kSlots, 0, 0);
}

template <typename T>
double key(T value) {
  if constexpr (kComplex<T>)
    return static_cast<double>(value.real());
  else
    return static_cast<double>(value);
}

const char* const kTypeNames[] = {"?",      "INT8",          "INT16",         "INT32",  "INT64",
                                  "UINT8",  "UINT16",        "UINT32",        "UINT64", "FLOAT",
                                  "DOUBLE", "FLOAT_COMPLEX", "DOUBLE_COMPLEX"};

// This rank's checks of its element (type T, op) after every origin's fetches.
template <typename T>
void check(int type, int op, const unsigned char* data, const unsigned char* logged) {
  const size_t s = slot(type, op) / kElement;
  const T final_value = value_of<T>(data + slot(type, op));
  const T init = initial<T>(op);
  auto got = [&](int origin, int round) { return value_of<T>(logged + log_at(s, origin, round)); };
  const char* name = kTypeNames[type];
  // The fold of every operand (order-independent for every op but REPLACE).
  if (op != REMORA_OP_REPLACE) {
    T fold = init;
    for (int r = 0; r < size_; ++r)
      for (int k = 0; k < kRounds; ++k) fold = apply(op_of(op, r), fold, operand<T>(op, r, k));
    REQUIRE(bytes_of(fold) == bytes_of(final_value), "%s op %d: final %g, want %g", name, op,
            key(final_value), key(fold));
  }
  if (op == REMORA_OP_SUM || op == REMORA_OP_PROD || op == REMORA_OP_REPLACE) {
    // The states: the fetched values and the final one, as multisets.
    std::vector<Bytes> seen{bytes_of(final_value)}, states{bytes_of(init)};
    T state = init;
    for (int r = 0; r < size_; ++r)
      for (int k = 0; k < kRounds; ++k) {
        seen.push_back(bytes_of(got(r, k)));
        if (op == REMORA_OP_REPLACE) {
          states.push_back(bytes_of(operand<T>(op, r, k)));
        } else {
          state = apply(op, state, operand<T>(op, 0, 0));
          states.push_back(bytes_of(state));
        }
      }
    std::sort(seen.begin(), seen.end());
    std::sort(states.begin(), states.end());
    for (size_t i = 0; i < seen.size(); ++i)
      REQUIRE(seen[i] == states[i],
              "%s op %d: the fetched values are not the element's states "
              "(a lost or torn update); final %g",
              name, op, key(final_value));
  }
  const bool lattice = op == REMORA_OP_MIN || op == REMORA_OP_MAX || op == REMORA_OP_BAND ||
                       op == REMORA_OP_BOR || op == REMORA_OP_LAND || op == REMORA_OP_LOR;
  for (int r = 0; r < size_; ++r)
    for (int k = 0; k < kRounds; ++k) {
      const T mine = got(r, k);
      if (lattice) {
        // x is at least y in the op's order iff x op y == x.
        REQUIRE(bytes_of(apply(op, final_value, mine)) == bytes_of(final_value),
                "%s op %d: origin %d round %d fetched %g, beyond the final %g", name, op, r, k,
                key(mine), key(final_value));
        if (k + 1 < kRounds) {
          const T after = apply(op, mine, operand<T>(op, r, k));
          REQUIRE(bytes_of(apply(op, got(r, k + 1), after)) == bytes_of(got(r, k + 1)),
                  "%s op %d: origin %d fetched %g after its update to %g", name, op, r,
                  key(got(r, k + 1)), key(after));
        }
      }
      if (op == REMORA_OP_NO_OP) {
        REQUIRE(key(mine) >= key(init) && key(mine) <= key(final_value),
                "%s NO_OP/SUM: origin %d round %d fetched %g outside [%g, %g]", name, r, k,
                key(mine), key(init), key(final_value));
        if (k + 1 < kRounds)
          REQUIRE(key(got(r, k + 1)) >= key(mine) + (r % 2 == 0 ? 1 : 0),
                  "%s NO_OP/SUM: origin %d fetched %g after %g", name, r, key(got(r, k + 1)),
                  key(mine));
      }
    }
}

// Calls visit(T{}, type) for every element type.
template <typename Visit>
void for_each_type(Visit&& visit) {
  visit(int8_t{}, REMORA_INT8);
  visit(int16_t{}, REMORA_INT16);
  visit(int32_t{}, REMORA_INT32);
  visit(int64_t{}, REMORA_INT64);
  visit(uint8_t{}, REMORA_UINT8);
  visit(uint16_t{}, REMORA_UINT16);
  visit(uint32_t{}, REMORA_UINT32);
  visit(uint64_t{}, REMORA_UINT64);
  visit(float{}, REMORA_FLOAT);
  visit(double{}, REMORA_DOUBLE);
  visit(std::complex<float>{}, REMORA_FLOAT_COMPLEX);
  visit(std::complex<double>{}, REMORA_DOUBLE_COMPLEX);
}

// One round of this rank's fetches to target t (every type and op), results into fetched and
// operands from operands (at the same offsets): a deferred lock performs the operations at
// unlock from the origin buffers, which must live until then.
void fetch_round(remora_win_t win, int t, int round, std::vector<unsigned char>* fetched,
                 std::vector<unsigned char>* operands) {
  for_each_type([&]([[maybe_unused]] auto zero, int type) {
    using T = decltype(zero);
    for (int op = REMORA_OP_SUM; op <= REMORA_OP_NO_OP; ++op) {
      if (!applies<T>(op)) continue;
      const int issued = op_of(op, rank_);
      const size_t at =
          static_cast<size_t>(t) * log_bytes() + log_at(slot(type, op) / kElement, rank_, round);
      const T value = operand<T>(op, rank_, round);
      std::memcpy(operands->data() + at, &value, sizeof(T));
      const void* origin = issued == REMORA_OP_NO_OP ? nullptr : operands->data() + at;
      void* result = fetched->data() + at;
      const auto data_type = static_cast<remora_datatype_t>(type);
      const auto data_op = static_cast<remora_op_t>(issued);
      if (round % 2 == 0)
        REQUIRE_OK(
            remora_win_fetch_and_op(win, t, slot(type, op), origin, result, data_type, data_op));
      else
        REQUIRE_OK(remora_win_get_accumulate(win, t, slot(type, op), origin, result, 1, data_type,
                                             data_op, nullptr));
    }
  });
  // The mixed elements: a fetch_and_op SUM of 1 on the first, then an accumulate of 1 onto
  // both (the range path), racing every other rank's.
  static const int64_t one = 1, ones[2] = {1, 1};
  static int64_t ignored = 0;
  REQUIRE_OK(remora_win_fetch_and_op(win, t, kMixed, &one, &ignored, REMORA_INT64, REMORA_OP_SUM));
  REQUIRE_OK(remora_win_accumulate(win, t, kMixed, ones, 2, REMORA_INT64, REMORA_OP_SUM, nullptr));
}

// One run: a window with `info`, every rank's fetches to every target in the epoch form given,
// then the logs to the targets and the checks.
void run(const char* info, bool lock_all) {
  unsigned char* data = nullptr;
  remora_win_t win = nullptr;
  REQUIRE_OK(remora_win_allocate(kDataBytes, 1, info, reinterpret_cast<void**>(&data), &win));
  unsigned char* logged = nullptr;
  remora_win_t log_win = nullptr;
  REQUIRE_OK(remora_win_allocate(log_bytes(), 1, "lock=immediate",
                                 reinterpret_cast<void**>(&logged), &log_win));
  for_each_type([&]([[maybe_unused]] auto zero, int type) {
    using T = decltype(zero);
    for (int op = REMORA_OP_SUM; op <= REMORA_OP_NO_OP; ++op) {
      const T init = initial<T>(op);
      std::memcpy(data + slot(type, op), &init, sizeof(T));
    }
  });
  std::memset(data + kMixed, 0, 16);
  REQUIRE_OK(remora_win_sync(win));
  REQUIRE_OK(remora_barrier());
  // Per target, a log of its own whose rows of this rank receive this rank's fetched values.
  std::vector<unsigned char> fetched(log_bytes() * static_cast<size_t>(size_));
  std::vector<unsigned char> operands(fetched.size());
  const int64_t mark = rank_;
  if (lock_all) REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int round = 0; round < kRounds; ++round)
    for (int step = 0; step < size_; ++step) {
      const int t = (rank_ + step) % size_;
      if (!lock_all) {
        REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, t, 0));
        // A deferred epoch takes the word at its first put: the fetches then run at once.
        REQUIRE_OK(remora_win_put(win, t, kScratch + 8 * static_cast<size_t>(rank_ % 4), &mark, 1,
                                  REMORA_INT64));
      }
      fetch_round(win, t, round, &fetched, &operands);
      if (!lock_all) REQUIRE_OK(remora_win_unlock(win, t));
    }
  if (lock_all) REQUIRE_OK(remora_win_unlock_all(win));  // deferred results are valid from here
  // Each target's part of the log: this rank's rows of every slot.
  REQUIRE_OK(remora_win_lock_all(log_win, 0));
  for (int t = 0; t < size_; ++t)
    for (size_t s = 0; s < kSlots; ++s)
      REQUIRE_OK(remora_win_put(
          log_win, t, log_at(s, rank_, 0),
          fetched.data() + static_cast<size_t>(t) * log_bytes() + log_at(s, rank_, 0),
          kRounds * kElement, REMORA_UINT8));
  REQUIRE_OK(remora_win_unlock_all(log_win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  REQUIRE_OK(remora_win_sync(log_win));
  for_each_type([&]([[maybe_unused]] auto zero, int type) {
    using T = decltype(zero);
    for (int op = REMORA_OP_SUM; op <= REMORA_OP_NO_OP; ++op)
      if (applies<T>(op)) check<T>(type, op, data, logged);
  });
  const int64_t first = value_of<int64_t>(data + kMixed),
                second = value_of<int64_t>(data + kMixed + 8);
  const int64_t calls = int64_t{kRounds} * size_;
  REQUIRE(first == 2 * calls && second == calls,
          "mixed fetch_and_op and range accumulates: "
          "%lld and %lld, want %lld and %lld",
          (long long)first, (long long)second, (long long)(2 * calls), (long long)calls);
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&log_win));
  REQUIRE_OK(remora_win_free(&win));
}

}  // namespace

int main(int argc, char** argv) {
  remora_test::init(&argc, &argv, &rank_, &size_);
  for (const char* info : {"lock=immediate", "lock=deferred"})
    for (bool lock_all : {true, false}) run(info, lock_all);
  REQUIRE_OK(remora_finalize());
  return 0;
}
