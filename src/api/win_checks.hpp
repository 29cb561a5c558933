// The argument checks of the window API (defined in win_api.cpp), shared by the entry points
// in the other win_*_api.cpp files so that every call validates the same way.
#pragma once

#include <cstddef>
#include <cstdint>

#include "api/runtime.hpp"
#include "core/function_ref.hpp"
#include "remora/win.h"
#include "rma/window.hpp"

namespace remora::api {

// win is a live window; *runtime_out (if not null) receives the runtime.
int win_enter(const char* function, remora_win_t win, rma::Window** window,
              Runtime** runtime_out = nullptr);
// Window creation, collective over *comm (the world if comm is NULL): bytes and disp_unit are
// sensible, info parses into *options; *runtime and the window registry are ready, and the
// call is not inside a handler. Once initialised and outside a handler, the ranks agree on
// the result (agree_on_arguments), so that bad arguments on one rank fail every rank.
int win_prepare_creation(const char* function, const remora_comm_t* comm, size_t bytes,
                         size_t disp_unit, const char* info, remora_win_t* win, Runtime** runtime,
                         rma::WindowOptions* options);
// As win_enter, and refuses to run inside an active-message handler (the call may block).
int win_enter_blocking(const char* function, remora_win_t win, rma::Window** window);
// Put and get: win and target are valid, count elements of type at disp lie in target's window
// and buffer is not NULL when count > 0. *offset and *bytes receive the target range. target
// (in: a rank of the window's communicator) becomes its world rank, which the window works with.
int win_prepare_transfer(const char* function, remora_win_t win, int& target, size_t disp,
                         size_t count, int type, const void* buffer, const char* buffer_name,
                         rma::Window** window, uint64_t* offset, size_t* bytes);
// The accumulate family: as above, and op valid for type, alpha given exactly for SCALED_SUM.
// Fills args except result and compare.
int win_prepare_accumulate(const char* function, remora_win_t win, int& target, size_t disp,
                           const void* origin, size_t count, int type, int op, const void* alpha,
                           rma::Window** window, rma::AccArgs* args);

// Request-based operations (win_request_api.cpp): target must be in a passive-target epoch;
// runs issue() and, once it succeeded, sets *request to a completed RMA request.
int win_issue_request(const char* function, rma::Window& window, int target,
                      remora_request_t* request, FunctionRef<int()> issue);
// remora_win_rput (put) and remora_win_rget: *request is set to NULL already and request not
// NULL; checks win, target, the range and buffer as remora_win_put and remora_win_get do (on
// their path: win_api.cpp), then win_issue_transfer.
int win_transfer_request(bool put, remora_win_t win, int target, size_t disp, void* buffer,
                         size_t count, int type, remora_request_t* request);
// Their issue, once the arguments are checked (target: the world rank; offset and bytes: the
// target range): win_issue_request's steps without its FunctionRef and pending argument.
int win_issue_transfer(bool put, rma::Window& window, int target, uint64_t offset, void* buffer,
                       size_t bytes, remora_request_t* request);
// The same from the handle: checks request, win and target first.
int win_request_on(const char* function, remora_win_t win, int target, remora_request_t* request,
                   FunctionRef<int()> issue);

}  // namespace remora::api
