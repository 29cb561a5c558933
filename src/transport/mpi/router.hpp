// The local-or-remote decision of the transports whose job spans nodes, made once per call as
// MPICH ch4's core makes it (`is_local ? shm : netmod`): an operation on an endpoint of this
// node's control block (a rank of this node, or this node's ghost) goes to the node's
// shared-memory transport, with the endpoint's index in the block; any other goes to the
// remote path of the transport built on the router. MpiTransport (a rank: the remote path is
// MPI) and GhostEndpoint (a node's ghost under MPI: the remote path replies across nodes and
// refuses other nodes' memory) are both routers.
//
// Remote, the transport built on it (Router<Remote> is its base), provides the remote path:
//   const transport::Segment& node_segment(const transport::Segment&) const  this node's part
//   bool node_atomics(const transport::Segment&) const  atomic() on this node's ranks takes the
//                                                        node's shared memory (else the remote
//                                                        path, for atomicity with it)
//   remote_put, remote_get, remote_put_strided, remote_get_strided, remote_atomic, remote_flush,
//   remote_flush_all, remote_am_send: the operations with the Transport's arguments
//   int unreachable(const char* what, int endpoint)  the error for single-copy access (and
//                                                    whatever else the remote path cannot do)
// and instantiates Router<Remote> in its own source file, where those are defined, so that
// the remote path is inlined into the routed call. The local path is the shared-memory
// transport's own call (ShmTransport is final): one table look-up more than shared memory alone.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "transport/agent_thread.hpp"
#include "transport/shm/shm_transport.hpp"
#include "transport/transport.hpp"

namespace remora::mpi {

template <typename Remote>
class Router : public transport::Transport {
 public:
  // The node's shared-memory transport (its control block holds this process's state).
  shm::ShmTransport& node() { return *shm_; }
  // The node's policy; across nodes an agent's waits (agent_thread: a rank's progress thread,
  // the node's ghost) spin, then sleep at once: no yields. An agent shares a CPU with the
  // application: while that computes, a sched_yield hands it the CPU until the scheduler's next
  // tick (4 ms at HZ=250), and a put or get aimed at this rank that MPI completes in the
  // target's MPI calls waited that long (the busy target's 1.7-5.4 ms runs, docs/architecture.md),
  // while the wake-up that ends a timed sleep preempts the computing thread within microseconds.
  const WaitPolicy& wait_policy() const final {
    return transport::agent_thread ? agent_policy_ : shm_->wait_policy();
  }

  void* address(const transport::Segment& segment, int rank) const final {
    const int local = local_endpoint(rank);
    return local >= 0 ? shm_->address(remote().node_segment(segment), local) : nullptr;
  }

  int put(const transport::Segment& segment, int target, size_t offset, const void* source,
          size_t bytes) final {
    const int local = local_endpoint(target);
    if (local >= 0) return shm_->put(remote().node_segment(segment), local, offset, source, bytes);
    return remote().remote_put(segment, target, offset, source, bytes);
  }
  int get(const transport::Segment& segment, int target, size_t offset, void* destination,
          size_t bytes) final {
    const int local = local_endpoint(target);
    if (local >= 0)
      return shm_->get(remote().node_segment(segment), local, offset, destination, bytes);
    return remote().remote_get(segment, target, offset, destination, bytes);
  }
  int put_strided(const transport::Segment& segment, int target, size_t offset, const void* source,
                  const transport::StridedShape& shape) final {
    const int local = local_endpoint(target);
    if (local >= 0)
      return shm_->put_strided(remote().node_segment(segment), local, offset, source, shape);
    return remote().remote_put_strided(segment, target, offset, source, shape);
  }
  int get_strided(const transport::Segment& segment, int target, size_t offset, void* destination,
                  const transport::StridedShape& shape) final {
    const int local = local_endpoint(target);
    if (local >= 0)
      return shm_->get_strided(remote().node_segment(segment), local, offset, destination, shape);
    return remote().remote_get_strided(segment, target, offset, destination, shape);
  }
  int flush(int target) final {
    const int local = local_endpoint(target);
    if (local >= 0) return shm_->flush(local);
    return remote().remote_flush(target);
  }
  int flush_all() final {
    const int node_status = shm_->flush_all();
    const int remote_status = remote().remote_flush_all();
    return node_status != REMORA_SUCCESS ? node_status : remote_status;
  }

