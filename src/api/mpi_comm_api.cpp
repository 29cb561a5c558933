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

extern "C" int remora_init_mpi_comm(int* argc, char*** argv, const void* mpi_comm) {
  constexpr const char* function = "remora_init_mpi_comm";
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
  const int status = remora_init(argc, argv);
  remora::mpi::set_job_comm(nullptr);  // a later remora_init spans MPI_COMM_WORLD again
  return status;
#else
  (void)argc;
  (void)argv;
  return remora::fail(REMORA_ERR_UNSUPPORTED, "%s: Remora was built without MPI", function);
#endif
}
