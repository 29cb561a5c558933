// C API: windows (remora/win.h). Validates every argument, then hands over to rma::Window,
// which checks the epoch state.
#include <limits>
#include <string>
#include <type_traits>

#include "api/runtime.hpp"
#include "api/win_checks.hpp"
#include "api/window_comm.hpp"
#include "core/error.hpp"
#include "remora/win.h"
#include "rma/reduce_op.hpp"
#include "rma/window_registry.hpp"

using remora::fail;
using remora::api::check_pointer;
using remora::api::check_rank;
using remora::api::check_single_threaded;
using remora::api::enter;
using remora::api::Runtime;
using remora::rma::Window;

namespace {

// Why enter_window failed (out of line: the checks themselves are inline in every entry point).
[[gnu::cold, gnu::noinline]] int bad_window(const char* function, remora_win_t win) {
  Runtime* runtime = nullptr;
  if (int status = enter(function, &runtime)) return status;
  if (win == nullptr) return fail(REMORA_ERR_ARG, "%s: win is NULL", function);
  return fail(REMORA_ERR_ARG, "%s: win=%p is not a live window (freed, or never allocated)",
              function, static_cast<void*>(win));
}

inline int enter_window(const char* function, remora_win_t win, Window** window,
                        Runtime** runtime_out = nullptr) {
  Runtime* runtime = remora::api::detail::the_runtime;
  // find() is nullptr for a null handle (never a live window).
  if (runtime == nullptr || (*window = runtime->windows->find(win)) == nullptr) [[unlikely]]
    return bad_window(function, win);
  if (runtime_out != nullptr) *runtime_out = runtime;
  return REMORA_SUCCESS;
}

// Blocking synchronisation waits for other ranks, which a handler must never do.
int enter_sync(const char* function, remora_win_t win, Window** window) {
  if (int status = enter_window(function, win, window)) return status;
  return remora::api::check_not_in_handler(function);
}

// rank is a rank of the window's communicator: checked, then replaced by its world rank, which
// is what the window works with (one table lookup; the identity for a world window).
[[gnu::cold, gnu::noinline]] int bad_rank(const char* function, const char* name,
                                          const Window& window, int rank) {
  return fail(REMORA_ERR_RANK, "%s: %s=%d is outside the window's ranks [0, %d)", function, name,
              rank, window.comm_size());
}

inline int translate_rank(const char* function, const char* name, const Window& window, int& rank) {
  // One unsigned comparison covers rank < 0.
  if (static_cast<unsigned>(rank) >= static_cast<unsigned>(window.comm_size())) [[unlikely]]
    return bad_rank(function, name, window, rank);
  rank = window.world_rank(rank);
  return REMORA_SUCCESS;
}

// win and target are valid; target (in: a rank of the window) becomes its world rank.
inline int enter_target(const char* function, remora_win_t win, int& target, Window** window) {
  if (int status = enter_window(function, win, window)) return status;
  return translate_rank(function, "target", **window, target);
}

// The hottest entry points (lock, put, get, unlock, flush, the one-element accumulate family) run
// Body(window, args...) through
// on_window: below the multiple thread level without the threads::Scope, and for the window
// find() returned last without the full lookup, so that every check's failure and every slow
// path is a tail call and a call that passes them needs no stack frame. The full lookup (a
// handle other than the last one, or a null or stale one) and the library lock at the multiple
// level run the same Body out of line, with the same checks and messages. The arguments pass by
// value: nothing of the caller's frame escapes into the cold call.
template <auto Body, typename... Args>
[[gnu::cold, gnu::noinline]] int on_window_slow(const char* function, remora_win_t win,
                                                Args... args) {
  REMORA_API_ENTRY();
  Window* window = nullptr;
  if (int status = enter_window(function, win, &window)) return status;
  return Body(*window, args...);
}

template <auto Body, typename... Args>
inline int on_window(const char* function, remora_win_t win, Args... args) {
  // is_fast is false at the multiple level, outside init-finalize and for a null handle.
  if (!remora::rma::WindowRegistry::is_fast(win)) [[unlikely]]
    return on_window_slow<Body>(function, win, args...);
  return Body(*static_cast<Window*>(win), args...);
}

// translate_rank for on_window's bodies: false (the caller returns bad_rank's status, a tail
// call) when rank is outside the window's ranks.
inline bool rank_in_window(const Window& window, int& rank) {
  if (static_cast<unsigned>(rank) >= static_cast<unsigned>(window.comm_size())) [[unlikely]]
    return false;
  rank = window.world_rank(rank);
  return true;
}

// Synchronisation calls: check the handle (and target), refuse blocking calls inside a
// handler, then let the window check its epoch state.
int call_on_window(const char* function, remora_win_t win, int (Window::*call)(const char*),
                   bool blocking) {
  Window* window = nullptr;
  if (int status =
          blocking ? enter_sync(function, win, &window) : enter_window(function, win, &window))
    return status;
  return (window->*call)(function);
}

int call_on_target(const char* function, remora_win_t win, int target,
                   int (Window::*call)(const char*, int), bool blocking) {
  Window* window = nullptr;
  if (int status = enter_target(function, win, target, &window)) return status;
  if (blocking)
    if (int status = remora::api::check_not_in_handler(function)) return status;
  return (window->*call)(function, target);
}

// Collective or lock-taking calls with assertions.
int call_blocking(const char* function, remora_win_t win, int (Window::*call)(const char*, int),
                  int assert_flags) {
  Window* window = nullptr;
  if (int status = enter_sync(function, win, &window)) return status;
  return (window->*call)(function, assert_flags);
}

// *out = window->query(rank), for the per-rank queries.
int query_rank(const char* function, remora_win_t win, int rank, const char* out_name, size_t* out,
               size_t (Window::*query)(int) const) {
  Window* window = nullptr;
  if (int status = enter_window(function, win, &window)) return status;
  if (int status = translate_rank(function, "rank", *window, rank)) return status;
  if (int status = check_pointer(function, out_name, out)) return status;
  *out = (window->*query)(rank);
  return REMORA_SUCCESS;
}

int check_type(const char* function, int type) {
  if (remora::rma::datatype_size(type) == 0)
    return fail(REMORA_ERR_ARG, "%s: type=%d is not a remora_datatype_t", function, type);
  return REMORA_SUCCESS;
}

// Why check_target_range failed (out of line, as bad_window).
[[gnu::cold, gnu::noinline]] int bad_target_range(const char* function, const Window& window,
                                                  int target, size_t disp, size_t count, int type) {
  if (int status = check_type(function, type)) return status;
  const size_t limit = std::numeric_limits<size_t>::max();
  return fail(
      REMORA_ERR_RANGE,
      "%s: disp=%zu count=%zu (REMORA_%s) lies outside target %d's window of %zu bytes "
      "(disp_unit %zu)%s",
      function, disp, count, remora::rma::datatype_name(type), target, window.size(target),
      window.disp_unit(target),
      disp > limit / 2 || count > limit / 2 ? " (a negative value converted to size_t?)" : "");
}

// Whether type is a remora_datatype_t: the types are 1 .. REMORA_DOUBLE_COMPLEX without gaps
// (remora/types.h), so one unsigned comparison.
constexpr bool datatype_valid(int type) {
  return static_cast<unsigned>(type) - 1u < static_cast<unsigned>(REMORA_DOUBLE_COMPLEX);
}
static_assert(REMORA_INT8 == 1 && REMORA_DOUBLE_COMPLEX == 12 && !datatype_valid(0) &&
              datatype_valid(REMORA_INT8) && datatype_valid(REMORA_DOUBLE_COMPLEX) &&
              !datatype_valid(REMORA_DOUBLE_COMPLEX + 1) && !datatype_valid(-1));

// Whether count elements of type at disp lie inside target's window (target already checked);
// *offset and *bytes receive the byte offset and length.
inline bool target_range_ok(const Window& window, int target, size_t disp, size_t count, int type,
                            uint64_t* offset, size_t* bytes) {
  // Not a type: a branch to the failure, so no size of 0 to test after the products.
  if (!datatype_valid(type)) [[unlikely]]
    return false;
  const size_t element = remora::rma::datatype_size(type);  // at most 16
  const size_t unit = window.disp_unit(target);
  size_t start = 0, length = 0, end = 0;
  if (((disp | count | unit) >> 31) == 0) [[likely]] {
    // Each factor below 2^31: both products and their sum fit in 64 bits. One test for the
    // three overflow checks (and fewer live registers: put's path then needs no stack frame).
    start = disp * unit;
    length = count * element;
    end = start + length;
  } else {
    // Overflow checks without divisions: this runs on every operation with a large argument.
    if (__builtin_mul_overflow(disp, unit, &start)) return false;
    if (__builtin_mul_overflow(count, element, &length)) return false;
    if (__builtin_add_overflow(start, length, &end)) return false;
  }
  if (end > window.size(target)) [[unlikely]]
    return false;
  *offset = start;
  *bytes = length;
  return true;
}

inline int check_target_range(const char* function, const Window& window, int target, size_t disp,
                              size_t count, int type, uint64_t* offset, size_t* bytes = nullptr) {
  size_t length = 0;
  if (!target_range_ok(window, target, disp, count, type, offset, &length)) [[unlikely]]
    return bad_target_range(function, window, target, disp, count, type);
  if (bytes != nullptr) *bytes = length;
  return REMORA_SUCCESS;
}

// prepare_transfer's checks for the bodies of on_window (the window is valid), each failure a
// tail call, then issue(world rank, offset, bytes).
template <typename Buffer, typename Issue>
inline int checked_transfer(const char* function, Window& window, int target, size_t disp,
                            Buffer buffer, size_t count, int type, Issue issue) {
  constexpr bool put = std::is_const_v<std::remove_pointer_t<Buffer>>;
  int world = target;
  if (!rank_in_window(window, world)) [[unlikely]]
    return bad_rank(function, "target", window, target);
  uint64_t offset = 0;
  size_t bytes = 0;
  if (!target_range_ok(window, world, disp, count, type, &offset, &bytes)) [[unlikely]]
    return bad_target_range(function, window, world, disp, count, type);
  // The buffer first: a valid call tests one register (count only when the buffer is NULL).
  if (buffer == nullptr && count > 0) [[unlikely]]
    return check_pointer(function, put ? "origin" : "result", buffer);
  return issue(world, offset, bytes);
}

// The body of remora_win_put (Buffer: const void*) and remora_win_get (void*) for on_window.
template <typename Buffer>
inline int transfer_body(Window& window, int target, size_t disp, Buffer buffer, size_t count,
                         int type) {
  constexpr bool put = std::is_const_v<std::remove_pointer_t<Buffer>>;
  constexpr const char* function = put ? "remora_win_put" : "remora_win_get";
  return checked_transfer(function, window, target, disp, buffer, count, type,
                          [&](int world, uint64_t offset, size_t bytes) {
                            if constexpr (put)
                              return window.put(function, world, offset, buffer, bytes);
                            else
                              return window.get(function, world, offset, buffer, bytes);
                          });
}

// The body of remora_win_rput (Buffer: const void*) and remora_win_rget (void*) for on_window:
// the same checks, then win_issue_transfer (win_request_api.cpp) as a tail call.
template <typename Buffer>
inline int transfer_request_body(Window& window, int target, size_t disp, Buffer buffer,
                                 size_t count, int type, remora_request_t* request) {
  constexpr bool put = std::is_const_v<std::remove_pointer_t<Buffer>>;
  constexpr const char* function = put ? "remora_win_rput" : "remora_win_rget";
  return checked_transfer(function, window, target, disp, buffer, count, type,
                          [&](int world, uint64_t offset, size_t bytes) {
                            return remora::api::win_issue_transfer(put, window, world, offset,
                                                                   const_cast<void*>(buffer), bytes,
                                                                   request);
                          });
}

// The body of remora_win_lock (lock) and remora_win_unlock for on_window: enter_target's and
// check_not_in_handler's checks, each failure a tail call, then a direct call (Window::lock's
// and Window::unlock's fast paths are inline).
template <bool lock>
inline int sync_body(Window& window, int target, int lock_type, int assert_flags) {
  constexpr const char* function = lock ? "remora_win_lock" : "remora_win_unlock";
  int world = target;
  if (!rank_in_window(window, world)) [[unlikely]]
    return bad_rank(function, "target", window, target);
  if (remora::transport::AmDispatcher::in_handler()) [[unlikely]]
    return remora::api::detail::in_handler(function);
  if constexpr (lock)
    return window.lock(function, lock_type, world, assert_flags);
  else
    return window.unlock(function, world);
}

// Common checks of put and get: *offset and *bytes receive the target range, target becomes
// its world rank.
inline int prepare_transfer(const char* function, remora_win_t win, int& target, size_t disp,
                            size_t count, int type, const void* buffer, const char* buffer_name,
                            Window** window, uint64_t* offset, size_t* bytes) {
  if (int status = enter_target(function, win, target, window)) return status;
  if (int status = check_target_range(function, **window, target, disp, count, type, offset, bytes))
    return status;
  if (count > 0 && buffer == nullptr) [[unlikely]]
    return check_pointer(function, buffer_name, buffer);
  return REMORA_SUCCESS;
}

// The checks of the accumulate family after the handle and target (target: its world rank);
// fills args except result and compare.
int check_accumulate(const char* function, const Window& window, int target, size_t disp,
                     const void* origin, size_t count, int type, int op, const void* alpha,
                     remora::rma::AccArgs* args) {
  if (int status = check_target_range(function, window, target, disp, count, type, &args->offset))
    return status;
  // SUM, PROD, REPLACE and NO_OP are valid for every type (already checked): the common ops
  // skip check_op's call.
  const bool any_type_op = op == REMORA_OP_SUM || op == REMORA_OP_PROD || op == REMORA_OP_REPLACE ||
                           op == REMORA_OP_NO_OP;
  if (!any_type_op)
    if (int status = remora::rma::check_op(function, op, type)) return status;
  if (count > 0 && op != REMORA_OP_NO_OP && origin == nullptr) [[unlikely]]
    return check_pointer(function, "origin", origin);
  if (op == REMORA_OP_SCALED_SUM && alpha == nullptr)
    return fail(REMORA_ERR_ARG, "%s: alpha is NULL but op=REMORA_OP_SCALED_SUM needs it", function);
  if (op != REMORA_OP_SCALED_SUM && alpha != nullptr)
    return fail(REMORA_ERR_ARG, "%s: alpha=%p is given but op=REMORA_OP_%s does not use it",
                function, alpha, remora::rma::op_name(op));
  args->target = target;
  args->origin = origin;
  args->count = count;
  args->type = type;
  args->op = op;
  args->alpha = alpha;
  return REMORA_SUCCESS;
}

// Common checks of the accumulate family; fills args (target: the world rank) except result
// and compare.
int prepare_accumulate(const char* function, remora_win_t win, int& target, size_t disp,
                       const void* origin, size_t count, int type, int op, const void* alpha,
                       Window** window, remora::rma::AccArgs* args) {
  if (int status = enter_target(function, win, target, window)) return status;
  return check_accumulate(function, **window, target, disp, origin, count, type, op, alpha, args);
}

// remora_win_fetch_and_op's op=REMORA_OP_SCALED_SUM, refused before any other check.
[[gnu::cold, gnu::noinline]] int scaled_sum_in_fetch_and_op() {
  REMORA_API_ENTRY();
  return fail(REMORA_ERR_ARG,
              "%s: op=REMORA_OP_SCALED_SUM is not available here (use "
              "remora_win_get_accumulate, which takes alpha)",
              "remora_win_fetch_and_op");
}

// prepare_accumulate's checks for the accumulate family's bodies of on_window (the window is
// valid): fills args (target: the world rank) except result and compare.
inline int accumulate_args(const char* function, const Window& window, int target, size_t disp,
                           const void* origin, size_t count, int type, int op, const void* alpha,
                           remora::rma::AccArgs* args) {
  int world = target;
  if (!rank_in_window(window, world)) [[unlikely]]
    return bad_rank(function, "target", window, target);
  return check_accumulate(function, window, world, disp, origin, count, type, op, alpha, args);
}

// remora_win_fetch_and_op where fetch_and_op_body's fast path does not apply (op is not
// SCALED_SUM, checked first): prepare_accumulate's checks, then the one-element update.
[[gnu::noinline]] int fetch_and_op_checked(Window& window, int target, size_t disp,
                                           const void* origin, void* result, int type, int op) {
  constexpr const char* function = "remora_win_fetch_and_op";
  remora::rma::AccArgs args;
  if (int status =
          accumulate_args(function, window, target, disp, origin, 1, type, op, nullptr, &args))
    return status;
  if (result == nullptr) [[unlikely]]
    return check_pointer(function, "result", result);
  args.result = result;
  return window.accumulate_in_place(function, args);
}

// The checks of a one-element fetch (fetch_and_op, or get_accumulate of one element without
// alpha) that its inline path needs, each a test without a message: false when any would fail
// or needs check_op (the op is then tested by the fetch tables, whose entries are null for an
// op the type does not take), and the checked body reports it. *world and *offset receive the
// target's world rank and byte offset, *bytes the element's size.
inline bool fetch_args_ok(const Window& window, int target, size_t disp, const void* origin,
                          const void* result, int type, int op, int* world, uint64_t* offset,
                          size_t* bytes) {
  *world = target;
  return rank_in_window(window, *world) &&
         target_range_ok(window, *world, disp, 1, type, offset, bytes) && result != nullptr &&
         (origin != nullptr || op == REMORA_OP_NO_OP);
}

// Window::fetch_and_op's way out, for a call that passed fetch_args_ok (world: the target's
// world rank; offset: its byte offset): the op's check (check_accumulate's message, naming
// Function), then accumulate_in_place. Its arguments are the derived ones, so that the inline
// path keeps no original argument live (fewer registers: no stack frame).
template <const char* Function>
[[gnu::noinline]] int fetch_general(Window& window, int world, uint64_t offset, const void* origin,
                                    void* result, int type, int op) {
  if (!remora::rma::op_valid_for(op, type)) return remora::rma::check_op(Function, op, type);
  remora::rma::AccArgs args;
  args.target = world;
  args.offset = offset;
  args.origin = origin;
  args.result = result;
  args.count = 1;
  args.type = type;
  args.op = op;
  return window.accumulate_in_place(Function, args);
}

constexpr char kFetchAndOp[] = "remora_win_fetch_and_op";
constexpr char kGetAccumulate[] = "remora_win_get_accumulate";

// The inline path of a one-element fetch for on_window's bodies: checked() (the full checks, a
// tail call with the original arguments) unless fetch_args_ok; then Window::fetch_and_op,
// whose way out is fetch_general.
template <const char* Function, typename Checked>
inline int fetch_one(Window& window, int target, size_t disp, const void* origin, void* result,
                     int type, int op, Checked checked) {
  int world = 0;
  uint64_t offset = 0;
  size_t bytes = 0;
  if (!fetch_args_ok(window, target, disp, origin, result, type, op, &world, &offset, &bytes))
      [[unlikely]]
    return checked();
  return window.fetch_and_op(world, offset, bytes, origin, result, type, op,
                             [&window, world, offset, origin, result, type, op] {
                               return fetch_general<Function>(window, world, offset, origin, result,
                                                              type, op);
                             });
}

// The body of remora_win_fetch_and_op for on_window (op is not SCALED_SUM, checked first).
inline int fetch_and_op_body(Window& window, int target, size_t disp, const void* origin,
                             void* result, int type, int op) {
  return fetch_one<kFetchAndOp>(window, target, disp, origin, result, type, op,
                                [&window, target, disp, origin, result, type, op] {
                                  return fetch_and_op_checked(window, target, disp, origin, result,
                                                              type, op);
                                });
}

// The bodies of remora_win_get_accumulate and remora_win_compare_and_swap for on_window, with
// prepare_accumulate's checks.
[[gnu::noinline]] int get_accumulate_checked(Window& window, int target, size_t disp,
                                             const void* origin, void* result, size_t count,
                                             int type, int op, const void* alpha) {
  constexpr const char* function = "remora_win_get_accumulate";
  remora::rma::AccArgs args;
  if (int status =
          accumulate_args(function, window, target, disp, origin, count, type, op, alpha, &args))
    return status;
  if (count > 0 && result == nullptr) [[unlikely]]
    return check_pointer(function, "result", result);
  args.result = result;
  return window.accumulate_in_place(function, args);
}

// A get_accumulate of one element without alpha (and not SCALED_SUM, which needs it) is a
// fetch_and_op: its inline path.
inline int get_accumulate_body(Window& window, int target, size_t disp, const void* origin,
                               void* result, size_t count, int type, int op, const void* alpha) {
  const auto checked = [&window, target, disp, origin, result, count, type, op, alpha] {
    return get_accumulate_checked(window, target, disp, origin, result, count, type, op, alpha);
  };
  if (count != 1 || alpha != nullptr || op == REMORA_OP_SCALED_SUM) [[unlikely]]
    return checked();
  return fetch_one<kGetAccumulate>(window, target, disp, origin, result, type, op, checked);
}

int compare_and_swap_body(Window& window, int target, size_t disp, const void* origin,
                          const void* compare, void* result, int type) {
  constexpr const char* function = "remora_win_compare_and_swap";
  remora::rma::AccArgs args;
  if (int status = accumulate_args(function, window, target, disp, origin, 1, type,
                                   REMORA_OP_REPLACE, nullptr, &args))
    return status;
  if (type < REMORA_INT8 || type > REMORA_UINT64)
    return fail(REMORA_ERR_ARG, "%s: type=REMORA_%s is not an integer type", function,
                remora::rma::datatype_name(type));
  if (compare == nullptr) [[unlikely]]
    return check_pointer(function, "compare", compare);
  if (result == nullptr) [[unlikely]]
    return check_pointer(function, "result", result);
  args.compare = compare;
  args.result = result;
  return window.accumulate_in_place(function, args);
}

// The body of remora_win_flush for on_window (Window::flush's fast path is inline).
int flush_body(Window& window, int target) {
  constexpr const char* function = "remora_win_flush";
  int world = target;
  if (!rank_in_window(window, world)) [[unlikely]]
    return bad_rank(function, "target", window, target);
  return window.flush(function, world);
}

// remora_win_allocate (comm: nullptr, the world) and remora_win_allocate_comm.
int allocate_window(const char* function, const remora_comm_t* comm, size_t bytes, size_t disp_unit,
                    const char* info, void** base, remora_win_t* win) {
  Runtime* runtime = nullptr;
  remora::rma::WindowOptions options;
  if (int status = remora::api::win_prepare_creation(function, comm, bytes, disp_unit, info, win,
                                                     &runtime, &options))
    return status;
  Window* window = nullptr;
  std::shared_ptr<const remora::rma::WindowGroup> group;
  if (comm != nullptr)
    if (int status = remora::api::window_group(function, *runtime, *comm, &group)) return status;
  if (int status = runtime->windows->allocate(function, std::move(group), bytes, disp_unit, options,
                                              &window))
    return status;
  if (base != nullptr) *base = window->base();
  *win = window;
  return REMORA_SUCCESS;
}

}  // namespace

