// Tagged point-to-point messages for collective schedules, on one active-message handler.
//
// A message is matched to a receive on (context, source, tag). Small messages are eager: the
// sender's am_send returns once the payload is copied out (the transport chunks large payloads
// and applies back-pressure). Above REMORA_RNDV_BYTES a send may go by rendezvous: the sender
// sends only a ready-to-send header with its buffer's address; the receiver, once a receive
// matches, reads the data straight from the sender's memory (Transport::read_private) and
// replies "done", which completes the sender's send. A receiver that cannot read (the OS
// forbids it) replies "refused" and the sender sends the data eagerly instead, and to that
// rank from then on. At the receiver a message (or header) finds either a posted receive or
// waits in the unexpected queue until one is posted. Messages with the same key match in the
// order they were sent (the transport keeps one sender's messages in order); collectives never
// have two in flight with the same key.
//
// Errors: every message carries its collective's signature (coll/signature.hpp). A rank that
// finds a collective instance failed (bad arguments, mismatched counts or signatures) sends an
// error notice to every member of the communicator (notify); a notice fails the instance
// wherever it still runs, or waits for it when it has not started. Messages and notices of an
// instance that already ended here are dropped (coll/instance_table.hpp).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "coll/instance_table.hpp"
#include "transport/transport.hpp"

namespace remora::coll {

// A message's tag: the collective instance (its sequence number on the communicator) above
// these bits, the step's tag within the collective below.
inline constexpr unsigned kStepTagBits = 24;

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
  // Before a delivering thread fills a receive it took from the posted queue: false when the
  // owner gave up on it (its collective failed), and then it must not be touched. After true,
  // received() or released() follows.
  virtual bool claim(Receive& receive) = 0;
  // The claimed receive went back to the posted queue (a refused rendezvous read).
  virtual void released(Receive& receive) = 0;
};

// Told when a rendezvous send is complete (the receiver has read the data, or it went eagerly).
class SendOwner {
 public:
  virtual ~SendOwner() = default;
  virtual void sent(int step, int status) = 0;
};

struct Receive {
  MessageKey key;
  void* buffer = nullptr;  // exactly `bytes` are expected here...
  size_t bytes = 0;
  std::vector<uint8_t>* dynamic = nullptr;  // ...unless this is set: any size, moved here
  std::shared_ptr<ReceiveOwner> owner;      // kept alive while the receive is posted
  int step = -1;                            // the owner's name for this receive
  size_t arrived_bytes = 0;                 // the size of the message that matched
  uint32_t arrived_signature = 0;           // and the signature of the sender's call
  int failure = 0;  // a failed single-copy read (the thread's last error says why)
};

struct MessengerOptions {
  size_t rendezvous_bytes = SIZE_MAX;  // larger messages of start_send go by rendezvous
  bool single_copy = true;             // false: refuse every rendezvous (as if the OS forbade it)
};

class Messenger {
 public:
  static int create(transport::Transport& transport, const MessengerOptions& options,
                    std::unique_ptr<Messenger>* out);
  ~Messenger();
  Messenger(const Messenger&) = delete;
  Messenger& operator=(const Messenger&) = delete;

  // Eager: complete on return, so data may go away at once. signature: the sender's call
  // (coll/signature.hpp).
  int send(int target, uint32_t context, uint64_t tag, const void* data, size_t bytes,
           uint32_t signature);
  // Like send, except that above the rendezvous threshold it may return kPending: data must
  // then stay valid and unchanged until owner->sent(step, status) is called.
  static constexpr int kPending = 1;
  int start_send(int target, uint32_t context, uint64_t tag, const void* data, size_t bytes,
                 uint32_t signature, std::shared_ptr<SendOwner> owner, int step);
  // Returns true when a message was already waiting: it is copied into the receive and the
  // owner is not called. Otherwise the owner's received() runs when the message arrives.
  bool post(Receive* receive);
  size_t max_bytes() const;

