// AXPY batch mode (Elemental's AxpyInterface, paper 003 sections II-B and III-A): transfers
// between local buffers and patches travel as active messages, packed per owner, and the
// owner applies them (local-to-global) or answers with the data (global-to-local). detach
// learns that no more messages will come either by end-of-message counts from every rank or
// by nonblocking consensus (acknowledged messages, then a nonblocking barrier).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "arrays/array.hpp"
#include "remora/array.h"
#include "transport/transport.hpp"

struct remora_axpy_s {};

namespace remora::arrays {

class AxpyBatch : public remora_axpy_s {
 public:
  // Collective: registers the message handler on first use (checking every rank got the same
  // id), then a barrier so no message reaches a rank before its batch exists.
  static int attach(transport::Transport& transport, Array& array, int detach, AxpyBatch** out);
  int axpy(int direction, const void* alpha, void* buffer, const int64_t* ld, const int64_t* lo,
           const int64_t* hi);
  // Collective: returns when every rank's messages are served; the batch is then finished.
  int detach();
  Array& array() const { return array_; }

  // The message handler (one for every kind of message).
  static void on_message(int source, const void* payload, size_t bytes, void* context);

 private:
  AxpyBatch(transport::Transport& transport, Array& array, int detach, uint64_t id);
  struct Pending {  // a global-to-local request awaiting its reply
    char* user;
    transport::StridedShape shape;
    std::vector<char> alpha;
  };
  int send(int target, std::vector<char>& message);
  void served(int source, const void* reply, size_t bytes);
  void handle(int source, const char* payload, size_t bytes);
  // dst blocks (side b of shape) += alpha * packed blocks, in block order.
  void apply(const transport::StridedShape& shape, char* base, const char* packed,
             const void* alpha, bool into_a) const;

  transport::Transport& transport_;
  Array& array_;
  int detach_;
  uint64_t id_;
  std::mutex mutex_;  // the local array's memory and pending_, shared with the handler
  std::map<uint64_t, Pending> pending_;
  uint64_t next_token_ = 0;
  std::vector<uint64_t> sent_to_;                           // data messages per target (EOM counts)
  std::unique_ptr<std::atomic<uint64_t>[]> received_from_;  // data messages per source
  std::unique_ptr<std::atomic<int64_t>[]> announced_;       // EOM counts (-1: none yet)
  std::atomic<int64_t> outstanding_{0};  // messages awaiting an acknowledgement or reply
};

}  // namespace remora::arrays
