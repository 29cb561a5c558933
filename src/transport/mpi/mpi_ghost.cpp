// The ranks' side of ghost progress under MPI (REMORA_PROGRESS=ghost; ghost_split.hpp,
// ghost_endpoint.hpp): the node's control block gets a ghost endpoint, which the shared-memory
// transport of the node already hands every segment to; owner-computes requests to a rank of
// this node go to the ghost through shared memory, to a rank of another node to that node's
// ghost through the MPI channel over every process (ghost_of, send_to_ghost; router.hpp routes).
#include <chrono>
#include <thread>

#include "core/backoff.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "transport/mpi/mpi_transport.hpp"

namespace remora::mpi {

int MpiTransport::refuse_ghosts_in_application_mpi(const Session& session) {
  if (session.owns_mpi()) return REMORA_SUCCESS;
  return fail(
      REMORA_ERR_CONFIG,
      "remora_init: REMORA_PROGRESS=ghost under MPI needs Remora to initialise MPI, but the "
      "application initialised it (MPI_Init, remora_init_mpi_comm or GA_Initialize): the "
      "ghost processes would be members of the application's communicators; call "
      "remora_init before any MPI call, or use REMORA_PROGRESS=thread or manual");
}

int MpiTransport::join_ghost(GhostSplit& split, const std::string& job_id, const Config& config,
                             shm::ControlBlock* block) {
  layout_.node_comm = split.app_node_comm;
  describe_node_layout(comm_, &layout_);
  share_layout_with_ghost(split, &size_, &layout_);
  const int status = share_control_block(layout_, split.members, 1, job_id, config, block);
  MPI_Comm_free(&split.members);
  ghost_ = size_ + layout_.node;
  return status;
}

// Every rank's request to a ghost, on its node or another, travels only to that node's ranks'
// memory and lock tables (acc_route.hpp): the ghost applies it with CPU atomics there.
int MpiTransport::ghost_of(int rank) const {
  return ghost_ < 0 ? -1 : size_ + node_of(rank);
}

// The ghosts of every node serve until every rank of the job has come here (a barrier over
// every process that the ghosts entered at their start): no rank sends to a ghost any more.
void MpiTransport::leave_ghost() {
  if (ghost_ < 0 || !shm_) return;
  const shm::ControlBlock& block = shm_->control_block();
  // Also when remora_init failed after the transport was built: the ghost must not wait for
  // this rank. A rank that aborted takes the job down anyway.
  auto& state = block.rank(layout_.node_rank).state;
  if (state.load(std::memory_order_acquire) != static_cast<uint32_t>(shm::RankState::Aborted))
    state.store(static_cast<uint32_t>(shm::RankState::Finalized), std::memory_order_release);
  block.wake(block.ghost(), shm::WakeTarget::Both);
  if (!channel_) return;
  MPI_Request request;
  {
    std::lock_guard lock(mpi_mutex_);
    MPI_Ibarrier(everyone_, &request);
  }
  // Without polling: this rank's handlers may be gone (nothing is addressed to it any more).
  Backoff backoff(shm_->wait_policy());
  for (;;) {
    int done = 0;
    {
      std::lock_guard lock(mpi_mutex_);
      MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    }
    if (done) return;
    backoff.pause([](uint64_t ns) { std::this_thread::sleep_for(std::chrono::nanoseconds(ns)); });
  }
}

// This node's ghost is an endpoint of the node's control block (router.hpp): only other
// nodes' ghosts come here.
int MpiTransport::send_to_ghost(int ghost, int handler_id, const void* payload, size_t bytes) {
  if (ghost_ < 0 || ghost >= size_ + layout_.node_count)
    return fail(REMORA_ERR_UNSUPPORTED, "rank %d: a message to endpoint %d, which is no ghost",
                rank_, ghost);
  return channel_->send(ghost, handler_id, payload, bytes);
}

}  // namespace remora::mpi
