// Which arrays have operations not yet remotely complete, so that sync completes only those:
// its cost follows the arrays (and, inside each, the targets) touched since the last sync, not
// the number of arrays that exist.
#pragma once

#include <cstddef>
#include <vector>

namespace remora::arrays {

class Array;

class SyncTracker {
 public:
  // An array's first operation since its last flush.
  void mark(Array* array) { dirty_.push_back(array); }
  // An array leaves the list (flushed by itself, or destroyed).
  void unmark(Array* array);
  // Flushes every dirty array; the list is empty afterwards.
  int flush_dirty();
  size_t dirty_count() const { return dirty_.size(); }

 private:
  std::vector<Array*> dirty_;
};

// The process's tracker (one per process, like the runtime).
SyncTracker& sync_tracker();

}  // namespace remora::arrays
