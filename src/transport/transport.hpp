// The transport seam (DESIGN.md section 2): everything above this layer is written once against
// this interface, so the same protocol code runs on shared memory (shm/) and over MPI (mpi/).
//
// The transport trusts its callers: arguments are validated by the public API layer.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/backoff.hpp"
#include "core/request.hpp"
#include "core/threads.hpp"
#include "remora/status.h"

namespace remora::transport {

constexpr int kMaxStrideLevels = 8;

// A collectively allocated memory region with one part per rank.
struct Segment {
  virtual ~Segment() = default;
  std::vector<size_t> bytes;  // bytes[r]: the size of rank r's part
  uint64_t id = 0;            // the same on every rank: segments are allocated collectively
};

// ARMCI-style strided shape: count[0] contiguous bytes; count[1..levels] repetitions with byte
// strides local_stride[i-1] and remote_stride[i-1].
struct StridedShape {
  int levels = 0;
  size_t count[kMaxStrideLevels + 1] = {};
  size_t local_stride[kMaxStrideLevels] = {};
  size_t remote_stride[kMaxStrideLevels] = {};

  size_t total_bytes() const {
    size_t total = count[0];
    for (int i = 1; i <= levels; ++i) total *= count[i];
    return total;
  }
  // Calls visit(local_offset, remote_offset) once per contiguous block of count[0] bytes.
  template <typename Visit>
  void for_each_block(Visit&& visit) const {
    size_t index[kMaxStrideLevels + 1] = {};
    size_t blocks = 1;
    for (int i = 1; i <= levels; ++i) blocks *= count[i];
    for (size_t block = 0; block < blocks; ++block) {
      size_t local = 0, remote = 0;
      for (int i = 1; i <= levels; ++i) {
        local += index[i] * local_stride[i - 1];
        remote += index[i] * remote_stride[i - 1];
      }
      visit(local, remote);
      for (int i = 1; i <= levels && ++index[i] == count[i]; ++i) index[i] = 0;
    }
  }
};

enum class AtomicOp { FetchAdd, Swap, CompareSwap };

// A get in flight (Transport::get_pending), itself the request of the C API's rget (no wrapper;
// the MPI transport shares one among the rgets that complete together). done() makes progress on it
// without blocking and says whether the data has arrived; once true, always true. done_waiting() is
// done() for a thread that waits until it is done: it may block until the get's target has
// served it (and complete other gets along with it). status() is the MPI failure, if any,
// with its message. Thread-safe.
class PendingGet : public Request {};

// One accumulate-family operation for Transport::accumulate, with remora_datatype_t and
// remora_op_t values (not REMORA_OP_SCALED_SUM, which the caller turns into a sum of scaled
// values): target[i] = target[i] op origin[i] for i < count, result (if not null) receiving
// the previous values; or, with compare set, a compare-and-swap of one element (bitwise).
// origin may be null for REMORA_OP_NO_OP.
struct Accumulate {
  const void* origin = nullptr;
  const void* compare = nullptr;
  void* result = nullptr;
  size_t count = 0;
  int type = 0;
  int op = 0;
};

// Who sleeps: the application's threads (woken by messages, wake(rank) and the collectives
// they wait in) or the rank's progress thread (woken by messages only), so that a barrier or a
// notification does not wake an idle progress thread that has nothing to do.
enum class Sleeper { Application, ProgressThread };

using AmHandler = void (*)(int source, const void* payload, size_t bytes, void* context);

// A non-owning reference to a `bool()` callable, cheap to pass through virtual calls.
class Ready {
 public:
  template <typename F>
  Ready(const F& f)  // NOLINT: implicit by design
      : object_(&f), call_([](const void* o) { return (*static_cast<const F*>(o))(); }) {}
  bool operator()() const { return call_(object_); }

 private:
  const void* object_;
  bool (*call_)(const void*);
};

class Transport {
 public:
  virtual ~Transport() = default;