extern "C" {

int remora_win_allocate(size_t bytes, size_t disp_unit, const char* info, void** base,
                        remora_win_t* win) {
  REMORA_API_ENTRY();
  return allocate_window("remora_win_allocate", nullptr, bytes, disp_unit, info, base, win);
}

int remora_win_allocate_comm(remora_comm_t comm, size_t bytes, size_t disp_unit, const char* info,
                             void** base, remora_win_t* win) {
  REMORA_API_ENTRY();
  return allocate_window("remora_win_allocate_comm", &comm, bytes, disp_unit, info, base, win);
}

int remora_win_comm_size(remora_win_t win, int* size) {
  REMORA_API_ENTRY();
  Window* window = nullptr;
  if (int status = enter_window("remora_win_comm_size", win, &window)) return status;
  if (int status = check_pointer("remora_win_comm_size", "size", size)) return status;
  *size = window->comm_size();
  return REMORA_SUCCESS;
}

int remora_win_comm_rank(remora_win_t win, int* rank) {
  REMORA_API_ENTRY();
  Window* window = nullptr;
  if (int status = enter_window("remora_win_comm_rank", win, &window)) return status;
  if (int status = check_pointer("remora_win_comm_rank", "rank", rank)) return status;
  *rank = window->comm_rank(window->rank());
  return REMORA_SUCCESS;
}

// Collective. The ranks first agree that each of them may free the window (over the world, or
// the window's sub-communicator): a bad handle or a window still in an epoch on some ranks fails
// the call on all of them (nothing is freed) instead of leaving the others waiting in the free's
// barrier. A bad handle names no communicator: it is agreed on over the world while every window
// of this rank spans the world; else it fails at once here (the others, agreeing over the
// window's members, wait until this rank's next collective call or its end ends the job).
int remora_win_free(remora_win_t* win) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_win_free";
  Runtime* runtime = nullptr;
  if (int status = enter(function, &runtime)) return status;
  if (int status = remora::api::check_not_in_handler(function)) return status;
  Window* window = nullptr;
  int checked = check_pointer(function, "win", win);
  if (checked == REMORA_SUCCESS) checked = enter_window(function, *win, &window);
  if (checked == REMORA_SUCCESS) checked = window->check_free(function);
  if (checked == REMORA_SUCCESS) checked = check_single_threaded(function);
  const std::string message = checked == REMORA_SUCCESS ? "" : remora::last_error();
  int agreed = REMORA_SUCCESS;
  if (window != nullptr && window->group() != nullptr) {
    agreed = remora::api::agree_with(function, window->group()->allgather, checked,
                                     "no rank freed the window");
  } else if (window != nullptr || !runtime->windows->has_group_windows()) {
    agreed = remora::api::agree_over(function, *runtime, runtime->collectives->world(), checked,
                                     "no rank freed the window");
  }
  if (checked != REMORA_SUCCESS) return fail(checked, "%s", message.c_str());
  if (agreed != REMORA_SUCCESS) return agreed;
  if (int status = runtime->windows->free(function, window)) return status;
  *win = nullptr;
  return REMORA_SUCCESS;
}

