#include "coll/messaging.hpp"

#include <cstring>

#include "core/error.hpp"

namespace remora::coll {
namespace {

struct WireHeader {
  uint32_t context;
  uint32_t reserved;
  uint64_t tag;
};

// Copies a message into a receive's fixed buffer when the sizes agree; a mismatch is the
// owner's to report, from arrived_bytes.
void fill(Receive& receive, const uint8_t* data, size_t bytes) {
  receive.arrived_bytes = bytes;
  if (receive.dynamic != nullptr) {
    receive.dynamic->assign(data, data + bytes);
  } else if (bytes == receive.bytes && bytes > 0) {
    std::memcpy(receive.buffer, data, bytes);
  }
}

void fill(Receive& receive, std::vector<uint8_t>&& data) {
  if (receive.dynamic == nullptr) return fill(receive, data.data(), data.size());
  receive.arrived_bytes = data.size();
  *receive.dynamic = std::move(data);
}

}  // namespace

int Messenger::create(transport::Transport& transport, std::unique_ptr<Messenger>* out) {
  std::unique_ptr<Messenger> messenger(new Messenger(transport));
  const int status =
      transport.am_register(&Messenger::on_message, messenger.get(), &messenger->handler_);
  if (status != REMORA_SUCCESS) return status;
  *out = std::move(messenger);
  return REMORA_SUCCESS;
}

Messenger::~Messenger() {
  // Receives still posted belong to abandoned schedules: let their owners go.
  for (auto& [key, receives] : posted_)
    for (Receive* receive : receives)
      std::shared_ptr<ReceiveOwner> owner = std::move(receive->owner);
}

size_t Messenger::max_bytes() const {
  return transport_.am_max_bytes() - sizeof(WireHeader);
}

int Messenger::send(int target, uint32_t context, uint64_t tag, const void* data, size_t bytes) {
  if (bytes > max_bytes())
    return fail(REMORA_ERR_UNSUPPORTED,
                "a collective message of %zu bytes exceeds the largest active message (%zu bytes, "
                "REMORA_AM_MAX_BYTES); messages this large need the rendezvous protocol",
                bytes, max_bytes());
  std::vector<uint8_t> message(sizeof(WireHeader) + bytes);
  const WireHeader header{context, 0, tag};
  std::memcpy(message.data(), &header, sizeof header);
  if (bytes > 0) std::memcpy(message.data() + sizeof header, data, bytes);
  return transport_.am_send(target, handler_, message.data(), message.size());
}

bool Messenger::post(Receive* receive) {
  std::vector<uint8_t> data;
  {
    std::lock_guard lock(mutex_);
    auto waiting = unexpected_.find(receive->key);
    if (waiting == unexpected_.end()) {
      posted_[receive->key].push_back(receive);
      return false;
    }
    data = std::move(waiting->second.front());
    waiting->second.pop_front();
    if (waiting->second.empty()) unexpected_.erase(waiting);
  }
  fill(*receive, std::move(data));
  receive->owner.reset();  // the caller holds the owner; nobody will call it back
  return true;
}

void Messenger::on_message(int source, const void* payload, size_t bytes, void* context) {
  static_cast<Messenger*>(context)->deliver(source, payload, bytes);
}

void Messenger::deliver(int source, const void* payload, size_t bytes) {
  WireHeader header;
  std::memcpy(&header, payload, sizeof header);
  const auto* data = static_cast<const uint8_t*>(payload) + sizeof header;
  const size_t data_bytes = bytes - sizeof header;
  const MessageKey key{header.context, source, header.tag};
  Receive* receive = nullptr;
  {
    std::lock_guard lock(mutex_);
    auto posted = posted_.find(key);
    if (posted == posted_.end()) {
      unexpected_[key].emplace_back(data, data + data_bytes);
      return;
    }
    receive = posted->second.front();
    posted->second.pop_front();
    if (posted->second.empty()) posted_.erase(posted);
  }
  // The receive is ours alone now: fill it and tell its owner outside the lock, so the owner
  // may post further receives.
  fill(*receive, data, data_bytes);
  std::shared_ptr<ReceiveOwner> owner = std::move(receive->owner);
  owner->received(*receive);
}

}  // namespace remora::coll
