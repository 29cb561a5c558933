// The live requests behind the C API's remora_request_t handles (collective schedules and
// request-based RMA operations). A handle is not an address but a slot of this table and the
// slot's generation: find and remove index the slot and compare the generation, without a lock
// or a hash (a mutex and a hash-table insert, find and erase were about 400 instructions of an
// 8-byte rget across nodes). The generation is odd while the slot holds a request and moves at
// every add and remove, so a handle whose request was completed (freed) never matches again,
// even after its slot is reused, and an invented one almost never does (its tag byte and index
// range are checked too): either is reported, never followed.
//
// Free slots form a lock-free stack: any thread may add or remove at once (an active-message
// handler on the progress thread may make a request while an application thread completes
// another, at every thread level). When it is empty a new chunk of slots is made under a mutex;
// chunks never move or go away before the table, so a lookup never reads freed memory. As in
// MPI, one request must not be completed by two threads at once; different requests may be.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "core/request.hpp"

namespace remora {

class RequestTable {
 public:
  // At most this many requests live at once (add fails beyond).
  static constexpr uint32_t kChunkSlots = 1024;
  static constexpr uint32_t kMaxChunks = 4096;
  static constexpr uint32_t kMaxLive = kChunkSlots * kMaxChunks;

  // What find says of a handle it does not find live.
  enum class Miss { None, Freed, Invalid };

  RequestTable() = default;
  ~RequestTable();
  RequestTable(const RequestTable&) = delete;
  RequestTable& operator=(const RequestTable&) = delete;

  // The new request's handle (never null), or nullptr when kMaxLive requests are live.
  void* add(std::shared_ptr<Request> request);
  // The request, or nullptr when handle is not live; *miss then says whether it names a slot
  // of this table whose request was completed and freed (or a later one's), or nothing.
  std::shared_ptr<Request> find(const void* handle, Miss* miss = nullptr) const;
  // Takes the request out (nullptr when handle is not live); its slot is free for the next add.
  std::shared_ptr<Request> remove(const void* handle);

 private:
  struct Slot {
    std::atomic<uint32_t> generation{0};  // odd: holds a request
    std::atomic<uint32_t> next{0};        // in the free stack: the next free slot's index + 1
    std::shared_ptr<Request> request;     // written only by the thread that owns the slot
  };
  static constexpr uint64_t kTag = 0xA7;  // bits 24-31 of every handle
  static constexpr uint32_t kNone = ~uint32_t{0};
  static constexpr uint32_t kRetry = kNone - 1;  // grow: another thread refilled the stack

  // The slot a handle names if it could be one of this table's (nullptr otherwise); *generation
  // receives the handle's generation.
  Slot* slot_of(const void* handle, uint32_t* generation) const;
  Slot& slot(uint32_t index) const {
    return chunks_[index / kChunkSlots].load(std::memory_order_acquire)[index % kChunkSlots];
  }
  uint32_t pop();             // a free slot's index, or kNone when full
  void push(uint32_t index);  // index is free again
  // A new chunk: pushes all its slots but the first, which it returns (or kNone, kRetry).
  uint32_t grow();

  // The free stack's head: the top slot's index + 1 (0: empty) in the low half, and a count of
  // its changes in the high half, so that a pop that read a stale top fails its exchange.
  std::atomic<uint64_t> head_{0};
  std::atomic<Slot*> chunks_[kMaxChunks] = {};
  uint32_t chunk_count_ = 0;  // under grow_mutex_
  std::mutex grow_mutex_;
};

}  // namespace remora