int remora_win_base(remora_win_t win, void** base) {
  REMORA_API_ENTRY();
  Window* window = nullptr;
  if (int status = enter_window("remora_win_base", win, &window)) return status;
  if (int status = check_pointer("remora_win_base", "base", base)) return status;
  *base = window->base();
  return REMORA_SUCCESS;
}

int remora_win_size(remora_win_t win, int rank, size_t* bytes) {
  REMORA_API_ENTRY();
  return query_rank("remora_win_size", win, rank, "bytes", bytes, &Window::size);
}

int remora_win_disp_unit(remora_win_t win, int rank, size_t* disp_unit) {
  REMORA_API_ENTRY();
  return query_rank("remora_win_disp_unit", win, rank, "disp_unit", disp_unit, &Window::disp_unit);
}

int remora_win_shared_query(remora_win_t win, int rank, size_t* bytes, size_t* disp_unit,
                            void** base) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_win_shared_query";
  Window* window = nullptr;
  if (int status = enter_window(function, win, &window)) return status;
  const int comm_rank = rank;
  if (int status = translate_rank(function, "rank", *window, rank)) return status;
  if (int status = check_pointer(function, "bytes", bytes)) return status;
  if (int status = check_pointer(function, "disp_unit", disp_unit)) return status;
  if (int status = check_pointer(function, "base", base)) return status;
  void* memory = window->shared_address(rank);
  if (memory == nullptr)
    return fail(REMORA_ERR_UNSUPPORTED,
                "%s: rank=%d's window memory is not mapped by this process (%s); reach it with "
                "put and get",
                function, comm_rank,
                window->user_memory() != nullptr ? "the window is over each rank's own memory"
                                                 : "it is on another node");
  *bytes = window->size(rank);
  *disp_unit = window->disp_unit(rank);
  *base = memory;
  return REMORA_SUCCESS;
}

