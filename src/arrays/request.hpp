// Handles of nonblocking array operations: each holds its issued operation (nonblocking.hpp),
// which the progress engine performs; wait and test report its status and free the handle.
// A handle stays valid until it is waited for or tested done, even after flush, sync or the
// array's destroy have completed the operation.
#pragma once

#include <memory>
#include <unordered_set>

#include "arrays/nonblocking.hpp"
#include "remora/array.h"

struct remora_array_request_s {};

namespace remora::arrays {

class Request : public remora_array_request_s {
 public:
  explicit Request(std::shared_ptr<NbOperation> op) : op_(std::move(op)) {}
  bool done() const { return op_->done(); }
  int status() const { return op_->status(); }

 private:
  std::shared_ptr<NbOperation> op_;
};

// The live requests of this process, to tell them from stale or invented handles.
class RequestTable {
 public:
  Request* add(std::shared_ptr<NbOperation> op);
  // The request behind handle, or nullptr.
  Request* find(remora_array_request_t handle) const;
  void remove(Request* request);

 private:
  std::unordered_set<remora_array_request_s*> live_;
};

}  // namespace remora::arrays
