/* Mirrored-array calls on the arrays Remora has (distributed ones), as GA 5.8 answers for
 * them: GA_Is_mirrored / NGA_Is_mirrored are 0, GA_Merge_mirrored / NGA_Merge_mirrored
 * synchronise and leave the values alone, NGA_Merge_distr_patch(64) copies a patch into
 * another array on one node (the untouched elements of the target keep their values).
 * With an argument, a misuse that must end the job with GA_Error's message. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

enum { R = 8, C = 6 };

static double a_value(int i, int j) {
  return 100.0 * i + j + 0.5;
}

static void get_all(int g, double out[R][C]) {
  int lo[2] = {0, 0}, hi[2] = {R - 1, C - 1}, ld[1] = {C};
  NGA_Get(g, lo, hi, out, ld);
}

int main(int argc, char** argv) {
  int me, nprocs;
  ga_test_begin(&argc, &argv, &me, &nprocs);
  int dims[2] = {R, C};
  int g_a = NGA_Create(C_DBL, 2, dims, "a", NULL);
  int chunk[2] = {R, 1}; /* b distributed by columns, a by GA's default */
  int g_b = NGA_Create(C_DBL, 2, dims, "b", chunk);
  if (argc > 1) {
    int lo[2] = {0, 0}, hi[2] = {1, 1};
    if (strcmp(argv[1], "handle") == 0) GA_Is_mirrored(12345);
    if (strcmp(argv[1], "nodes") == 0) NGA_Merge_distr_patch(g_a, lo, hi, g_b, lo, hi);
    fprintf(stderr, "misuse '%s' did not end the job\n", argv[1]);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  CHECK(GA_Pgroup_get_mirror() == 0);
  CHECK(GA_Is_mirrored(g_a) == 0 && NGA_Is_mirrored(g_b) == 0);
  static double in[R][C], minus[R][C], got[R][C];
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) in[i][j] = a_value(i, j), minus[i][j] = -1.0;
  if (me == 0) {
    int lo[2] = {0, 0}, hi[2] = {R - 1, C - 1}, ld[1] = {C};
    NGA_Put(g_a, lo, hi, in, ld);
    NGA_Put(g_b, lo, hi, minus, ld);
  }
  GA_Merge_mirrored(g_a); /* a distributed array: a synchronisation, nothing merged */
  NGA_Merge_mirrored(g_b);
  get_all(g_a, got);
  CHECK(memcmp(got, in, sizeof got) == 0);
  get_all(g_b, got);
  CHECK(memcmp(got, minus, sizeof got) == 0);
  if (GA_Cluster_nnodes() == 1) {
    /* One node: a's patch [1..4][2..4] lands in b's [3..6][0..2]. */
    int alo[2] = {1, 2}, ahi[2] = {4, 4}, blo[2] = {3, 0}, bhi[2] = {6, 2};
    NGA_Merge_distr_patch(g_a, alo, ahi, g_b, blo, bhi);
    GA_Sync();
    get_all(g_b, got);
    for (int i = 0; i < R; ++i)
      for (int j = 0; j < C; ++j) {
        const int inside = i >= 3 && i <= 6 && j <= 2;
        CHECK(got[i][j] == (inside ? a_value(i - 2, j + 2) : -1.0));
      }
    /* The 64-bit form: the first row of a into b's last row. */
    int64_t alo64[2] = {0, 0}, ahi64[2] = {0, C - 1}, blo64[2] = {R - 1, 0},
            bhi64[2] = {R - 1, C - 1};
    NGA_Merge_distr_patch64(g_a, alo64, ahi64, g_b, blo64, bhi64);
    GA_Sync();
    get_all(g_b, got);
    for (int j = 0; j < C; ++j) CHECK(got[R - 1][j] == a_value(0, j));
    CHECK(got[3][0] == a_value(1, 2) && got[0][0] == -1.0);
  }
  GA_Destroy(g_a);
  GA_Destroy(g_b);
  return ga_test_end("mirrored", me, nprocs);
}
