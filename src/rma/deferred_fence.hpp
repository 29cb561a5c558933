// The deferred fence of paper 001 §3.1. The first fence returns at once; operations are queued
// at the origin. A closing fence (1) runs one reduce-scatter of per-target operation counts, so
// each rank learns how many operations target it — and, since every rank's count is part of
// every result, also that every rank has entered this fence (no rank still makes local stores
// that belong before the epoch); (2) performs its queued operations; (3) adds the number it
// performed on each target to that target's completion counter (in the target's sync part)
// and wakes it; (4) waits until its own counter reaches the total it expects. No barrier.
// Counters only grow (never reset), so a fast rank's next epoch cannot race a reset.
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

  Window& window_;
  OpQueue queue_;
  bool opened_ = false;    // the previous fence opened an epoch (no NOSUCCEED)
  uint64_t expected_ = 0;  // operations that targeted this rank in every closed epoch
  std::vector<uint64_t> counts_;
};

}  // namespace remora::rma
