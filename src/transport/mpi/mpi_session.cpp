#include "transport/mpi/mpi_session.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "core/error.hpp"
#include "transport/mpi/death_notice.hpp"

namespace remora::mpi {

bool started_by_mpi() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) return true;
  // Hydra (MPICH) and PMI-1/2 (srun --mpi=pmi2), PMIx (Open MPI, srun --mpi=pmix), Open MPI.
  for (const char* name :
       {"PMI_RANK", "PMI_SIZE", "PMI_FD", "PMIX_RANK", "OMPI_COMM_WORLD_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

namespace {
MPI_Comm the_job_comm = MPI_COMM_NULL;  // MPI_COMM_NULL: MPI_COMM_WORLD
}  // namespace

void set_job_comm(const void* comm) {
  the_job_comm = comm != nullptr ? *static_cast<const MPI_Comm*>(comm) : MPI_COMM_NULL;
}

const void* job_comm() {
  return the_job_comm == MPI_COMM_NULL ? nullptr : &the_job_comm;
}

const char* thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE:
      return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED:
      return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
      return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE:
      return "MPI_THREAD_MULTIPLE";
    default:
      return "an unknown thread level";
  }
}

int Session::open(int* argc, char*** argv, bool want_multiple, std::unique_ptr<Session>* out) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized)
    return fail(REMORA_ERR_STATE,
                "remora_init: MPI was already finalized; call remora_init before MPI_Finalize");
  int initialized = 0;
  MPI_Initialized(&initialized);
  int provided = MPI_THREAD_SINGLE;
  start_death_notice(!initialized);  // before MPI_Init when Remora initialises MPI
  if (initialized) {
    MPI_Query_thread(&provided);
    out->reset(new Session(false, provided));
    return REMORA_SUCCESS;
  }
  // Remora's own MPI calls are serialised by the transport; MULTIPLE only when a progress
  // thread runs them concurrently with MPI calls the application makes itself.
  int required = want_multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SERIALIZED;
#if defined(OPEN_MPI) && OMPI_MAJOR_VERSION < 5
  // Open MPI 4.1's default one-sided component (osc/rdma) crashes in MPI_Compare_and_swap
  // over its shared-memory transport (btl/vader, emulated atomics); osc/pt2pt works but refuses
  // MPI_THREAD_MULTIPLE. Unless the user chose a component, use pt2pt and SERIALIZED (enough
  // for Remora's serialised calls, see serves_progress_thread) (docs/running-on-clusters.md).
  if (std::getenv("OMPI_MCA_osc") == nullptr) {
    setenv("OMPI_MCA_osc", "pt2pt", 0);
    required = MPI_THREAD_SERIALIZED;
  }
#endif
  if (MPI_Init_thread(argc, argv, required, &provided) != MPI_SUCCESS)
    return fail(REMORA_ERR_SYSTEM, "remora_init: MPI_Init_thread failed");
  out->reset(new Session(true, provided));
  return REMORA_SUCCESS;
}

Session::~Session() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (owns_ && !finalized) MPI_Finalize();
  stop_death_notice();  // this process leaves the job as it should
}

bool Session::serves_progress_thread() const {
  // Remora serialises its own MPI calls; the application may call MPI concurrently only if
  // it initialised MPI itself, and then MULTIPLE is needed.
  return provided_ >= MPI_THREAD_MULTIPLE || (owns_ && provided_ >= MPI_THREAD_SERIALIZED);
}

void abort_job(int code) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) return;
  stop_death_notice();  // the caller has said why the job ends
  // The launcher's proxy forwards this rank's stderr (the message saying why the job ends)
  // through a pipe and kills the job as soon as it hears of the abort; seen with MPICH's
  // hydra: without a moment for the pipe to drain, the message was sometimes lost.
  std::fflush(stderr);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  MPI_Abort(MPI_COMM_WORLD, code);
}

}  // namespace remora::mpi
