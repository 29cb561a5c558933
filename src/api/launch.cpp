#include "api/launch.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <random>

#include "api/runtime.hpp"
#include "core/error.hpp"
#include "transport/shm/shm_transport.hpp"

#ifdef REMORA_HAVE_MPI
#include "api/ghost_process.hpp"
#include "transport/mpi/death_notice.hpp"
#include "transport/mpi/mpi_transport.hpp"
#endif

namespace remora::api {
namespace {

std::string private_job_id() {
  std::random_device random;
  return format("%d-%08x", static_cast<int>(getpid()), random());
}

// A process that an MPI launcher started as one of several (mpiexec), in a build whose
// transport cannot join them, would run as a job of its own: every rank computing alone, each
// result plausible. Refuse instead. (MPI builds join such a job through MPI.)
int check_not_one_of_many() {
  for (const char* name : {"PMI_SIZE", "OMPI_COMM_WORLD_SIZE"}) {
    const char* value = std::getenv(name);
    if (value == nullptr || std::atol(value) <= 1) continue;
    return fail(REMORA_ERR_CONFIG,
                "this process was started as one of %s processes (%s=%s), but this Remora has no "
                "transport that joins them (built without MPI): each would run alone. Start the "
                "program with remorarun -n %s, or build Remora with -DREMORA_WITH_MPI=ON",
                value, name, value, value);
  }
  return REMORA_SUCCESS;
}

// The control block of a job started by remorarun, or a private one for a job of one rank.
int open_control_block(const Config& config, shm::ControlBlock* block) {
  if (config.control_fd >= 0) {
    int status = shm::ControlBlock::attach(static_cast<int>(config.control_fd), block);
    if (status != REMORA_SUCCESS) return status;
    if (block->nranks() != config.size)
      return fail(REMORA_ERR_CONFIG, "REMORA_SIZE=%lld disagrees with the control block's %d ranks",
                  config.size, block->nranks());
    return REMORA_SUCCESS;
  }
  if (config.rank > 0 || config.size > 1)
    return fail(REMORA_ERR_CONFIG,
                "REMORA_RANK=%lld / REMORA_SIZE=%lld are set but REMORA_CONTROL_FD is not: start "
                "the program with remorarun",
                config.rank, config.size);
  if (int status = check_not_one_of_many()) return status;
  return shm::ControlBlock::create(1, private_job_id(),
                                   static_cast<uint32_t>(config.am_queue_slots),
                                   static_cast<uint32_t>(config.am_slot_bytes), false, block);
}

#ifdef REMORA_HAVE_MPI
// A rank of an MPI job that leaves without remora_finalize would leave the others waiting for
// it (remorarun notices that; mpiexec does not): end the job instead.
int exiting_rank = -1;
void end_job_if_not_finalized() {
  if (!is_initialized()) return;
  std::fflush(stdout);
  std::fprintf(stderr, "remora: rank %d exited without calling remora_finalize; ending the job\n",
               exiting_rank);
  std::fflush(stderr);
  mpi::abort_job(1);  // stops the death notice: this is the report
}

// A process chosen as its node's ghost (REMORA_PROGRESS=ghost under MPI) never returns to the
// application: it serves until its node's ranks have left Remora, finalises MPI and exits.
[[noreturn]] void serve_as_mpi_ghost(std::unique_ptr<mpi::GhostEndpoint> ghost) {
  mpi::name_death_notice(format("the ghost process (endpoint %d)", ghost->rank()).c_str());
  const int status = serve_as_ghost(*ghost, *ghost, ghost->finished());
  if (status != REMORA_SUCCESS) {
    std::fprintf(stderr, "remora: the ghost process (endpoint %d) cannot serve: %s\n",
                 ghost->rank(), last_error());
    mpi::abort_job(1);
  }
  ghost.reset();  // finalises MPI
  std::fflush(stdout);
  std::_Exit(0);
}
#endif

}  // namespace

int open_transport(int* argc, char*** argv, const Config& config, progress::Mode* mode,
                   std::unique_ptr<transport::Transport>* transport, transport::JobControl** job,
                   const transport::GhostDirectory** ghosts) {
#ifdef REMORA_HAVE_MPI
  if (config.control_fd < 0 && mpi::started_by_mpi()) {
    bool thread_progress = *mode == progress::Mode::Thread;
    std::unique_ptr<mpi::MpiTransport> mpi;
    std::unique_ptr<mpi::GhostEndpoint> ghost;
    const int status = mpi::MpiTransport::create(argc, argv, config, &thread_progress, &mpi,
                                                 *mode == progress::Mode::Ghost ? &ghost : nullptr);
    if (status != REMORA_SUCCESS) return status;
    if (ghost) serve_as_mpi_ghost(std::move(ghost));
    // Falls back when MPI cannot give a progress thread; ghost mode stays (window.cpp counts
    // the node's ghost as every rank's progress agent).
    if (*mode == progress::Mode::Thread && !thread_progress) *mode = progress::Mode::Manual;
    exiting_rank = mpi->rank();
    // mpiexec does not name a rank that dies by a signal (death_notice.hpp).
    mpi::name_death_notice(format("rank %d", mpi->rank()).c_str());
    static bool registered = false;
    if (!registered) registered = std::atexit(end_job_if_not_finalized) == 0;
    *job = &mpi->node();
    *ghosts = mpi.get();
    *transport = std::move(mpi);
    return REMORA_SUCCESS;
  }
#else
  (void)argc;
  (void)argv;
  (void)mode;
#endif
  shm::ControlBlock block;
  int status = open_control_block(config, &block);
  if (status != REMORA_SUCCESS) return status;
  const int rank = config.rank >= 0 ? static_cast<int>(config.rank) : 0;
  std::unique_ptr<shm::ShmTransport> shm;
  status = shm::ShmTransport::create(std::move(block), rank, config, &shm);
  if (status != REMORA_SUCCESS) return status;
  *job = shm.get();
  *ghosts = shm.get();
  *transport = std::move(shm);
  return REMORA_SUCCESS;
}

void end_job([[maybe_unused]] int code) {
#ifdef REMORA_HAVE_MPI
  mpi::abort_job(code);
#endif
}

}  // namespace remora::api
