#include "coll/messaging.hpp"

#include <algorithm>
#include <cstring>

#include "coll/schedule.hpp"
#include "coll/signature.hpp"
#include "coll/staged_message.hpp"
#include "core/error.hpp"

namespace remora::coll {
namespace {

// How many emptied entries of each map are kept (a collective step has a few keys at a time).
constexpr size_t kSpareEntries = 8;

// map[key], made from a spare entry when there is one.
template <typename Map>
typename Map::mapped_type& entry_of(Map& map, std::vector<typename Map::node_type>& spare,
                                    const typename Map::key_type& key) {
  auto found = map.find(key);
  if (found != map.end()) return found->second;
  if (spare.empty()) return map[key];
  typename Map::node_type node = std::move(spare.back());
  spare.pop_back();
  node.key() = key;
  return map.insert(std::move(node)).position->second;
}

// Erases the entry at position (its queue empty), keeping it for entry_of.
template <typename Map>
void drop_entry(Map& map, std::vector<typename Map::node_type>& spare,
                typename Map::iterator position) {
  if (spare.size() >= kSpareEntries) {
    map.erase(position);
    return;
  }
  spare.push_back(map.extract(position));
}

enum Kind : uint32_t { kEager = 0, kReadyToSend, kDone, kRefused, kNotice };

struct WireHeader {
  uint32_t context;
  uint32_t kind;  // Kind in the low 8 bits, the sender's call signature above
  uint64_t tag;
};
constexpr unsigned kSignatureShift = 8;
constexpr uint32_t kKindMask = (1U << kSignatureShift) - 1;

uint32_t pack(Kind kind, uint32_t signature) {
  return kind | signature << kSignatureShift;
}

struct NoticeBody {  // followed by the failure's message
  int32_t code;
  int32_t origin;  // the rank (in the communicator) that found the failure
};

uint64_t instance_of(uint64_t tag) {
  return tag >> kStepTagBits;
}

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

template <typename Body>
std::vector<uint8_t> control_message(const WireHeader& header, const Body& body) {
  std::vector<uint8_t> message(sizeof header + sizeof body);
  std::memcpy(message.data(), &header, sizeof header);
  std::memcpy(message.data() + sizeof header, &body, sizeof body);
  return message;
}

}  // namespace

Messenger::Messenger(transport::Transport& transport, const MessengerOptions& options)
    : transport_(transport),
      options_(options),
      eager_only_(static_cast<size_t>(transport.size()), false) {}

int Messenger::create(transport::Transport& transport, const MessengerOptions& options,
                      std::unique_ptr<Messenger>* out) {
  std::unique_ptr<Messenger> messenger(new Messenger(transport, options));
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
  pending_sends_.clear();
}

size_t Messenger::max_bytes() const {
  return transport_.am_max_bytes() - sizeof(WireHeader);
}

int Messenger::send(int target, uint32_t context, uint64_t tag, const void* data, size_t bytes,
                    uint32_t signature) {
  if (bytes > max_bytes())
    return fail(REMORA_ERR_UNSUPPORTED,
                "a collective message of %zu bytes exceeds the largest active message (%zu bytes, "
                "REMORA_AM_MAX_BYTES) and cannot go by rendezvous (REMORA_RNDV_BYTES, and the "
                "receiver must be allowed to read the sender's memory)",
                bytes, max_bytes());
  const WireHeader header{context, pack(kEager, signature), tag};
  const StagedMessage message(&header, sizeof header, data, bytes);
  return transport_.am_send(target, handler_, message.data(), message.size());
}

int Messenger::start_send(int target, uint32_t context, uint64_t tag, const void* data,
                          size_t bytes, uint32_t signature, std::shared_ptr<SendOwner> owner,
                          int step) {
  if (bytes <= options_.rendezvous_bytes) return send(target, context, tag, data, bytes, signature);
  uint64_t id = 0;
  bool eager = false;
  {
    std::lock_guard lock(mutex_);
    eager = eager_only_[static_cast<size_t>(target)];
    if (!eager) {
      id = next_send_id_++;
      pending_sends_.emplace(
          id, PendingSend{target, context, tag, data, bytes, signature, std::move(owner), step});
    }
  }
  if (eager) return send(target, context, tag, data, bytes, signature);
  const ReadyToSend body{reinterpret_cast<uintptr_t>(data), bytes, id};
  const auto message =
      control_message(WireHeader{context, pack(kReadyToSend, signature), tag}, body);
  const int status = transport_.am_send(target, handler_, message.data(), message.size());
  if (status != REMORA_SUCCESS) {
    std::lock_guard lock(mutex_);
    pending_sends_.erase(id);
    return status;
  }
  return kPending;
}

bool Messenger::post(Receive* receive) {
  Unexpected waiting;
  {
    std::lock_guard lock(mutex_);
    auto found = unexpected_.find(receive->key);
    if (found == unexpected_.end()) {
      entry_of(posted_, spare_posted_, receive->key).push_back(receive);
      return false;
    }
    waiting = std::move(found->second.front());
    found->second.pop_front();
    if (found->second.empty()) drop_entry(unexpected_, spare_unexpected_, found);
    unexpected_keys_.store(unexpected_.size(), std::memory_order_relaxed);
  }
  receive->arrived_signature = waiting.signature;
  if (waiting.rendezvous) {
    if (!read_rendezvous(*receive, waiting.source, waiting.header)) return false;
  } else {
    fill(*receive, std::move(waiting.data));
  }
  receive->owner.reset();  // the caller holds the owner; nobody will call it back
  return true;
}

bool Messenger::read_rendezvous(Receive& receive, int source, const ReadyToSend& header) {
  const auto bytes = static_cast<size_t>(header.bytes);
  receive.arrived_bytes = bytes;
  const bool fits = receive.dynamic != nullptr || receive.bytes == bytes;  // else: mismatch
  if (fits && bytes > 0) {
    void* target = receive.buffer;
    if (receive.dynamic != nullptr) {
      receive.dynamic->resize(bytes);
      target = receive.dynamic->data();
    }
    const int status =
        options_.single_copy
            ? transport_.read_private(
                  source, reinterpret_cast<const void*>(static_cast<uintptr_t>(header.address)),
                  target, bytes)
            : REMORA_ERR_UNSUPPORTED;
    if (status == REMORA_ERR_UNSUPPORTED) {
      {
        std::lock_guard lock(mutex_);
        entry_of(posted_, spare_posted_, receive.key).push_front(&receive);
      }
      answer(source, kRefused, header.id);
      return false;
    }
    receive.failure = status;
  }
  answer(source, kDone, header.id);
  return true;
}

void Messenger::answer(int source, uint32_t kind, uint64_t id) {
  const auto message = control_message(WireHeader{0, kind, 0}, id);
  // A failed answer means the job is being torn down; the sender's wait reports that.
  transport_.am_send(source, handler_, message.data(), message.size());
}

void Messenger::answered(uint32_t kind, uint64_t id) {
  PendingSend send_state;
  {
    std::lock_guard lock(mutex_);
    auto found = pending_sends_.find(id);
    if (found == pending_sends_.end()) return;
    send_state = std::move(found->second);
    pending_sends_.erase(found);
    if (kind == kRefused) eager_only_[static_cast<size_t>(send_state.target)] = true;
  }
  int status = REMORA_SUCCESS;
  if (kind == kRefused)
    status = send(send_state.target, send_state.context, send_state.tag, send_state.data,
                  send_state.bytes, send_state.signature);
  send_state.owner->sent(send_state.step, status);
}

void Messenger::on_message(int source, const void* payload, size_t bytes, void* context) {
  static_cast<Messenger*>(context)->deliver(source, payload, bytes);
}

void Messenger::deliver(int source, const void* payload, size_t bytes) {
  WireHeader header;
  std::memcpy(&header, payload, sizeof header);
  const auto* data = static_cast<const uint8_t*>(payload) + sizeof header;
  const size_t data_bytes = bytes - sizeof header;
  const uint32_t kind = header.kind & kKindMask;
  const uint32_t signature = header.kind >> kSignatureShift;
  if (kind == kDone || kind == kRefused) {
    uint64_t id = 0;
    std::memcpy(&id, data, sizeof id);
    return answered(kind, id);
  }
  const uint64_t sequence = instance_of(header.tag);
  if (kind == kNotice) return noticed(source, header.context, sequence, data, data_bytes);
  Unexpected arrived;
  arrived.rendezvous = kind == kReadyToSend;
  arrived.source = source;
  arrived.signature = signature;
  if (arrived.rendezvous) std::memcpy(&arrived.header, data, sizeof arrived.header);
  const InstanceTable::Found found = instances_->find(header.context, sequence);
  const bool agree = signatures_agree(found.signature, signature);
  if (!agree) disagree(source, header.context, sequence, signature, found);
  if (!agree || found.state == InstanceTable::State::Ended) {
    // Nobody here will ever take it; a rendezvous sender must not wait for the read.
    if (arrived.rendezvous) answer(source, kDone, arrived.header.id);
    return;
  }
  const MessageKey key{header.context, source, header.tag};
  Receive* receive = nullptr;
  {
    std::lock_guard lock(mutex_);
    auto posted = posted_.find(key);
    if (posted == posted_.end()) {
      if (!arrived.rendezvous) arrived.data.assign(data, data + data_bytes);
      entry_of(unexpected_, spare_unexpected_, key).push_back(std::move(arrived));
      unexpected_keys_.store(unexpected_.size(), std::memory_order_relaxed);
      return;
    }
    receive = posted->second.front();
    posted->second.pop_front();
    if (posted->second.empty()) drop_entry(posted_, spare_posted_, posted);
  }
  // The receive is ours alone now: fill it and tell its owner outside the lock, so the owner
  // may post further receives; unless its collective failed meanwhile.
  std::shared_ptr<ReceiveOwner> owner = receive->owner;
  if (!owner->claim(*receive)) {
    receive->owner.reset();
    if (arrived.rendezvous) answer(source, kDone, arrived.header.id);
    return;
  }
  receive->arrived_signature = signature;
  if (arrived.rendezvous) {
    if (!read_rendezvous(*receive, source, arrived.header)) return owner->released(*receive);
  } else {
    fill(*receive, data, data_bytes);
  }
  receive->owner.reset();
  owner->received(*receive);
}

void Messenger::notify(uint32_t context, uint64_t sequence, int code, const std::string& message) {
  int me = -1;
  const std::vector<int> members = instances_->members(context, &me);
  const size_t text = std::min(message.size(), max_bytes() - sizeof(NoticeBody));
  std::vector<uint8_t> notice(sizeof(WireHeader) + sizeof(NoticeBody) + text);
  const WireHeader header{context, kNotice, sequence << kStepTagBits};
  const NoticeBody body{code, me};
  std::memcpy(notice.data(), &header, sizeof header);
  std::memcpy(notice.data() + sizeof header, &body, sizeof body);
  std::memcpy(notice.data() + sizeof header + sizeof body, message.data(), text);
  for (size_t rank = 0; rank < members.size(); ++rank)
    if (static_cast<int>(rank) != me)
      // A failed notice means the job is being torn down, which ends every wait anyway.
      transport_.am_send(members[rank], handler_, notice.data(), notice.size());
}

void Messenger::noticed(int source, uint32_t context, uint64_t sequence, const uint8_t* body,
                        size_t bytes) {
  NoticeBody notice{};
  if (bytes < sizeof notice) return;
  std::memcpy(&notice, body, sizeof notice);
  const std::string text(reinterpret_cast<const char*>(body) + sizeof notice,
                         bytes - sizeof notice);
  const Failure failure{notice.code,
                        format("rank %d of the communicator (world rank %d) failed this "
                               "collective: %s",
                               notice.origin, source, text.c_str())};
  if (auto schedule = instances_->announce(context, sequence, failure))
    schedule->end_with_failure(failure, false);
}

void Messenger::disagree(int source, uint32_t context, uint64_t sequence, uint32_t signature,
                         const InstanceTable::Found& found) {
  int me = -1;
  const std::vector<int> members = instances_->members(context, &me);
  int sender = -1;
  for (size_t rank = 0; rank < members.size(); ++rank)
    if (members[rank] == source) sender = static_cast<int>(rank);
  const Failure failure{
      REMORA_ERR_ARG,
      format("mismatched arguments between ranks: rank %d of the communicator called %s where "
             "rank %d called %s",
             sender, describe_signature(signature).c_str(), me,
             describe_signature(found.signature).c_str())};
  if (found.schedule != nullptr) return found.schedule->end_with_failure(failure, true);
  // Not started when found: kept for its start, unless it started since (then fail it now).
  if (found.state == InstanceTable::State::Running)
    if (auto started = instances_->announce(context, sequence, failure))
      return started->end_with_failure(failure, true);
  // Not started here yet, or already ended: the others still need to hear of it.
  notify(context, sequence, failure.code, failure.message);
}

void Messenger::withdraw(uint32_t context, uint64_t sequence, const SendOwner* owner) {
  std::vector<Receive*> withdrawn;
  {
    std::lock_guard lock(mutex_);
    std::erase_if(posted_, [&](auto& entry) {
      if (entry.first.context != context || instance_of(entry.first.tag) != sequence) return false;
      withdrawn.insert(withdrawn.end(), entry.second.begin(), entry.second.end());
      return true;
    });
    std::erase_if(pending_sends_,
                  [owner](const auto& entry) { return entry.second.owner.get() == owner; });
  }
  // The owner is the caller, alive while it runs; these references only kept it so.
  for (Receive* receive : withdrawn) receive->owner.reset();
}

void Messenger::end_instance(uint32_t context, uint64_t sequence) {
  instances_->end(context, sequence);
  // As end_unscheduled_instance: the lock and the scan only when some message is unexpected.
  if (unexpected_keys_.load(std::memory_order_relaxed) != 0) forget(context, sequence);
}

void Messenger::forget(uint32_t context, uint64_t sequence) {
  std::vector<std::pair<int, uint64_t>> waiting_senders;  // rendezvous headers never read
  {
    std::lock_guard lock(mutex_);
    std::erase_if(unexpected_, [&](const auto& entry) {
      if (entry.first.context != context || instance_of(entry.first.tag) != sequence) return false;
      for (const Unexpected& message : entry.second)
        if (message.rendezvous) waiting_senders.emplace_back(message.source, message.header.id);
      return true;
    });
    unexpected_keys_.store(unexpected_.size(), std::memory_order_relaxed);
  }
  for (const auto& [source, id] : waiting_senders) answer(source, kDone, id);
}

}  // namespace remora::coll
