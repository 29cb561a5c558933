/* GA's process-group constructors beyond GA_Pgroup_create: GA_Pgroup_split (groups of
 * consecutive ranks), GA_Pgroup_split_irreg (by colour), GA_Pgroup_self, GA_Pgroup_duplicate,
 * GA_Pgroup_absolute_id and GA_Pgroup_get_mirror, with each group's size, ranks, world ranks,
 * an array created on it and its collectives GA_Pgroup_fgop / llgop / cgop / zgop (and the
 * NGA_ spellings), against values computed here. With an argument, one misuse that must end
 * the job with GA_Error's message (the modes below). */
#include <mpi.h>
#include <string.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

/* Members of grp put their ranks into an array on grp and read them back. */
static void array_on(int grp) {
  const int me = GA_Pgroup_nodeid(grp), n = GA_Pgroup_nnodes(grp);
  int dims[1] = {2 * n};
  const int g = NGA_Create_config(C_DBL, 1, dims, "on_group", NULL, grp);
  CHECK(g != 0);
  double mine[2] = {me, 100.0 + GA_Pgroup_absolute_id(grp, me)};
  int lo[1] = {2 * me}, hi[1] = {2 * me + 1};
  NGA_Put(g, lo, hi, mine, NULL);
  GA_Pgroup_sync(grp);
  double all[64];
  lo[0] = 0;
  hi[0] = 2 * n - 1;
  NGA_Get(g, lo, hi, all, NULL);
  for (int r = 0; r < n; ++r) {
    CHECK(all[2 * r] == r);
    CHECK(all[2 * r + 1] == 100.0 + GA_Pgroup_absolute_id(grp, r));
  }
  GA_Destroy(g);
}

/* Every collective of the group once, with values that tell the members apart. */
static void collectives(int grp) {
  const int me = GA_Pgroup_nodeid(grp), n = GA_Pgroup_nnodes(grp);
  float f[2] = {(float)me + 1.0f, 2.0f};
  GA_Pgroup_fgop(grp, f, 2, "+");
  CHECK(f[0] == (float)(n * (n + 1) / 2) && f[1] == (float)(2 * n));
  long long l[2] = {me + 1, -(long long)me};
  NGA_Pgroup_llgop(grp, l, 2, "max");
  CHECK(l[0] == n && l[1] == 0);
  SingleComplex c = {(float)me + 1.0f, 1.0f};
  GA_Pgroup_cgop(grp, &c, 1, "+");
  CHECK(c.real == (float)(n * (n + 1) / 2) && c.imag == (float)n);
  DoubleComplex z = {me + 1.0, 2.0};
  GA_Pgroup_zgop(grp, &z, 1, "*"); /* GA: the real and imaginary parts each multiplied */
  double factorial = 1.0, power = 1.0;
  for (int k = 1; k <= n; ++k) {
    factorial *= k;
    power *= 2.0;
  }
  CHECK(z.real == factorial && z.imag == power);
  DoubleComplex w = {me + 1.0, 0.5};
  NGA_Pgroup_zgop(grp, &w, 1, "+");
  CHECK(w.real == n * (n + 1) / 2.0 && w.imag == 0.5 * n);
  float fm = (float)me;
  NGA_Pgroup_fgop(grp, &fm, 1, "min");
  CHECK(fm == 0.0f);
}