  // Identity.
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual int node_of(int rank) const = 0;
  virtual const std::vector<int>& local_ranks() const = 0;
  virtual const WaitPolicy& wait_policy() const = 0;

  // Memory. Collective; bytes may differ per rank.
  virtual int allocate_segment(size_t bytes, Segment** segment) = 0;
  virtual int free_segment(Segment* segment) = 0;
  // Memory of a group of ranks (a window on a sub-communicator), collective over members
  // only (world ranks, in the group's order; this rank is one of them). allgather exchanges one
  // value over the members (all[i] = members[i]'s), since the collectives sit above this layer.
  // The segment is indexed by world rank like any other; non-members have empty parts. Not
  // shared with a ghost process. free_group_segment: the caller has synchronised the members.
  using GroupAllgather = std::function<int(uint64_t mine, std::vector<uint64_t>* all)>;
  virtual int allocate_group_segment(const std::vector<int>& members, size_t bytes,
                                     const GroupAllgather& allgather, Segment** segment) {
    (void)members, (void)bytes, (void)allgather, (void)segment;
    return REMORA_ERR_UNSUPPORTED;
  }
  virtual int free_group_segment(Segment* segment) {
    delete segment;
    return REMORA_SUCCESS;
  }
  // A load/store address of rank's part, or nullptr when rank's memory is not mapped here.
  virtual void* address(const Segment& segment, int rank) const = 0;
  // Whether atomic() on segment is a CPU atomic on the address() mapping for every rank, so
  // that CPU atomics through address() are atomic with it (the direct path: no call per word).
  virtual bool cpu_atomics(const Segment& segment) const = 0;

  // RDMA. Return at local completion; flush gives remote completion.
  virtual int put(const Segment& segment, int target, size_t offset, const void* source,
                  size_t bytes) = 0;
  virtual int get(const Segment& segment, int target, size_t offset, void* destination,
                  size_t bytes) = 0;
  virtual int put_strided(const Segment& segment, int target, size_t offset, const void* source,
                          const StridedShape& shape) = 0;
  virtual int get_strided(const Segment& segment, int target, size_t offset, void* destination,
                          const StridedShape& shape) = 0;
  virtual int flush(int target) = 0;
  virtual int flush_all() = 0;
  // A get that may still be in flight when it returns (a request-based get): *pending is then
  // set, and the data is in destination once pending->test() is true or after flush(target),
  // flush_all() or the end of the segment; else (the default: a completed get) *pending is
  // null. The caller does not read destination before then, nor free the segment's transport.
  virtual int get_pending(const Segment& segment, int target, size_t offset, void* destination,
                          size_t bytes, std::shared_ptr<PendingGet>* pending) {
    pending->reset();
    return get(segment, target, offset, destination, bytes);
  }

  // Single-copy access to another rank's private memory (not a segment): windows over user
  // memory and large messages copy directly instead of staging through shared memory.
  // REMORA_ERR_UNSUPPORTED when the operating system forbids it; callers then fall back.
  virtual int read_private(int rank, const void* remote, void* local, size_t bytes) = 0;
  virtual int write_private(int rank, void* remote, const void* local, size_t bytes) = 0;

  // 64-bit remote atomics on an 8-byte aligned offset; *result receives the old value.
  virtual int atomic(const Segment& segment, int target, size_t offset, AtomicOp op,
                     uint64_t operand, uint64_t compare, uint64_t* result) = 0;

