// The MPI transport (DESIGN.md section 2): a job started by mpiexec or srun. Ranks on this node
// are reached through the shared-memory transport of the node; ranks on other nodes through
// MPI (RMA windows for put/get/atomics, two-sided messages for active messages). Every
// operation is routed by whether its target is on this node (router.hpp), with one exception:
// when the job spans several nodes every remote atomic goes through MPI, even to this node,
// because CPU atomics are not atomic with respect to MPI's.
//
// MPI calls are serialised by one mutex (mpi_mutex.hpp: taken only where another thread of the
// rank can use MPI through Remora); a thread that finds MPI busy skips polling it.
//
// Waiting when the job spans nodes: nobody on another node can wake this rank's futex, and MPI
// libraries (MPICH over UCX among them) complete some one-sided operations in software on the
// target, so an operation aimed at this rank may need this rank to call MPI. A wait therefore
// polls MPI in all its phases, and in its sleep phase an application thread's wait keeps
// polling (yielding the CPU now and then) while this rank is active across nodes: for
// REMORA_MPI_ACTIVE_US after its last exchange with another node (a message sent or received, a
// one-sided operation issued, a notice received), and while it waits for an MPI request of its
// own (wait_for) or tests an rget in flight. An origin that issues one-sided operations to a
// rank on another node sends it a notice (an empty message) at most every half
// REMORA_MPI_ACTIVE_US, which keeps the target polling for as long as the origin works on it.
// On an oversubscribed machine (or, without a progress thread, one of whose CPUs this rank's
// waits were lately preempted: crowded) an active wait that sees nothing progress naps between its
// polls (MpiTransport::sleep), blocking gets wait for MPI_Rget requests rather than in
// MPI_Win_flush (RmaWindow), and flushes and compare-and-swap wait for a ping get first (settle),
// so that the ranks it waits for get the CPU. Otherwise, and always in the progress thread, the
// wait sleeps at most REMORA_MPI_POLL_US between polls.
#pragma once

#include <mpi.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/config.hpp"
#include "transport/ghost_directory.hpp"
#include "transport/mpi/am_channel.hpp"
#include "transport/mpi/ghost_endpoint.hpp"
#include "transport/mpi/mpi_session.hpp"
#include "transport/mpi/node_layout.hpp"
#include "transport/mpi/rma_window.hpp"
#include "transport/mpi/router.hpp"
#include "transport/shm/shm_transport.hpp"
#include "transport/transport.hpp"

namespace remora::mpi {

class MpiTransport final : public Router<MpiTransport>, public transport::GhostDirectory {
 public:
  // Initialises (or adopts) MPI and builds the node's shared memory. *thread_progress is
  // cleared, with a warning, when MPI cannot serve a progress thread. ghost: non-null for
  // REMORA_PROGRESS=ghost (mpi_ghost.cpp): a process chosen as its node's ghost gets *ghost
  // set instead of *out.
  static int create(int* argc, char*** argv, const Config& config, bool* thread_progress,
                    std::unique_ptr<MpiTransport>* out,
                    std::unique_ptr<GhostEndpoint>* ghost = nullptr);
  ~MpiTransport() override;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int node_of(int rank) const override { return layout_.node_of[static_cast<size_t>(rank)]; }
  const std::vector<int>& local_ranks() const override { return layout_.node_ranks; }

  int allocate_segment(size_t bytes, transport::Segment** segment) override;
  int free_segment(transport::Segment* segment) override;
  // Across nodes, an MPI window over the members' own communicator (targets translated).
  int allocate_group_segment(const std::vector<int>& members, size_t bytes,
                             const GroupAllgather& allgather,
                             transport::Segment** segment) override;
  int free_group_segment(transport::Segment* segment) override;
  bool cpu_atomics(const transport::Segment& segment) const override;
  // On this node a get as any other (complete); on another node MPI_Rget left in flight
  // (RmaWindow::rget).
  int get_pending(const transport::Segment& segment, int target, size_t offset, void* destination,
                  size_t bytes, std::shared_ptr<transport::PendingGet>* pending) override;
  // Put, get, atomics, flushes and messages: routed (router.hpp); the remote path is below.
  // MPI's accumulates on the segment's window (rma_window.hpp), for every target of a job of
  // several nodes (not routed: one atomicity domain for the window); none on a job of one node.
  bool accumulates(const transport::Segment& segment, int type) const override;
  int accumulate(const transport::Segment& segment, int target, size_t offset,
                 const transport::Accumulate& operation) override;
  int flush_accumulates(const transport::Segment& segment, int target) override;

  bool poll() override;
  // Whether an application thread's wait polls now rather than sleeps (active across nodes).
  bool polls_for_remote_work() const { return active(now_ns()); }
  void sleep(uint64_t timeout_ns, transport::Ready ready, transport::Sleeper sleeper) override;
  int node_barrier() override { return shm_->node_barrier(); }

  // GhostDirectory (mpi_ghost.cpp): the ghost of rank's node, when it serves rank. The ranks
  // map no segment for a ghost.
  int ghost_of(int rank) const override;
  const transport::Segment* shared_segment(uint64_t) const override { return nullptr; }

  // Takes a window out of the lists that flush and flush_all visit (before it is freed or
  // destroyed; again is harmless).
  void forget(RmaWindow* window);

 private:
  friend class Router<MpiTransport>;
  MpiTransport() = default;

