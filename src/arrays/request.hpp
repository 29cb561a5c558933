// Handles of nonblocking array operations. The shared-memory transport completes a put, get or
// accumulate locally before the issuing call returns (it is a copy into or out of mapped
// memory), so a request carries the operation's status; wait and test report it and free the
// handle. A transport with truly asynchronous transfers would complete them here.
#pragma once

#include <unordered_set>

#include "remora/array.h"

struct remora_array_request_s {};

namespace remora::arrays {

class Request : public remora_array_request_s {
 public:
  explicit Request(int status) : status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

// The live requests of this process, to tell them from stale or invented handles.
class RequestTable {
 public:
  Request* add(int status);
  // The request behind handle, or nullptr.
  Request* find(remora_array_request_t handle) const;
  void remove(Request* request);

 private:
  std::unordered_set<remora_array_request_s*> live_;
};

}  // namespace remora::arrays
