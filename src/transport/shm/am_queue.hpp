// A receiver's active-message queue in shared memory: a bounded multi-producer,
// single-consumer ring of fixed-size slots (Vyukov's sequence-numbered ring). Producers claim
// a slot with one CAS on the enqueue position; the consumer needs no atomic read-modify-write.
// A message larger than one slot travels as consecutive chunks (FIRST ... LAST flags); the
// sender holds a per-target lock while it sends them, so a receiver can reassemble per source.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace remora::shm {

struct alignas(64) AmQueueHeader {
  alignas(64) std::atomic<uint64_t> enqueue_position;
  alignas(64) std::atomic<uint64_t> dequeue_position;  // written by the receiver only
  // Senders waiting for space: total, and per sender rank (array after this header).
  alignas(64) std::atomic<uint32_t> space_waiters;
};

struct AmSlotHeader {
  std::atomic<uint64_t> sequence;
  int32_t source;
  uint16_t handler;
  uint16_t flags;
  uint32_t total_bytes;  // of the whole message
  uint32_t chunk_bytes;  // in this slot
};

constexpr uint16_t kChunkFirst = 1;
constexpr uint16_t kChunkLast = 2;
constexpr size_t kSlotPayloadOffset = 32;
static_assert(sizeof(AmSlotHeader) <= kSlotPayloadOffset);
static_assert(std::atomic<uint64_t>::is_always_lock_free);
static_assert(std::atomic<uint32_t>::is_always_lock_free);

// A chunk as the consumer sees it.
struct AmChunk {
  int source;
  uint16_t handler;
  uint16_t flags;
  uint32_t total_bytes;
  const void* data;
  uint32_t bytes;
};

// A view of one queue laid out at `memory` (see bytes_needed); it owns nothing.
class AmQueue {
 public:
  static size_t bytes_needed(int nranks, uint32_t slots, uint32_t slot_bytes);

  AmQueue() = default;
  AmQueue(void* memory, int nranks, uint32_t slots, uint32_t slot_bytes);

  // Prepares fresh memory (zeroed) for use; done once by whoever creates the queue.
  void initialize();

  uint32_t payload_capacity() const {
    return slot_bytes_ - static_cast<uint32_t>(kSlotPayloadOffset);
  }

  // Enqueues one chunk; false if the queue is full.
  bool try_enqueue(int source, uint16_t handler, uint16_t flags, uint32_t total_bytes,
                   const void* data, uint32_t bytes);

  // Consumer only: hands each available chunk to consume(const AmChunk&) in order, frees the
  // slot, and returns how many it consumed (at most max_chunks).
  template <typename Consume>
  size_t drain(Consume&& consume, size_t max_chunks);

  bool has_message() const;  // consumer's view: the next slot is filled
  bool has_space() const;    // producer's view: the next slot is free
  // Any thread: a sender has claimed a slot the consumer has not freed yet. Never misses a
  // message enqueued before a seq_cst fence that precedes the call; may say true too early.
  bool may_hold_messages() const;

  // Back-pressure registry: a sender announces that it waits for space.
  void add_space_waiter(int sender);
  void remove_space_waiter(int sender);
  // Consumer: calls wake(sender) for each sender waiting for space.
  template <typename Wake>
  void wake_space_waiters(Wake&& wake);

 private:
  AmSlotHeader* slot(uint64_t position) const {
    return reinterpret_cast<AmSlotHeader*>(slots_ + (position & mask_) * slot_bytes_);
  }

  AmQueueHeader* header_ = nullptr;
  std::atomic<uint32_t>* waiting_senders_ = nullptr;
  uint8_t* slots_ = nullptr;
  int nranks_ = 0;
  uint32_t nslots_ = 0;
  uint64_t mask_ = 0;
  uint32_t slot_bytes_ = 0;
};

template <typename Consume>
size_t AmQueue::drain(Consume&& consume, size_t max_chunks) {
  size_t consumed = 0;
  uint64_t position = header_->dequeue_position.load(std::memory_order_relaxed);
  while (consumed < max_chunks) {
    AmSlotHeader* s = slot(position);
    if (s->sequence.load(std::memory_order_acquire) != position + 1) break;
    const AmChunk chunk{s->source,
                        s->handler,
                        s->flags,
                        s->total_bytes,
                        reinterpret_cast<const uint8_t*>(s) + kSlotPayloadOffset,
                        s->chunk_bytes};
    consume(chunk);
    s->sequence.store(position + nslots_, std::memory_order_release);
    ++position;
    ++consumed;
  }
  header_->dequeue_position.store(position, std::memory_order_relaxed);
  return consumed;
}

template <typename Wake>
void AmQueue::wake_space_waiters(Wake&& wake) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (header_->space_waiters.load(std::memory_order_relaxed) == 0) return;
  for (int sender = 0; sender < nranks_; ++sender)
    if (waiting_senders_[sender].load(std::memory_order_relaxed) != 0) wake(sender);
}

}  // namespace remora::shm
