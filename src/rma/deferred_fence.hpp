// The deferred fence of paper 001 §3.1. The first fence returns at once; operations are queued
// at the origin. A closing fence (1) runs one reduce-scatter of per-target operation counts, so
// each rank learns how many operations target it — and, since every rank's count is part of
// every result, also that every rank has entered this fence (no rank still makes local stores
// that belong before the epoch); (2) performs its queued operations; (3) adds the number it
// performed on each target to that target's completion counter (in the target's sync part)
// and wakes it; (4) waits until its own counter reaches the total it expects.
// Counters only grow (never reset), so a fast rank's next epoch cannot race a reset.
// On one node (the sync segment is mapped: CPU atomics) the reduce-scatter is done in place:
// each rank stores its counts into a row of its own sync part and then the number of this
// closing fence into a mark beside it, waits until every member's mark reaches that number,
// and sums its column over the members' rows. No shared counter is contended and only the last
// to arrive wakes sleepers (as the central barrier's last does). Closing fences alternate
// between two rows: a rank writes a row again two closing fences later, after it has seen
// every member's mark of the fence in between, which each stores after reading the row.
// Across nodes it is the collectives' reduce-scatter.
#pragma once

#include <cstdint>
#include <vector>

#include "rma/op_queue.hpp"

namespace remora::rma {

class Window;

class DeferredFence {
 public:
  explicit DeferredFence(Window& window);

  OpQueue& queue() { return queue_; }
  // The fence itself (the epoch state has checked the asserts). Whether it closes an epoch is
  // decided from the fences and asserts alone, which are the same on every rank, so all ranks
  // agree on whether to run the reduce-scatter.
  int fence(int assert_flags);

 private:
  int close_epoch();
  // incoming = the operations all ranks perform on this rank in the closing epoch.
  int reduce_counts(uint64_t* incoming);

  Window& window_;
  OpQueue queue_;
  bool opened_ = false;    // the previous fence opened an epoch (no NOSUCCEED)
  uint64_t expected_ = 0;  // operations that targeted this rank in every closed epoch
  uint64_t closed_ = 0;    // closing fences so far (their parity picks the row of counts)
  std::vector<uint64_t> counts_;
};

}  // namespace remora::rma
