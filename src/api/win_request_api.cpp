// C API: request-based RMA operations (remora/win.h). Each validates like its blocking
// counterpart, requires a passive-target epoch to its target (as in MPI), issues the operation
// and returns a request in the same table as the collectives' (remora_request_test/wait/...).
#include <memory>

#include "api/coll_handles.hpp"
#include "api/win_checks.hpp"
#include "core/error.hpp"
#include "rma/rma_request.hpp"

using remora::fail;
using remora::api::Runtime;
using remora::rma::Window;

namespace {

int check_request(const char* function, remora_request_t* request) {
  if (int status = remora::api::check_pointer(function, "request", request)) return status;
  *request = REMORA_REQUEST_NULL;
  return REMORA_SUCCESS;
}

// raccumulate (result NULL) and rget_accumulate.
int accumulate_request(const char* function, remora_win_t win, int target, size_t disp,
                       const void* origin, void* result, bool wants_result, size_t count,
                       remora_datatype_t type, remora_op_t op, const void* alpha,
                       remora_request_t* request) {
  if (int status = check_request(function, request)) return status;
  Window* window = nullptr;
  remora::rma::AccArgs args;
  if (int status = remora::api::win_prepare_accumulate(function, win, target, disp, origin, count,
                                                       type, op, alpha, &window, &args))
    return status;
  if (wants_result && count > 0)
    if (int status = remora::api::check_pointer(function, "result", result)) return status;
  args.result = result;
  auto issue = [&] { return window->accumulate(function, args); };
  return remora::api::win_issue_request(function, *window, target, request, issue);
}

// A request-based operation to target outside a passive-target epoch.
[[gnu::cold, gnu::noinline]] int not_locked(const char* function, int target) {
  return fail(REMORA_ERR_STATE,
              "%s: target=%d is not locked: request-based operations need a passive-target "
              "epoch (remora_win_lock or remora_win_lock_all)",
              function, target);
}

// A NULL request argument (checked before any other, so that *request is NULL after every other
// failure).
[[gnu::cold, gnu::noinline]] int null_request(const char* function) {
  REMORA_API_ENTRY();
  return remora::api::check_pointer(function, "request", nullptr);
}

// The request of an operation issued and complete but for *pending (a get left in flight, if
// not null): in a deferred lock epoch the target's queue is performed first. A get in flight has
// no such queue (Window::get_pending leaves a get in flight only without one).
int make_request(const char* function, Window& window, int target, remora_request_t* request,
                 std::shared_ptr<remora::transport::PendingGet>&& pending) {
  Runtime& runtime = *remora::api::detail::the_runtime;  // on a live window: initialised
  if (pending != nullptr)
    return remora::api::request_handle(function, runtime, std::move(pending), request);
  if (int status = window.perform_deferred(function, target)) return status;
  return remora::api::request_handle(function, runtime, remora::rma::completed(), request);
}

}  // namespace

namespace remora::api {

int win_issue_transfer(bool put, Window& window, int target, uint64_t offset, void* buffer,
                       size_t bytes, remora_request_t* request) {
  const char* function = put ? "remora_win_rput" : "remora_win_rget";
  if (!window.in_passive_epoch(target)) [[unlikely]]
    return not_locked(function, target);
  std::shared_ptr<transport::PendingGet> pending;
  const int status = put ? window.put(function, target, offset, buffer, bytes)
                         : window.get_pending(function, target, offset, buffer, bytes, &pending);
  if (status != REMORA_SUCCESS) return status;
  return make_request(function, window, target, request, std::move(pending));
}

// Checks the epoch, issues the operation and, once it succeeded, makes its request.
int win_issue_request(const char* function, Window& window, int target, remora_request_t* request,
                      FunctionRef<int()> issue) {
  if (!window.in_passive_epoch(target)) return not_locked(function, target);
  if (int status = issue()) return status;
  return make_request(function, window, target, request, nullptr);
}

int win_request_on(const char* function, remora_win_t win, int target, remora_request_t* request,
                   FunctionRef<int()> issue) {
  if (int status = check_request(function, request)) return status;
  Window* window = nullptr;
  Runtime* runtime = nullptr;
  if (int status = win_enter(function, win, &window, &runtime)) return status;
  if (int status = check_rank(function, "target", target, *runtime)) return status;
  return win_issue_request(function, *window, target, request, issue);
}

}  // namespace remora::api

extern "C" {

int remora_win_rput(remora_win_t win, int target, size_t disp, const void* origin, size_t count,
                    remora_datatype_t type, remora_request_t* request) {
  // The library lock, if any, is taken on win_transfer_request's path (win_api.cpp's on_window).
  if (request == nullptr) [[unlikely]]
    return null_request("remora_win_rput");
  *request = REMORA_REQUEST_NULL;
  return remora::api::win_transfer_request(true, win, target, disp, const_cast<void*>(origin),
                                           count, static_cast<int>(type), request);
}

int remora_win_rget(remora_win_t win, int target, size_t disp, void* result, size_t count,
                    remora_datatype_t type, remora_request_t* request) {
  // The library lock, if any, is taken on win_transfer_request's path (win_api.cpp's on_window).
  if (request == nullptr) [[unlikely]]
    return null_request("remora_win_rget");
  *request = REMORA_REQUEST_NULL;
  return remora::api::win_transfer_request(false, win, target, disp, result, count,
                                           static_cast<int>(type), request);
}

int remora_win_raccumulate(remora_win_t win, int target, size_t disp, const void* origin,
                           size_t count, remora_datatype_t type, remora_op_t op, const void* alpha,
                           remora_request_t* request) {
  REMORA_API_ENTRY();
  return accumulate_request("remora_win_raccumulate", win, target, disp, origin, nullptr, false,
                            count, type, op, alpha, request);
}

int remora_win_rget_accumulate(remora_win_t win, int target, size_t disp, const void* origin,
                               void* result, size_t count, remora_datatype_t type, remora_op_t op,
                               const void* alpha, remora_request_t* request) {
  REMORA_API_ENTRY();
  return accumulate_request("remora_win_rget_accumulate", win, target, disp, origin, result, true,
                            count, type, op, alpha, request);
}

}  // extern "C"
