#include "transport/mpi/mpi_session.hpp"

#include <mpi.h>

#include <cstdlib>

#include "core/error.hpp"

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
  if (initialized) {
    MPI_Query_thread(&provided);
    out->reset(new Session(false, provided));
    return REMORA_SUCCESS;
  }
  // Remora's own MPI calls are serialised by the transport; MULTIPLE only when a progress
  // thread runs them concurrently with MPI calls the application makes itself.
  const int required = want_multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SERIALIZED;
  if (MPI_Init_thread(argc, argv, required, &provided) != MPI_SUCCESS)
    return fail(REMORA_ERR_SYSTEM, "remora_init: MPI_Init_thread failed");
  out->reset(new Session(true, provided));
  return REMORA_SUCCESS;
}

Session::~Session() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (owns_ && !finalized) MPI_Finalize();
}

bool Session::thread_multiple() const {
  return provided_ >= MPI_THREAD_MULTIPLE;
}

void abort_job(int code) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Abort(MPI_COMM_WORLD, code);
}

}  // namespace remora::mpi
