#include "rma/lock_table.hpp"

#include <algorithm>

#include "transport/am_dispatcher.hpp"

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

// A stripe is a test-and-set lock taken by exchange (swap), not compare-and-swap: a swap that
// finds the stripe taken only replaces one nonzero value by another, so exclusion is the same,
// and under the MPI transport a swap is an MPI_Rget_accumulate request, waited for with
// Remora's waiting policy, while MPI_Compare_and_swap needs MPI_Win_flush_local, which
// busy-polls inside MPI (under the transport's MPI mutex) until the target enters MPI.
//
// Handlers are held from before the first stripe is taken until the last is released (here on
// failure, in unlock() on success): over MPI each stripe operation waits for MPI and polls, and
// a handler run there (an owner-computes request for this table) could wait for a stripe this
// very thread holds. The waits for busy stripes in lock() hold none, so they serve handlers.
int64_t LockTable::try_lock_all(const std::vector<uint64_t>& stripes) {
  const auto tag = static_cast<uint64_t>(transport_.rank()) + 1;
  transport::AmDispatcher::hold_handlers();
  for (size_t i = 0; i < stripes.size(); ++i) {
    if (stripe(stripes[i]).exchange(tag) == 0) continue;
    for (size_t j = 0; j < i; ++j) stripe(stripes[j]).store(0);
    transport::AmDispatcher::release_handlers();
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
  transport::AmDispatcher::release_handlers();
  waiters_.wake_all();
}

}  // namespace remora::rma
