/* The application initialises MPI itself, uses MPI and Remora side by side, and finalises MPI
 * after remora_finalize: Remora must adopt that MPI and leave it running. */
#define _POSIX_C_SOURCE 200809L /* nanosleep, in mpi_check.h */

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_check.h"
#include "remora.h"

#if defined(OPEN_MPI) && OMPI_MAJOR_VERSION < 5
/* Open MPI 4: osc/rdma crashes in MPI_Compare_and_swap over btl/vader and osc/pt2pt (the
 * tests set OMPI_MCA_osc=pt2pt) refuses MPI_THREAD_MULTIPLE windows. */
static const int kThreadLevel = MPI_THREAD_SERIALIZED;
#else
static const int kThreadLevel = MPI_THREAD_MULTIPLE;
#endif

int main(int argc, char** argv) {
  /* "single": plain MPI_Init (MPI_THREAD_SINGLE), so REMORA_PROGRESS=thread must fall back. */
  int provided = 0;
  if (argc > 1 && strcmp(argv[1], "single") == 0)
    CHECK(MPI_Init(&argc, &argv) == MPI_SUCCESS);
  else
    CHECK(MPI_Init_thread(&argc, &argv, kThreadLevel, &provided) == MPI_SUCCESS);
  int mpi_rank = 0, mpi_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);

  CHECK(remora_init(&argc, &argv) == REMORA_SUCCESS);
  CHECK(remora_rank() == mpi_rank && remora_size() == mpi_size);

  /* Remora: everyone counts on rank 0. */
  remora_segment_t segment;
  CHECK(remora_segment_allocate(sizeof(int64_t), &segment) == REMORA_SUCCESS);
  CHECK(remora_fetch_add(segment, 0, 0, mpi_rank + 1, NULL) == REMORA_SUCCESS);
  CHECK(remora_barrier() == REMORA_SUCCESS);

  /* MPI alongside: an allreduce of the same sum. */
  int mine = mpi_rank + 1, sum = 0;
  CHECK(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
  int64_t counted = 0;
  CHECK(remora_get(segment, 0, 0, &counted, sizeof counted) == REMORA_SUCCESS);
  CHECK(counted == sum && sum == mpi_size * (mpi_size + 1) / 2);

  CHECK(remora_segment_free(&segment) == REMORA_SUCCESS);
  CHECK(remora_finalize() == REMORA_SUCCESS);

  /* MPI still works after Remora is gone. */
  int finalized = 1;
  MPI_Finalized(&finalized);
  CHECK(!finalized);
  CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS);
  CHECK(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) == MPI_SUCCESS);
  CHECK(sum == mpi_size);
  MPI_Finalize();
  if (mpi_rank == 0) printf("app_owns_mpi: %d ranks ok\n", mpi_size);
  return 0;
}
