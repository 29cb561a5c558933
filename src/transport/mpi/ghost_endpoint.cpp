#include "transport/mpi/ghost_endpoint.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/log.hpp"

namespace remora::mpi {
namespace {
constexpr uint64_t kLeavingPollNs = 100000;  // a one-node job's ghost, waiting for the others
}  // namespace

int GhostEndpoint::create(std::unique_ptr<Session> session, GhostSplit split,
                          const std::string& job_id, const Config& config,
                          std::unique_ptr<GhostEndpoint>* out) {
  std::unique_ptr<GhostEndpoint> self(new GhostEndpoint());
  self->session_ = std::move(session);
  self->split_ = split;
  share_layout_with_ghost(self->split_, &self->size_, &self->layout_);
  set_log_rank(self->rank());
  shm::ControlBlock block;
  if (int status =
          share_control_block(self->layout_, self->split_.members, 1, job_id, config, &block))
    return status;
  // Messages name their source in the job's numbering: the node's ranks, then this ghost.
  std::vector<int> job_ranks = self->layout_.node_ranks;
  job_ranks.push_back(self->rank());
  const int ghost = block.ghost();
  if (int status = shm::ShmTransport::create(std::move(block), ghost, config, std::move(job_ranks),
                                             self->size_ + self->layout_.node_count, &self->shm_))
    return status;
  // This node's endpoints: its ranks, and this ghost.
  std::vector<int> local_of(static_cast<size_t>(self->rank() + 1), -1);
  for (int r : self->layout_.node_ranks)
    local_of[static_cast<size_t>(r)] = self->layout_.index_on_node[static_cast<size_t>(r)];
  local_of[static_cast<size_t>(self->rank())] = ghost;
  self->route(std::move(local_of));
  self->shm_->control_block().rank(ghost).state.store(
      static_cast<uint32_t>(shm::RankState::Running), std::memory_order_release);
  self->channel_ =
      std::make_unique<AmChannel>(self->split_.everyone, self->mpi_mutex_,
                                  EndpointMap::gather(self->split_.everyone, self->rank()));
  if (self->layout_.node_count > 1) self->poll_interval_ns_ = config.mpi_poll_us * 1000;
  self->set_agent_policy(self->layout_.node_count > 1);
  MPI_Ibarrier(self->split_.everyone, &self->everyone_left_);
  *out = std::move(self);
  return REMORA_SUCCESS;
}

GhostEndpoint::~GhostEndpoint() {
  channel_.reset();
  shm_.reset();
  if (split_.members != MPI_COMM_NULL) MPI_Comm_free(&split_.members);
  if (split_.everyone != MPI_COMM_NULL) MPI_Comm_free(&split_.everyone);
}

int GhostEndpoint::unreachable(const char* what, int rank) const {
  return fail(REMORA_ERR_UNSUPPORTED,
              "ghost of node %d: %s rank %d, which is not on this node (under MPI a ghost "
              "reaches its own node's ranks' memory only)",
              layout_.node, what, rank);
}

int GhostEndpoint::allocate_segment(size_t, transport::Segment**) {
  return fail(REMORA_ERR_INTERNAL, "ghost of node %d: a ghost allocates no segment", layout_.node);
}

int GhostEndpoint::free_segment(transport::Segment*) {
  return fail(REMORA_ERR_INTERNAL, "ghost of node %d: a ghost frees no segment", layout_.node);
}

// The ranks' own transport decides which words take CPU atomics; the ghost keeps calls.
bool GhostEndpoint::cpu_atomics(const transport::Segment&) const {
  return false;
}

int GhostEndpoint::remote_am_send(int target, int handler_id, const void* payload, size_t bytes) {
  if (target >= 0 && target < size_)
    return channel_->send(target, handler_id, payload, bytes);  // a reply across nodes
  return unreachable("message to", target);
}

int GhostEndpoint::node_barrier() {
  return fail(REMORA_ERR_INTERNAL, "ghost of node %d: a ghost takes part in no barrier",
              layout_.node);
}

bool GhostEndpoint::ranks_left() const {
  const shm::ControlBlock& block = shm_->control_block();
  for (int r = 0; r < block.nranks(); ++r)
    if (block.rank(r).state.load(std::memory_order_acquire) !=
        static_cast<uint32_t>(shm::RankState::Finalized))
      return false;
  return true;
}

bool GhostEndpoint::job_left() {
  if (!job_left_ && everyone_left_ != MPI_REQUEST_NULL) {
    std::lock_guard lock(mpi_mutex_);
    int done = 0;
    MPI_Test(&everyone_left_, &done, MPI_STATUS_IGNORE);
    job_left_ = done != 0;
  }
  return job_left_;
}

bool GhostEndpoint::poll() {
  const bool received = layout_.node_count > 1 && channel_->poll(shm_->dispatcher());
  const bool progressed = shm_->poll() || received;
  if (!progressed && ranks_left() && job_left()) finished_.store(true, std::memory_order_release);
  return progressed;
}

// The rank's wake after its Finalized store (ControlBlock::wake fences first) pairs with this
// check inside the sleep, after the ghost counted itself a sleeper: it is never slept through.
// Nobody wakes the ghost from another node, nor when the job-wide barrier completes: it sleeps
// at most REMORA_MPI_POLL_US when the job spans nodes, and once its node's ranks have left.
void GhostEndpoint::sleep(uint64_t timeout_ns, transport::Ready ready, transport::Sleeper sleeper) {
  const bool node_left = ranks_left();
  if (poll_interval_ns_ > 0 || node_left)
    timeout_ns = std::min(timeout_ns, poll_interval_ns_ > 0 ? poll_interval_ns_ : kLeavingPollNs);
  shm_->sleep(
      timeout_ns, [&ready, node_left, this] { return ready() || (!node_left && ranks_left()); },
      sleeper);
}

}  // namespace remora::mpi

template class remora::mpi::Router<remora::mpi::GhostEndpoint>;
