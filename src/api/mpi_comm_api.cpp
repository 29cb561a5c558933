// remora_init_mpi_comm: Remora on a communicator other than MPI_COMM_WORLD (the Global-Arrays
// layer's GA_Initialize_comm). The MPI transport then spans only that communicator's ranks:
// they are Remora's ranks 0..n-1, in the communicator's order.
#include "api/runtime.hpp"
#include "core/error.hpp"
#include "remora/runtime.h"
#ifdef REMORA_HAVE_MPI
#include <mpi.h>

#include "transport/mpi/mpi_session.hpp"
#endif

namespace {

// Both entry points: the checks, then `start` (remora_init or remora_init_thread) with the
// MPI transport spanning comm.
template <typename Start>
int init_on_comm(const char* function, const void* mpi_comm, const Start& start) {
  if (mpi_comm == nullptr)
    return remora::fail(REMORA_ERR_ARG, "%s: mpi_comm is NULL (pass &comm)", function);
#ifdef REMORA_HAVE_MPI
  if (remora::api::is_initialized())
    return remora::fail(REMORA_ERR_STATE, "%s: Remora is already initialized", function);
  int mpi_up = 0;
  MPI_Initialized(&mpi_up);
  if (!mpi_up)
    return remora::fail(REMORA_ERR_STATE,
                        "%s: MPI is not initialized (the communicator comes from the "
                        "application's MPI: call MPI_Init first)",
                        function);
  const MPI_Comm comm = *static_cast<const MPI_Comm*>(mpi_comm);
  if (comm == MPI_COMM_NULL)
    return remora::fail(REMORA_ERR_ARG,
                        "%s: *mpi_comm is MPI_COMM_NULL (only the communicator's members call)",
                        function);
  remora::mpi::set_job_comm(mpi_comm);
  const int status = start();
  remora::mpi::set_job_comm(nullptr);  // a later remora_init spans MPI_COMM_WORLD again
  return status;
#else
  (void)start;
  return remora::fail(REMORA_ERR_UNSUPPORTED, "%s: Remora was built without MPI", function);
#endif
}

}  // namespace

extern "C" int remora_init_mpi_comm(int* argc, char*** argv, const void* mpi_comm) {
  return init_on_comm("remora_init_mpi_comm", mpi_comm,
                      [argc, argv] { return remora_init(argc, argv); });
}

extern "C" int remora_init_mpi_comm_thread(int* argc, char*** argv, const void* mpi_comm,
                                           int required, int* provided) {
  constexpr const char* function = "remora_init_mpi_comm_thread";
  if (required < REMORA_THREAD_SINGLE || required > REMORA_THREAD_MULTIPLE)
    return remora::fail(REMORA_ERR_ARG,
                        "%s: required=%d is not a thread level (REMORA_THREAD_SINGLE=0 .. "
                        "REMORA_THREAD_MULTIPLE=3)",
                        function, required);
  if (int status = remora::api::check_pointer(function, "provided", provided)) return status;
  return init_on_comm(function, mpi_comm, [argc, argv, required, provided] {
    return remora_init_thread(argc, argv, required, provided);
  });
}