int remora_win_acc_strategy(remora_win_t win, remora_acc_strategy_t* strategy) {
  REMORA_API_ENTRY();
  Window* window = nullptr;
  if (int status = enter_window("remora_win_acc_strategy", win, &window)) return status;
  if (int status = check_pointer("remora_win_acc_strategy", "strategy", strategy)) return status;
  *strategy = static_cast<remora_acc_strategy_t>(window->options().strategy);
  return REMORA_SUCCESS;
}

int remora_win_sync_impl(remora_win_t win, remora_sync_impl_t* fence, remora_sync_impl_t* lock) {
  REMORA_API_ENTRY();
  Window* window = nullptr;
  if (int status = enter_window("remora_win_sync_impl", win, &window)) return status;
  if (fence != nullptr) *fence = static_cast<remora_sync_impl_t>(window->options().fence);
  if (lock != nullptr) *lock = static_cast<remora_sync_impl_t>(window->options().lock);
  return REMORA_SUCCESS;
}

// put, get, lock, unlock, flush and the one-element accumulate family take the path of on_window
// (the library lock, if any, is taken there).
int remora_win_put(remora_win_t win, int target, size_t disp, const void* origin, size_t count,
                   remora_datatype_t type) {
  return on_window<transfer_body<const void*>>("remora_win_put", win, target, disp, origin, count,
                                               static_cast<int>(type));
}

