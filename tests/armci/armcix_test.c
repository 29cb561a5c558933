/* armcix.h (ARMCI-MPI's extensions): ARMCIX_Group_split by parity with reversed keys,
 * ARMCIX_Group_dup, and mutex handles on the world group and on a split group: every rank adds
 * to counters under ARMCIX_Lock_hdl (a lost update would show in the sums), ARMCIX_Trylock_hdl
 * refused while another rank holds the mutex and granted once it is free, two handles at once,
 * ARMCIX_Progress. Builds against ARMCI-MPI too (no Remora header). Exit status: the number of
 * failed checks (0: all passed). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "armci.h"
#include "armcix.h"
#include "message.h"

static int me, failures;
#include "armci_check.h"

#define ROUNDS 25

/* Counter k of group rank `owner` of g, read by ARMCI_Get from its ARMCI_Malloc_group memory. */
static long read_counter(void** bases, ARMCI_Group* g, int owner) {
  long v = 0;
  ARMCI_Get(bases[owner], &v, sizeof v, ARMCI_Absolute_id(g, owner));
  return v;
}

/* Every member adds 1 to the counter of every other member, ROUNDS times, under that member's
 * mutex 0 of hdl (get, add, put: only the lock makes it atomic). */
static void locked_counters(armcix_mutex_hdl_t hdl, ARMCI_Group* g) {
  int grank = -1, gsize = 0;
  ARMCI_Group_rank(g, &grank);
  ARMCI_Group_size(g, &gsize);
  void** bases = malloc(sizeof(void*) * (size_t)gsize);
  ARMCI_Malloc_group(bases, sizeof(long), g);
  *(long*)bases[grank] = 0;
  armci_msg_group_barrier(g);
  for (int r = 0; r < ROUNDS; ++r)
    for (int t = 0; t < gsize; ++t) {
      const int abs = ARMCI_Absolute_id(g, t);
      ARMCIX_Lock_hdl(hdl, 0, abs); /* proc: the absolute rank, as ARMCI-MPI */
      long v = 0;
      ARMCI_Get(bases[t], &v, sizeof v, abs);
      v += 1;
      ARMCI_Put(&v, bases[t], sizeof v, abs);
      ARMCIX_Unlock_hdl(hdl, 0, abs);
    }
  ARMCI_AllFence();
  armci_msg_group_barrier(g);
  for (int t = 0; t < gsize; ++t) {
    long v = read_counter(bases, g, t);
    CHECK(v == (long)ROUNDS * gsize, "counter of group rank %d is %ld, expected %ld", t, v,
          (long)ROUNDS * gsize);
  }
  armci_msg_group_barrier(g);
  ARMCI_Free_group(bases[grank], g);
  free(bases);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ARMCI_Init();
  int nproc = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &nproc);
  ARMCI_Group world;
  ARMCI_Group_get_world(&world);

  /* Split by parity, keys reversing the order: group rank k is the (size-1-k)-th member. */
  ARMCI_Group half;
  CHECK(ARMCIX_Group_split(&world, me % 2, nproc - me, &half) == 0, "split failed");
  int hrank = -1, hsize = 0;
  ARMCI_Group_rank(&half, &hrank);
  ARMCI_Group_size(&half, &hsize);
  const int expect_size = (nproc - me % 2 + 1) / 2;
  CHECK(hsize == expect_size, "split group size %d, expected %d", hsize, expect_size);
  for (int k = 0; k < hsize; ++k) {
    /* members of my parity in decreasing rank order */
    int top = nproc - 1;
    if (top % 2 != me % 2) --top;
    const int expect = top - 2 * k;
    CHECK(ARMCI_Absolute_id(&half, k) == expect, "split group rank %d is rank %d, expected %d", k,
          ARMCI_Absolute_id(&half, k), expect);
  }
  CHECK(ARMCI_Absolute_id(&half, hrank) == me, "my split group rank %d maps to %d", hrank,
        ARMCI_Absolute_id(&half, hrank));

  ARMCI_Group copy;
  CHECK(ARMCIX_Group_dup(&half, &copy) == 0, "dup failed");
  int crank = -1, csize = 0;
  ARMCI_Group_rank(&copy, &crank);
  ARMCI_Group_size(&copy, &csize);
  CHECK(crank == hrank && csize == hsize, "dup: rank %d size %d, expected %d %d", crank, csize,
        hrank, hsize);
  for (int k = 0; k < csize; ++k)
    CHECK(ARMCI_Absolute_id(&copy, k) == ARMCI_Absolute_id(&half, k), "dup member %d differs", k);

  /* Mutex handles: one on the world (rank r creates r + 1 mutexes), one on the split group. */
  armcix_mutex_hdl_t wh = ARMCIX_Create_mutexes_hdl(me + 1, &world);
  armcix_mutex_hdl_t hh = ARMCIX_Create_mutexes_hdl(1, &copy);
  CHECK(wh != NULL && hh != NULL, "handles not created");
  locked_counters(wh, &world);
  locked_counters(hh, &copy);

  /* Trylock: rank 0 holds world mutex (nproc - 1) of the last rank; the others are refused;
   * after rank 0 lets go, each takes and returns it in turn. */
  const int last = nproc - 1;
  if (me == 0) {
    CHECK(ARMCIX_Trylock_hdl(wh, last, last) == 0, "trylock of a free mutex refused");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (me != 0) {
    CHECK(ARMCIX_Trylock_hdl(wh, last, last) == 1, "trylock of a held mutex granted");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) ARMCIX_Unlock_hdl(wh, last, last);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int r = 0; r < nproc; ++r) {
    if (r == me) {
      CHECK(ARMCIX_Trylock_hdl(wh, last, last) == 0, "trylock of a freed mutex refused");
      ARMCIX_Unlock_hdl(wh, last, last);
    }
    ARMCIX_Progress();
    MPI_Barrier(MPI_COMM_WORLD);
  }

  CHECK(ARMCIX_Destroy_mutexes_hdl(hh) == 0, "destroy failed");
  CHECK(ARMCIX_Destroy_mutexes_hdl(wh) == 0, "destroy failed");
  ARMCI_Group_free(&copy);
  ARMCI_Group_free(&half);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0 && all == 0) printf("armcix: all checks passed on %d ranks\n", nproc);
  ARMCI_Finalize();
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
