#include "rma/lock_table.hpp"

#include <algorithm>

namespace remora::rma {

std::vector<uint64_t> stripes_for_range(uint64_t offset, uint64_t bytes, uint64_t granularity,
                                        uint64_t stripes) {
  std::vector<uint64_t> result;
  if (bytes == 0) return result;
  const uint64_t first = offset / granularity, last = (offset + bytes - 1) / granularity;
  if (last - first + 1 >= stripes) {
    for (uint64_t i = 0; i < stripes; ++i) result.push_back(i);
    return result;
  }
  for (uint64_t block = first; block <= last; ++block) result.push_back(block % stripes);
  std::sort(result.begin(), result.end());  // a fixed order, should the range wrap around
  return result;
}

int64_t LockTable::try_lock_all(const std::vector<uint64_t>& stripes) {
  const auto tag = static_cast<uint64_t>(transport_.rank()) + 1;
  for (size_t i = 0; i < stripes.size(); ++i) {
    if (stripe(stripes[i]).compare_swap(0, tag)) continue;
    for (size_t j = 0; j < i; ++j) stripe(stripes[j]).store(0);
    if (i > 0) waiters_.wake_all();
    return static_cast<int64_t>(stripes[i]);
  }
  return -1;
}

int LockTable::lock(uint64_t offset, uint64_t bytes, std::vector<uint64_t>* held) {
  *held = stripes_for_range(offset, bytes, granularity_, layout_.stripes);
  for (int64_t busy = try_lock_all(*held); busy >= 0; busy = try_lock_all(*held)) {
    const SyncWord word = stripe(static_cast<uint64_t>(busy));
    if (int status = waiters_.wait([&word] { return word.load() == 0; })) return status;
  }
  return REMORA_SUCCESS;
}

void LockTable::unlock(const std::vector<uint64_t>& held) {
  for (uint64_t index : held) stripe(index).store(0);
  waiters_.wake_all();
}

}  // namespace remora::rma
