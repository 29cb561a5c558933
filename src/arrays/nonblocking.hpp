// Nonblocking patch operations (remora_array_nbput / nbget / nbacc). The issuing call copies the
// operation's arguments (not the buffer), records the targets for flush and sync, queues the
// operation and returns: the copies themselves are performed by the rank's progress engine.
// The queue rings a doorbell (one active message to this rank, sent only when none is pending),
// so with REMORA_PROGRESS=thread the progress thread performs the transfers while the
// application computes; with manual or ghost progress they are performed by the next Remora
// call of this rank that makes progress (test, wait, flush, sync, any wait inside the library).
// wait and flush do not sit idle either: they perform queued operations themselves.
//
// The transport seam has no asynchronous put/get (shared memory copies, and the MPI transport
// waits for each MPI request inside the call), so an operation, once started, runs to its end
// on the thread that started it; what is asynchronous is when, and on which thread.
//
// Buffers: a put's or acc's buffer is read when the operation is performed, so it may be
// changed or freed only after the request completes (wait, test reporting done, or
// flush_local / flush / sync of the array), as Global Arrays' NGA_NbPut; a get's buffer holds
// the data after completion. Operations are performed in issue order.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "transport/transport.hpp"

namespace remora::arrays {

class Array;

class NbOperation {
 public:
  enum class Kind { Put, Get, Acc };
  // Copies lo, hi, ld and alpha; buffer is only referenced.
  NbOperation(Kind kind, Array& array, const int64_t* lo, const int64_t* hi, void* buffer,
              const int64_t* ld, const void* alpha);

  // Runs the transfer (once): on the progress thread, in a poll, or in a wait.
  void perform();
  bool done() const { return done_.load(std::memory_order_acquire); }
  // The transfer's status once done().
  int status() const { return status_; }
  Array& array() const { return array_; }

 private:
  Kind kind_;
  Array& array_;
  std::vector<int64_t> lo_, hi_, ld_;
  void* buffer_;
  unsigned char alpha_[16] = {};
  int status_ = 0;
  std::atomic<bool> done_{false};
};

// The process's queue of issued, not yet performed operations (all arrays, issue order).
class NbQueue {
 public:
  // Registers the doorbell's handler on first use.
  int prepare(transport::Transport& transport);
  // Queues op and rings the doorbell (after prepare).
  int issue(transport::Transport& transport, std::shared_ptr<NbOperation> op);
  // Performs the oldest queued operation; false when the queue was empty or another thread
  // is performing one.
  bool run_one();
  // Waits until ready(), performing queued operations and polling meanwhile.
  template <typename F>
  int wait(transport::Transport& transport, const F& ready) {
    return transport.wait_until(ready, [&] { return run_one() || transport.poll(); });
  }
  // Operations issued and not yet performed (for remora_array_outstanding and tests).
  size_t queued() const;

 private:
  int ring();
  static void on_doorbell(int source, const void* payload, size_t bytes, void* context);

  mutable std::mutex mutex_;  // guards queue_
  std::mutex perform_mutex_;  // held while an operation is performed
  std::deque<std::shared_ptr<NbOperation>> queue_;
  std::atomic<bool> doorbell_pending_{false};
  transport::Transport* transport_ = nullptr;
  int handler_id_ = -1;
};

NbQueue& nb_queue();

}  // namespace remora::arrays
