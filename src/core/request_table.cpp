#include "core/request_table.hpp"

#include <utility>

namespace remora {
namespace {

// handle = generation << 32 | tag << 24 | index (index < kMaxLive < 2^24).
void* encode(uint32_t generation, uint64_t tag, uint32_t index) {
  return reinterpret_cast<void*>(uintptr_t{(uint64_t{generation} << 32) | (tag << 24) | index});
}

}  // namespace

RequestTable::~RequestTable() {
  for (uint32_t chunk = 0; chunk < chunk_count_; ++chunk)
    delete[] chunks_[chunk].load(std::memory_order_relaxed);
}

void* RequestTable::add(std::shared_ptr<Request> request) {
  const uint32_t index = pop();
  if (index == kNone) return nullptr;
  Slot& free = slot(index);
  free.request = std::move(request);
  // Odd from here on: finds of the new handle see the request stored before.
  const uint32_t generation = free.generation.load(std::memory_order_relaxed) + 1;
  free.generation.store(generation, std::memory_order_release);
  return encode(generation, kTag, index);
}

RequestTable::Slot* RequestTable::slot_of(const void* handle, uint32_t* generation) const {
  const auto value = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle));
  const auto index = static_cast<uint32_t>(value & 0xFFFFFF);
  if (((value >> 24) & 0xFF) != kTag || index / kChunkSlots >= kMaxChunks) return nullptr;
  Slot* chunk = chunks_[index / kChunkSlots].load(std::memory_order_acquire);
  if (chunk == nullptr) return nullptr;
  *generation = static_cast<uint32_t>(value >> 32);
  return &chunk[index % kChunkSlots];
}

std::shared_ptr<Request> RequestTable::find(const void* handle, Miss* miss) const {
  uint32_t generation = 0;
  Slot* found = slot_of(handle, &generation);
  if (found != nullptr && (generation & 1) != 0 &&
      found->generation.load(std::memory_order_acquire) == generation)
    return found->request;
  if (miss != nullptr)
    *miss = found != nullptr && (generation & 1) != 0 ? Miss::Freed : Miss::Invalid;
  return nullptr;
}

std::shared_ptr<Request> RequestTable::remove(const void* handle) {
  uint32_t generation = 0;
  Slot* found = slot_of(handle, &generation);
  // One exchange: of two removes of one handle only one frees the slot.
  if (found == nullptr || (generation & 1) == 0 ||
      !found->generation.compare_exchange_strong(generation, generation + 1,
                                                 std::memory_order_acquire))
    return nullptr;
  std::shared_ptr<Request> request = std::move(found->request);
  const auto value = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle));
  push(static_cast<uint32_t>(value & 0xFFFFFF));
  return request;
}

uint32_t RequestTable::pop() {
  uint64_t head = head_.load(std::memory_order_acquire);
  for (;;) {
    const auto top = static_cast<uint32_t>(head);
    if (top == 0) {
      const uint32_t made = grow();
      if (made != kRetry) return made;
      head = head_.load(std::memory_order_acquire);  // another thread grew it first
      continue;
    }
    // A stale read of next (the slot popped and pushed meanwhile) fails the exchange: the
    // count in the high half has moved.
    const uint32_t next = slot(top - 1).next.load(std::memory_order_relaxed);
    const uint64_t popped = ((head >> 32) + 1) << 32 | next;
    if (head_.compare_exchange_weak(head, popped, std::memory_order_acquire,
                                    std::memory_order_acquire))
      return top - 1;
  }
}

void RequestTable::push(uint32_t index) {
  Slot& freed = slot(index);
  uint64_t head = head_.load(std::memory_order_relaxed);
  uint64_t pushed = 0;
  do {
    freed.next.store(static_cast<uint32_t>(head), std::memory_order_relaxed);
    pushed = ((head >> 32) + 1) << 32 | (index + 1);
  } while (!head_.compare_exchange_weak(head, pushed, std::memory_order_release,
                                        std::memory_order_relaxed));
}

uint32_t RequestTable::grow() {
  std::lock_guard lock(grow_mutex_);
  if (static_cast<uint32_t>(head_.load(std::memory_order_acquire)) != 0) return kRetry;
  if (chunk_count_ == kMaxChunks) return kNone;
  const uint32_t first = chunk_count_ * kChunkSlots;
  Slot* chunk = new Slot[kChunkSlots];
  // Published before any of its slots can be popped (push and pop read it through slot()).
  chunks_[chunk_count_].store(chunk, std::memory_order_release);
  ++chunk_count_;
  for (uint32_t i = kChunkSlots - 1; i >= 1; --i) push(first + i);
  return first;
}

}  // namespace remora
