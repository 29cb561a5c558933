/* remora_init_mpi_comm_thread: Remora on each half of MPI_COMM_WORLD at a thread level: its
 * argument errors (named, before anything starts), then the level provided, the ranks (the
 * half's, in its order) and a collective that spans the half only. */
#define _POSIX_C_SOURCE 200809L /* nanosleep, in mpi_check.h */

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_check.h"
#include "remora.h"

/* The call fails with REMORA_ERR_ARG and a message naming `what`. */
static int fails_naming(int status, const char* what) {
  return status == REMORA_ERR_ARG && strstr(remora_last_error(), what) != NULL;
}

int main(int argc, char** argv) {
  int mpi_level = 0;
  CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &mpi_level) == MPI_SUCCESS);
  int world_rank = 0, world_size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  const int half = world_rank < (world_size + 1) / 2 ? 0 : 1;
  MPI_Comm comm = MPI_COMM_NULL;
  CHECK(MPI_Comm_split(MPI_COMM_WORLD, half, world_rank, &comm) == MPI_SUCCESS);
  int comm_rank = 0, comm_size = 1;
  MPI_Comm_rank(comm, &comm_rank);
  MPI_Comm_size(comm, &comm_size);

  int provided = -1;
  CHECK(fails_naming(remora_init_mpi_comm_thread(&argc, &argv, &comm, 7, &provided), "required=7"));
  CHECK(
      fails_naming(remora_init_mpi_comm_thread(&argc, &argv, &comm, -1, &provided), "required=-1"));
  CHECK(fails_naming(remora_init_mpi_comm_thread(&argc, &argv, &comm, REMORA_THREAD_SINGLE, NULL),
                     "provided"));
  CHECK(
      fails_naming(remora_init_mpi_comm_thread(&argc, &argv, NULL, REMORA_THREAD_SINGLE, &provided),
                   "mpi_comm is NULL"));
  MPI_Comm null_comm = MPI_COMM_NULL;
  CHECK(fails_naming(
      remora_init_mpi_comm_thread(&argc, &argv, &null_comm, REMORA_THREAD_SINGLE, &provided),
      "MPI_COMM_NULL"));
  int up = 1;
  CHECK(remora_initialized(&up) == REMORA_SUCCESS && up == 0);

  /* Ask for what MPI provides (at least serialized here): Remora gives that level or more. */
  const int wanted =
      mpi_level >= MPI_THREAD_MULTIPLE ? REMORA_THREAD_MULTIPLE : REMORA_THREAD_SERIALIZED;
  CHECK(remora_init_mpi_comm_thread(&argc, &argv, &comm, wanted, &provided) == REMORA_SUCCESS);
  CHECK(provided >= wanted);
  int queried = -1;
  CHECK(remora_query_thread(&queried) == REMORA_SUCCESS && queried == provided);
  CHECK(remora_size() == comm_size);
  CHECK(remora_rank() == comm_rank);
  /* A second start is refused while Remora runs. */
  CHECK(remora_init_mpi_comm_thread(&argc, &argv, &comm, wanted, &provided) == REMORA_ERR_STATE);

  /* The sum of the world ranks of the half, through Remora, equals MPI's over comm. */
  int64_t mine = world_rank, sum = -1, expected = -2;
  remora_comm_t remora_world = REMORA_COMM_NULL;
  CHECK(remora_comm_world(&remora_world) == REMORA_SUCCESS);
  CHECK(remora_allreduce(&mine, &sum, 1, REMORA_INT64, REMORA_OP_SUM, remora_world,
                         REMORA_COLL_AUTO) == REMORA_SUCCESS);
  CHECK(MPI_Allreduce(&mine, &expected, 1, MPI_INT64_T, MPI_SUM, comm) == MPI_SUCCESS);
  CHECK(sum == expected);

  CHECK(remora_finalize() == REMORA_SUCCESS);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  if (world_rank == 0) printf("init_comm_thread: passed on %d ranks\n", world_size);
  return 0;
}