  // Accumulates in the transport's own atomicity domain (over MPI, a job of several nodes:
  // MPI_Accumulate, MPI_Get_accumulate, MPI_Compare_and_swap on the segment's MPI window, for
  // targets on this node too), atomic per element with each other only, never with CPU atomics
  // or the lock table, so a window uses them for every target or for none
  // (docs/architecture.md, "Accumulates across nodes"). accumulates(segment, type): whether
  // every op valid for type and compare-and-swap of it can be sent so; the same answer on
  // every rank. accumulate returns at local completion, and once the previous values have
  // arrived when result or compare is set; flush_accumulates(segment, target) completes the
  // accumulates to target remotely where flush(target) does not (targets on this node). The
  // shared-memory transport has none (REMORA_ERR_UNSUPPORTED).
  virtual bool accumulates(const Segment& segment, int type) const {
    (void)segment, (void)type;
    return false;
  }
  virtual int accumulate(const Segment& segment, int target, size_t offset,
                         const Accumulate& operation) {
    (void)segment, (void)target, (void)offset, (void)operation;
    return REMORA_ERR_UNSUPPORTED;
  }
  virtual int flush_accumulates(const Segment& segment, int target) {
    (void)segment, (void)target;
    return REMORA_SUCCESS;
  }

  // Active messages.
  virtual int am_register(AmHandler handler, void* context, int* handler_id) = 0;
  virtual int am_send(int target, int handler_id, const void* payload, size_t bytes) = 0;
  virtual size_t am_max_bytes() const = 0;
  virtual int am_handler_count() const = 0;

  // Progress and waiting. poll() delivers arrived messages (handlers run inside it, never
  // nested) and returns whether it did anything. sleep() blocks until a message arrives, a
  // wake for this sleeper, or timeout_ns passes; it returns at once if ready() is true.
  // wake(rank) wakes rank's application threads; wake_progress_thread() this rank's own.
  virtual bool poll() = 0;
  virtual void sleep(uint64_t timeout_ns, Ready ready, Sleeper sleeper) = 0;
  virtual void wake(int rank) = 0;
  // wake() for each of count ranks; a transport that fences before it looks for sleepers fences
  // once for all of them.
  virtual void wake_ranks(const int* ranks, size_t count) {
    for (size_t i = 0; i < count; ++i) wake(ranks[i]);
  }
  virtual void wake_progress_thread() = 0;
  // sleep() for an application thread that needs `arrivals` more messages (a lower bound: each
  // still to be sent to this rank) before ready() can hold: the transport may let the first
  // arrivals - 1 of them pass without waking it. The default sleeps as sleep() does.
  virtual void sleep_for_arrivals(uint64_t timeout_ns, Ready ready, size_t arrivals) {
    (void)arrivals;
    sleep(timeout_ns, ready, Sleeper::Application);
  }
  // Returns once no handler of this rank runs on another thread (one running now has ended).
  // Before memory that handlers may touch is released: a request that its origin saw served
  // (so the handler had finished) is then also seen finished by this thread.
  virtual void wait_for_handlers() {}
  // Receiver side: whether a message for `handler` (registered here) wakes this rank's
  // sleeping progress thread and application threads (the default), or waits in the queue for
  // the next poll. For a handler with nothing to do right away (the bypass reduce with no
  // descriptor pending): no wait of this rank can need its messages then. A transport that
  // cannot tell always wakes.
  virtual void set_wake_on_arrival(int handler, bool wake) {
    (void)handler;
    (void)wake;
  }
  // True once the job is being torn down (a rank died or aborted); report_abort() then records
  // who and why as the thread's error message and returns REMORA_ERR_ABORTED.
  virtual bool aborting() const = 0;
  virtual int report_abort() const = 0;

  // A barrier over the ranks of this node, as fast as shared memory allows.
  virtual int node_barrier() = 0;

  // The one wait loop of the library: makes progress with poll_once(), then backs off (spin,
  // yield, sleep) per the wait policy, until ready() or the job aborts. At the multiple thread
  // level the library lock is let go while it backs off and handed to a contending thread
  // after each round of progress (core/threads.hpp), so waiting never keeps other threads out.
  // The application's waits (Sleeper::Application) also run the rank's local work first in
  // every round (run_local_work). ready() is called until it returns true and never again
  // after: a caller's ready() may act (an application-bypass contribution deposits itself when
  // its slot is free), and sleep(), which calls it before it blocks, can be where it held.
  template <typename F, typename P>
  int wait_until(const F& ready, const P& poll_once, Sleeper sleeper = Sleeper::Application) {
    return wait_with(
        wait_policy(), ready, poll_once,
        [&](uint64_t timeout_ns, Ready held) { sleep(timeout_ns, held, sleeper); },
        sleeper == Sleeper::Application);
  }
  template <typename F>
  int wait_until(const F& ready) {
    return wait_until(ready, [this] { return poll(); });
  }

