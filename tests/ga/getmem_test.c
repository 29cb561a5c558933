/* GA_Getmem / GA_Freemem: collective allocations from GA's pool, each rank asking for its own
 * number of elements (me + 3, 0 once), on the world group (ids 0 and -1, as GA takes them) and
 * on a group of the even ranks. Every rank fills its part, the parts stay intact while others
 * are allocated and freed in a different order than they were made, do not overlap, and are
 * aligned for their type; two allocations left unfreed are GA_Terminate's to free. Passes on GA 5.8
 * itself too (without the group part). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

static int me, nprocs;

static double dvalue(int k, int i) {
  return 1000.0 * k + i + 0.25 + me * 0.5;
}

static void fill(double* p, int n, int k) {
  for (int i = 0; i < n; ++i) p[i] = dvalue(k, i);
}

static void verify(const double* p, int n, int k) {
  for (int i = 0; i < n; ++i) CHECK(p[i] == dvalue(k, i));
}

static int disjoint(const void* a, size_t a_bytes, const void* b, size_t b_bytes) {
  const char *x = a, *y = b;
  return x + a_bytes <= y || y + b_bytes <= x;
}

int main(int argc, char** argv) {
  ga_test_begin(&argc, &argv, &me, &nprocs);
  const int n0 = me + 3, n1 = 2 * me + 5, n2 = 7;
  double* a = GA_Getmem(C_DBL, n0, 0);
  double* b = GA_Getmem(C_DBL, n1, -1);
  int* c = GA_Getmem(C_INT, n2, 0);
  CHECK(a != NULL && b != NULL && c != NULL);
  CHECK((uintptr_t)a % sizeof(double) == 0 && (uintptr_t)b % sizeof(double) == 0);
  CHECK((uintptr_t)c % sizeof(int) == 0);
  CHECK(disjoint(a, sizeof(double) * n0, b, sizeof(double) * n1));
  CHECK(disjoint(a, sizeof(double) * n0, c, sizeof(int) * n2));
  CHECK(disjoint(b, sizeof(double) * n1, c, sizeof(int) * n2));
  fill(a, n0, 0);
  fill(b, n1, 1);
  for (int i = 0; i < n2; ++i) c[i] = 100 * me + i;
  GA_Sync();
  GA_Freemem(b); /* freed out of order: a and c keep their contents */
  double* d = GA_Getmem(C_DBL, me == 0 ? 0 : n1, 0); /* rank 0 asks for nothing */
  CHECK(me == 0 || d != NULL);
  if (me != 0) fill(d, n1, 3);
  verify(a, n0, 0);
  for (int i = 0; i < n2; ++i) CHECK(c[i] == 100 * me + i);
  if (me != 0) verify(d, n1, 3);
  GA_Freemem(a);
  GA_Freemem(d);
  for (int i = 0; i < n2; ++i) CHECK(c[i] == 100 * me + i);
  GA_Freemem(c);

#if REMORA_GA_GETMEM_GROUPS
  /* On a group: the even ranks only. (Against Remora only: GA 5.8 over ARMCI-MPI and Open MPI
     hangs or dies of SIGSEGV in GA_Getmem on a group at 2-4 ranks.) */
  int evens[64], count = 0;
  for (int r = 0; r < nprocs && count < 64; r += 2) evens[count++] = r;
  const int group = GA_Pgroup_create(evens, count);
  if (me % 2 == 0) {
    double* g = GA_Getmem(C_DBL, n0, group);
    CHECK(g != NULL && (uintptr_t)g % sizeof(double) == 0);
    fill(g, n0, 4);
    GA_Pgroup_sync(group);
    verify(g, n0, 4);
    GA_Freemem(g);
    /* Left for GA_Terminate, like the world allocation below. */
    CHECK(GA_Getmem(C_INT, n2, group) != NULL);
  }
#endif
  /* Never freed: GA_Terminate frees it (an ASan build reports a leak if it does not). */
  int* kept = GA_Getmem(C_INT, n2, 0);
  CHECK(kept != NULL);
  kept[0] = me;
  GA_Sync();
  if (me == 0) printf("getmem: pool allocations intact, disjoint and aligned\n");
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
