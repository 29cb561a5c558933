// The job's control block: one shared-memory region per node that holds, for every rank, its
// liveness state, its wake-up word and its active-message receive queue, plus the job's abort
// record and a bootstrap barrier. remorarun creates it in a memfd before starting the ranks
// and passes the descriptor down (REMORA_CONTROL_FD), so it has no name and cannot leak; a
// rank started without remorarun makes a private one for a job of one rank.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "transport/shm/am_queue.hpp"

namespace remora::shm {

constexpr uint64_t kControlMagic = 0x52454d4f5241434bull;  // "REMORACK"
constexpr uint32_t kControlVersion = 3;

enum class RankState : uint32_t {
  Launched = 0,   // started, remora_init not yet called
  Running = 1,    // between remora_init and remora_finalize
  Finalized = 2,  // remora_finalize done: exiting is now normal
  Aborted = 3,    // called remora_abort
};

// A futex word and the number of threads asleep (or about to sleep) on it: a waker makes the
// system call only when that number is non-zero.
struct WakeWord {
  std::atomic<uint32_t> word;
  std::atomic<uint32_t> sleepers;
};

// Whom a wake-up is for: the rank's application threads, its progress thread, or both.
enum class WakeTarget { Application = 1, ProgressThread = 2, Both = 3 };

struct alignas(64) RankSlot {
  std::atomic<int32_t> pid;
  std::atomic<uint32_t> state;     // RankState
  WakeWord application;            // application threads sleep here
  WakeWord progress;               // the progress thread sleeps here
  std::atomic<uint64_t> exchange;  // bootstrap all-gather value
  // Set by the rank itself: bit h = a message for handler h need not wake its progress thread.
  std::atomic<uint64_t> quiet_handlers;
  // How often messages woke the progress thread, and the application threads, from sleep
  // (counted by the senders). application_wakeups sits in what was the slot's padding (the
  // slot is still 64 bytes, and a fresh block is zero-filled).
  std::atomic<uint64_t> progress_wakeups;
  std::atomic<uint64_t> application_wakeups;
  // Set by the rank itself while its one application thread sleeps for n more messages
  // (ShmTransport::sleep_for_arrivals): senders count it down and only the one that brings it
  // to zero (or finds it zero or below) wakes the application thread. In the padding too.
  std::atomic<int32_t> arrivals_to_wake;
};
static_assert(sizeof(RankSlot) == 64, "a rank's slot is one cache line");

// Handlers 0..63 can be made quiet; the others always wake.
constexpr int kQuietHandlers = 64;

struct ControlHeader {
  uint64_t magic;
  uint32_t version;
  int32_t nranks;
  uint32_t queue_slots;
  uint32_t slot_bytes;
  uint64_t total_bytes;
  uint64_t ranks_offset;
  uint64_t queues_offset;
  uint64_t queue_stride;
  // Endpoints after the ranks: 1 when a ghost process serves the node (REMORA_PROGRESS=ghost).
  // It has a slot and a queue like a rank, at index nranks.
  int32_t ghosts;
  char job_id[64];
  // Abort record: the first rank (or the launcher, rank -1) to claim `aborting` fills it.
  alignas(64) std::atomic<uint32_t> aborting;
  int32_t abort_rank;
  int32_t abort_code;
  char abort_message[512];
  // Bootstrap (node) barrier.
  alignas(64) std::atomic<uint32_t> barrier_arrived;
  alignas(64) std::atomic<uint32_t> barrier_generation;
};

class ControlBlock {
 public:
  static size_t bytes_needed(int endpoints, uint32_t queue_slots, uint32_t slot_bytes);

  // Creates and initialises a block for nranks ranks (and `ghosts` ghost endpoints): in a
  // memfd whose descriptor survives exec (for the launcher), or in private shared memory (a
  // job of one rank).
  static int create(int nranks, const std::string& job_id, uint32_t queue_slots,
                    uint32_t slot_bytes, bool in_memfd, ControlBlock* out, int ghosts = 0);
  // Maps a block created by the launcher and checks that it is one.
  static int attach(int fd, ControlBlock* out);

  ControlBlock() = default;
  ControlBlock(ControlBlock&& other) noexcept { *this = std::move(other); }
  ControlBlock& operator=(ControlBlock&& other) noexcept;
  ControlBlock(const ControlBlock&) = delete;
  ControlBlock& operator=(const ControlBlock&) = delete;
  ~ControlBlock();

  bool valid() const { return header_ != nullptr; }
  int fd() const { return fd_; }
  int nranks() const { return header_->nranks; }
  // Ranks and ghosts: every slot and queue. ghost(): the ghost's index, or -1.
  int endpoints() const { return header_->nranks + header_->ghosts; }
  int ghost() const { return header_->ghosts > 0 ? header_->nranks : -1; }
  std::string job_id() const { return header_->job_id; }
  ControlHeader& header() const { return *header_; }
  RankSlot& rank(int r) const;
  AmQueue queue(int r) const;

  // Claims the abort record (first caller wins, returns true) and fills it.
  bool record_abort(int rank, int code, const char* message);
  // A one-line description of the abort record ("rank 2 called remora_abort(3): ...").
  std::string abort_description() const;

  // Wakes endpoint r's sleepers of the given kind, if any sleep; wake_all does it for every
  // endpoint (ranks and ghost).
  void wake(int r, WakeTarget target) const;
  // wake(r, Application) for each of count endpoints, with one fence; light: behind
  // light_fence() (core/asymmetric_fence.hpp), for sleepers that issue heavy_fence() before they
  // look at what they wait for (ShmTransport::sleep with membarrier wakes).
  void wake_application(const int* ranks, size_t count, bool light = false) const;
  void wake_all(WakeTarget target) const;
  // After enqueueing a message for `handler` to endpoint r: wakes r's application threads and
  // its progress thread, unless r made the handler quiet (then nobody there waits for it).
  void wake_for_message(int r, int handler) const;
  // Endpoint r (the caller itself): its application thread's next sleep is woken by the
  // arrivals-th message only (0: by every message); seq_cst, see wake_for_message.
  void set_arrivals_to_wake(int r, int32_t arrivals) const;
  // Endpoint r (the caller itself) makes `handler` quiet or not; seq_cst, see wake_for_message.
  void set_quiet(int r, int handler, bool quiet) const;

 private:
  ControlHeader* header_ = nullptr;
  size_t mapped_bytes_ = 0;
  int fd_ = -1;
};

}  // namespace remora::shm
