// The request of a request-based RMA operation (rput, rget, raccumulate, rget_accumulate).
// MPI completes such a request at local completion (rput, raccumulate: the origin buffer may be
// reused) or when the result is there (rget, rget_accumulate). Most operations of this layer
// reach that point before they return: puts and gets copy on shared memory, native and
// caller-computes accumulates finish in the call, and owner-computes copies the origin data into
// its message and waits for the results it asks for; such a request is complete, successfully,
// when it is made (a failed operation returns its error and makes no request), and all of them
// share one RmaRequest (completed()): no allocation per request. An
// rget across nodes (Window::get_pending) is left in flight: its request is the transport's
// PendingGet itself (shared by the rgets that complete together), done once it tests done, which a
// flush, unlock or unlock_all of its target (or the window's free) also brings about. The request
// lives in the request table on its own, so it stays waitable after unlock, unlock_all or flush,
// and after the window is freed. In a deferred lock epoch the API performs the target's queue
// before it makes the request (Window::perform_deferred), so the same holds there.
#pragma once

#include <memory>

#include "core/request.hpp"
#include "remora/status.h"

namespace remora::rma {

class RmaRequest final : public Request {
 public:
  bool done() const override { return true; }
  int status() const override { return REMORA_SUCCESS; }
};

// The one completed request every such operation's handle refers to (it has no state).
inline const std::shared_ptr<Request>& completed() {
  static const std::shared_ptr<Request> request = std::make_shared<RmaRequest>();
  return request;
}

}  // namespace remora::rma
