// The ghost process of a node under an MPI launcher (REMORA_PROGRESS=ghost; see ghost_split.hpp
// for who becomes one). It is the ghost endpoint of its node's control block, like the ghost
// remorarun starts, seen through the job's numbering: ranks are the application's ranks (the
// ones of this node are reached through shared memory), and the ghost of node n is endpoint
// size() + n. It serves requests to its own node's ranks, from every rank: those of other
// nodes reach it through MPI (see docs/running-on-clusters.md).
//
// The job is over for the ghost once every rank of its node has left Remora (their state
// Finalized; each rank wakes the ghost as it leaves) and every rank of the job has entered
// the barrier over every process at its end: poll() then sets finished().
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "core/config.hpp"
#include "transport/mpi/am_channel.hpp"
#include "transport/mpi/ghost_split.hpp"
#include "transport/mpi/mpi_session.hpp"
#include "transport/shm/shm_transport.hpp"
#include "transport/transport.hpp"

namespace remora::mpi {

class GhostEndpoint final : public transport::Transport {
 public:
  // The ghost's side of MpiTransport::create (same collectives, same order); takes over the
  // session (the ghost finalises MPI when it is destroyed) and the split's communicators.
  static int create(std::unique_ptr<Session> session, GhostSplit split, const std::string& job_id,
                    const Config& config, std::unique_ptr<GhostEndpoint>* out);
  ~GhostEndpoint() override;

  shm::ShmTransport& node() { return *shm_; }
  const std::atomic<bool>& finished() const { return finished_; }

  int rank() const override { return size_ + layout_.node; }
  int size() const override { return size_; }
  int node_of(int rank) const override { return layout_.node_of[static_cast<size_t>(rank)]; }
  const std::vector<int>& local_ranks() const override { return layout_.node_ranks; }
  const WaitPolicy& wait_policy() const override { return shm_->wait_policy(); }

  // The ghost allocates nothing; it maps the ranks' segments (shared_segment).
  int allocate_segment(size_t bytes, transport::Segment** segment) override;
  int free_segment(transport::Segment* segment) override;
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
  int flush(int target) override;
  int flush_all() override { return shm_->flush_all(); }
  int read_private(int rank, const void* remote, void* local, size_t bytes) override;
  int write_private(int rank, void* remote, const void* local, size_t bytes) override;
  int atomic(const transport::Segment& segment, int target, size_t offset, transport::AtomicOp op,
             uint64_t operand, uint64_t compare, uint64_t* result) override;

  int am_register(transport::AmHandler handler, void* context, int* handler_id) override {
    return shm_->am_register(handler, context, handler_id);
  }
  int am_send(int target, int handler_id, const void* payload, size_t bytes) override;
  size_t am_max_bytes() const override { return shm_->am_max_bytes(); }
  int am_handler_count() const override { return shm_->am_handler_count(); }

  bool poll() override;
  void sleep(uint64_t timeout_ns, transport::Ready ready, transport::Sleeper sleeper) override;
  void wake(int rank) override;
  void wake_progress_thread() override { shm_->wake_progress_thread(); }
  bool aborting() const override { return shm_->aborting(); }
  int report_abort() const override { return shm_->report_abort(); }
  int node_barrier() override;

  int ghost_of(int rank) const override { return on_node(rank) ? this->rank() : -1; }
  const transport::Segment* shared_segment(uint64_t id) const override {
    return shm_->shared_segment(id);
  }

 private:
  GhostEndpoint() = default;
  bool on_node(int rank) const {
    return rank >= 0 && rank < size_ && node_of(rank) == layout_.node;
  }
  // *local: the endpoint of rank (a rank of this node, or this ghost) in the node's control
  // block; an error naming `what` for any other rank.
  int endpoint(int rank, const char* what, int* local) const;
  // Whether every rank of this node has left Remora (its state Finalized).
  bool ranks_left() const;
  // Whether every rank of the job has (everyone_left_ completed).
  bool job_left();
  // call(endpoint of target) when target is on this node.
  template <typename Call>
  int on_local(int target, const char* what, const Call& call) const {
    int local = -1;
    if (int status = endpoint(target, what, &local)) return status;
    return call(local);
  }

  std::unique_ptr<Session> session_;  // first member: MPI is finalised last
  GhostSplit split_;
  NodeLayout layout_;
  int size_ = 0;
  std::unique_ptr<shm::ShmTransport> shm_;
  std::atomic<bool> finished_{false};
  // Ranks of other nodes send their requests to this ghost, which replies, over every process
  // (split_.everyone); the ghost polls it at least every REMORA_MPI_POLL_US.
  std::mutex mpi_mutex_;
  std::unique_ptr<AmChannel> channel_;
  uint64_t poll_interval_ns_ = 0;
  // Entered at the ghost's start; every rank enters it when it leaves (MpiTransport::leave_ghost).
  MPI_Request everyone_left_ = MPI_REQUEST_NULL;
  bool job_left_ = false;
};

}  // namespace remora::mpi