  // Whether the arrival of any message for this rank (for a handler not made quiet by
  // set_wake_on_arrival) wakes its sleeping application threads
  // (the shm transport: ControlBlock::wake_for_message), so that a wait which only a message
  // can end may sleep until one comes.
  virtual bool arrival_wakes_application() const { return false; }
  // wait_until for an application thread whose condition only a message for this rank can make
  // true (the root of an application-bypass reduce waiting for its children); awaited() returns
  // how many messages must still come (see sleep_for_arrivals). Where arrivals wake sleepers,
  // the back-off keeps its spin and yields (a message due at once is still found without a
  // sleep) but then sleeps with the longest timeout at once, and the sleep is woken by the last
  // awaited message only: a rank waiting for late messages sleeps until they are all in instead
  // of waking to look (sleeps of 20, 40, 80 ... us woke it about 6 times in a 1000 us wait, and
  // each child's message once more). Dropping the yields too cost latency without skew
  // (docs/benchmarks.md). Each sleep still ends after max_sleep_ns, which also bounds how late
  // check_stalled runs. Local work pending (shm rounds, which other ranks advance
  // without a message) takes the usual wait.
  template <typename F, typename N>
  int wait_for_arrival(const F& ready, const N& awaited) {
    const bool local_work =
        local_pending_ != nullptr && local_pending_->load(std::memory_order_acquire) != 0;
    if (!arrival_wakes_application() || local_work) return wait_until(ready);
    WaitPolicy policy = wait_policy();
    policy.first_sleep_ns = policy.max_sleep_ns;
    return wait_with(
        policy, ready, [this] { return poll(); },
        [&](uint64_t timeout_ns, Ready held) { sleep_for_arrivals(timeout_ns, held, awaited()); });
  }

 private:
  // local: an application thread's wait (it runs the local work). sleep_once(timeout_ns, held)
  // sleeps with held as its ready(): ready() latched, so that a sleep in which it held ends
  // the wait without another call.
  template <typename F, typename P, typename S>
  int wait_with(const WaitPolicy& policy, const F& ready, const P& poll_once, const S& sleep_once,
                bool local = true) {
    bool done = false;
    const auto held = [&] { return done || (done = ready()); };
    Backoff backoff(policy);
    while (!held()) {
      if (aborting()) return report_abort();
      if (local) run_local_work();
      if (poll_once()) {
        backoff.progressed();
        threads::yield_if_contended();
        continue;
      }
      if (held()) break;
      threads::Unlocked unlocked;
      backoff.pause([&](uint64_t timeout_ns) { sleep_once(timeout_ns, Ready(held)); });
    }
    return REMORA_SUCCESS;
  }

 public:
  // Local work: steps of this rank that only its application threads run, never the progress
  // thread (the rounds of nonblocking shm collectives, coll/shm_area.hpp), and that every wait of
  // the application must advance, whatever it waits for: another rank may wait for them while
  // this one waits for that rank. *pending counts the work outstanding; while it is zero a wait
  // round costs one load. advance(context) advances what it can without blocking. Set before
  // the first wait and cleared (nullptr) before context goes, while no other thread is inside.
  void set_local_work(const std::atomic<size_t>* pending, void (*advance)(void*), void* context) {
    local_pending_ = pending;
    local_advance_ = advance;
    local_context_ = context;
  }
  void run_local_work() {
    if (local_pending_ != nullptr && local_pending_->load(std::memory_order_acquire) != 0)
      local_advance_(local_context_);
  }

 private:
  const std::atomic<size_t>* local_pending_ = nullptr;
  void (*local_advance_)(void*) = nullptr;
  void* local_context_ = nullptr;
};

}  // namespace remora::transport