static void misuse(const char* mode) {
  const int world = GA_Pgroup_get_world();
  if (strcmp(mode, "split") == 0) GA_Pgroup_split(world, -1);
  if (strcmp(mode, "irreg") == 0) GA_Pgroup_split_irreg(world, -2);
  if (strcmp(mode, "absolute") == 0) GA_Pgroup_absolute_id(world, GA_Nnodes());
  if (strcmp(mode, "mirror") == 0) GA_Pgroup_nnodes(GA_Pgroup_get_mirror());
  if (strcmp(mode, "dead") == 0) GA_Pgroup_duplicate(4242);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  const int me = GA_Nodeid(), n = GA_Nnodes();
  const int world = GA_Pgroup_get_world();
  if (argc > 1) misuse(argv[1]); /* ends the job */
  CHECK(GA_Pgroup_get_mirror() == 0 && NGA_Pgroup_get_mirror() == 0);
  for (int r = 0; r < n; ++r) CHECK(GA_Pgroup_absolute_id(world, r) == r);

  /* Two groups of consecutive ranks (one when n = 1): ceil(n / 2) ranks each, the last smaller. */
  const int halves = GA_Pgroup_split(world, 2);
  const int per = (n + 1) / 2, mine = me / per;
  const int size = (mine + 1) * per <= n ? per : n - mine * per;
  CHECK(GA_Pgroup_nnodes(halves) == size);
  CHECK(GA_Pgroup_nodeid(halves) == me - mine * per);
  for (int r = 0; r < size; ++r) CHECK(NGA_Pgroup_absolute_id(halves, r) == mine * per + r);
  array_on(halves);
  collectives(halves);

  /* Three groups asked for: ceil(n / 3) ranks each, so at 4 ranks only two groups of two. */
  const int thirds = NGA_Pgroup_split(world, 3);
  const int per3 = (n + 2) / 3;
  CHECK(GA_Pgroup_nodeid(thirds) == me % per3);
  CHECK(GA_Pgroup_absolute_id(thirds, 0) == me - me % per3);
  CHECK(GA_Pgroup_split(halves, 0) == halves); /* GA: no groups asked, the group itself */

  /* By colour: the ranks of one parity, in rank order. */
  const int parity = GA_Pgroup_split_irreg(world, me % 2);
  const int same = (n - me % 2 + 1) / 2;
  CHECK(GA_Pgroup_nnodes(parity) == same);
  CHECK(GA_Pgroup_nodeid(parity) == me / 2);
  for (int r = 0; r < same; ++r) CHECK(GA_Pgroup_absolute_id(parity, r) == 2 * r + me % 2);
  array_on(parity);
  collectives(parity);
  /* Split again inside a group: colours by the rank in it. */
  const int inner = NGA_Pgroup_split_irreg(parity, GA_Pgroup_nodeid(parity) / 2);
  CHECK(GA_Pgroup_nodeid(inner) == GA_Pgroup_nodeid(parity) % 2);
  CHECK(GA_Pgroup_absolute_id(inner, 0) == 2 * (2 * (me / 4)) + me % 2);

  /* Each process alone. */
  const int self = GA_Pgroup_self();
  CHECK(NGA_Pgroup_self() != world);
  CHECK(GA_Pgroup_nnodes(self) == 1 && GA_Pgroup_nodeid(self) == 0);
  CHECK(GA_Pgroup_absolute_id(self, 0) == me);
  array_on(self);
  collectives(self);

  /* A duplicate has the same ranks in the same order, and its own handle: of a group every
   * process belongs to and, on Remora, of split groups (GA 5.8's duplicates of those get
   * other members: docs/global-arrays.md). */
  int everyone[64];
  for (int r = 0; r < n; ++r) everyone[r] = r;
  const int all = GA_Pgroup_create(everyone, n);
  /* GA sorts GA_Pgroup_create's list: written backwards, the group's ranks still ascend. */
  int backwards[64];
  for (int r = 0; r < n; ++r) backwards[r] = n - 1 - r;
  const int sorted = GA_Pgroup_create(backwards, n);
  CHECK(GA_Pgroup_nnodes(sorted) == n && GA_Pgroup_nodeid(sorted) == me);
  for (int r = 0; r < n; ++r) CHECK(GA_Pgroup_absolute_id(sorted, r) == r);
  collectives(sorted);
  CHECK(GA_Pgroup_destroy(sorted));
  int from[3] = {all, parity, halves};
#ifdef REMORA_GA_H
  const int kinds = 3;
#else
  const int kinds = 1;
#endif
  for (int k = 0; k < kinds; ++k) {
    const int copy = k % 2 == 0 ? GA_Pgroup_duplicate(from[k]) : NGA_Pgroup_duplicate(from[k]);
    const int members = GA_Pgroup_nnodes(from[k]);
    CHECK(copy != from[k]);
    CHECK(GA_Pgroup_nnodes(copy) == members);
    CHECK(GA_Pgroup_nodeid(copy) == GA_Pgroup_nodeid(from[k]));
    for (int r = 0; r < members; ++r)
      CHECK(GA_Pgroup_absolute_id(copy, r) == GA_Pgroup_absolute_id(from[k], r));
    array_on(copy);
    collectives(copy);
    CHECK(GA_Pgroup_destroy(copy) == 1);
  }

  /* The world's own collectives through the group calls. */
  collectives(world);
  GA_Sync();
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
