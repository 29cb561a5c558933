// C API: active messages.
#include "api/runtime.hpp"
#include "core/error.hpp"
#include "remora/am.h"

using remora::api::enter;
using remora::api::Runtime;

extern "C" {

int remora_am_register(remora_am_handler_t handler, void* context, int* handler_id) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = enter("remora_am_register", &runtime)) return status;
  if (int status = remora::api::check_pointer("remora_am_register", "handler",
                                              reinterpret_cast<const void*>(handler)))
    return status;
  if (int status = remora::api::check_pointer("remora_am_register", "handler_id", handler_id))
    return status;
  return runtime->transport->am_register(handler, context, handler_id);
}

int remora_am_send(int target, int handler_id, const void* payload, size_t bytes) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = enter("remora_am_send", &runtime)) return status;
  if (int status = remora::api::check_rank("remora_am_send", "target", target, *runtime))
    return status;
  // Handler ids are the same on every rank, so the local table tells which ids exist.
  const int handlers = runtime->transport->am_handler_count();
  if (handler_id < 0 || handler_id >= handlers)
    return remora::fail(REMORA_ERR_ARG,
                        "remora_am_send: handler_id=%d is not a registered handler [0, %d)",
                        handler_id, handlers);
  if (bytes > 0)
    if (int status = remora::api::check_pointer("remora_am_send", "payload", payload))
      return status;
  const size_t limit = runtime->transport->am_max_bytes();
  if (bytes > limit)
    return remora::fail(REMORA_ERR_ARG,
                        "remora_am_send: bytes=%zu exceeds the largest active message, %zu bytes "
                        "(REMORA_AM_MAX_BYTES)",
                        bytes, limit);
  return runtime->transport->am_send(target, handler_id, payload, bytes);
}

}  // extern "C"
