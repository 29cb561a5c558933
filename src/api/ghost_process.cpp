#include "api/ghost_process.hpp"

#include <atomic>
#include <memory>

#include "core/config.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "progress/serve_loop.hpp"
#include "rma/accumulate/acc_pieces.hpp"
#include "rma/ghost_service.hpp"
#include "rma/reduce_op.hpp"
#include "transport/shm/shm_transport.hpp"

namespace remora::api {

int run_ghost_process() {
  Config config;
  std::vector<std::string> warnings;  // the ranks report them
  if (int status = parse_config(process_environment(), &config, &warnings)) return status;
  set_log_level(config.log.c_str());
  if (int status = rma::configure_kernel(config)) return status;
  rma::configure_pieces(config);
  if (config.control_fd < 0)
    return fail(REMORA_ERR_CONFIG,
                "the ghost process needs REMORA_CONTROL_FD: remorarun starts it");
  shm::ControlBlock block;
  if (int status = shm::ControlBlock::attach(static_cast<int>(config.control_fd), &block))
    return status;
  const int ghost = block.ghost();
  if (ghost < 0) return fail(REMORA_ERR_CONFIG, "the job's control block has no ghost slot");
  set_log_rank(ghost);
  std::unique_ptr<shm::ShmTransport> transport;
  if (int status = shm::ShmTransport::create(std::move(block), ghost, config, &transport))
    return status;
  transport->control_block().rank(ghost).state.store(static_cast<uint32_t>(shm::RankState::Running),
                                                     std::memory_order_release);
  const std::atomic<bool> never{false};
  return serve_as_ghost(*transport, *transport, never);
}

int serve_as_ghost(transport::Transport& endpoint, const transport::GhostDirectory& ghosts,
                   const std::atomic<bool>& stopping) {
  // The transport registered its own handler; the services follow in their fixed order.
  std::unique_ptr<rma::GhostService> rma_service;
  if (int status = rma::GhostService::create(endpoint, ghosts, &rma_service)) return status;
  progress::serve_until(endpoint, stopping);
  return REMORA_SUCCESS;
}

}  // namespace remora::api
