// A seeded random driver of the public C API (remora/win.h, array.h, coll.h) under remorarun.
// Each round picks, from a random stream seeded identically on every rank, what to exercise:
//   windows      allocate or create (sizes and displacement units per rank), then a passive
//                epoch in which each rank issues random puts, gets and accumulates, about
//                half of them made invalid on purpose (bad target, displacement or count past
//                the end or overflowing, NULL buffer, bad type or op, bad alpha, freed or
//                invented handle, operations outside an epoch, conflicting synchronisation);
//   arrays       create (block or cyclic) and random patch puts, gets and accs (blocking and
//                nonblocking) with random, often invalid, bounds and leading dimensions, and
//                collective fills, scales and zero patches with shared random bounds;
//   collectives  a random collective with random counts, types, ops, roots and algorithms,
//                sometimes invalid on every rank or on one rank only.
// Per-rank choices come from a second stream seeded with the seed and the rank.
// Creation with bad arguments is tried on every rank and on one rank only (the library makes
// every rank fail then). Only rank r writes slice r of every window and rows r of every array,
// so each rank keeps an exact shadow copy of what it wrote and checks after a barrier that the
// memory holds exactly that: a rejected operation must not have touched it, an accepted one must
// have done what it says. Every failure must be a REMORA_ERR_* code with a message.
//
//   fuzz_api [--seed S] [--calls N] [--seconds T]
// N: stop after the round in which this rank made N calls (default 4000); T: also stop after
// T seconds (checked at round ends, agreed between the ranks). Prints the seed first and the
// calls and rejections per kind at the end (rank 0).
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "multirank.hpp"

