// The lock of the MPI transport's MPI calls and of the state they share (the channel's, the
// windows' flush lists, staging blocks and rgets in flight). Only another thread of this rank can
// contend for it: the progress thread (REMORA_PROGRESS=thread: always_) or other application
// threads, which exist at REMORA_THREAD_MULTIPLE only (below it the application calls Remora from
// one thread at a time). Otherwise it is not taken: an uncontended lock and unlock cost about
// 23 ns on this VM, against 0.33 µs for an 8-byte MPI_Put in a bandwidth loop. The thread level
// changes only in remora_init and remora_finalize, where no thread holds it, so lock and unlock
// agree.
#pragma once

#include <mutex>

#include "core/threads.hpp"

namespace remora::mpi {

class MpiMutex {
 public:
  explicit MpiMutex(bool always = true) : always_(always) {}
  MpiMutex(const MpiMutex&) = delete;
  MpiMutex& operator=(const MpiMutex&) = delete;
  // Whether a thread other than the application's uses MPI through this transport (before any
  // thread takes the lock).
  void set_always(bool always) { always_ = always; }
  void lock() {
    if (needed()) mutex_.lock();
  }
  bool try_lock() { return !needed() || mutex_.try_lock(); }
  void unlock() {
    if (needed()) mutex_.unlock();
  }

 private:
  bool needed() const { return always_ || threads::multiple(); }
  std::mutex mutex_;
  bool always_;
};

}  // namespace remora::mpi
