// The C API's communicator and group handles, shared by the communicator, request and
// collective entry points: lookups that name the calling function and the argument in their
// errors, and the tables that turn layer objects into handles.
#pragma once

#include <memory>

#include "api/runtime.hpp"
#include "remora/coll.h"

namespace remora::api {

using CommPtr = std::shared_ptr<coll::Communicator>;

// Enters a call that must not run inside an active-message handler (it may wait).
int enter_waiting(const char* function, Runtime** runtime);
int find_comm(const char* function, const char* name, remora_comm_t handle, const Runtime& runtime,
              CommPtr* comm);
int find_group(const char* function, const char* name, remora_group_t handle,
               const Runtime& runtime, std::shared_ptr<coll::Group>* group);
template <typename Handle>
int check_out(const char* function, const char* name, Handle* out) {
  return check_pointer(function, name, out);
}
remora_comm_t comm_handle(Runtime& runtime, CommPtr comm);
remora_group_t group_handle(Runtime& runtime, coll::Group group);
// request_handle's failure: the request table is full.
[[gnu::cold, gnu::noinline]] int request_table_full(const char* function);
// Puts request in the request table and its handle in *out (fails when the table is full).
// Inline: every rget and rput makes one (a call frame was a tenth of an rget's own instructions).
inline int request_handle(const char* function, Runtime& runtime, std::shared_ptr<Request> request,
                          remora_request_t* out) {
  void* handle = runtime.collectives->requests.add(std::move(request));
  if (handle == nullptr) [[unlikely]]
    return request_table_full(function);
  *out = static_cast<remora_request_t>(handle);
  return REMORA_SUCCESS;
}

}  // namespace remora::api