  // The remote path (router.hpp): ranks of other nodes through MPI's windows and the message
  // channel, other nodes' ghosts through the channel; atomics through the windows whenever the
  // job spans nodes, even on this node (CPU atomics are not atomic with MPI's).
  const transport::Segment& node_segment(const transport::Segment& segment) const;
  bool node_atomics(const transport::Segment& segment) const { return cpu_atomics(segment); }
  int remote_put(const transport::Segment& segment, int target, size_t offset, const void* source,
                 size_t bytes);
  int remote_get(const transport::Segment& segment, int target, size_t offset, void* destination,
                 size_t bytes);
  int remote_put_strided(const transport::Segment& segment, int target, size_t offset,
                         const void* source, const transport::StridedShape& shape);
  int remote_get_strided(const transport::Segment& segment, int target, size_t offset,
                         void* destination, const transport::StridedShape& shape);
  int remote_atomic(const transport::Segment& segment, int target, size_t offset,
                    transport::AtomicOp op, uint64_t operand, uint64_t compare, uint64_t* result);
  int remote_flush(int target);
  int remote_flush_all();
  int remote_am_send(int target, int handler_id, const void* payload, size_t bytes);
  int unreachable(const char* what, int rank) const;
  // Waits (polling, backing off) for a nonblocking MPI operation of this rank.
  int wait_for(MPI_Request* request);
  // While a request of this rank is outstanding (wait_for, an rget's test): stays active.
  void outstanding();
  // WindowShared::settle: a 1-byte MPI_Rget from target's part of ping_window_, waited for with
  // the waiting policy. MPI libraries that complete one-sided operations in software on the
  // target (MPICH over UCX here) serve a process's operations in the order they arrive, so when
  // the get has completed the target has served this rank's earlier operations too, and the
  // MPI_Win_flush that follows returns without spinning; the flush alone gives completion.
  // settle_all: every target in targets, their gets in flight together.
  int settle(int target);
  int settle_all(const std::vector<int>& targets);
  // Under the MPI mutex: whether a window listed for target has operations to it to flush.
  bool needs_flush(int target);
  // Cross-node activity (see the top of this file): stay_active keeps this rank's waits polling
  // for REMORA_MPI_ACTIVE_US from now; announce_now(target) does so before a one-sided operation
  // on target (unless less than an eighth of that time has passed since it last did) and sends
  // target a notice unless it had one (or a message) recently. announce(target, bytes) is
  // announce_now for every kAnnounceStride-th small operation to target of a burst (the
  // operations between two polls of this rank), more often for larger ones (bytes moved): it
  // reads the clock for those only.
  void stay_active(uint64_t now);
  void announce(int target, size_t bytes);
  void announce_now(int target);
  bool active(uint64_t now) const { return now < active_until_.load(std::memory_order_relaxed); }
  // Whether this rank's waits act as on an oversubscribed machine now: it is judged so, or a wait
  // of this rank saw its thread preempted within the last 16 ms (window_shared_.crowded_until_ns:
  // the machine's other load, or the scheduler, has put another runnable thread on its CPU,
  // perhaps the rank it waits for). Called by sleep's active phase, which notes preemptions
  // unless the rank has a progress thread (notes_preemption_).
  bool crowded(uint64_t now);

  // Ghost progress (mpi_ghost.cpp). join_ghost: this rank's node layout and control block,
  // shared with the node's ghost (its endpoint: ghost_). leave_ghost: tells the ghost this rank
  // has left. send_to_ghost: a message to another node's ghost (endpoint >= size()).
  static int refuse_ghosts_in_application_mpi(const Session& session);
  int join_ghost(GhostSplit& split, const std::string& job_id, const Config& config,
                 shm::ControlBlock* block);
  void leave_ghost();
  int send_to_ghost(int ghost, int handler_id, const void* payload, size_t bytes);

  std::unique_ptr<Session> session_;  // first member: MPI is finalised last
  MPI_Comm comm_ = MPI_COMM_NULL;
  NodeLayout layout_;
  int rank_ = 0;
  int size_ = 1;
  uint64_t poll_interval_ns_ = 0;
  uint64_t active_ns_ = 0;        // REMORA_MPI_ACTIVE_US when the job spans nodes, else 0
  bool notes_preemption_ = true;  // crowded() marks preemptions: no progress thread (create)
  std::atomic<uint64_t> active_until_{0};
  // Per rank: when it last heard from us (noticed), and announce's count of (small) operations
  // to it left before it reads the clock again (skips), valid in poll round `round` only.
  struct Announced {
    std::atomic<uint64_t> noticed{0};
    std::atomic<uint32_t> round{0};
    std::atomic<uint32_t> skips{0};
  };
  std::unique_ptr<Announced[]> announced_;
  std::atomic<uint32_t> polls_{0};  // poll() calls (a burst of operations ends at each)
  MpiMutex mpi_mutex_;
  std::unique_ptr<AmChannel> channel_;
  std::mutex windows_mutex_;
  std::vector<RmaWindow*> windows_;  // live windows, for flush_all()
  // Across nodes: a window of 16 bytes per rank that nobody writes, the targets of settle's gets
  // (a collective creation at init, so that every rank has it whatever its machine's load).
  MPI_Win ping_window_ = MPI_WIN_NULL;
  uint64_t ping_area_[2] = {};
  // The windows' MPI mutex, waits, and per target the windows with operations to flush.
  WindowShared window_shared_{mpi_mutex_,
                              [this](MPI_Request* request) { return wait_for(request); },
                              [this] { outstanding(); },
                              {},
                              false,
                              [this](int target) { return settle(target); }};
  int ghost_ = -1;                     // this node's ghost endpoint (REMORA_PROGRESS=ghost), or -1
  MPI_Comm everyone_ = MPI_COMM_NULL;  // with a ghost: every process (the channel's, leave_ghost)
};

extern template class Router<MpiTransport>;  // instantiated in mpi_transport.cpp

}  // namespace remora::mpi
