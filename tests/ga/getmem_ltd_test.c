/* GA_Getmem under GA_Initialize_ltd's limit, counted as GA counts it: each allocation takes
 * its elements plus GA's header (four longs and one pointer per process) from GA_Memory_avail
 * and GA_Freemem gives them back; GA_Inquire_memory (memory of arrays) does not change. An
 * array assembled on the memory (GA_Assemble_duplicate) takes the count over: the memory then
 * shows in GA_Inquire_memory, and the array's GA_Destroy gives it back. An allocation that
 * does not fit on some rank is still made, as in GA, and not counted. Passes on GA 5.8 too. */
#include <mpi.h>
#include <stddef.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

static size_t charge(size_t element, int nelem, int nprocs) {
  return element * (size_t)nelem + 4 * sizeof(long) + (size_t)nprocs * sizeof(void*);
}

int main(int argc, char** argv) {
  const size_t limit = 64 * 1024;
  MPI_Init(&argc, &argv);
  GA_Initialize_ltd(limit);
  MA_init(C_DBL, 100000, 100000);
  const int me = GA_Nodeid(), nprocs = GA_Nnodes();
  CHECK(GA_Memory_limited() == 1);
  const size_t arrays = GA_Inquire_memory();
  CHECK(GA_Memory_avail() == limit - arrays);

  /* Two allocations of different sizes per rank, freed in the other order. */
  const int na = 100 + me, nb = 50;
  const size_t ca = charge(sizeof(double), na, nprocs), cb = charge(sizeof(int), nb, nprocs);
  double* a = GA_Getmem(C_DBL, na, 0);
  CHECK(a != NULL && GA_Memory_avail() == limit - arrays - ca);
  int* b = GA_Getmem(C_INT, nb, 0);
  CHECK(b != NULL && GA_Memory_avail() == limit - arrays - ca - cb);
  CHECK(GA_Inquire_memory() == arrays);
  for (int i = 0; i < na; ++i) a[i] = i + 0.5;
  for (int i = 0; i < nb; ++i) b[i] = i - me;
  GA_Freemem(a);
  CHECK(GA_Memory_avail() == limit - arrays - cb);
  for (int i = 0; i < nb; ++i) CHECK(b[i] == i - me);
  GA_Freemem(b);
  CHECK(GA_Memory_avail() == limit - arrays);

  /* An array assembled on GA_Getmem's memory: 4 doubles per rank, g_src's blocks. */
  int dims[1] = {4 * nprocs};
  const int g_src = NGA_Create(C_DBL, 1, dims, "src", NULL);
  CHECK(g_src != 0);
  const size_t with_src = GA_Inquire_memory(), block = 4 * sizeof(double);
  CHECK(with_src == arrays + block && GA_Memory_avail() == limit - with_src);
  const size_t cc = charge(sizeof(double), 4, nprocs);
  double* c = GA_Getmem(C_DBL, 4, 0);
  CHECK(c != NULL && GA_Memory_avail() == limit - with_src - cc);
  const int g_b = GA_Assemble_duplicate(g_src, "assembled", c);
  CHECK(GA_Memory_avail() == limit - with_src - cc);
  CHECK(GA_Inquire_memory() == with_src + cc);
  /* (Not GA_Fill: GA 5.8 fills an assembled array's header bytes too, past its end.) */
  double ones[4] = {1.0, 1.0, 1.0, 1.0};
  int lo[1] = {4 * me}, hi[1] = {4 * me + 3};
  NGA_Put(g_b, lo, hi, ones, NULL);
  GA_Sync();
  CHECK(GA_Ddot(g_b, g_b) == 4.0 * nprocs);
  GA_Destroy(g_b);
  CHECK(GA_Memory_avail() == limit - with_src && GA_Inquire_memory() == with_src);
  GA_Destroy(g_src);
  CHECK(GA_Memory_avail() == limit - arrays);

  /* More than the limit on rank 0: made anyway (usable), counted nowhere. */
  const int nbig = me == 0 ? (int)(limit / sizeof(double)) : 8;
  double* big = GA_Getmem(C_DBL, nbig, 0);
  CHECK(big != NULL && GA_Memory_avail() == limit - arrays);
  big[0] = 1.0;
  big[nbig - 1] = 2.0;
  CHECK(big[0] + big[nbig - 1] == 3.0);
  /* (Not checked after: GA gives back what it did not count, Remora what it counted.) */
  GA_Freemem(big);

  return ga_test_end("ga getmem_ltd", me, nprocs);
}
