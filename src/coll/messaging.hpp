// Tagged point-to-point messages for collective schedules, on one active-message handler.
//
// A message is matched to a receive on (context, source, tag). Every message is eager: the
// sender's am_send returns once the payload is copied out (the transport chunks large payloads
// and applies back-pressure). At the receiver a message finds either a posted receive, which
// gets the data at once, or waits in the unexpected queue until one is posted. Messages with the
// same key match in the order they were sent (the transport keeps one sender's messages in
// order); collectives never have two in flight with the same key.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "transport/transport.hpp"

namespace remora::coll {

struct MessageKey {
  uint32_t context = 0;
  int source = 0;  // world rank
  uint64_t tag = 0;
  bool operator==(const MessageKey&) const = default;
};

struct MessageKeyHash {
  size_t operator()(const MessageKey& key) const {
    return std::hash<uint64_t>()(key.tag * 0x9e3779b97f4a7c15ULL ^
                                 (uint64_t{key.context} << 32 | static_cast<uint32_t>(key.source)));
  }
};

struct Receive;

// Told when a posted receive has its message (on whichever thread delivered it).
class ReceiveOwner {
 public:
  virtual ~ReceiveOwner() = default;
  virtual void received(Receive& receive) = 0;
};

struct Receive {
  MessageKey key;
  void* buffer = nullptr;  // exactly `bytes` are expected here...
  size_t bytes = 0;
  std::vector<uint8_t>* dynamic = nullptr;  // ...unless this is set: any size, moved here
  std::shared_ptr<ReceiveOwner> owner;      // kept alive while the receive is posted
  int step = -1;                            // the owner's name for this receive
  size_t arrived_bytes = 0;                 // the size of the message that matched
};

class Messenger {
 public:
  static int create(transport::Transport& transport, std::unique_ptr<Messenger>* out);
  ~Messenger();
  Messenger(const Messenger&) = delete;
  Messenger& operator=(const Messenger&) = delete;

  int send(int target, uint32_t context, uint64_t tag, const void* data, size_t bytes);
  // Returns true when a message was already waiting: it is copied into the receive and the
  // owner is not called. Otherwise the owner's received() runs when the message arrives.
  bool post(Receive* receive);
  size_t max_bytes() const;

 private:
  explicit Messenger(transport::Transport& transport) : transport_(transport) {}
  static void on_message(int source, const void* payload, size_t bytes, void* context);
  void deliver(int source, const void* payload, size_t bytes);

  transport::Transport& transport_;
  int handler_ = -1;
  std::mutex mutex_;
  std::unordered_map<MessageKey, std::deque<Receive*>, MessageKeyHash> posted_;
  std::unordered_map<MessageKey, std::deque<std::vector<uint8_t>>, MessageKeyHash> unexpected_;
};

}  // namespace remora::coll
