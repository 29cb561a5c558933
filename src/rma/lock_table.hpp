// The accumulate lock table of one rank's window: `stripes` mutex words in its sync part.
// Byte offset o of the window belongs to stripe (o / granularity) % stripes, so a range takes
// only the stripes it touches (one stripe = the whole window). Both accumulate paths that do
// not use CPU atomics take these locks: the caller-computes path from any rank and the
// owner-computes handler at the target, so the two interoperate.
//
// A range's stripes are taken all or nothing: a rank never waits while holding a stripe, so
// waiting may serve messages (whose handlers take stripes too) without deadlock.
#pragma once

#include <cstdint>
#include <vector>

#include "rma/sync_layout.hpp"
#include "rma/waiter_set.hpp"

namespace remora::rma {

// The distinct stripes covering [offset, offset + bytes), in ascending order.
std::vector<uint64_t> stripes_for_range(uint64_t offset, uint64_t bytes, uint64_t granularity,
                                        uint64_t stripes);

class LockTable {
 public:
  // node_local: only the owner's node takes these stripes (every strategy but caller across
  // nodes): CPU atomics on the mapping, whatever the transport's atomics are.
  LockTable(transport::Transport& transport, const transport::Segment& sync, SyncLayout layout,
            uint64_t granularity, int owner, bool node_local = false)
      : transport_(transport),
        sync_(sync),
        layout_(layout),
        granularity_(granularity),
        owner_(owner),
        part_(node_local ? static_cast<unsigned char*>(transport.address(sync, owner)) : nullptr),
        waiters_(transport, sync, layout, owner) {}

  // Locks the stripes of [offset, offset + bytes); *held receives them for unlock().
  int lock(uint64_t offset, uint64_t bytes, std::vector<uint64_t>* held);
  void unlock(const std::vector<uint64_t>& held);

 private:
  SyncWord stripe(uint64_t index) const {
    if (part_ != nullptr)
      return SyncWord(reinterpret_cast<uint64_t*>(part_ + layout_.stripe(index)));
    return SyncWord(transport_, sync_, owner_, layout_.stripe(index));
  }
  // Takes every stripe or none; returns the index of a busy stripe, or -1 on success.
  int64_t try_lock_all(const std::vector<uint64_t>& stripes);

  transport::Transport& transport_;
  const transport::Segment& sync_;
  SyncLayout layout_;
  uint64_t granularity_;
  int owner_;
  unsigned char* part_;  // the owner's sync part, when node-local
  WaiterSet waiters_;
};

}  // namespace remora::rma
