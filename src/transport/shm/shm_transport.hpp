// The shared-memory transport: every rank of the job is on this node. Segments are
// shared-memory objects mapped by every rank (put/get are memcpy, atomics are CPU atomics);
// active messages go through the per-receiver queues of the control block; a sleeping rank is
// woken through a futex in its control-block slot, and only when it asked to be woken.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "transport/am_dispatcher.hpp"
#include "transport/ghost_directory.hpp"
#include "transport/job_control.hpp"
#include "transport/shm/control_block.hpp"
#include "transport/shm/ghost_segments.hpp"
#include "transport/transport.hpp"

namespace remora::shm {

class ShmTransport final : public transport::Transport,
                           public transport::JobControl,
                           public transport::GhostDirectory {
 public:
  // Takes over an attached (or created) control block; rank is this process's rank in it, or
  // the block's ghost index for the node's ghost process.
  static int create(ControlBlock block, int rank, const Config& config,
                    std::unique_ptr<ShmTransport>* out);
  // For a node of a larger job (the MPI transport): the block's rank r is job rank
  // job_ranks[r] of job_size, and active messages name their source by job rank.
  static int create(ControlBlock block, int rank, const Config& config, std::vector<int> job_ranks,
                    int job_size, std::unique_ptr<ShmTransport>* out);
  ~ShmTransport() override;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int node_of(int) const override { return 0; }
  const std::vector<int>& local_ranks() const override { return local_ranks_; }
  const WaitPolicy& wait_policy() const override { return policy_; }
  // Every message wakes the application's sleepers (ControlBlock::wake_for_message), except
  // those for a handler made quiet, for which nothing waits.
  bool arrival_wakes_application() const override { return true; }
  // The oversubscription check counts `ranks` runnable ranks on `cpus` CPUs of this machine
  // instead of this node's ranks on this process's CPUs (the MPI transport: REMORA_NODE_SIZE
  // cuts a machine into several nodes, and mpiexec may bind each rank to a CPU of its own).
  void count_ranks_sharing_cpus(const Config& config, int ranks, int cpus,
                                ProgressThreadWaits progress_waits);

  int allocate_segment(size_t bytes, transport::Segment** segment) override;
  int free_segment(transport::Segment* segment) override;
  // group_segment.cpp
  int allocate_group_segment(const std::vector<int>& members, size_t bytes,
                             const GroupAllgather& allgather,
                             transport::Segment** segment) override;
  void* address(const transport::Segment& segment, int rank) const override;
  bool cpu_atomics(const transport::Segment& segment) const override;

  int put(const transport::Segment& segment, int target, size_t offset, const void* source,
          size_t bytes) override;
  int get(const transport::Segment& segment, int target, size_t offset, void* destination,
          size_t bytes) override;
  int put_strided(const transport::Segment& segment, int target, size_t offset, const void* source,
                  const transport::StridedShape& shape) override;
  int get_strided(const transport::Segment& segment, int target, size_t offset, void* destination,
                  const transport::StridedShape& shape) override;
  int read_private(int rank, const void* remote, void* local, size_t bytes) override;
  int write_private(int rank, void* remote, const void* local, size_t bytes) override;
  int flush(int target) override;
  int flush_all() override;

  int atomic(const transport::Segment& segment, int target, size_t offset, transport::AtomicOp op,
             uint64_t operand, uint64_t compare, uint64_t* result) override;

  int am_register(transport::AmHandler handler, void* context, int* handler_id) override;
  int am_send(int target, int handler_id, const void* payload, size_t bytes) override;
  size_t am_max_bytes() const override { return am_max_bytes_; }
  int am_handler_count() const override { return dispatcher_.handler_count(); }

  bool poll() override;
  void sleep(uint64_t timeout_ns, transport::Ready ready, transport::Sleeper sleeper) override;
  // Below the multiple thread level (one application thread can sleep at a time), the first
  // arrivals - 1 messages do not wake it (ControlBlock::set_arrivals_to_wake).
  void sleep_for_arrivals(uint64_t timeout_ns, transport::Ready ready, size_t arrivals) override;
  void wake(int rank) override { block_.wake(rank, WakeTarget::Application); }
  void wake_ranks(const int* ranks, size_t count) override {
    block_.wake_application(ranks, count, membarrier_wakes_);
  }
  // Wakes of wake_ranks behind the light fence, and sleeps of application threads behind the
  // heavy one (core/asymmetric_fence.hpp; not sleep_for_arrivals below the multiple thread
  // level: wake_ranks is not what it waits for), unless REMORA_WAKE_MEMBARRIER=off: for the
  // transport of a job on one node, whose wakers all come through wake_ranks or fence themselves
  // (under MPI the router wakes rank by rank with fences, and its naps would only pay the system
  // call). Set before any thread of the rank sleeps or wakes.
  void use_membarrier_wakes();
  bool membarrier_wakes() const { return membarrier_wakes_; }
  void wake_progress_thread() override { block_.wake(rank_, WakeTarget::ProgressThread); }
  void wait_for_handlers() override { dispatcher_.wait_for_dispatch(); }
  void set_wake_on_arrival(int handler, bool wake) override;
  // How often messages from other ranks woke this rank's sleeping progress thread.
  uint64_t progress_wakeups() const {
    return block_.rank(rank_).progress_wakeups.load(std::memory_order_relaxed);
  }
  // How often they woke its sleeping application threads.
  uint64_t application_wakeups() const {
    return block_.rank(rank_).application_wakeups.load(std::memory_order_relaxed);
  }
  // How many sleeps of this rank's application threads ended by their timeout, not by a
  // wake-up (for tests of waits that only an arrival ends).
  uint64_t application_timeouts() const {
    return application_timeouts_.load(std::memory_order_relaxed);
  }
  bool aborting() const override;
  int report_abort() const override;

  int node_barrier() override;

  // GhostDirectory: the node's ghost (remorarun's), and on the ghost the segments it maps.
  int ghost_of(int) const override { return ghost_; }
  const transport::Segment* shared_segment(uint64_t id) const override {
    return ghost_segments_ ? ghost_segments_->find(id) : nullptr;
  }

  ControlBlock& control_block() { return block_; }
  // JobControl: this process's slot of the control block and the job's abort record.
  void set_state(State state) override {
    const RankState value = state == State::Running     ? RankState::Running
                            : state == State::Finalized ? RankState::Finalized
                                                        : RankState::Aborted;
    block_.rank(rank_).state.store(static_cast<uint32_t>(value), std::memory_order_release);
  }
  void record_abort(int rank, int code, const char* message) override {
    block_.record_abort(rank, code, message);
  }
  // Where messages that arrive by other means (MPI) are delivered, so that one dispatcher
  // runs every handler.
  transport::AmDispatcher& dispatcher() { return dispatcher_; }

 private:
  ShmTransport(ControlBlock block, int rank, const Config& config, std::vector<int> job_ranks,
               int job_size);

  // sleep() with the sleeper's fence chosen: heavy (membarrier) for wakers behind the light
  // fence (wake_ranks), else a full fence.
  void sleep_on(uint64_t timeout_ns, transport::Ready ready, transport::Sleeper sleeper,
                bool heavy);
  // Moves arrived chunks from this rank's queue into the dispatcher; true if there were any.
  bool drain();
  int wait_for_space(int target, AmQueue& queue);
  // Bootstrap all-gather of one value per rank through the control block.
  int allgather(uint64_t value, std::vector<uint64_t>* values);
  // Rank 0: hands a new segment to the node's ghost and waits for its answer (an errno value).
  int share_with_ghost(const transport::Segment& segment);

  ControlBlock block_;
  int rank_;
  int size_;
  std::vector<int> local_ranks_;
  std::vector<int> job_ranks_;  // job rank of each rank of the block (message sources)
  WaitPolicy policy_;
  size_t am_max_bytes_;
  std::vector<AmQueue> queues_;
  std::mutex drain_mutex_;
  std::unique_ptr<std::mutex[]> send_mutexes_;  // per target: keeps a message's chunks together
  transport::AmDispatcher dispatcher_;
  std::atomic<uint64_t> application_timeouts_{0};
  uint64_t segments_allocated_ = 0;
  uint64_t group_segments_allocated_ = 0;  // named apart from the world's (group_segment.cpp)
  int ghost_ = -1;                         // the ghost's endpoint, or -1
  bool membarrier_wakes_ = false;          // use_membarrier_wakes
  std::unique_ptr<GhostSegmentTable> ghost_segments_;  // on the ghost itself
};

}  // namespace remora::shm