namespace {

int rank_, size_;
uint64_t seed_ = 1;
long round_ = 0;

struct Rng {
  uint64_t state;
  uint64_t next() {  // splitmix64
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return n == 0 ? 0 : next() % n; }
  bool chance(int percent) { return below(100) < static_cast<uint64_t>(percent); }
  template <typename T, size_t N>
  T pick(const T (&items)[N]) {
    return items[below(N)];
  }
};

Rng shared_;  // the same sequence on every rank
Rng local_;   // this rank's own

// ---- Call accounting and checks ----

enum Kind {
  kWinCreate,
  kWinFree,
  kWinLock,
  kWinUnlock,
  kWinFlush,
  kWinPut,
  kWinGet,
  kWinAcc,
  kWinGetAcc,
  kWinFetchOp,
  kWinCas,
  kWinRput,
  kWinQuery,
  kArrCreate,
  kArrDestroy,
  kArrPut,
  kArrGet,
  kArrAcc,
  kArrNb,
  kArrWait,
  kArrColl,
  kArrSync,
  kColl,
  kKinds
};
const char* const kKindNames[kKinds] = {"win_create",
                                        "win_free",
                                        "win_lock",
                                        "win_unlock",
                                        "win_flush",
                                        "win_put",
                                        "win_get",
                                        "win_accumulate",
                                        "win_get_accumulate",
                                        "win_fetch_and_op",
                                        "win_compare_and_swap",
                                        "win_rput",
                                        "win_query",
                                        "array_create",
                                        "array_destroy",
                                        "array_put",
                                        "array_get",
                                        "array_acc",
                                        "array_nb",
                                        "array_wait",
                                        "array_collective",
                                        "array_sync",
                                        "collective"};
long calls_[kKinds], rejected_[kKinds];
long total_calls_ = 0;
int mutation_ = -1;       // the last mutation applied (in failure reports)
char context_[200] = "";  // what the current round does (in failure reports)
bool trace_ = false;      // FUZZ_TRACE=1: every window operation on stderr

// What a call must return: success, or one of the codes in the mask (bit -code), or either.
enum class Expect { Ok, Fail, Either };
constexpr unsigned bit(int code) {
  return 1u << static_cast<unsigned>(-code);
}
constexpr unsigned kAnyError = ~1u;

[[noreturn]] void failed(int line, const char* what, const char* detail) {
  char message[1400];
  std::snprintf(message, sizeof message,
                "fuzz_api: seed %llu, round %ld, rank %d, call %ld, mutation %d, %s "
                "(fuzz_api.cpp:%d): %s: %s",
                static_cast<unsigned long long>(seed_), round_, rank_, total_calls_, mutation_,
                context_, line, what, detail);
  remora_abort(1, message);
  std::abort();
}

// Records the call and checks its result; returns true when it succeeded.
bool check_call(int line, Kind kind, const char* what, int rc, Expect expect,
                unsigned codes = kAnyError) {
  ++calls_[kind];
  ++total_calls_;
  if (rc >= 0) {
    if (expect == Expect::Fail) {
      char detail[256];
      std::snprintf(detail, sizeof detail, "succeeded (%d), expected an error", rc);
      failed(line, what, detail);
    }
    return true;
  }
  ++rejected_[kind];
  const char* message = remora_last_error();
  char detail[1100];
  if (rc < REMORA_ERR_INTERNAL || rc == REMORA_ERR_INTERNAL) {
    std::snprintf(detail, sizeof detail, "returned %d (%s): %s", rc, remora_strerror(rc), message);
    failed(line, what, detail);
  }
  if (message == nullptr || message[0] == '\0') failed(line, what, "error without a message");
  if (expect == Expect::Ok) {
    std::snprintf(detail, sizeof detail, "failed: %s (%s)", remora_strerror(rc), message);
    failed(line, what, detail);
  }
  if ((codes & bit(rc)) == 0) {
    std::snprintf(detail, sizeof detail, "failed with unexpected %s: %s", remora_strerror(rc),
                  message);
    failed(line, what, detail);
  }
  return false;
}

#define CALL(kind, expect, codes, call) check_call(__LINE__, kind, #call, (call), expect, codes)
#define CHECK(condition, ...)                              \
  do {                                                     \
    if (!(condition)) {                                    \
      char detail_[512];                                   \
      std::snprintf(detail_, sizeof detail_, __VA_ARGS__); \
      failed(__LINE__, #condition, detail_);               \
    }                                                      \
  } while (0)

// memcpy and memcmp that take a null pointer with a length of 0 (an empty slice's data()).
void copy_bytes(void* to, const void* from, size_t n) {
  if (n > 0) std::memcpy(to, from, n);
}
int compare_bytes(const void* a, const void* b, size_t n) {
  return n > 0 ? std::memcmp(a, b, n) : 0;
}

// ---- Element arithmetic on byte images (the shadow copies) ----

size_t type_size(remora_datatype_t type) {
  size_t bytes = 0;
  REQUIRE_OK(remora_datatype_size(type, &bytes));
  return bytes;
}

// A small value of type, exact in every type used here.
void make_value(remora_datatype_t type, long v, void* out) {
  switch (type) {
    case REMORA_UINT8: {
      uint8_t x = static_cast<uint8_t>(v);
      copy_bytes(out, &x, 1);
      break;
    }
    case REMORA_INT32: {
      int32_t x = static_cast<int32_t>(v);
      copy_bytes(out, &x, 4);
      break;
    }
    case REMORA_INT64: {
      int64_t x = v;
      copy_bytes(out, &x, 8);
      break;
    }
    case REMORA_DOUBLE: {
      double x = static_cast<double>(v);
      copy_bytes(out, &x, 8);
      break;
    }
    default:
      std::abort();
  }
}

template <typename T>
T apply_op(remora_op_t op, T target, T origin, T alpha) {
  switch (op) {
    case REMORA_OP_SUM:
      return static_cast<T>(target + origin);
    case REMORA_OP_PROD:
      return static_cast<T>(target * origin);
    case REMORA_OP_MAX:
      return target > origin ? target : origin;
    case REMORA_OP_MIN:
      return target < origin ? target : origin;
    case REMORA_OP_REPLACE:
      return origin;
    case REMORA_OP_NO_OP:
      return target;
    case REMORA_OP_SCALED_SUM:
      return static_cast<T>(target + alpha * origin);
    case REMORA_OP_BXOR:
      if constexpr (std::is_integral_v<T>) return static_cast<T>(target ^ origin);
      [[fallthrough]];
    default:
      std::abort();
  }
}

template <typename T>
void apply_typed(remora_op_t op, unsigned char* target, const unsigned char* origin,
                 const void* alpha) {
  T t, o, a{};
  copy_bytes(&t, target, sizeof t);
  copy_bytes(&o, origin, sizeof o);
  if (alpha != nullptr) copy_bytes(&a, alpha, sizeof a);
  t = apply_op<T>(op, t, o, a);
  copy_bytes(target, &t, sizeof t);
}

void apply_element(remora_datatype_t type, remora_op_t op, unsigned char* target,
                   const unsigned char* origin, const void* alpha) {
  switch (type) {
    case REMORA_UINT8:
      return apply_typed<uint8_t>(op, target, origin, alpha);
    case REMORA_INT32:
      return apply_typed<int32_t>(op, target, origin, alpha);
    case REMORA_INT64:
      return apply_typed<int64_t>(op, target, origin, alpha);
    case REMORA_DOUBLE:
      return apply_typed<double>(op, target, origin, alpha);
    default:
      std::abort();
  }
}

// The bytes from the first one where a and b differ (up to 16).
std::string diff(const unsigned char* a, const unsigned char* b, size_t n) {
  size_t i = 0;
  while (i < n && a[i] == b[i]) ++i;
  std::string s = "first difference at byte " + std::to_string(i) + ": ";
  char x[4];
  for (size_t k = i; k < n && k < i + 16; ++k) std::snprintf(x, sizeof x, "%02x", a[k]), s += x;
  s += " vs ";
  for (size_t k = i; k < n && k < i + 16; ++k) std::snprintf(x, sizeof x, "%02x", b[k]), s += x;
  return s;
}

std::string hex(const unsigned char* p, size_t n) {
  std::string s;
  char b[4];
  for (size_t i = 0; i < n && i < 32; ++i) {
    std::snprintf(b, sizeof b, "%02x", p[i]);
    s += b;
  }
  return s;
}

// A pointer that is no handle of any kind (the library must look handles up, not use them).
void* invented_handle() {
  static uint64_t junk[8];
  return &junk[local_.below(8)];
}

// ---- Windows ----

struct WinState {
  remora_win_t win = nullptr;
  size_t disp_unit = 1;
  std::vector<size_t> bytes;                      // per rank
  std::vector<std::vector<unsigned char>> slice;  // my slice of each rank's window: the shadow
  std::vector<size_t> slice_start;                // its byte offset there
};

remora_win_t stale_win_ = nullptr;  // a freed window handle

void slice_of(size_t bytes, int r, size_t* start, size_t* length) {
  const size_t units = bytes / 8;
  const size_t lo = units * static_cast<size_t>(r) / static_cast<size_t>(size_);
  const size_t hi = units * static_cast<size_t>(r + 1) / static_cast<size_t>(size_);
  *start = lo * 8;
  *length = (hi - lo) * 8;
}

// Collective creation with bad arguments on every rank or on one rank: every rank must fail.
void window_creation_misuse() {
  const int bad = shared_.chance(50) ? -1 : static_cast<int>(shared_.below(size_));
  const bool mine = bad < 0 || bad == rank_;
  const int how = static_cast<int>(shared_.below(5));
  const bool create = shared_.chance(30);
  size_t bytes = 64, disp_unit = 8;
  const char* info = nullptr;
  remora_win_t win = nullptr;
  remora_win_t* out = &win;
  void* base = nullptr;
  static int64_t memory[8];
  if (mine) {
    switch (how) {
      case 0:
        disp_unit = 0;
        break;
      case 1:
        bytes = SIZE_MAX - local_.below(4);
        break;
      case 2:
        info = local_.chance(50) ? "acc_strategy=magic" : "strict=1,colour=blue";
        break;
      case 3:
        out = nullptr;
        break;
      default:
        disp_unit = SIZE_MAX;
        break;
    }
  }
  if (create && mine && how == 1) bytes = 64;  // and base NULL below
  const int rc =
      create ? remora_win_create(mine && how == 1 ? nullptr : memory, bytes, disp_unit, info, out)
             : remora_win_allocate(bytes, disp_unit, info, &base, out);
  check_call(__LINE__, kWinCreate,
             create ? "remora_win_create (misuse)" : "remora_win_allocate (misuse)", rc,
             Expect::Fail, bit(REMORA_ERR_ARG));
  CHECK(win == nullptr, "a failed creation set *win=%p", static_cast<void*>(win));
  char culprit[32];
  std::snprintf(culprit, sizeof culprit, "rank %d", bad);
  if (!mine)
    CHECK(std::strstr(remora_last_error(), culprit) != nullptr,
          "message \"%s\" does not name %s, which passed invalid arguments", remora_last_error(),
          culprit);
}

struct WinOp {
  remora_win_t win;
  int target;
  size_t disp;
  size_t count;
  remora_datatype_t type;
  remora_op_t op;
  const void* origin;
  void* result;
  const void* alpha;
  unsigned codes;  // for a mutated op: the errors allowed; 0: valid
};

// Makes op invalid in one random way; returns the errors it may be rejected with.
// accumulate: op (and alpha, if takes_alpha) are arguments; uses_origin / needs_result: the
// call reads origin / writes result.
unsigned mutate(WinState& w, WinOp& op, bool accumulate, bool takes_alpha, bool uses_origin,
                bool needs_result, bool single) {
  const size_t target_bytes = w.bytes[static_cast<size_t>(op.target)];
  do {
    mutation_ = static_cast<int>(local_.below(accumulate ? 12 : 9));
  } while ((single && mutation_ == 3) ||  // fetch_and_op and compare_and_swap take no count
           (mutation_ == 4 && !uses_origin && !needs_result));  // no buffer to take away
  switch (mutation_) {
    case 0: {
      const int targets[] = {size_, -1, INT_MIN, INT_MAX, size_ + 7};
      op.target = local_.pick(targets);
      return bit(REMORA_ERR_RANK);
    }
    case 1:  // displacement just past, or far past, the end
      op.disp = target_bytes / w.disp_unit + 1 + local_.below(3);
      if (op.count == 0) op.count = 1;
      return bit(REMORA_ERR_RANGE);
    case 2: {
      const size_t huge[] = {SIZE_MAX, SIZE_MAX - 7, SIZE_MAX / 2 + 1,
                             w.disp_unit > 1 ? SIZE_MAX / w.disp_unit + 1 : SIZE_MAX - 1,
                             static_cast<size_t>(-1) / 8 + 1};
      op.disp = local_.pick(huge);
      return bit(REMORA_ERR_RANGE);
    }
    case 3: {  // count past the end, or overflowing count * size
      const size_t ts = type_size(op.type);
      const size_t counts[] = {target_bytes / ts + 1, SIZE_MAX,
                               ts > 1 ? SIZE_MAX / ts + 1 : SIZE_MAX, SIZE_MAX / 2};
      op.count = local_.pick(counts);
      if (op.count == 0) op.count = 1;
      return bit(REMORA_ERR_RANGE) | bit(REMORA_ERR_ARG);
    }
    case 4:
      if (op.count == 0) op.count = 1;
      if (needs_result && (!uses_origin || local_.chance(50)))
        op.result = nullptr;
      else
        op.origin = nullptr;
      return bit(REMORA_ERR_ARG) | bit(REMORA_ERR_RANGE);
    case 5: {
      // Non-negative only: a negative value is outside the C++ enum's range (undefined in this
      // C++ file, UBSan stops it); negative values from C callers are not tried here.
      const int types[] = {0, 13, 99, 1000, INT_MAX};
      op.type = static_cast<remora_datatype_t>(local_.pick(types));
      return bit(REMORA_ERR_ARG) | bit(REMORA_ERR_RANGE);
    }
    case 6:
      op.win = stale_win_ != nullptr && stale_win_ != w.win && local_.chance(60)
                   ? stale_win_
                   : static_cast<remora_win_t>(local_.chance(30) ? nullptr : invented_handle());
      return bit(REMORA_ERR_ARG);
    case 7:
    case 8: {  // several things at once
      op.target = -1 - static_cast<int>(local_.below(3));
      op.disp = SIZE_MAX;
      return bit(REMORA_ERR_RANK) | bit(REMORA_ERR_RANGE);
    }
    case 9: {
      const int ops[] = {0, 14, 99, 1000, INT_MAX};
      op.op = static_cast<remora_op_t>(local_.pick(ops));
      return bit(REMORA_ERR_ARG);
    }
    case 10:  // an op the type does not take, or alpha where it is not wanted / missing
      if (op.type == REMORA_DOUBLE)
        op.op = local_.chance(50) ? REMORA_OP_BAND : REMORA_OP_LXOR;
      else if (!takes_alpha)
        op.op = REMORA_OP_SCALED_SUM;  // not for fetch_and_op
      else if (op.op == REMORA_OP_SCALED_SUM)
        op.alpha = nullptr;
      else
        op.alpha = op.origin != nullptr ? op.origin : &w;
      return bit(REMORA_ERR_ARG);
    default:
      op.type = REMORA_DOUBLE_COMPLEX;
      op.op = REMORA_OP_MAX;
      return bit(REMORA_ERR_ARG) | bit(REMORA_ERR_RANGE);
  }
}

void window_round() {
  WinState w;
  const size_t units[] = {1, 4, 8};
  w.disp_unit = shared_.pick(units);
  w.bytes.resize(static_cast<size_t>(size_));
  for (size_t& b : w.bytes) b = 8 * shared_.below(shared_.chance(10) ? 600 : 40);
  const bool create = shared_.chance(25);
  const char* infos[] = {nullptr,
                         "acc_strategy=native",
                         "acc_strategy=caller",
                         "acc_strategy=owner",
                         "lock=deferred",
                         "acc_strategy=caller,acc_lock_stripes=3"};
  const char* info = shared_.pick(infos);
  std::snprintf(context_, sizeof context_, "window (%s, disp_unit %zu, info %s)",
                create ? "create" : "allocate", w.disp_unit, info ? info : "none");
  const size_t my_bytes = w.bytes[static_cast<size_t>(rank_)];
  std::vector<unsigned char> user(my_bytes + 8);
  void* base = nullptr;
  if (create) {
    base = my_bytes > 0 ? user.data() : nullptr;
    if (base != nullptr) std::memset(base, 0, my_bytes);
    CALL(kWinCreate, Expect::Ok, 0, remora_win_create(base, my_bytes, w.disp_unit, info, &w.win));
  } else {
    CALL(kWinCreate, Expect::Ok, 0,
         remora_win_allocate(my_bytes, w.disp_unit, info, &base, &w.win));
  }
  w.slice.resize(static_cast<size_t>(size_));
  w.slice_start.resize(static_cast<size_t>(size_));
  for (int t = 0; t < size_; ++t) {
    size_t start = 0, length = 0;
    slice_of(w.bytes[static_cast<size_t>(t)], rank_, &start, &length);
    w.slice_start[static_cast<size_t>(t)] = start;
    w.slice[static_cast<size_t>(t)].assign(length, 0);
  }
  // Queries, valid and not.
  {
    size_t bytes = 0;
    const int r = static_cast<int>(local_.below(static_cast<uint64_t>(size_) + 2)) - 1;
    const bool valid = r >= 0 && r < size_;
    if (CALL(kWinQuery, valid ? Expect::Ok : Expect::Fail, bit(REMORA_ERR_RANK),
             remora_win_size(w.win, r, &bytes)))
      CHECK(bytes == w.bytes[static_cast<size_t>(r)], "size %zu of rank %d", bytes, r);
    CALL(kWinQuery, Expect::Fail, bit(REMORA_ERR_ARG), remora_win_size(w.win, 0, nullptr));
  }
  // Outside any epoch every operation is refused.
  {
    int64_t value = 1;
    CALL(kWinPut, Expect::Fail, bit(REMORA_ERR_STATE),
         remora_win_put(w.win, 0, 0, &value, w.bytes[0] >= 8 ? 1 : 0, REMORA_INT64));
    CALL(kWinUnlock, Expect::Fail, bit(REMORA_ERR_STATE), remora_win_unlock_all(w.win));
    CALL(kWinFlush, Expect::Fail, bit(REMORA_ERR_STATE), remora_win_flush_all(w.win));
  }
  CALL(kWinLock, Expect::Ok, 0,
       remora_win_lock_all(w.win, local_.chance(50) ? REMORA_MODE_NOCHECK : 0));
  // Integer types mixed on the same bytes (two's complement: exact), or doubles alone (integer
  // bit patterns read as doubles would be NaNs, whose MIN, MAX and payloads are not defined).
  const remora_datatype_t types[] = {REMORA_INT64, REMORA_INT64, REMORA_INT32, REMORA_UINT8};
  const bool doubles = local_.chance(25);
  const int operations = static_cast<int>(local_.below(60));
  // With lock=deferred, operations wait in a queue that refers to the origin buffer and
  // results arrive at the next flush: every operation gets its own origin buffer, kept until the
  // epoch ends, and results are compared after a flush. Writes that MPI leaves unordered (a put
  // after another write, a read after a write) are separated by a flush; accumulates after
  // accumulates are ordered by the library and are not.
  std::deque<std::vector<unsigned char>> origins;
  std::vector<unsigned char> result(4096);
  std::vector<char> dirty(static_cast<size_t>(size_), 0), dirty_put(static_cast<size_t>(size_), 0);
  for (int i = 0; i < operations; ++i) {
    int kind = static_cast<int>(local_.below(10));
    if (kind == 6 && doubles) kind = 5;  // compare_and_swap takes integers only
    if (kind == 9) {                     // synchronisation misuse inside the epoch
      switch (local_.below(4)) {
        case 0:
          CALL(kWinLock, Expect::Fail, bit(REMORA_ERR_STATE), remora_win_lock_all(w.win, 0));
          break;
        case 1:
          CALL(
              kWinLock, Expect::Fail,
              bit(REMORA_ERR_STATE) | bit(REMORA_ERR_ARG) | bit(REMORA_ERR_RANK),
              remora_win_lock(w.win, static_cast<int>(local_.below(4)),
                              static_cast<int>(local_.below(static_cast<uint64_t>(size_) + 1)), 0));
          break;
        case 2:
          CALL(kWinFlush, Expect::Fail, bit(REMORA_ERR_RANK),
               remora_win_flush(w.win, size_ + static_cast<int>(local_.below(3))));
          break;
        default:
          CALL(kWinFlush, Expect::Ok, 0, remora_win_flush_local_all(w.win));
          break;
      }
      continue;
    }
    const int target = static_cast<int>(local_.below(static_cast<uint64_t>(size_)));
    std::vector<unsigned char>& shadow = w.slice[static_cast<size_t>(target)];
    const size_t slice_start = w.slice_start[static_cast<size_t>(target)];
    remora_datatype_t type = doubles ? REMORA_DOUBLE : local_.pick(types);
    if (kind == 6) {  // compare_and_swap: integer types
      const remora_datatype_t int_types[] = {REMORA_INT64, REMORA_INT32, REMORA_UINT8};
      type = local_.pick(int_types);
    }
    const size_t ts = type_size(type);
    // A valid range inside my slice, aligned to the type and to the displacement unit.
    const size_t step = ts > w.disp_unit ? ts : w.disp_unit;
    size_t offset = 0, count = 0;
    if (shadow.size() >= step) {
      const size_t slots = shadow.size() / step;
      const size_t first = local_.below(slots);
      offset = first * step;
      const size_t room = (shadow.size() - offset) / ts;
      count = local_.below(room < 64 ? room + 1 : 65);
      if (w.disp_unit == 1 && ts > 1 && count > 0 && local_.chance(15) &&
          offset + count * ts < shadow.size())
        offset += 1 + local_.below(ts - 1);  // misaligned: allowed with displacement unit 1
    }
    WinOp op{w.win,
             target,
             (slice_start + offset) / w.disp_unit,
             count,
             type,
             REMORA_OP_SUM,
             origins.emplace_back(1024).data(),
             result.data(),
             nullptr,
             0};
    for (size_t k = 0; k < count; ++k)
      make_value(type, static_cast<long>(local_.below(7)) - 3, &origins.back()[k * ts]);
    const remora_op_t acc_ops[] = {REMORA_OP_SUM,     REMORA_OP_MAX,   REMORA_OP_MIN,
                                   REMORA_OP_REPLACE, REMORA_OP_NO_OP, REMORA_OP_SCALED_SUM,
                                   REMORA_OP_BXOR};
    const bool accumulate = (kind >= 3 && kind <= 5) || kind == 7 || kind == 8;
    if (accumulate) {
      op.op = local_.pick(acc_ops);
      if (op.op == REMORA_OP_BXOR && type == REMORA_DOUBLE) op.op = REMORA_OP_SUM;
      if (kind == 4 && op.op == REMORA_OP_NO_OP) op.op = REMORA_OP_SUM;  // accumulate's NO_OP
      if ((kind == 5 || kind == 6) && op.op == REMORA_OP_SCALED_SUM) op.op = REMORA_OP_SUM;
    }
    unsigned char* alpha = origins.back().data() + 1000;  // lives as long as the origin
    unsigned char* compare = origins.back().data() + 1008;
    if (op.op == REMORA_OP_SCALED_SUM) {
      make_value(type, local_.chance(50) ? 2 : -1, alpha);
      op.alpha = alpha;
    }
    if (kind == 5 || kind == 6) op.count = count > 0 ? 1 : 0;
    if (kind == 8) op.op = REMORA_OP_NO_OP, op.alpha = nullptr, op.origin = nullptr;
    const bool needs_result = kind == 1 || kind == 5 || kind == 6 || kind == 7 || kind == 8;
    const bool bad = local_.chance(50) || (op.count == 0 && (kind == 5 || kind == 6));
    if (!bad) mutation_ = -1;
    if (bad) {
      if (kind == 5 || kind == 6) op.count = 1;
      op.codes =
          mutate(w, op, accumulate, kind != 5, kind != 1 && kind != 8 && op.op != REMORA_OP_NO_OP,
                 needs_result, kind == 5 || kind == 6);
      // fetch_and_op and compare_and_swap on an empty slice: already out of range.
      if ((kind == 5 || kind == 6) && count == 0) op.codes |= bit(REMORA_ERR_RANGE);
    }
    if (!bad && dirty[static_cast<size_t>(target)] &&
        (kind < 3 || kind > 4 || dirty_put[static_cast<size_t>(target)])) {
      CALL(kWinFlush, Expect::Ok, 0, remora_win_flush(w.win, target));
      dirty[static_cast<size_t>(target)] = dirty_put[static_cast<size_t>(target)] = 0;
    }
    std::memset(result.data(), 0xA5, result.size());
    const Expect expect = bad ? Expect::Fail : Expect::Ok;
    if (trace_)
      std::fprintf(stderr,
                   "rank %d: kind %d target %d disp %zu count %zu type %d op %d%s%s (offset %zu, "
                   "slice %zu+%zu)\n",
                   rank_, kind, op.target, op.disp, op.count, op.type, op.op,
                   bad ? " mutated " : "", bad ? std::to_string(mutation_).c_str() : "", offset,
                   slice_start, shadow.size());
    const unsigned codes = bad ? op.codes : 0;
    bool done = false;
    switch (kind) {
      case 0:
        done = CALL(kWinPut, expect, codes,
                    remora_win_put(op.win, op.target, op.disp, op.origin, op.count, op.type));
        break;
      case 1:
        done = CALL(kWinGet, expect, codes,
                    remora_win_get(op.win, op.target, op.disp, op.result, op.count, op.type));
        break;
      case 2: {
        remora_request_t request = REMORA_REQUEST_NULL;
        done = CALL(
            kWinRput, expect, codes,
            remora_win_rput(op.win, op.target, op.disp, op.origin, op.count, op.type, &request));
        if (done)
          CALL(kWinRput, Expect::Ok, 0, remora_request_wait(&request));
        else
          CHECK(request == REMORA_REQUEST_NULL, "failed rput set a request");
        break;
      }
      case 3:
      case 4:
        done = CALL(kWinAcc, expect, codes,
                    remora_win_accumulate(op.win, op.target, op.disp, op.origin, op.count, op.type,
                                          op.op, op.alpha));
        break;
      case 5:
        done = CALL(kWinFetchOp, expect, codes,
                    remora_win_fetch_and_op(op.win, op.target, op.disp, op.origin, op.result,
                                            op.type, op.op));
        break;
      case 6:
        if (local_.chance(50) && !shadow.empty() && offset + ts <= shadow.size())
          copy_bytes(compare, (shadow.data() + (offset)), ts);
        else
          make_value(type, static_cast<long>(local_.below(7)) - 3, compare);
        done = CALL(kWinCas, expect, codes,
                    remora_win_compare_and_swap(op.win, op.target, op.disp, op.origin, compare,
                                                op.result, op.type));
        break;
      case 7:
      case 8:
        done = CALL(kWinGetAcc, expect, codes,
                    remora_win_get_accumulate(op.win, op.target, op.disp, op.origin, op.result,
                                              op.count, op.type, op.op, op.alpha));
        break;
    }
    if (done && needs_result) {  // results are valid after a flush (lock=deferred)
      CALL(kWinFlush, Expect::Ok, 0, remora_win_flush(w.win, target));
      dirty[static_cast<size_t>(target)] = dirty_put[static_cast<size_t>(target)] = 0;
    }
    if (!done) {
      if (needs_result)  // a rejected operation wrote nothing to its result
        for (size_t k = 0; k < 64; ++k)
          CHECK(result[k] == 0xA5, "rejected call wrote result byte %zu", k);
      continue;
    }
    const size_t length = op.count * ts;
    switch (kind) {
      case 6:
        CHECK(compare_bytes(op.result, (shadow.data() + (offset)), ts) == 0,
              "cas previous %s, shadow %s", hex(result.data(), ts).c_str(),
              hex((shadow.data() + (offset)), ts).c_str());
        if (compare_bytes(compare, (shadow.data() + (offset)), ts) == 0)
          copy_bytes((shadow.data() + (offset)), op.origin, ts);
        break;
      case 0:
      case 2:
        copy_bytes((shadow.data() + (offset)), op.origin, length);
        break;
      case 1:
        CHECK(compare_bytes(op.result, (shadow.data() + (offset)), length) == 0,
              "get of %zu bytes at %zu of rank %d: %s, shadow %s", length, slice_start + offset,
              target, diff(result.data(), (shadow.data() + (offset)), length).c_str(), "");
        break;
      case 3:
      case 4:
      case 5:
      case 7:
      case 8:
        if (kind >= 5)
          CHECK(compare_bytes(op.result, (shadow.data() + (offset)), length) == 0,
                "previous values of %zu bytes at %zu of rank %d: %s, shadow %s", length,
                slice_start + offset, target,
                diff(result.data(), (shadow.data() + (offset)), length).c_str(), "");
        for (size_t k = 0; k < op.count; ++k)
          apply_element(type, op.op, (shadow.data() + (offset + k * ts)),
                        op.origin == nullptr
                            ? (shadow.data() + (offset + k * ts))
                            : static_cast<const unsigned char*>(op.origin) + k * ts,
                        op.alpha);
        break;
      default:
        break;
    }
    // Order this write before later operations on the same bytes.
    if (kind == 0 || kind == 2) dirty_put[static_cast<size_t>(target)] = 1;
    if (kind != 1) dirty[static_cast<size_t>(target)] = 1;
  }
  CALL(kWinFree, Expect::Fail, bit(REMORA_ERR_STATE), remora_win_free(&w.win));
  CALL(kWinUnlock, Expect::Ok, 0, remora_win_unlock_all(w.win));
  // Every rank's writes are complete: read my slices back (valid after unlock_all).
  REQUIRE_OK(remora_barrier());
  CALL(kWinLock, Expect::Ok, 0, remora_win_lock_all(w.win, 0));
  std::vector<std::vector<unsigned char>> backs(static_cast<size_t>(size_));
  for (int t = 0; t < size_; ++t) {
    std::vector<unsigned char>& back = backs[static_cast<size_t>(t)];
    back.assign(w.slice[static_cast<size_t>(t)].size() + 1, 0x5A);
    CALL(kWinGet, Expect::Ok, 0,
         remora_win_get(w.win, t, w.slice_start[static_cast<size_t>(t)] / w.disp_unit, back.data(),
                        back.size() - 1, REMORA_UINT8));
  }
  CALL(kWinUnlock, Expect::Ok, 0, remora_win_unlock_all(w.win));
  for (int t = 0; t < size_; ++t) {
    const std::vector<unsigned char>& shadow = w.slice[static_cast<size_t>(t)];
    const std::vector<unsigned char>& back = backs[static_cast<size_t>(t)];
    for (size_t k = 0; k < shadow.size(); ++k)
      CHECK(back[k] == shadow[k], "rank %d's window byte %zu is %02x, shadow %02x", t,
            w.slice_start[static_cast<size_t>(t)] + k, back[k], shadow[k]);
  }
  REQUIRE_OK(remora_barrier());
  CALL(kWinFree, Expect::Fail, bit(REMORA_ERR_ARG), remora_win_free(nullptr));
  if (shared_.chance(30)) {  // a bad handle on one rank only: every rank fails, nothing is freed
    const int bad = static_cast<int>(shared_.below(static_cast<uint64_t>(size_)));
    remora_win_t wrong = stale_win_ != nullptr && stale_win_ != w.win
                             ? stale_win_
                             : static_cast<remora_win_t>(invented_handle());
    CALL(kWinFree, Expect::Fail, bit(REMORA_ERR_ARG),
         remora_win_free(rank_ == bad ? &wrong : &w.win));
    CHECK(w.win != nullptr, "a failed free cleared the handle");
  }
  const remora_win_t before = w.win;
  CALL(kWinFree, Expect::Ok, 0, remora_win_free(&w.win));
  CHECK(w.win == nullptr, "free left the handle set");
  stale_win_ = before;
}

// ---- Arrays ----

remora_array_t stale_array_ = nullptr;

void array_creation_misuse() {
  const int bad = shared_.chance(50) ? -1 : static_cast<int>(shared_.below(size_));
  const bool mine = bad < 0 || bad == rank_;
  int64_t dims[3] = {4, 5, 6};
  int ndim = 2;
  remora_datatype_t type = REMORA_DOUBLE;
  remora_array_t a = nullptr;
  remora_array_t* out = &a;
  const int64_t* dims_arg = dims;
  const int how = static_cast<int>(shared_.below(6));
  if (mine) {
    switch (how) {
      case 0:
        ndim = local_.chance(50) ? 0 : REMORA_ARRAY_MAX_DIM + 1;
        break;
      case 1:
        dims[local_.below(2)] = -static_cast<int64_t>(local_.below(3));
        break;
      case 2:
        type = local_.chance(50) ? REMORA_INT8 : static_cast<remora_datatype_t>(77);
        break;
      case 3:
        dims_arg = nullptr;
        break;
      case 4:
        out = nullptr;
        break;
      default:
        break;
    }
  }
  const bool cyclic = how == 5;
  int grid[2] = {1, 1};
  if (cyclic && mine) grid[0] = size_ + 1;
  const int rc = cyclic ? remora_array_create_element_cyclic(type, dims_arg, grid, "misuse", out)
                        : remora_array_create(type, ndim, dims_arg, "misuse", out);
  check_call(__LINE__, kArrCreate, "remora_array_create (misuse)", rc, Expect::Fail,
             bit(REMORA_ERR_ARG));
  CHECK(a == nullptr, "failed creation set the handle");
  if (!mine)
    CHECK(std::strstr(remora_last_error(), "passed invalid arguments") != nullptr,
          "message \"%s\" does not say that another rank passed invalid arguments",
          remora_last_error());
}

struct ArrState {
  remora_array_t a = nullptr;
  remora_datatype_t type = REMORA_INT64;
  size_t ts = 8;
  int ndim = 1;
  int64_t dims[3] = {1, 1, 1};
  int64_t row_lo = 0, row_hi = -1;    // my rows of dimension 0
  std::vector<unsigned char> shadow;  // my rows, row-major
  size_t row_elements = 1;            // elements per row of dimension 0
};

size_t shadow_index(const ArrState& s, const int64_t* idx) {
  size_t i = static_cast<size_t>(idx[0] - s.row_lo);
  for (int d = 1; d < s.ndim; ++d)
    i = i * static_cast<size_t>(s.dims[d]) + static_cast<size_t>(idx[d]);
  return i * s.ts;
}

// Calls f(index, k) for every element of the box lo..hi in row-major order (k counts them).
template <typename F>
void for_each_in_box(int ndim, const int64_t* lo, const int64_t* hi, F f) {
  int64_t idx[3] = {lo[0], ndim > 1 ? lo[1] : 0, ndim > 2 ? lo[2] : 0};
  size_t k = 0;
  while (true) {
    f(idx, k++);
    int d = ndim - 1;
    while (d >= 0 && idx[d] == hi[d]) {
      idx[d] = lo[d];
      --d;
    }
    if (d < 0) return;
    ++idx[d];
  }
}

// A random box inside my rows (false if I own none), or one of the whole array.
bool random_box(ArrState& s, int64_t* lo, int64_t* hi, bool mine_only) {
  if (mine_only && s.row_hi < s.row_lo) return false;
  Rng& rng = mine_only ? local_ : shared_;
  for (int d = 0; d < s.ndim; ++d) {
    const int64_t first = d == 0 && mine_only ? s.row_lo : 0;
    const int64_t last = d == 0 && mine_only ? s.row_hi : s.dims[d] - 1;
    const int64_t a =
        first + static_cast<int64_t>(rng.below(static_cast<uint64_t>(last - first + 1)));
    const int64_t b =
        first + static_cast<int64_t>(rng.below(static_cast<uint64_t>(last - first + 1)));
    lo[d] = a < b ? a : b;
    hi[d] = a < b ? b : a;
  }
  return true;
}

// Makes the patch arguments invalid; returns the codes allowed.
unsigned mutate_patch(ArrState& s, remora_array_t* a, int64_t* lo, int64_t* hi, int64_t* ld,
                      const void** buffer, const void** alpha) {
  const int d = static_cast<int>(local_.below(static_cast<uint64_t>(s.ndim)));
  mutation_ = 100 + static_cast<int>(local_.below(8));
  switch (mutation_ - 100) {
    case 0:
      hi[d] = s.dims[d] + static_cast<int64_t>(local_.below(3));
      return bit(REMORA_ERR_RANGE);
    case 1:
      lo[d] = -1 - static_cast<int64_t>(local_.below(2)) * INT64_C(1000000000000);
      return bit(REMORA_ERR_RANGE) | bit(REMORA_ERR_ARG);
    case 2:
      lo[d] = hi[d] + 1 + static_cast<int64_t>(local_.below(3));
      return bit(REMORA_ERR_ARG) | bit(REMORA_ERR_RANGE);
    case 3:
      if (s.ndim < 2) {
        *buffer = nullptr;
        return bit(REMORA_ERR_ARG);
      }
      ld[local_.below(static_cast<uint64_t>(s.ndim - 1))] = local_.chance(50) ? 0 : -5;
      return bit(REMORA_ERR_ARG);
    case 4:
      *buffer = nullptr;
      return bit(REMORA_ERR_ARG);
    case 5:
      *a = stale_array_ != nullptr && stale_array_ != s.a && local_.chance(60)
               ? stale_array_
               : static_cast<remora_array_t>(local_.chance(30) ? nullptr : invented_handle());
      return bit(REMORA_ERR_ARG);
    case 6:
      if (alpha != nullptr) {
        *alpha = nullptr;
        return bit(REMORA_ERR_ARG);
      }
      hi[d] = INT64_MAX;
      return bit(REMORA_ERR_RANGE);
    default:
      hi[d] = INT64_MAX - static_cast<int64_t>(local_.below(2));
      lo[d] = INT64_MIN;
      return bit(REMORA_ERR_RANGE) | bit(REMORA_ERR_ARG);
  }
}

void verify_array(ArrState& s) {
  CALL(kArrSync, Expect::Ok, 0, remora_array_sync());
  if (s.row_hi < s.row_lo) return;
  int64_t lo[3] = {s.row_lo, 0, 0}, hi[3] = {s.row_hi, s.dims[1] - 1, s.dims[2] - 1};
  int64_t ld[2] = {s.dims[1], s.dims[2]};
  std::vector<unsigned char> back(s.shadow.size(), 0x5A);
  CALL(kArrGet, Expect::Ok, 0, remora_array_get(s.a, lo, hi, back.data(), ld));
  for (size_t k = 0; k < back.size(); ++k)
    CHECK(back[k] == s.shadow[k], "array byte %zu of my rows is %02x, shadow %02x", k, back[k],
          s.shadow[k]);
}

void array_round() {
  ArrState s;
  const remora_datatype_t types[] = {REMORA_INT64, REMORA_INT32, REMORA_DOUBLE};
  s.type = shared_.pick(types);
  s.ts = type_size(s.type);
  s.ndim = 1 + static_cast<int>(shared_.below(3));
  for (int d = 0; d < s.ndim; ++d)
    s.dims[d] = 1 + static_cast<int64_t>(shared_.below(d == 0 ? 16 : 7));
  const int kind = s.ndim == 2 ? static_cast<int>(shared_.below(3)) : 0;
  if (kind == 0) {
    CALL(kArrCreate, Expect::Ok, 0, remora_array_create(s.type, s.ndim, s.dims, "fuzz", &s.a));
  } else if (kind == 1) {
    const int64_t block[2] = {1 + static_cast<int64_t>(shared_.below(4)),
                              1 + static_cast<int64_t>(shared_.below(4))};
    CALL(kArrCreate, Expect::Ok, 0,
         remora_array_create_block_cyclic(s.type, s.dims, block, nullptr, "fuzz", &s.a));
  } else {
    CALL(kArrCreate, Expect::Ok, 0,
         remora_array_create_element_cyclic(s.type, s.dims, nullptr, "fuzz", &s.a));
  }
  s.row_lo = s.dims[0] * rank_ / size_;
  s.row_hi = s.dims[0] * (rank_ + 1) / size_ - 1;
  s.row_elements = static_cast<size_t>(s.dims[1] * s.dims[2]);
  s.shadow.assign(static_cast<size_t>(s.row_hi - s.row_lo + 1) * s.row_elements * s.ts, 0);
  const int phases = 1 + static_cast<int>(shared_.below(3));
  std::vector<unsigned char> buffer(8 * 16 * 8 * 8 + 64);
  for (int phase = 0; phase < phases; ++phase) {
    const int operations = static_cast<int>(local_.below(25));
    std::vector<remora_array_request_t> requests;
    for (int i = 0; i < operations; ++i) {
      int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
      const bool have = random_box(s, lo, hi, true);
      int64_t ld[2] = {hi[1] - lo[1] + 1 + static_cast<int64_t>(local_.below(2)),
                       hi[2] - lo[2] + 1 + static_cast<int64_t>(local_.below(2))};
      if (s.ndim == 2) ld[0] = hi[1] - lo[1] + 1 + static_cast<int64_t>(local_.below(2));
      const int op = static_cast<int>(local_.below(6));  // put get acc nbput nbget nbacc
      remora_array_t a = s.a;
      const void* buf = buffer.data();
      unsigned char alpha_value[8];
      make_value(s.type, local_.chance(50) ? 1 : 3, alpha_value);
      const void* alpha = alpha_value;
      const bool bad = !have || local_.chance(45);
      unsigned codes = 0;
      if (bad) codes = mutate_patch(s, &a, lo, hi, ld, &buf, op == 2 || op == 5 ? &alpha : nullptr);
      // Buffer contents, in the buffer's layout (ld).
      std::vector<std::pair<size_t, size_t>> places;  // (shadow byte, buffer byte)
      if (!bad) {
        for_each_in_box(s.ndim, lo, hi, [&](const int64_t* idx, size_t) {
          size_t b = 0;
          for (int d = 0; d < s.ndim; ++d) {
            b = b * (d == 0 ? 1 : static_cast<size_t>(ld[d - 1])) +
                static_cast<size_t>(idx[d] - lo[d]);
          }
          places.emplace_back(shadow_index(s, idx), b * s.ts);
        });
        for (auto& p : places)
          make_value(s.type, static_cast<long>(local_.below(9)) - 4, (buffer.data() + (p.second)));
      }
      std::vector<unsigned char> before = buffer;
      const Expect expect = bad ? Expect::Fail : Expect::Ok;
      remora_array_request_t request = REMORA_ARRAY_REQUEST_NULL;
      void* out = const_cast<void*>(buf);
      bool done = false;
      switch (op) {
        case 0:
          done = CALL(kArrPut, expect, codes, remora_array_put(a, lo, hi, buf, ld));
          break;
        case 1:
          done = CALL(kArrGet, expect, codes, remora_array_get(a, lo, hi, out, ld));
          break;
        case 2:
          done = CALL(kArrAcc, expect, codes, remora_array_acc(a, lo, hi, buf, ld, alpha));
          break;
        case 3:
          done = CALL(kArrNb, expect, codes, remora_array_nbput(a, lo, hi, buf, ld, &request));
          break;
        case 4:
          done = CALL(kArrNb, expect, codes, remora_array_nbget(a, lo, hi, out, ld, &request));
          break;
        default:
          done =
              CALL(kArrNb, expect, codes, remora_array_nbacc(a, lo, hi, buf, ld, alpha, &request));
          break;
      }
      if (!done) {
        CHECK(request == REMORA_ARRAY_REQUEST_NULL, "a failed call set a request");
        CHECK(buffer == before, "a rejected call wrote into the buffer");
        continue;
      }
      if (op >= 3) CALL(kArrWait, Expect::Ok, 0, remora_array_wait(&request));
      for (auto& p : places) {
        unsigned char* target = (s.shadow.data() + (p.first));
        const unsigned char* value = (buffer.data() + (p.second));
        if (op == 0 || op == 3) {
          copy_bytes(target, value, s.ts);
        } else if (op == 1 || op == 4) {
          CHECK(compare_bytes(target, value, s.ts) == 0, "array get: %s, shadow %s",
                hex(value, s.ts).c_str(), hex(target, s.ts).c_str());
        } else {
          apply_element(s.type == REMORA_INT32 ? REMORA_INT32 : s.type, REMORA_OP_SCALED_SUM,
                        target, value, alpha);
        }
      }
      if (op != 1 && op != 4) CALL(kArrSync, Expect::Ok, 0, remora_array_flush(s.a));
    }
    // A collective operation with shared arguments, valid or invalid on every rank alike.
    CALL(kArrSync, Expect::Ok, 0, remora_array_sync());
    unsigned char value[8];
    make_value(s.type, static_cast<long>(shared_.below(7)) - 3, value);
    switch (shared_.below(4)) {
      case 0:
        CALL(kArrColl, Expect::Ok, 0, remora_array_fill(s.a, value));
        for (size_t k = 0; k < s.shadow.size(); k += s.ts)
          copy_bytes((s.shadow.data() + (k)), value, s.ts);
        break;
      case 1: {
        make_value(s.type, shared_.chance(50) ? 2 : -1, value);
        CALL(kArrColl, Expect::Ok, 0, remora_array_scale(s.a, value));
        for (size_t k = 0; k < s.shadow.size(); k += s.ts)
          apply_element(s.type, REMORA_OP_PROD, (s.shadow.data() + (k)), value, nullptr);
        break;
      }
      case 2: {
        int64_t lo[3], hi[3];
        random_box(s, lo, hi, false);
        const bool bad = shared_.chance(40);
        if (bad) hi[shared_.below(static_cast<uint64_t>(s.ndim))] = s.dims[0] + 99;
        if (!CALL(kArrColl, bad ? Expect::Fail : Expect::Ok, bit(REMORA_ERR_RANGE),
                  remora_array_zero_patch(s.a, lo, hi)))
          break;
        for_each_in_box(s.ndim, lo, hi, [&](const int64_t* idx, size_t) {
          if (idx[0] < s.row_lo || idx[0] > s.row_hi) return;
          std::memset((s.shadow.data() + (shadow_index(s, idx))), 0, s.ts);
        });
        break;
      }
      default:
        CALL(kArrColl, Expect::Fail, bit(REMORA_ERR_ARG), remora_array_fill(s.a, nullptr));
        break;
    }
    verify_array(s);
  }
  // Destroy: sometimes with a nonblocking put still queued (destroy completes it).
  remora_array_request_t pending = REMORA_ARRAY_REQUEST_NULL;
  if (s.row_hi >= s.row_lo && local_.chance(30)) {
    int64_t lo[3] = {s.row_lo, 0, 0}, hi[3] = {s.row_lo, 0, 0};
    int64_t ld[2] = {1, 1};
    static unsigned char one[8];
    make_value(s.type, 1, one);
    CALL(kArrNb, Expect::Ok, 0, remora_array_nbput(s.a, lo, hi, one, ld, &pending));
  }
  CALL(kArrDestroy, Expect::Fail, bit(REMORA_ERR_ARG), remora_array_destroy(nullptr));
  if (shared_.chance(30)) {  // a bad handle on one rank only: every rank fails
    const int bad = static_cast<int>(shared_.below(static_cast<uint64_t>(size_)));
    remora_array_t wrong = stale_array_ != nullptr && stale_array_ != s.a
                               ? stale_array_
                               : static_cast<remora_array_t>(invented_handle());
    CALL(kArrDestroy, Expect::Fail, bit(REMORA_ERR_ARG),
         remora_array_destroy(rank_ == bad ? &wrong : &s.a));
    CHECK(s.a != nullptr, "a failed destroy cleared the handle");
  }
  const remora_array_t before = s.a;
  CALL(kArrDestroy, Expect::Ok, 0, remora_array_destroy(&s.a));
  if (pending != REMORA_ARRAY_REQUEST_NULL)
    CALL(kArrWait, Expect::Ok, 0, remora_array_wait(&pending));
  stale_array_ = before;
}

// ---- Collectives ----

void fill_send(std::vector<unsigned char>& buf, remora_datatype_t type, size_t count, int rank) {
  const size_t ts = type_size(type);
  for (size_t i = 0; i < count; ++i)
    make_value(type, static_cast<long>((rank + 1) * (static_cast<int>(i % 7) + 1)), &buf[i * ts]);
}

long value_at(const std::vector<unsigned char>& buf, remora_datatype_t type, size_t i) {
  const size_t ts = type_size(type);
  if (type == REMORA_INT32) {
    int32_t x;
    copy_bytes(&x, &buf[i * ts], 4);
    return x;
  }
  if (type == REMORA_INT64) {
    int64_t x;
    copy_bytes(&x, &buf[i * ts], 8);
    return static_cast<long>(x);
  }
  double x;
  copy_bytes(&x, &buf[i * ts], 8);
  return std::lround(x);
}

long send_value(int rank, size_t i) {
  return static_cast<long>((rank + 1) * (static_cast<int>(i % 7) + 1));
}

long reduce_values(remora_op_t op, int first, int last, size_t i) {
  long r = send_value(first, i);
  for (int q = first + 1; q <= last; ++q) {
    const long v = send_value(q, i);
    r = op == REMORA_OP_SUM ? r + v : op == REMORA_OP_MAX ? (v > r ? v : r) : (v < r ? v : r);
  }
  return r;
}

void collective_round() {
  remora_comm_t world;
  REQUIRE_OK(remora_comm_world(&world));
  const remora_datatype_t types[] = {REMORA_INT32, REMORA_INT64, REMORA_DOUBLE};
  remora_datatype_t type = shared_.pick(types);
  const size_t ts = type_size(type);
  size_t count = shared_.below(shared_.chance(10) ? 3000 : 40);
  const remora_op_t ops[] = {REMORA_OP_SUM, REMORA_OP_MAX, REMORA_OP_MIN};
  remora_op_t op = shared_.pick(ops);
  int root = static_cast<int>(shared_.below(static_cast<uint64_t>(size_)));
  remora_comm_t comm = world;
  remora_coll_algorithm_t algorithm = REMORA_COLL_AUTO;
  const int which = static_cast<int>(shared_.below(9));
  // Misuse on every rank alike (0..5), or a NULL buffer / bad type on one rank only (6).
  const int misuse = shared_.chance(35) ? static_cast<int>(shared_.below(7)) : -1;
  const int bad_rank = static_cast<int>(shared_.below(static_cast<uint64_t>(size_)));
  bool null_recv = false;
  switch (misuse) {
    case 0:
      root = shared_.chance(50) ? size_ : -1;
      break;
    case 1:
      type = static_cast<remora_datatype_t>(shared_.chance(50) ? 0 : 13);
      break;
    case 2:
      op = shared_.chance(50) ? static_cast<remora_op_t>(0) : REMORA_OP_NO_OP;
      break;
    case 3:
      comm = shared_.chance(50) ? REMORA_COMM_NULL
                                : reinterpret_cast<remora_comm_t>(invented_handle());
      break;
    case 4:
      algorithm = static_cast<remora_coll_algorithm_t>(shared_.chance(50) ? 99 : 1000);
      break;
    case 5:
      null_recv = true;
      if (count == 0) count = 1;
      break;
    case 6:
      if (rank_ == bad_rank) {
        if (shared_.chance(50))
          null_recv = true;
        else
          type = static_cast<remora_datatype_t>(13);
      } else {
        shared_.next();
      }
      if (count == 0) count = 1;
      break;
    default:
      break;
  }
  // Which ops need what (barrier ignores type, op, root, count).
  const bool uses_root = which == 1 || which == 2 || which == 6 || which == 7;
  const bool uses_op = which == 2 || which == 3 || which == 5;
  const bool uses_type = which != 0;
  const bool uses_buffer = which != 0 && count > 0;
  // reduce and gather read recvbuf at the root only.
  const bool recv_at_root_only = which == 2 || which == 6;
  const bool invalid_everywhere = (misuse == 0 && uses_root) || (misuse == 1 && uses_type) ||
                                  (misuse == 2 && uses_op) || misuse == 3 || misuse == 4 ||
                                  (misuse == 5 && uses_buffer && !recv_at_root_only);
  const bool one_bad = (misuse == 6 || (misuse == 5 && recv_at_root_only)) && uses_buffer;
  const int culprit = misuse == 5 ? root : bad_rank;
  const bool mine_bad =
      one_bad && rank_ == culprit && !(null_recv && recv_at_root_only && rank_ != root);
  const bool others_bad = one_bad;
  const size_t cap = (count + 1) * static_cast<size_t>(size_) * 8 + 64;
  std::vector<unsigned char> send(cap, 0), recv(cap, 0xC3);
  if (ts != 0 && type_size(REMORA_INT64) == 8 &&
      (type == REMORA_INT32 || type == REMORA_INT64 || type == REMORA_DOUBLE))
    fill_send(send, type, count * static_cast<size_t>(size_), rank_);
  if (which == 1 && rank_ == root) copy_bytes(recv.data(), send.data(), count * ts);
  const std::vector<unsigned char> recv_before = recv;
  void* r = null_recv ? nullptr : recv.data();
  const void* sb = send.data();
  int rc = 0;
  switch (which) {
    case 0:
      rc = remora_comm_barrier(comm, algorithm);
      break;
    case 1:
      rc = remora_bcast(r, count, type, root, comm, algorithm);
      break;
    case 2:
      rc = remora_reduce(sb, r, count, type, op, root, comm, algorithm);
      break;
    case 3:
      rc = remora_allreduce(sb, r, count, type, op, comm, algorithm);
      break;
    case 4:
      rc = remora_allgather(sb, r, count, type, comm, algorithm);
      break;
    case 5:
      rc = remora_scan(sb, r, count, type, op, comm, algorithm);
      break;
    case 6:
      rc = remora_gather(sb, r, count, type, root, comm, algorithm);
      break;
    case 7:
      rc = remora_scatter(sb, r, count, type, root, comm, algorithm);
      break;
    default:
      rc = remora_alltoall(sb, r, count, type, comm, algorithm);
      break;
  }
  const Expect expect = invalid_everywhere || mine_bad ? Expect::Fail
                        : others_bad                   ? Expect::Either
                                                       : Expect::Ok;
  const bool ok = check_call(__LINE__, kColl, "collective", rc, expect);
  if (!ok) {
    if (!null_recv && invalid_everywhere)
      for (size_t k = 0; k < cap; ++k)
        CHECK(recv[k] == recv_before[k], "a collective rejected on every rank wrote recv byte %zu",
              k);
    return;
  }
  if (others_bad) return;  // completed here before the error was known: data not checked
  // Check the results of the valid call (recv, where this rank receives).
  for (size_t i = 0; i < count; ++i) {
    switch (which) {
      case 1:
        CHECK(value_at(recv, type, i) == send_value(root, i), "bcast [%zu]", i);
        break;
      case 2:
        if (rank_ == root)
          CHECK(value_at(recv, type, i) == reduce_values(op, 0, size_ - 1, i), "reduce [%zu]", i);
        break;
      case 3:
        CHECK(value_at(recv, type, i) == reduce_values(op, 0, size_ - 1, i),
              "allreduce [%zu] = %ld", i, value_at(recv, type, i));
        break;
      case 4:
        for (int q = 0; q < size_; ++q)
          CHECK(value_at(recv, type, static_cast<size_t>(q) * count + i) == send_value(q, i),
                "allgather [%d][%zu]", q, i);
        break;
      case 5:
        CHECK(value_at(recv, type, i) == reduce_values(op, 0, rank_, i), "scan [%zu]", i);
        break;
      case 6:
        if (rank_ == root)
          for (int q = 0; q < size_; ++q)
            CHECK(value_at(recv, type, static_cast<size_t>(q) * count + i) == send_value(q, i),
                  "gather [%d][%zu]", q, i);
        break;
      case 7:
        CHECK(value_at(recv, type, i) == send_value(root, static_cast<size_t>(rank_) * count + i),
              "scatter [%zu]", i);
        break;
      case 8:
        for (int q = 0; q < size_; ++q)
          CHECK(value_at(recv, type, static_cast<size_t>(q) * count + i) ==
                    send_value(q, static_cast<size_t>(rank_) * count + i),
                "alltoall [%d][%zu]", q, i);
        break;
      default:
        break;
    }
  }
}

// ---- Driver ----

void usage_error(const char* arg) {
  std::fprintf(
      stderr,
      "fuzz_api: bad argument '%s' (usage: fuzz_api [--seed S] [--calls N] [--seconds T])\n", arg);
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  trace_ = std::getenv("FUZZ_TRACE") != nullptr;
  long max_calls = 4000;
  double max_seconds = 0;
  for (int i = 1; i < argc; ++i) {
    if (i + 1 >= argc) usage_error(argv[i]);
    char* end = nullptr;
    if (std::strcmp(argv[i], "--seed") == 0) {
      seed_ = std::strtoull(argv[++i], &end, 0);
    } else if (std::strcmp(argv[i], "--calls") == 0) {
      max_calls = std::strtol(argv[++i], &end, 0);
    } else if (std::strcmp(argv[i], "--seconds") == 0) {
      max_seconds = std::strtod(argv[++i], &end);
    } else {
      usage_error(argv[i]);
    }
    if (end == nullptr || *end != '\0') usage_error(argv[i]);
  }
  remora_test::init(&argc, &argv, &rank_, &size_);
  if (rank_ == 0) {
    std::printf("fuzz_api: seed %llu, %d ranks (rerun: fuzz_api --seed %llu --calls %ld)\n",
                static_cast<unsigned long long>(seed_), size_,
                static_cast<unsigned long long>(seed_), max_calls);
    std::fflush(stdout);
  }
  shared_.state = seed_;
  local_.state = seed_ * 0x2545F4914F6CDD1Dull + static_cast<uint64_t>(rank_) + 1;
  const auto start = std::chrono::steady_clock::now();
  remora_comm_t world;
  REQUIRE_OK(remora_comm_world(&world));
  for (;;) {
    ++round_;
    const uint64_t what = shared_.below(100);
    if (what < 30)
      window_round();
    else if (what < 37)
      window_creation_misuse();
    else if (what < 62)
      array_round();
    else if (what < 69)
      array_creation_misuse();
    else
      collective_round();
    // Stop together: when any rank has made its calls or the time is up.
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    int64_t stop = total_calls_ >= max_calls || (max_seconds > 0 && elapsed >= max_seconds);
    int64_t any = 0;
    REQUIRE_OK(
        remora_allreduce(&stop, &any, 1, REMORA_INT64, REMORA_OP_MAX, world, REMORA_COLL_AUTO));
    if (any != 0) break;
  }
  // Totals over the ranks, printed by rank 0.
  std::vector<int64_t> mine(2 * kKinds), sum(2 * kKinds);
  for (int k = 0; k < kKinds; ++k)
    mine[static_cast<size_t>(k)] = calls_[k], mine[static_cast<size_t>(kKinds + k)] = rejected_[k];
  REQUIRE_OK(remora_allreduce(mine.data(), sum.data(), mine.size(), REMORA_INT64, REMORA_OP_SUM,
                              world, REMORA_COLL_AUTO));
  if (rank_ == 0) {
    int64_t calls = 0, rejected = 0;
    for (int k = 0; k < kKinds; ++k) {
      calls += sum[static_cast<size_t>(k)];
      rejected += sum[static_cast<size_t>(kKinds + k)];
      std::printf("  %-22s %8lld calls %8lld rejected\n", kKindNames[k],
                  static_cast<long long>(sum[static_cast<size_t>(k)]),
                  static_cast<long long>(sum[static_cast<size_t>(kKinds + k)]));
    }
    std::printf(
        "fuzz_api: seed %llu: %lld calls on %d ranks in %ld rounds, %lld rejected, all "
        "checks passed\n",
        static_cast<unsigned long long>(seed_), static_cast<long long>(calls), size_, round_,
        static_cast<long long>(rejected));
  }
  REQUIRE_OK(remora_finalize());
  return 0;
}
