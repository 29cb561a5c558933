/* GA_Initialize_comm: GA (and Remora under it) on a sub-communicator of MPI_COMM_WORLD, every
 * rank but the last (then NGA_Initialize_comm, which repeats it); the last rank keeps using MPI
 * alone meanwhile (and is in no GA call). Inside: GA_Nodeid / GA_Nnodes count the
 * sub-communicator's ranks, GA_MPI_Comm is congruent to it, an array with put/get/acc/sync, a
 * world-group gop. Afterwards everyone meets again in MPI_COMM_WORLD. */
#include <mpi.h>

#include "ga-mpi.h"
#include "ga.h"
#include "ga_check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int ga_ranks = size > 1 ? size - 1 : 1;
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank < ga_ranks ? 0 : MPI_UNDEFINED, rank, &comm);
  int ok = 1;
  if (comm != MPI_COMM_NULL) {
    CHECK(GA_Initialize_comm(comm) == 1);  /* GA programs test it: if (GA_Initialize_comm(c)) */
    CHECK(NGA_Initialize_comm(comm) == 1); /* GA 5.9's other spelling; again is allowed */
    CHECK(GA_Initialized());
    CHECK(GA_Nnodes() == ga_ranks && GA_Nodeid() == rank);
    int congruent = MPI_UNEQUAL;
    MPI_Comm_compare(GA_MPI_Comm(), comm, &congruent);
    CHECK(congruent == MPI_CONGRUENT || congruent == MPI_IDENT);
    int dims[1] = {4 * ga_ranks};
    int g_a = NGA_Create(C_LONG, 1, dims, "counts", NULL);
    long mine[4] = {rank, rank, rank, rank};
    int lo[1] = {4 * rank}, hi[1] = {4 * rank + 3}, ld[1] = {1};
    NGA_Put(g_a, lo, hi, mine, ld);
    GA_Sync();
    long all[64];
    int alo[1] = {0}, ahi[1] = {4 * ga_ranks - 1};
    long ones[64];
    for (int i = 0; i < 4 * ga_ranks; ++i) ones[i] = 1;
    long one = 1;
    NGA_Acc(g_a, alo, ahi, ones, ld, &one);
    GA_Sync();
    NGA_Get(g_a, alo, ahi, all, ld);
    for (int i = 0; i < 4 * ga_ranks; ++i) CHECK(all[i] == i / 4 + ga_ranks);
    int count = 1;
    GA_Pgroup_igop(GA_Pgroup_get_world(), &count, 1, "+");
    CHECK(count == ga_ranks);
    GA_Destroy(g_a);
    GA_Terminate();
    MPI_Comm_free(&comm);
  } else {
    /* The rank outside GA: plain MPI on its own communicator. */
    MPI_Comm self;
    MPI_Comm_dup(MPI_COMM_SELF, &self);
    long x = 21, y = 0;
    MPI_Allreduce(&x, &y, 1, MPI_LONG, MPI_SUM, self);
    ok = y == 21;
    MPI_Comm_free(&self);
  }
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all_ok) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Finalize();
  return 0;
}