int remora_win_get(remora_win_t win, int target, size_t disp, void* result, size_t count,
                   remora_datatype_t type) {
  return on_window<transfer_body<void*>>("remora_win_get", win, target, disp, result, count,
                                         static_cast<int>(type));
}

int remora_win_accumulate(remora_win_t win, int target, size_t disp, const void* origin,
                          size_t count, remora_datatype_t type, remora_op_t op, const void* alpha) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_win_accumulate";
  Window* window = nullptr;
  remora::rma::AccArgs args;
  if (int status = prepare_accumulate(function, win, target, disp, origin, count, type, op, alpha,
                                      &window, &args))
    return status;
  return window->accumulate_in_place(function, args);
}

int remora_win_get_accumulate(remora_win_t win, int target, size_t disp, const void* origin,
                              void* result, size_t count, remora_datatype_t type, remora_op_t op,
                              const void* alpha) {
  return on_window<get_accumulate_body>("remora_win_get_accumulate", win, target, disp, origin,
                                        result, count, static_cast<int>(type), static_cast<int>(op),
                                        alpha);
}

int remora_win_fetch_and_op(remora_win_t win, int target, size_t disp, const void* origin,
                            void* result, remora_datatype_t type, remora_op_t op) {
  if (op == REMORA_OP_SCALED_SUM) [[unlikely]]
    return scaled_sum_in_fetch_and_op();
  return on_window<fetch_and_op_body>("remora_win_fetch_and_op", win, target, disp, origin, result,
                                      static_cast<int>(type), static_cast<int>(op));
}

