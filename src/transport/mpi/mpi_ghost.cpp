// The ranks' side of ghost progress under MPI (REMORA_PROGRESS=ghost; ghost_split.hpp,
// ghost_endpoint.hpp): the node's control block gets a ghost endpoint, which the shared-memory
// transport of the node already hands every segment to; owner-computes requests to a rank of
// this node go to the ghost when it serves them (ghost_of).
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
  if (status == REMORA_SUCCESS && rank_ == 0 && layout_.node_count > 1)
    log(LogLevel::Warn,
        "REMORA_PROGRESS=ghost on %d nodes: the ghosts serve single-node jobs only for now (across "
        "nodes, lock-table updates go through MPI atomics, and the ghosts are not members of the "
        "MPI windows); owner-computes accumulates are served by their targets (manual progress)",
        layout_.node_count);
  return status;
}

int MpiTransport::ghost_of(int rank) const {
  if (ghost_ < 0 || layout_.node_count > 1) return -1;
  return size_ + node_of(rank);
}

void MpiTransport::leave_ghost() {
  if (ghost_ < 0 || !shm_) return;
  const shm::ControlBlock& block = shm_->control_block();
  // Also when remora_init failed after the transport was built: the ghost must not wait for
  // this rank. A rank that aborted takes the job down anyway.
  auto& state = block.rank(layout_.node_rank).state;
  if (state.load(std::memory_order_acquire) != static_cast<uint32_t>(shm::RankState::Aborted))
    state.store(static_cast<uint32_t>(shm::RankState::Finalized), std::memory_order_release);
  block.wake(block.ghost(), shm::WakeTarget::Both);
}

int MpiTransport::send_to_ghost(int ghost, int handler_id, const void* payload, size_t bytes) {
  if (ghost != ghost_)
    return fail(REMORA_ERR_UNSUPPORTED,
                "rank %d: a message to ghost endpoint %d, which is not this node's ghost (%d)",
                rank_, ghost, ghost_);
  return shm_->am_send(shm_->control_block().ghost(), handler_id, payload, bytes);
}

void MpiTransport::wake_ghost(int ghost) {
  if (ghost == ghost_) shm_->wake(shm_->control_block().ghost());
}

}  // namespace remora::mpi
