#include "transport/shm/am_queue.hpp"

namespace remora::shm {
namespace {

size_t round_up(size_t value, size_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

size_t waiters_bytes(int nranks) {
  return round_up(sizeof(std::atomic<uint32_t>) * static_cast<size_t>(nranks), 64);
}

}  // namespace

size_t AmQueue::bytes_needed(int nranks, uint32_t slots, uint32_t slot_bytes) {
  return sizeof(AmQueueHeader) + waiters_bytes(nranks) + static_cast<size_t>(slots) * slot_bytes;
}

AmQueue::AmQueue(void* memory, int nranks, uint32_t slots, uint32_t slot_bytes)
    : header_(static_cast<AmQueueHeader*>(memory)),
      waiting_senders_(reinterpret_cast<std::atomic<uint32_t>*>(static_cast<uint8_t*>(memory) +
                                                                sizeof(AmQueueHeader))),
      slots_(static_cast<uint8_t*>(memory) + sizeof(AmQueueHeader) + waiters_bytes(nranks)),
      nranks_(nranks),
      nslots_(slots),
      mask_(slots - 1),
      slot_bytes_(slot_bytes) {}

void AmQueue::initialize() {
  new (header_) AmQueueHeader();
  header_->enqueue_position.store(0, std::memory_order_relaxed);
  header_->dequeue_position.store(0, std::memory_order_relaxed);
  header_->space_waiters.store(0, std::memory_order_relaxed);
  for (int r = 0; r < nranks_; ++r) new (&waiting_senders_[r]) std::atomic<uint32_t>(0);
  for (uint64_t i = 0; i < nslots_; ++i) {
    auto* s = new (slot(i)) AmSlotHeader();
    s->sequence.store(i, std::memory_order_relaxed);
  }
  std::atomic_thread_fence(std::memory_order_release);
}

bool AmQueue::try_enqueue(int source, uint16_t handler, uint16_t flags, uint32_t total_bytes,
                          const void* data, uint32_t bytes) {
  uint64_t position = header_->enqueue_position.load(std::memory_order_relaxed);
  AmSlotHeader* s;
  for (;;) {
    s = slot(position);
    const uint64_t sequence = s->sequence.load(std::memory_order_acquire);
    const auto difference = static_cast<int64_t>(sequence - position);
    if (difference == 0) {
      if (header_->enqueue_position.compare_exchange_weak(position, position + 1,
                                                          std::memory_order_relaxed))
        break;
    } else if (difference < 0) {
      return false;  // full: the slot still holds a message the consumer has not taken
    } else {
      position = header_->enqueue_position.load(std::memory_order_relaxed);
    }
  }
  s->source = source;
  s->handler = handler;
  s->flags = flags;
  s->total_bytes = total_bytes;
  s->chunk_bytes = bytes;
  if (bytes > 0) std::memcpy(reinterpret_cast<uint8_t*>(s) + kSlotPayloadOffset, data, bytes);
  s->sequence.store(position + 1, std::memory_order_release);
  return true;
}

bool AmQueue::has_message() const {
  const uint64_t position = header_->dequeue_position.load(std::memory_order_relaxed);
  return slot(position)->sequence.load(std::memory_order_acquire) == position + 1;
}

bool AmQueue::may_hold_messages() const {
  // A stale dequeue position is smaller, so it errs towards true.
  return header_->enqueue_position.load(std::memory_order_seq_cst) !=
         header_->dequeue_position.load(std::memory_order_acquire);
}

bool AmQueue::has_space() const {
  const uint64_t position = header_->enqueue_position.load(std::memory_order_relaxed);
  return slot(position)->sequence.load(std::memory_order_acquire) == position;
}

void AmQueue::add_space_waiter(int sender) {
  waiting_senders_[sender].fetch_add(1, std::memory_order_seq_cst);
  header_->space_waiters.fetch_add(1, std::memory_order_seq_cst);
}

void AmQueue::remove_space_waiter(int sender) {
  header_->space_waiters.fetch_sub(1, std::memory_order_relaxed);
  waiting_senders_[sender].fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace remora::shm
