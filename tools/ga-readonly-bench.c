/* NGA_Get of a 16x16 double patch that another rank owns: plain, after
 * NGA_Set_property(g_a, "read_only") and after NGA_Set_property(g_a, "read_cache"),
 * interleaved over rounds; prints the median time per get of each. GA-style (ga.h only):
 * build against Remora's include/ga-compat or against GA.
 * Usage: mpiexec -n 2 ga-readonly-bench [rounds] [gets] [noprop|cache]
 * (noprop: the plain get only; cache: plain and read_cache, for a GA whose read_only does not
 * run). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga.h"
#include "macdecls.h"

static int compare(const void* x, const void* y) {
  const double a = *(const double*)x, b = *(const double*)y;
  return a < b ? -1 : a > b;
}

static double time_gets(int g_a, const int* lo, const int* hi, int gets, double* buf) {
  int ld[1] = {16};
  NGA_Get(g_a, (int*)lo, (int*)hi, buf, ld); /* warm */
  const double t0 = MPI_Wtime();
  for (int k = 0; k < gets; ++k) NGA_Get(g_a, (int*)lo, (int*)hi, buf, ld);
  return (MPI_Wtime() - t0) / gets * 1e6;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  const int rounds = argc > 1 ? atoi(argv[1]) : 5, gets = argc > 2 ? atoi(argv[2]) : 2000;
  const int noprop = argc > 3 && strcmp(argv[3], "noprop") == 0;
  const int cache_only = argc > 3 && strcmp(argv[3], "cache") == 0;
  const int me = GA_Nodeid(), nprocs = GA_Nnodes();
  int dims[2] = {64, 64};
  const int g_a = NGA_Create(C_DBL, 2, dims, "density", NULL);
  GA_Fill(g_a, &(double){1.5});
  /* The patch: the top-left 16x16 of the last rank's block (remote for rank 0). */
  int lo[2], hi[2];
  NGA_Distribution(g_a, nprocs - 1, lo, hi);
  hi[0] = lo[0] + 15, hi[1] = lo[1] + 15;
  double buf[256], *before = malloc(sizeof(double) * rounds),
                   *after = malloc(sizeof(double) * rounds),
                   *cached = malloc(sizeof(double) * rounds);
  for (int r = 0; r < rounds; ++r) {
    GA_Sync();
    before[r] = me == 0 ? time_gets(g_a, lo, hi, gets, buf) : 0;
    if (noprop) continue;
    if (!cache_only) {
      NGA_Set_property(g_a, "read_only");
      after[r] = me == 0 ? time_gets(g_a, lo, hi, gets, buf) : 0;
      for (int k = 0; me == 0 && k < 256; ++k)
        if (buf[k] != 1.5) GA_Error("wrong value", k);
      NGA_Unset_property(g_a);
    }
    NGA_Set_property(g_a, "read_cache");
    cached[r] = me == 0 ? time_gets(g_a, lo, hi, gets, buf) : 0;
    for (int k = 0; me == 0 && k < 256; ++k)
      if (buf[k] != 1.5) GA_Error("wrong value", k);
    NGA_Unset_property(g_a);
  }
  GA_Sync();
  if (me == 0) {
    qsort(before, (size_t)rounds, sizeof(double), compare);
    printf("NGA_Get 16x16 double from rank %d: %.3f us median of %d rounds x %d", nprocs - 1,
           before[rounds / 2], rounds, gets);
    if (!noprop && !cache_only) {
      qsort(after, (size_t)rounds, sizeof(double), compare);
      printf("; with read_only: %.3f us", after[rounds / 2]);
    }
    if (!noprop) {
      qsort(cached, (size_t)rounds, sizeof(double), compare);
      printf("; with read_cache: %.3f us", cached[rounds / 2]);
    }
    printf("\n");
  }
  free(before);
  free(after);
  free(cached);
  GA_Destroy(g_a);
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
