// The context ids in use on this rank. A new communicator's id is the lowest id free on every
// member of its parent, found by an allreduce (bitwise and) of the members' free masks, so ids
// never need a central authority and two communicators a rank belongs to never share one.
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

namespace remora::coll {

class ContextIds {
 public:
  static constexpr uint32_t kWorld = 0;
  static constexpr size_t kWords = 64;  // 4096 ids
  static constexpr size_t kCount = kWords * 64;

  ContextIds();

  // One bit per id, set when the id is free on this rank.
  std::vector<uint64_t> free_mask() const;
  // The lowest id set in agreed (the and of every member's free_mask), or false when none is.
  static bool lowest(const std::vector<uint64_t>& agreed, uint32_t* id);
  void take(uint32_t id);
  void release(uint32_t id);

 private:
  mutable std::mutex mutex_;
  std::vector<uint64_t> free_;
};

}  // namespace remora::coll
