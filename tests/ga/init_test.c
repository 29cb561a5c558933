/* GA start-up and process information, the three ways GA programs start:
 *   (no argument)  MPI_Init, GA_Initialize, ..., GA_Terminate, MPI_Finalize
 *   args           GA_Initialize_args without MPI_Init: GA starts MPI; the program finalizes it
 *                  after GA_Terminate, as with GA
 *   ltd            GA_Initialize_ltd(limit): creation beyond the per-process limit fails
 * plus MA_init and the MA_set_* flags, cluster information checked against MPI, memory
 * accounting, GA_Wtime and GA_Print_stats. */
#include <mpi.h>
#include <string.h>

#include "ga-mpi.h"
#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

static void cluster_info(void) {
  const int me = GA_Nodeid(), nprocs = GA_Nnodes();
  const int nodes = GA_Cluster_nnodes(), my_node = GA_Cluster_nodeid();
  CHECK(nodes >= 1 && my_node >= 0 && my_node < nodes);
  CHECK(GA_Cluster_proc_nodeid(me) == my_node);
  int total = 0, found_me = 0;
  for (int node = 0; node < nodes; ++node) {
    const int n = GA_Cluster_nprocs(node);
    CHECK(n >= 1);
    total += n;
    for (int i = 0; i < n; ++i) {
      const int proc = GA_Cluster_procid(node, i);
      CHECK(proc >= 0 && proc < nprocs && GA_Cluster_proc_nodeid(proc) == node);
      if (proc == me) found_me = 1;
    }
  }
  CHECK(total == nprocs && found_me);
  /* Ranks of one node share memory: MPI's shared-memory split agrees on the count. */
  MPI_Comm node_comm;
  MPI_Comm_split_type(GA_MPI_Comm(), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node_comm);
  int node_size = 0;
  MPI_Comm_size(node_comm, &node_size);
  CHECK(node_size >= GA_Cluster_nprocs(my_node));
  MPI_Comm_free(&node_comm);
}

static void memory_unlimited(void) {
  CHECK(GA_Uses_ma() == 0 && GA_Uses_fapi() == 0);
  CHECK(GA_Memory_limited() == 0);
  const size_t before = GA_Inquire_memory();
  int dims[2] = {64, 32};
  int g_a = NGA_Create(C_DBL, 2, dims, "mem", NULL);
  int lo[2], hi[2];
  NGA_Distribution(g_a, GA_Nodeid(), lo, hi);
  const size_t mine =
      hi[0] >= lo[0] ? (size_t)(hi[0] - lo[0] + 1) * (size_t)(hi[1] - lo[1] + 1) * 8 : 0;
  CHECK(GA_Inquire_memory() == before + mine);
  GA_Destroy(g_a);
  CHECK(GA_Inquire_memory() == before);
}

static void memory_limited(size_t limit) {
  CHECK(GA_Memory_limited() == 1);
  CHECK(GA_Memory_avail() == limit);
  /* 16 x 16 doubles = 2 KiB in all: fits in every rank's limit. */
  int small[2] = {16, 16};
  int g_a = NGA_Create(C_DBL, 2, small, "small", NULL);
  CHECK(g_a != 0);
  CHECK(GA_Memory_avail() == limit - GA_Inquire_memory());
  /* Rank 0's share of this one alone exceeds the limit: creation fails everywhere. */
  int big[2] = {1024, 1024};
  CHECK(NGA_Create(C_DBL, 2, big, "big", NULL) == 0);
  GA_Destroy(g_a);
  CHECK(GA_Memory_avail() == limit);
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  const size_t limit = 64 * 1024;
  if (strcmp(mode, "args") == 0) {
    ga_test_begin_without_mpi(&argc, &argv);
  } else {
    MPI_Init(&argc, &argv);
    CHECK(!GA_Initialized());
    if (strcmp(mode, "ltd") == 0)
      GA_Initialize_ltd(limit);
    else
      GA_Initialize();
  }
  CHECK(GA_Initialized());
  CHECK(MA_init(C_DBL, 1000, 1000));
  /* Each MA_set_* returns the flag's previous value (GA's defaults: off, off, on). */
  CHECK(MA_set_auto_verify(1) == MA_FALSE && MA_set_auto_verify(1) == MA_TRUE);
  CHECK(MA_set_hard_fail(1) == MA_FALSE && MA_set_error_print(0) == MA_TRUE);
  CHECK(MA_set_error_print(1) == MA_FALSE);
  int mpi_rank = 0, mpi_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
  CHECK(GA_Nodeid() == mpi_rank && GA_Nnodes() == mpi_size);
  int ga_rank = -1, ga_size = -1;
  MPI_Comm_rank(GA_MPI_Comm(), &ga_rank);
  MPI_Comm_size(GA_MPI_Comm(), &ga_size);
  CHECK(ga_rank == mpi_rank && ga_size == mpi_size);

  const double t0 = GA_Wtime();
  cluster_info();
  if (strcmp(mode, "ltd") == 0)
    memory_limited(limit);
  else
    memory_unlimited();
  CHECK(GA_Wtime() >= t0);
  GA_Sync();
  GA_Print_stats();

  /* An array left alive is destroyed by GA_Terminate. */
  int dims[1] = {10};
  CHECK(NGA_Create(C_INT, 1, dims, "left", NULL) != 0);
  GA_Terminate();
  CHECK(!GA_Initialized());
  /* As in GA, GA_Terminate leaves MPI running, also when GA_Initialize_args started it: the
     program's own MPI_Finalize must succeed (it failed when GA_Terminate had finalized MPI). */
  int finalized = 1;
  MPI_Finalized(&finalized);
  CHECK(!finalized);
  CHECK(MPI_Finalize() == MPI_SUCCESS);
  if (mpi_rank == 0) printf("ga init%s%s: %d ranks ok\n", *mode ? " " : "", mode, mpi_size);
  return 0;
}
