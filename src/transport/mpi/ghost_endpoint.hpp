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
#include "transport/ghost_directory.hpp"
#include "transport/mpi/am_channel.hpp"
#include "transport/mpi/ghost_split.hpp"
#include "transport/mpi/mpi_session.hpp"
#include "transport/mpi/router.hpp"
#include "transport/shm/shm_transport.hpp"
#include "transport/transport.hpp"

namespace remora::mpi {

class GhostEndpoint final : public Router<GhostEndpoint>, public transport::GhostDirectory {
 public:
  // The ghost's side of MpiTransport::create (same collectives, same order); takes over the
  // session (the ghost finalises MPI when it is destroyed) and the split's communicators.
  static int create(std::unique_ptr<Session> session, GhostSplit split, const std::string& job_id,
                    const Config& config, std::unique_ptr<GhostEndpoint>* out);
  ~GhostEndpoint() override;

  const std::atomic<bool>& finished() const { return finished_; }

  int rank() const override { return size_ + layout_.node; }
  int size() const override { return size_; }
  int node_of(int rank) const override { return layout_.node_of[static_cast<size_t>(rank)]; }
  const std::vector<int>& local_ranks() const override { return layout_.node_ranks; }

  // The ghost allocates nothing; it maps the ranks' segments (shared_segment).
  int allocate_segment(size_t bytes, transport::Segment** segment) override;
  int free_segment(transport::Segment* segment) override;
  bool cpu_atomics(const transport::Segment& segment) const override;
  // Put, get, atomics, flushes and messages: routed (router.hpp) to this node's ranks and this
  // ghost; the remote path replies to other nodes' ranks and refuses the rest.

  bool poll() override;
  void sleep(uint64_t timeout_ns, transport::Ready ready, transport::Sleeper sleeper) override;
  int node_barrier() override;

  // GhostDirectory: this ghost serves its node's ranks, and maps their segments.
  int ghost_of(int rank) const override { return on_node(rank) ? this->rank() : -1; }
  const transport::Segment* shared_segment(uint64_t id) const override {
    return shm_->shared_segment(id);
  }

 private:
  friend class Router<GhostEndpoint>;
  GhostEndpoint() = default;
  bool on_node(int rank) const {
    return rank >= 0 && rank < size_ && node_of(rank) == layout_.node;
  }
  // Whether every rank of this node has left Remora (its state Finalized).
  bool ranks_left() const;
  // Whether every rank of the job has (everyone_left_ completed).
  bool job_left();

  // The remote path (router.hpp): the segments are the node's own (shared_segment); a message
  // to a rank of another node is a reply and goes through MPI; anything else is an error
  // naming what the ghost cannot reach.
  const transport::Segment& node_segment(const transport::Segment& segment) const {
    return segment;
  }
  bool node_atomics(const transport::Segment&) const { return true; }
  int remote_put(const transport::Segment&, int target, size_t, const void*, size_t) {
    return unreachable("put to", target);
  }
  int remote_get(const transport::Segment&, int target, size_t, void*, size_t) {
    return unreachable("get from", target);
  }
  int remote_put_strided(const transport::Segment&, int target, size_t, const void*,
                         const transport::StridedShape&) {
    return unreachable("put to", target);
  }
  int remote_get_strided(const transport::Segment&, int target, size_t, void*,
                         const transport::StridedShape&) {
    return unreachable("get from", target);
  }
  int remote_atomic(const transport::Segment&, int target, size_t, transport::AtomicOp, uint64_t,
                    uint64_t, uint64_t*) {
    return unreachable("atomic on", target);
  }
  int remote_flush(int target) { return unreachable("flush to", target); }
  int remote_flush_all() { return REMORA_SUCCESS; }
  int remote_am_send(int target, int handler_id, const void* payload, size_t bytes);
  int unreachable(const char* what, int rank) const;

  std::unique_ptr<Session> session_;  // first member: MPI is finalised last
  GhostSplit split_;
  NodeLayout layout_;
  int size_ = 0;
  std::atomic<bool> finished_{false};
  // Ranks of other nodes send their requests to this ghost, which replies, over every process
  // (split_.everyone); the ghost polls it at least every REMORA_MPI_POLL_US.
  MpiMutex mpi_mutex_;
  std::unique_ptr<AmChannel> channel_;
  uint64_t poll_interval_ns_ = 0;
  // Entered at the ghost's start; every rank enters it when it leaves (MpiTransport::leave_ghost).
  MPI_Request everyone_left_ = MPI_REQUEST_NULL;
  bool job_left_ = false;
};

extern template class Router<GhostEndpoint>;  // instantiated in ghost_endpoint.cpp

}  // namespace remora::mpi
