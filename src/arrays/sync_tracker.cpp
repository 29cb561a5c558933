#include "arrays/sync_tracker.hpp"

#include <algorithm>

#include "arrays/array.hpp"

namespace remora::arrays {

void SyncTracker::unmark(Array* array) {
  dirty_.erase(std::remove(dirty_.begin(), dirty_.end(), array), dirty_.end());
}

int SyncTracker::flush_dirty() {
  int result = REMORA_SUCCESS;
  // flush() unmarks the array, so take the list first.
  std::vector<Array*> dirty;
  dirty.swap(dirty_);
  for (Array* array : dirty)
    if (int status = array->flush(); status != REMORA_SUCCESS && result == REMORA_SUCCESS)
      result = status;
  return result;
}

SyncTracker& sync_tracker() {
  static SyncTracker tracker;
  return tracker;
}

}  // namespace remora::arrays
