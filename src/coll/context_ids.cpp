#include "coll/context_ids.hpp"

#include <bit>

namespace remora::coll {

ContextIds::ContextIds() : free_(kWords, ~uint64_t{0}) {
  take(kWorld);
}

std::vector<uint64_t> ContextIds::free_mask() const {
  std::lock_guard lock(mutex_);
  return free_;
}

bool ContextIds::lowest(const std::vector<uint64_t>& agreed, uint32_t* id) {
  for (size_t word = 0; word < agreed.size(); ++word) {
    if (agreed[word] == 0) continue;
    *id = static_cast<uint32_t>(word * 64 + static_cast<size_t>(std::countr_zero(agreed[word])));
    return true;
  }
  return false;
}

void ContextIds::take(uint32_t id) {
  std::lock_guard lock(mutex_);
  free_[id / 64] &= ~(uint64_t{1} << (id % 64));
}

void ContextIds::release(uint32_t id) {
  std::lock_guard lock(mutex_);
  free_[id / 64] |= uint64_t{1} << (id % 64);
}

}  // namespace remora::coll
