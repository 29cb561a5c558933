// C API: request-based RMA operations (remora/win.h). Each validates like its blocking
// counterpart, requires a passive-target epoch to its target (as in MPI), issues the operation
// and returns a request in the same table as the collectives' (remora_request_test/wait/...).
#include <memory>
#include <type_traits>

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

// rput and rget.
template <typename Buffer>
int transfer_request(const char* function, remora_win_t win, int target, size_t disp,
                     Buffer* buffer, size_t count, remora_datatype_t type,
                     remora_request_t* request) {
  if (int status = check_request(function, request)) return status;
  Window* window = nullptr;
  uint64_t offset = 0;
  size_t bytes = 0;
  constexpr bool is_put = std::is_const_v<Buffer>;
  if (int status =
          remora::api::win_prepare_transfer(function, win, target, disp, count, type, buffer,
                                            is_put ? "origin" : "result", &window, &offset, &bytes))
    return status;
  // An rget across nodes is left in flight (Window::get_pending); its request completes it.
  std::shared_ptr<remora::transport::PendingGet> pending;
  auto issue = [&] {
    if constexpr (is_put)
      return window->put(function, target, offset, buffer, bytes);
    else
      return window->get_pending(function, target, offset, buffer, bytes, &pending);
  };
  return remora::api::win_issue_request(function, *window, target, request, issue, &pending);
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

}  // namespace

namespace remora::api {

// Checks the epoch, issues the operation and, once it succeeded, makes its request (with the
// get issue() left in flight, if any).
int win_issue_request(const char* function, Window& window, int target, remora_request_t* request,
                      FunctionRef<int()> issue, std::shared_ptr<transport::PendingGet>* pending) {
  if (!window.in_passive_epoch(target))
    return fail(REMORA_ERR_STATE,
                "%s: target=%d is not locked: request-based operations need a passive-target "
                "epoch (remora_win_lock or remora_win_lock_all)",
                function, target);
  if (int status = issue()) return status;
  if (int status = window.perform_deferred(function, target)) return status;
  Runtime* runtime = nullptr;
  if (int status = enter(function, &runtime)) return status;
  // A get left in flight is its own request; a completed operation shares the one completed
  // request.
  if (pending != nullptr && *pending != nullptr)
    return request_handle(function, *runtime, std::move(*pending), request);
  return request_handle(function, *runtime, rma::completed(), request);
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
  REMORA_API_ENTRY();
  return transfer_request("remora_win_rput", win, target, disp, origin, count, type, request);
}

int remora_win_rget(remora_win_t win, int target, size_t disp, void* result, size_t count,
                    remora_datatype_t type, remora_request_t* request) {
  REMORA_API_ENTRY();
  return transfer_request("remora_win_rget", win, target, disp, result, count, type, request);
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