int remora_win_compare_and_swap(remora_win_t win, int target, size_t disp, const void* origin,
                                const void* compare, void* result, remora_datatype_t type) {
  return on_window<compare_and_swap_body>("remora_win_compare_and_swap", win, target, disp, origin,
                                          compare, result, static_cast<int>(type));
}

int remora_win_fence(remora_win_t win, int assert_flags) {
  REMORA_API_ENTRY();
  return call_blocking("remora_win_fence", win, &Window::fence, assert_flags);
}

int remora_win_lock(remora_win_t win, int lock_type, int target, int assert_flags) {
  return on_window<sync_body<true>>("remora_win_lock", win, target, lock_type, assert_flags);
}

int remora_win_unlock(remora_win_t win, int target) {
  return on_window<sync_body<false>>("remora_win_unlock", win, target, 0, 0);
}

int remora_win_lock_all(remora_win_t win, int assert_flags) {
  REMORA_API_ENTRY();
  return call_blocking("remora_win_lock_all", win, &Window::lock_all, assert_flags);
}

int remora_win_unlock_all(remora_win_t win) {
  REMORA_API_ENTRY();
  return call_on_window("remora_win_unlock_all", win, &Window::unlock_all, true);
}

int remora_win_flush(remora_win_t win, int target) {
  // Called after every operation of a passive epoch: the frame-less path of on_window.
  return on_window<flush_body>("remora_win_flush", win, target);
}

