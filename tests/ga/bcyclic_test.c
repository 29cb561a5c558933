/* GA_Set_block_cyclic: GA deals the blocks, numbered row-major (the last dimension fastest),
 * to the ranks round-robin, block k to rank k mod P. Each rank fills the blocks k = me, me+P,
 * ... through NGA_Access_block (which only the owner may do, in GA as here), then every rank
 * reads the whole array with NGA_Get and compares it with the serial reference; NGA_Distribution
 * names block k's bounds. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

struct shape {
  int dims[2], block[2];
};

static const struct shape shapes[] = {
    {{12, 12}, {1, 1}}, /* 12 blocks per row */
    {{6, 5}, {6, 1}},   /* one row of blocks */
    {{20, 2}, {3, 1}},  /* 2 blocks per row */
    {{3, 4}, {2, 2}},   /* 4 blocks */
    {{8, 12}, {2, 3}},  /* 4 x 4 blocks */
    {{9, 14}, {2, 3}},  /* 5 x 5 blocks: on 2, 3 or 4 ranks no process grid deals them so */
};

static double value(int i, int j) {
  return 1000.0 * i + j + 0.5;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  const int nprocs = GA_Nnodes(), me = GA_Nodeid();
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
    const struct shape* sh = &shapes[s];
    int dims[2] = {sh->dims[0], sh->dims[1]}, block[2] = {sh->block[0], sh->block[1]};
    const int g_a = GA_Create_handle();
    GA_Set_data(g_a, 2, dims, C_DBL);
    GA_Set_block_cyclic(g_a, block);
    CHECK(GA_Allocate(g_a) == 1);
    const int n0 = (dims[0] + block[0] - 1) / block[0], n1 = (dims[1] + block[1] - 1) / block[1];
    CHECK(GA_Total_blocks(g_a) == n0 * n1);
    for (int k = 0; k < n0 * n1; ++k) { /* block k's bounds */
      int lo[2], hi[2];
      NGA_Distribution(g_a, k, lo, hi);
      CHECK(lo[0] == (k / n1) * block[0] && lo[1] == (k % n1) * block[1]);
      CHECK(hi[0] == (lo[0] + block[0] < dims[0] ? lo[0] + block[0] : dims[0]) - 1);
      CHECK(hi[1] == (lo[1] + block[1] < dims[1] ? lo[1] + block[1] : dims[1]) - 1);
    }
    for (int k = me; k < n0 * n1; k += nprocs) {
      int lo[2], hi[2], ld[1];
      double* p = NULL;
      NGA_Distribution(g_a, k, lo, hi);
      NGA_Access_block(g_a, k, &p, ld);
      CHECK(p != NULL && ld[0] >= hi[1] - lo[1] + 1);
      for (int i = lo[0]; i <= hi[0]; ++i)
        for (int j = lo[1]; j <= hi[1]; ++j) p[(i - lo[0]) * ld[0] + (j - lo[1])] = value(i, j);
      NGA_Release_update_block(g_a, k);
    }
    GA_Sync();
    double* all = malloc(sizeof(double) * dims[0] * dims[1]);
    int lo[2] = {0, 0}, hi[2] = {dims[0] - 1, dims[1] - 1}, ld[1] = {dims[1]};
    NGA_Get(g_a, lo, hi, all, ld);
    for (int i = 0; i < dims[0]; ++i)
      for (int j = 0; j < dims[1]; ++j) CHECK(all[i * dims[1] + j] == value(i, j));
    free(all);
    GA_Sync();
    GA_Destroy(g_a);
  }
  if (me == 0) printf("bcyclic: round-robin block ownership and values as GA\n");
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
