/* GA start-up as GA programs do it: MPI_Init, GA_Initialize, MA_init, identity, a barrier
 * (GA_Sync), GA_Terminate, MPI_Finalize. */
#include <mpi.h>

#include "ga-mpi.h"
#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int mpi_rank = 0, mpi_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);

  CHECK(!GA_Initialized());
  GA_Initialize();
  CHECK(GA_Initialized());
  CHECK(MA_init(C_DBL, 1000, 1000));
  CHECK(GA_Nodeid() == mpi_rank && GA_Nnodes() == mpi_size);

  /* GA's communicator holds the same ranks. */
  int ga_rank = -1, ga_size = -1;
  MPI_Comm_rank(GA_MPI_Comm(), &ga_rank);
  MPI_Comm_size(GA_MPI_Comm(), &ga_size);
  CHECK(ga_rank == mpi_rank && ga_size == mpi_size);

  int dims[2] = {5, 7};
  int g_a = NGA_Create(C_DBL, 2, dims, "a", NULL);
  CHECK(g_a != 0);
  GA_Destroy(g_a);

  GA_Terminate();
  CHECK(!GA_Initialized());
  MPI_Finalize();
  if (mpi_rank == 0) printf("ga init: %d ranks ok\n", mpi_size);
  return 0;
}