int remora_win_flush_all(remora_win_t win) {
  REMORA_API_ENTRY();
  return call_on_window("remora_win_flush_all", win, &Window::flush_all, false);
}

int remora_win_flush_local(remora_win_t win, int target) {
  REMORA_API_ENTRY();
  return call_on_target("remora_win_flush_local", win, target, &Window::flush_local, false);
}

int remora_win_flush_local_all(remora_win_t win) {
  REMORA_API_ENTRY();
  return call_on_window("remora_win_flush_local_all", win, &Window::flush_local_all, false);
}

int remora_win_sync(remora_win_t win) {
  REMORA_API_ENTRY();
  Window* window = nullptr;
  if (int status = enter_window("remora_win_sync", win, &window)) return status;
  window->sync();
  return REMORA_SUCCESS;
}

}  // extern "C"

namespace remora::api {

namespace {

int check_creation_arguments(const char* function, size_t bytes, size_t disp_unit, const char* info,
                             remora_win_t* win, const Runtime& runtime,
                             rma::WindowOptions* options) {
  if (int status = check_pointer(function, "win", win)) return status;
  if (bytes > SIZE_MAX / 2)
    return fail(REMORA_ERR_ARG,
                "%s: bytes=%zu is too large (a negative value converted to size_t?)", function,
                bytes);
  if (disp_unit == 0 || disp_unit > SIZE_MAX / 2)
    return fail(REMORA_ERR_ARG, "%s: disp_unit=%zu must be at least 1 (and not negative)", function,
                disp_unit);
  return rma::parse_window_options(function, runtime.config, info, options);
}

}  // namespace

int win_prepare_creation(const char* function, const remora_comm_t* comm, size_t bytes,
                         size_t disp_unit, const char* info, remora_win_t* win, Runtime** runtime,
                         rma::WindowOptions* options) {
  if (int status = enter(function, runtime)) return status;
  if (int status = check_not_in_handler(function)) return status;
  // Another thread inside Remora fails the creation on every rank, like a bad argument.
  int status = check_single_threaded(function);
  if (status == REMORA_SUCCESS)
    status = check_creation_arguments(function, bytes, disp_unit, info, win, **runtime, options);
  return agree_on_arguments(function, **runtime, comm, status);
}

int win_enter(const char* function, remora_win_t win, Window** window, Runtime** runtime_out) {
  return enter_window(function, win, window, runtime_out);
}

int win_enter_blocking(const char* function, remora_win_t win, Window** window) {
  return enter_sync(function, win, window);
}

int win_prepare_transfer(const char* function, remora_win_t win, int& target, size_t disp,
                         size_t count, int type, const void* buffer, const char* buffer_name,
                         Window** window, uint64_t* offset, size_t* bytes) {
  return prepare_transfer(function, win, target, disp, count, type, buffer, buffer_name, window,
                          offset, bytes);
}

int win_transfer_request(bool put, remora_win_t win, int target, size_t disp, void* buffer,
                         size_t count, int type, remora_request_t* request) {
  if (put)
    return on_window<transfer_request_body<const void*>>("remora_win_rput", win, target, disp,
                                                         static_cast<const void*>(buffer), count,
                                                         type, request);
  return on_window<transfer_request_body<void*>>("remora_win_rget", win, target, disp, buffer,
                                                 count, type, request);
}

int win_prepare_accumulate(const char* function, remora_win_t win, int& target, size_t disp,
                           const void* origin, size_t count, int type, int op, const void* alpha,
                           Window** window, remora::rma::AccArgs* args) {
  return prepare_accumulate(function, win, target, disp, origin, count, type, op, alpha, window,
                            args);
}

}  // namespace remora::api