  InstanceTable& instances() { return *instances_; }
  // For communicators, which close their context in it when they go (possibly after this).
  const std::shared_ptr<InstanceTable>& shared_instances() const { return instances_; }
  // Sends an error notice for instance `sequence` of the communicator with this context to its
  // other members: code and message (which names this rank's argument) end the instance there.
  void notify(uint32_t context, uint64_t sequence, int code, const std::string& message);
  // A failed instance: drops its posted receives and the rendezvous sends of owner in flight.
  void withdraw(uint32_t context, uint64_t sequence, const SendOwner* owner);
  // The instance ended here: forgets its unexpected messages, drops those still to come.
  void end_instance(uint32_t context, uint64_t sequence);
  // The same for an instance begun with InstanceTable::begin_unscheduled (in entry `entry`).
  // Inline: once per call of the small path.
  void end_unscheduled_instance(InstanceTable::Context* slot, uint32_t context, uint64_t sequence,
                                int entry = 0) {
    instances_->end_unscheduled(slot, sequence, entry);
    // Nothing to forget unless a message came for some instance (the common case: none).
    if (unexpected_keys_.load(std::memory_order_relaxed) != 0) forget(context, sequence);
  }

 private:
  // Under no lock: drops the instance's unexpected messages (answering rendezvous senders).
  void forget(uint32_t context, uint64_t sequence);
  struct ReadyToSend {  // a rendezvous header's body
    uint64_t address = 0, bytes = 0, id = 0;
  };
  struct Unexpected {
    std::vector<uint8_t> data;  // an eager message...
    bool rendezvous = false;    // ...or a ready-to-send header from source
    int source = -1;
    uint32_t signature = 0;
    ReadyToSend header;
  };
  struct PendingSend {
    int target = -1;
    uint32_t context = 0;
    uint64_t tag = 0;
    const void* data = nullptr;
    size_t bytes = 0;
    uint32_t signature = 0;
    std::shared_ptr<SendOwner> owner;
    int step = -1;
  };

  Messenger(transport::Transport& transport, const MessengerOptions& options);
  static void on_message(int source, const void* payload, size_t bytes, void* context);
  void deliver(int source, const void* payload, size_t bytes);
  // Reads a matched rendezvous message into receive and tells the sender. False when the read
  // is refused: the receive is posted again (first in line) and the data will come eagerly.
  bool read_rendezvous(Receive& receive, int source, const ReadyToSend& header);
  void answer(int source, uint32_t kind, uint64_t id);
  void answered(uint32_t kind, uint64_t id);  // at the sender: done or refused
  void noticed(int source, uint32_t context, uint64_t sequence, const uint8_t* body, size_t bytes);
  // A message whose signature disagrees with this rank's call of its instance (found): fails
  // the instance here and tells the others.
  void disagree(int source, uint32_t context, uint64_t sequence, uint32_t signature,
                const InstanceTable::Found& found);

  transport::Transport& transport_;
  const MessengerOptions options_;
  int handler_ = -1;
  std::mutex mutex_;
  using Posted = std::unordered_map<MessageKey, std::deque<Receive*>, MessageKeyHash>;
  using Unexpecteds = std::unordered_map<MessageKey, std::deque<Unexpected>, MessageKeyHash>;
  Posted posted_;
  Unexpecteds unexpected_;
  // Emptied entries of the two maps, kept for the next keys (under mutex_): a key lives for one
  // message, and a new entry allocates three times (its node, its queue's map and first chunk).
  std::vector<Posted::node_type> spare_posted_;
  std::vector<Unexpecteds::node_type> spare_unexpected_;
  std::atomic<size_t> unexpected_keys_{0};  // unexpected_.size(), read without the lock
  std::unordered_map<uint64_t, PendingSend> pending_sends_;
  uint64_t next_send_id_ = 0;
  std::vector<bool> eager_only_;  // per target: it refused a rendezvous once
  std::shared_ptr<InstanceTable> instances_ = std::make_shared<InstanceTable>();
};

}  // namespace remora::coll