  int read_private(int rank, const void* remote_address, void* local_address, size_t bytes) final {
    const int local = local_endpoint(rank);
    if (local < 0) return remote().unreachable("single-copy read from", rank);
    return shm_->read_private(local, remote_address, local_address, bytes);
  }
  int write_private(int rank, void* remote_address, const void* local_address, size_t bytes) final {
    const int local = local_endpoint(rank);
    if (local < 0) return remote().unreachable("single-copy write to", rank);
    return shm_->write_private(local, remote_address, local_address, bytes);
  }

  int atomic(const transport::Segment& segment, int target, size_t offset, transport::AtomicOp op,
             uint64_t operand, uint64_t compare, uint64_t* result) final {
    const int local = local_endpoint(target);
    if (local >= 0 && remote().node_atomics(segment))
      return shm_->atomic(remote().node_segment(segment), local, offset, op, operand, compare,
                          result);
    return remote().remote_atomic(segment, target, offset, op, operand, compare, result);
  }

  // Handlers are registered and run on this node's dispatcher (the remote path delivers
  // into it), whichever path a message came by.
  int am_register(transport::AmHandler handler, void* context, int* handler_id) final {
    return shm_->am_register(handler, context, handler_id);
  }
  int am_send(int target, int handler_id, const void* payload, size_t bytes) final {
    const int local = local_endpoint(target);
    if (local >= 0) return shm_->am_send(local, handler_id, payload, bytes);
    return remote().remote_am_send(target, handler_id, payload, bytes);
  }
  size_t am_max_bytes() const final { return shm_->am_max_bytes(); }
  int am_handler_count() const final { return shm_->am_handler_count(); }

  // Only this node's endpoints can be woken (a futex in the control block); another node's
  // notice that work is coming is the remote path's business.
  void wake(int rank) final {
    const int local = local_endpoint(rank);
    if (local >= 0) shm_->wake(local);
  }
  void wake_progress_thread() final { shm_->wake_progress_thread(); }
  void wait_for_handlers() final { shm_->wait_for_handlers(); }
  // Messages from this node only; those that come by the remote path wake as before.
  void set_wake_on_arrival(int handler, bool wake) final {
    shm_->set_wake_on_arrival(handler, wake);
  }
  bool aborting() const final { return shm_->aborting(); }
  int report_abort() const final { return shm_->report_abort(); }

 protected:
  Router() = default;
  ~Router() override = default;

  // Which endpoints are this node's: local_of[e] is endpoint e's index in the node's control
  // block, or -1; endpoints past the table's end are not this node's either.
  void route(std::vector<int> local_of) { local_of_ = std::move(local_of); }
  int local_endpoint(int endpoint) const {
    return static_cast<size_t>(endpoint) < local_of_.size()
               ? local_of_[static_cast<size_t>(endpoint)]
               : -1;
  }

  // Sets the agents' policy from the node's (once that is final; before an agent starts).
  void set_agent_policy(bool spans_nodes) {
    agent_policy_ = shm_->wait_policy();
    if (spans_nodes) agent_policy_.yields = 0;
  }

  std::unique_ptr<shm::ShmTransport> shm_;

 private:
  Remote& remote() { return static_cast<Remote&>(*this); }
  const Remote& remote() const { return static_cast<const Remote&>(*this); }

  std::vector<int> local_of_;
  WaitPolicy agent_policy_;
};

}  // namespace remora::mpi
