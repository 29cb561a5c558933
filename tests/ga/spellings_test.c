/* The NGA_ spellings of GA_ calls, as a GA program written against GA 5.9 would use them:
 * start-up, the handle API, fills and reductions, mutexes, fences and groups, each checked
 * against what the GA_ call or a serial reference gives. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  CHECK(!NGA_Initialized());
  NGA_Initialize();
  CHECK(NGA_Initialized());
  const int me = NGA_Nodeid(), nproc = NGA_Nnodes();
  CHECK(me == GA_Nodeid() && nproc == GA_Nnodes());
  CHECK(NGA_Pgroup_get_world() == GA_Pgroup_get_world());
  CHECK(NGA_Pgroup_nnodes(NGA_Pgroup_get_world()) == nproc);
  CHECK(NGA_Pgroup_nodeid(NGA_Pgroup_get_world()) == me);
  CHECK(NGA_Uses_ma() == GA_Uses_ma() && NGA_Memory_limited() == GA_Memory_limited());

  /* The handle API: 12 x 10 doubles, irregular rows (two row blocks when there are ranks). */
  int dims[2] = {12, 10};
  int g_a = NGA_Create_handle();
  NGA_Set_data(g_a, 2, dims, C_DBL);
  NGA_Set_array_name(g_a, "spelled");
  int map[3] = {0, 5, 0}, nblock[2] = {nproc > 1 ? 2 : 1, 1};
  if (nproc == 1) map[1] = 0;
  NGA_Set_irreg_distr(g_a, map, nblock);
  CHECK(NGA_Allocate(g_a) == 1);
  CHECK(NGA_Ndim(g_a) == 2);
  CHECK(strcmp(NGA_Inquire_name(g_a), "spelled") == 0);
  CHECK(NGA_Total_blocks(g_a) == GA_Total_blocks(g_a));
  int grid[2], grid_ga[2];
  NGA_Get_proc_grid(g_a, grid);
  GA_Get_proc_grid(g_a, grid_ga);
  CHECK(grid[0] == grid_ga[0] && grid[1] == grid_ga[1]);

  /* Fill, duplicate, zero, with the 64-bit handle API beside it. */
  double seven = 7.0;
  NGA_Fill(g_a, &seven);
  int g_b = NGA_Duplicate(g_a, "copy");
  CHECK(g_b != 0);
  CHECK(NGA_Compare_distr(g_a, g_b) == 0); /* 0: the same distribution, as in GA */
  GA_Copy(g_a, g_b);
  NGA_Zero(g_a);
  int lo[2] = {0, 0}, hi[2] = {11, 9}, ld[1] = {10};
  double got_a[120], got_b[120];
  NGA_Get(g_a, lo, hi, got_a, ld);
  NGA_Get(g_b, lo, hi, got_b, ld);
  for (int i = 0; i < 120; ++i) CHECK(got_a[i] == 0.0 && got_b[i] == 7.0);
  NGA_Destroy(g_b);

  int64_t dims64[1] = {33};
  int g_c = NGA_Create_handle();
  NGA_Set_data64(g_c, 1, dims64, C_INT);
  int chunk[1] = {5};
  NGA_Set_chunk(g_c, chunk);
  CHECK(NGA_Allocate(g_c) == 1);
  int one = 1;
  NGA_Fill(g_c, &one);

  /* A counter under a mutex, and an accumulate fenced by NGA_Init_fence/NGA_Fence. */
  CHECK(GA_Create_mutexes(1) == 1);
  for (int round = 0; round < 3; ++round) {
    NGA_Lock(0);
    int index[1] = {32}, value;
    NGA_Get(g_c, index, index, &value, NULL);
    ++value;
    NGA_Put(g_c, index, index, &value, NULL);
    NGA_Unlock(0);
  }
  NGA_Sync();
  CHECK(NGA_Destroy_mutexes() == 1);
  int index[1] = {32}, counted;
  NGA_Get(g_c, index, index, &counted, NULL);
  CHECK(counted == 1 + 3 * nproc);
  NGA_Init_fence();
  double two = 2.0;
  int patch_lo[2] = {me % 12, 0}, patch_hi[2] = {me % 12, 0};
  NGA_Acc(g_a, patch_lo, patch_hi, &two, ld, &two);
  NGA_Fence();
  NGA_Sync();
  double total = 0;
  NGA_Get(g_a, lo, hi, got_a, ld);
  for (int i = 0; i < 120; ++i) total += got_a[i];
  CHECK(total == 4.0 * nproc);

  /* Reductions. */
  double d[2] = {me, 1.5};
  int n[2] = {me, 1};
  NGA_Dgop(d, 2, "+");
  NGA_Igop(n, 2, "max");
  CHECK(d[0] == nproc * (nproc - 1) / 2.0 && d[1] == 1.5 * nproc);
  CHECK(n[0] == nproc - 1 && n[1] == 1);
  const double t0 = NGA_Wtime(); /* GA's origin is arbitrary (its first call returns 0) */
  CHECK(NGA_Wtime() >= t0);

  NGA_Destroy(g_a);
  NGA_Destroy(g_c);
  if (me == 0) printf("ga spellings: ok\n");
  NGA_Terminate();
  MPI_Finalize();
  return 0;
}
