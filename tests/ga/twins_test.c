/* The *64 twins and the _flat element-list forms do what the int forms do: the same sequence
 * of operations goes to array A through the int forms (checked against references in
 * ga.patch) and to array B through the others, and the arrays must end equal; the creation
 * twins must give the same distributions. */
#include <mpi.h>
#include <stdio.h>

#include "ga.h"
#include "ga_check.h"
#include "ga_test_util.h"
#include "macdecls.h"

enum { N0 = 11, N1 = 9 };
static int nprocs, me;

static void check_equal(int g_a, int g_b) {
  double a[N0 * N1], b[N0 * N1];
  int lo[2] = {0, 0}, hi[2] = {N0 - 1, N1 - 1}, ld[1] = {N1};
  NGA_Get(g_a, lo, hi, a, ld);
  NGA_Get(g_b, lo, hi, b, ld);
  for (int i = 0; i < N0 * N1; ++i) CHECK(a[i] == b[i]);
}

static void creation(void) {
  int dims[2] = {N0, N1}, chunk[2] = {N0, -1}, block[2] = {nprocs > 1 ? 2 : 1, 1};
  int map[3] = {0, nprocs > 1 ? 4 : 0, 0};
  int64_t dims64[2] = {N0, N1}, chunk64[2] = {N0, -1}, block64[2] = {block[0], 1};
  int64_t map64[3] = {0, map[1], 0};
  int a = NGA_Create_config(C_DBL, 2, dims, "a", chunk, -1);
  int b = NGA_Create_config64(C_DBL, 2, dims64, "b", chunk64, -1);
  int c = GA_Create_handle();
  GA_Set_data(c, 2, dims, C_DBL);
  GA_Set_chunk64(c, chunk64);
  CHECK(GA_Allocate(c));
  CHECK(GA_Compare_distr(a, b) == 0 && GA_Compare_distr(a, c) == 0);
  int d = NGA_Create_irreg(C_DBL, 2, dims, "d", block, map);
  int e = NGA_Create_irreg_config64(C_DBL, 2, dims64, "e", block64, map64, -1);
  int f = GA_Create_handle();
  GA_Set_data64(f, 2, dims64, C_DBL);
  GA_Set_irreg_distr64(f, map64, block64);
  CHECK(GA_Allocate(f));
  CHECK(GA_Compare_distr(d, e) == 0 && GA_Compare_distr(d, f) == 0);
  int handles[] = {a, b, c, d, e, f};
  for (int i = 0; i < 6; ++i) GA_Destroy(handles[i]);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  MA_init(C_DBL, 1000000, 1000000); /* GA needs MA for its temporary buffers */
  me = GA_Nodeid();
  nprocs = GA_Nnodes();
  rng_seed(7);
  creation();

  int dims[2] = {N0, N1};
  int g_a = NGA_Create(C_DBL, 2, dims, "int-forms", NULL);
  int g_b = NGA_Create(C_DBL, 2, dims, "int64-forms", NULL);
  GA_Zero(g_a); /* GA leaves new arrays undefined */
  GA_Zero(g_b);
  double buf[N0 * N1], alpha = 2;
  for (int i = 0; i < N0 * N1; ++i) buf[i] = i % 17;

  for (int round = 0; round < 4; ++round) {
    Patch p = random_patch(2, dims, 1);
    Patch64 q = patch64(&p);
    ga_nbhdl_t ha, hb;
    /* Nonblocking put by one rank, accumulates by all. */
    if (me == round % nprocs) {
      NGA_NbPut(g_a, p.lo, p.hi, buf, p.ld, &ha);
      NGA_NbPut64(g_b, q.lo, q.hi, buf, q.ld, &hb);
      NGA_NbWait(&ha);
      NGA_NbWait(&hb);
    }
    GA_Sync();
    NGA_NbAcc(g_a, p.lo, p.hi, buf, p.ld, &alpha, &ha);
    NGA_NbAcc64(g_b, q.lo, q.hi, buf, q.ld, &alpha, &hb);
    NGA_NbWait(&ha);
    NGA_NbWait(&hb);
    GA_Sync();
    double ga[N0 * N1] = {0}, gb[N0 * N1] = {0};
    NGA_NbGet(g_a, p.lo, p.hi, ga, p.ld, &ha);
    NGA_NbGet64(g_b, q.lo, q.hi, gb, q.ld, &hb);
    NGA_NbWait(&ha);
    NGA_NbWait(&hb);
    for (long k = 0; k < p.count; ++k) {
      long g, o;
      patch_element(&p, dims, k, &g, &o);
      CHECK(ga[o] == gb[o]);
    }
    GA_Sync(); /* every rank has read before rank 0 writes again */
    /* Strided and periodic. */
    int skip[2] = {1 + round % 2, 2};
    int64_t skip64[2] = {skip[0], skip[1]};
    int sld[1] = {N1};
    int64_t sld64[1] = {N1};
    if (me == 0) {
      NGA_Strided_put(g_a, p.lo, p.hi, skip, buf, sld);
      NGA_Strided_put64(g_b, q.lo, q.hi, skip64, buf, sld64);
    }
    GA_Sync();
    NGA_Strided_acc(g_a, p.lo, p.hi, skip, buf, sld, &alpha);
    NGA_Strided_acc64(g_b, q.lo, q.hi, skip64, buf, sld64, &alpha);
    GA_Sync();
    NGA_Strided_get(g_a, p.lo, p.hi, skip, ga, sld);
    NGA_Strided_get64(g_b, q.lo, q.hi, skip64, gb, sld64);
    for (int i = 0; i < N0 * N1; ++i) CHECK(ga[i] == gb[i]);
    GA_Sync(); /* every rank has read before the periodic put */
    int plo[2] = {p.lo[0] - N0 / 2, p.lo[1] + N1 / 2}, phi[2] = {p.lo[0], p.lo[1] + N1 - 1};
    int64_t plo64[2] = {plo[0], plo[1]}, phi64[2] = {phi[0], phi[1]};
    if (me == nprocs - 1) {
      NGA_Periodic_put(g_a, plo, phi, buf, sld);
      NGA_Periodic_put64(g_b, plo64, phi64, buf, sld64);
    }
    GA_Sync();
    NGA_Periodic_acc(g_a, plo, phi, buf, sld, &alpha);
    NGA_Periodic_acc64(g_b, plo64, phi64, buf, sld64, &alpha);
    GA_Sync();
    NGA_Periodic_get(g_a, plo, phi, ga, sld);
    NGA_Periodic_get64(g_b, plo64, phi64, gb, sld64);
    for (int i = 0; i < N0 * N1; ++i) CHECK(ga[i] == gb[i]);
    check_equal(g_a, g_b);
    GA_Sync();
  }

  /* Element lists: pointer form on A, flat forms (int and int64_t) on B. */
  enum { M = 8 };
  int subs_storage[M][2], flat[2 * M];
  int* subs[M];
  int64_t flat64[2 * M];
  double values[M], got_a[M], got_b[M];
  for (int k = 0; k < M; ++k) {
    subs_storage[k][0] = (3 * k) % N0;
    subs_storage[k][1] = (5 * k + 1) % N1;
    subs[k] = subs_storage[k];
    flat[2 * k] = subs_storage[k][0];
    flat[2 * k + 1] = subs_storage[k][1];
    flat64[2 * k] = flat[2 * k];
    flat64[2 * k + 1] = flat[2 * k + 1];
    values[k] = 40 + k;
  }
  if (me == 0) {
    NGA_Scatter(g_a, values, subs, M);
    NGA_Scatter_flat(g_b, values, flat, M);
  }
  GA_Sync();
  NGA_Scatter_acc(g_a, values, subs, M, &alpha);
  NGA_Scatter_acc_flat64(g_b, values, flat64, M, &alpha);
  GA_Sync();
  if (me == 0) {
    NGA_Scatter_acc(g_a, values, subs, M, &alpha);
    NGA_Scatter_acc_flat(g_b, values, flat, M, &alpha);
    int64_t* subs64[M];
    for (int k = 0; k < M; ++k) subs64[k] = &flat64[2 * k];
    NGA_Scatter_acc64(g_a, values, subs64, M, &alpha);
    NGA_Scatter_acc64(g_b, values, subs64, M, &alpha);
    NGA_Scatter64(g_a, values, subs64, 1);
    NGA_Scatter_flat64(g_b, values, flat64, 1);
  }
  GA_Sync();
  NGA_Gather(g_a, got_a, subs, M);
  NGA_Gather_flat(g_b, got_b, flat, M);
  for (int k = 0; k < M; ++k) CHECK(got_a[k] == got_b[k]);
  NGA_Gather_flat64(g_b, got_b, flat64, M);
  for (int k = 0; k < M; ++k) CHECK(got_a[k] == got_b[k]);
  check_equal(g_a, g_b);
  GA_Sync();

  /* Access by block index with the 64-bit form; release with update. */
  int lo[2], hi[2];
  NGA_Distribution(g_b, me, lo, hi);
  if (hi[0] >= lo[0]) {
    double* p = NULL;
    int64_t ld64[1];
    NGA_Access_block64(g_b, me, &p, ld64);
    p[0] += 1000;
    NGA_Release_update_block(g_b, me);
    NGA_Access(g_a, lo, hi, &p, (int[1]){0});
    p[0] += 1000;
    NGA_Release_update(g_a, lo, hi);
  }
  GA_Sync();
  check_equal(g_a, g_b);

  GA_Destroy(g_a);
  GA_Destroy(g_b);
  GA_Terminate();
  MPI_Finalize();
  if (me == 0) printf("ga twins: %d ranks ok\n", nprocs);
  return 0;
}
