/* ARMCI groups (armci.h / message.h only, plus MPI start-up): the ranks split into an even
 * and an odd group; each checks its ranks, ARMCI_Absolute_id, ARMCI_Malloc_group memory
 * reached by put, get, accumulate and read-modify-write through absolute ids, the
 * armci_msg_group_* collectives against values computed from the members, a child group, and
 * ARMCI_Malloc / ARMCI_Free following the default group. Valid for ARMCI-MPI too (built
 * against its headers: see docs/global-arrays.md). Usage: armci_group_test [part...]
 * (default: every part). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <armci.h>
#include <message.h>
#include <mpi.h>

static int me, nproc, failures;

#include "armci_check.h"

/* The group of ranks with this rank's parity (every rank creates both, collectively over the
 * world group, which is the default). With one rank there is no odd group. */
static ARMCI_Group even, odd, mine;
static int parity, gsize, grank;

static int parity_size(int p) {
  return (nproc + 1 - p) / 2;
}

static void make_parity_groups(void) {
  int* list = malloc(sizeof(int) * (size_t)nproc);
  for (int p = 0; p < 2; p++) {
    int n = parity_size(p);
    if (n == 0) continue;
    for (int i = 0; i < n; i++) list[i] = 2 * i + p; /* ranks of the world (the default) */
    ARMCI_Group_create(n, list, p == 0 ? &even : &odd);
  }
  free(list);
  parity = me % 2;
  mine = parity == 0 ? even : odd;
  gsize = parity_size(parity);
  grank = me / 2;
}

static void free_parity_groups(void) {
  ARMCI_Group_free(&even);
  if (nproc > 1) ARMCI_Group_free(&odd);
}

/* Ranks, sizes and absolute ids of the world and parity groups (and a non-member's view). */
static void part_ranks(void) {
  ARMCI_Group world, def;
  int r = -2, s = -2;
  ARMCI_Group_get_world(&world);
  ARMCI_Group_rank(&world, &r);
  ARMCI_Group_size(&world, &s);
  CHECK(r == me && s == nproc, "world group: rank %d size %d", r, s);
  for (int i = 0; i < nproc; i++)
    CHECK(ARMCI_Absolute_id(&world, i) == i, "world Absolute_id(%d)=%d", i,
          ARMCI_Absolute_id(&world, i));
  ARMCI_Group_get_default(&def);
  ARMCI_Group_size(&def, &s);
  CHECK(s == nproc, "default group size %d before any set_default", s);
  make_parity_groups();
  ARMCI_Group_rank(&mine, &r);
  ARMCI_Group_size(&mine, &s);
  CHECK(r == grank && s == gsize, "parity %d group: rank %d size %d, expected %d %d", parity, r, s,
        grank, gsize);
  for (int i = 0; i < gsize; i++)
    CHECK(ARMCI_Absolute_id(&mine, i) == 2 * i + parity, "Absolute_id(%d)=%d in parity %d", i,
          ARMCI_Absolute_id(&mine, i), parity);
  if (nproc > 1) {
    ARMCI_Group other = parity == 0 ? odd : even;
    ARMCI_Group_rank(&other, &r);
    CHECK(r < 0, "rank %d outside the other parity group has rank %d in it", me, r);
  }
  free_parity_groups();
}

/* ARMCI_Malloc_group memory: block sizes differ per member; put to the group's next member,
 * get from the one after, ints accumulated into group rank 0 by every member, a counter. */
static void part_memory(void) {
  enum { N = 16 };
  make_parity_groups();
  /* A world block allocated before and freed after the group's: ARMCI_Free must pick it out. */
  void** wptr = malloc(sizeof(void*) * (size_t)nproc);
  ARMCI_Malloc(wptr, 8);
  int** g = malloc(sizeof(int*) * (size_t)gsize);
  ARMCI_Malloc_group((void**)g, (armci_size_t)((N + 4 + grank) * sizeof(int)), &mine);
  for (int k = 0; k < gsize; k++) CHECK(g[k] != NULL, "group block %d is NULL", k);
  ARMCI_Access_begin(g[grank]);
  for (int i = 0; i < N + 4 + grank; i++) g[grank][i] = 0;
  ARMCI_Access_end(g[grank]);
  armci_msg_group_barrier(&mine);
  int next = (grank + 1) % gsize, after = (grank + 2) % gsize, prev = (grank - 1 + gsize) % gsize;
  int buf[N];
  for (int i = 0; i < N; i++) buf[i] = me * 100 + i;
  ARMCI_Put(buf, g[next], N * sizeof(int), ARMCI_Absolute_id(&mine, next));
  int one = 1, scale = 3, ticket = -1;
  ARMCI_Acc(ARMCI_ACC_INT, &scale, &me, g[0] + N, sizeof(int), ARMCI_Absolute_id(&mine, 0));
  ARMCI_Acc(ARMCI_ACC_INT, &scale, &one, g[0] + N + 1, sizeof(int), ARMCI_Absolute_id(&mine, 0));
  for (int t = 0; t < 5; t++)
    ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &ticket, g[0] + N + 2, 1, ARMCI_Absolute_id(&mine, 0));
  CHECK(ticket >= 0 && ticket < 5 * gsize, "ticket %d outside [0, %d)", ticket, 5 * gsize);
  ARMCI_AllFence();
  armci_msg_group_barrier(&mine);
  int prev_abs = ARMCI_Absolute_id(&mine, prev);
  ARMCI_Access_begin(g[grank]);
  for (int i = 0; i < N; i++)
    CHECK(g[grank][i] == prev_abs * 100 + i, "g[%d]=%d from rank %d", i, g[grank][i], prev_abs);
  ARMCI_Access_end(g[grank]);
  int got[N];
  int after_abs = ARMCI_Absolute_id(&mine, after);
  int writer = ARMCI_Absolute_id(&mine, (after - 1 + gsize) % gsize);
  ARMCI_Get(g[after], got, N * sizeof(int), after_abs);
  for (int i = 0; i < N; i++)
    CHECK(got[i] == writer * 100 + i, "got[%d]=%d from rank %d", i, got[i], after_abs);
  int sums[3];
  ARMCI_Get(g[0] + N, sums, sizeof sums, ARMCI_Absolute_id(&mine, 0));
  int expect = 0;
  for (int k = 0; k < gsize; k++) expect += 3 * (2 * k + parity);
  CHECK(sums[0] == expect, "accumulated %d, expected %d", sums[0], expect);
  CHECK(sums[1] == 3 * gsize, "accumulated ones %d, expected %d", sums[1], 3 * gsize);
  CHECK(sums[2] == 5 * gsize, "counter %d, expected %d", sums[2], 5 * gsize);
  armci_msg_group_barrier(&mine);
  ARMCI_Free_group(g[grank], &mine);
  free(g);
  ARMCI_Free(wptr[me]);
  free(wptr);

  /* A child of the parity group: its first two members (one if alone), parent ranks 0 and 1. */
  ARMCI_Group child;
  int list[2] = {0, 1}, n = gsize < 2 ? 1 : 2, r = -2, s = -2;
  ARMCI_Group_create_child(n, list, &child, &mine);
  ARMCI_Group_rank(&child, &r);
  ARMCI_Group_size(&child, &s);
  if (grank < n) {
    CHECK(r == grank && s == n, "child group: rank %d size %d", r, s);
    CHECK(ARMCI_Absolute_id(&child, n - 1) == 2 * (n - 1) + parity, "child Absolute_id(%d)=%d",
          n - 1, ARMCI_Absolute_id(&child, n - 1));
    long v = me + 1;
    armci_msg_group_lgop(&v, 1, "+", &child);
    long e = 0;
    for (int k = 0; k < n; k++) e += 2 * k + parity + 1;
    CHECK(v == e, "child lgop sum %ld, expected %ld", v, e);
    double** d = malloc(sizeof(double*) * (size_t)n);
    ARMCI_Malloc_group((void**)d, sizeof(double), &child);
    double x = 0.5 * me;
    ARMCI_Put(&x, d[(r + 1) % n], sizeof x, ARMCI_Absolute_id(&child, (r + 1) % n));
    ARMCI_AllFence();
    armci_msg_group_barrier(&child);
    int from = ARMCI_Absolute_id(&child, (r - 1 + n) % n);
    ARMCI_Access_begin(d[r]);
    CHECK(d[r][0] == 0.5 * from, "child block %g, expected %g", d[r][0], 0.5 * from);
    ARMCI_Access_end(d[r]);
    armci_msg_group_barrier(&child);
    ARMCI_Free_group(d[r], &child);
    free(d);
  } else {
    CHECK(r < 0, "rank %d outside the child group has rank %d", me, r);
  }
  ARMCI_Group_free(&child);
  free_parity_groups();
}

/* armci_msg_group_* collectives with values computed from the members' absolute ranks. */
static void part_collectives(void) {
  make_parity_groups();
  int i2[2] = {me + 1, -me};
  armci_msg_group_igop(i2, 2, "+", &mine);
  long l = me + 2;
  armci_msg_group_lgop(&l, 1, "*", &mine);
  long long ll = 1000 - me;
  armci_msg_group_llgop(&ll, 1, "min", &mine);
  float f = 0.25f * (float)me;
  armci_msg_group_fgop(&f, 1, "max", &mine);
  double d[2] = {1.5 * me, -(double)me};
  armci_msg_group_dgop(d, 2, "absmax", &mine);
  long gl = 10L * me;
  armci_msg_group_gop_scope(SCOPE_ALL, &gl, 1, "+", ARMCI_LONG, &mine);
  int isum = 0, ineg = 0, last = 2 * (gsize - 1) + parity;
  long prod = 1, lsum = 0;
  for (int k = 0; k < gsize; k++) {
    int a = 2 * k + parity;
    isum += a + 1;
    ineg -= a;
    prod *= a + 2;
    lsum += 10L * a;
  }
  CHECK(i2[0] == isum && i2[1] == ineg, "igop: %d %d, expected %d %d", i2[0], i2[1], isum, ineg);
  CHECK(l == prod, "lgop *: %ld, expected %ld", l, prod);
  CHECK(ll == 1000 - last, "llgop min: %lld, expected %d", ll, 1000 - last);
  CHECK(f == 0.25f * (float)last, "fgop max: %g, expected %g", (double)f, 0.25 * last);
  CHECK(d[0] == 1.5 * last && d[1] == (double)last, "dgop absmax: %g %g, expected %g %d", d[0],
        d[1], 1.5 * last, last);
  CHECK(gl == lsum, "gop_scope +: %ld, expected %ld", gl, lsum);
  /* Broadcast from the group's last member (an absolute rank, as ARMCI-MPI takes it). */
  char text[32];
  memset(text, 0, sizeof text);
  if (me == last) snprintf(text, sizeof text, "from rank %d", me);
  armci_msg_group_bcast_scope(SCOPE_ALL, text, sizeof text, last, &mine);
  char expected[32];
  snprintf(expected, sizeof expected, "from rank %d", last);
  CHECK(strcmp(text, expected) == 0, "bcast gave \"%s\", expected \"%s\"", text, expected);
  armci_msg_group_barrier(&mine);
  /* The world collectives still span every rank. */
  int all = 1;
  armci_msg_igop(&all, 1, "+");
  CHECK(all == nproc, "world igop %d, expected %d", all, nproc);
  free_parity_groups();
}

/* The default group, switched to the parity group and back; ARMCI_Malloc / ARMCI_Free over it. */
static void part_default(void) {
  make_parity_groups();
  ARMCI_Group def;
  int s = -1, r = -1;
  ARMCI_Group_set_default(&mine);
  ARMCI_Group_get_default(&def);
  ARMCI_Group_size(&def, &s);
  ARMCI_Group_rank(&def, &r);
  CHECK(s == gsize && r == grank, "default group after set_default: size %d rank %d", s, r);
  /* ARMCI_Malloc over the default group, as in ARMCI 1.x (ARMCI-MPI's ARMCI_Malloc always
   * spans the world, so this is checked on Remora only). */
#ifdef REMORA_ARMCI
  long** p = malloc(sizeof(long*) * (size_t)gsize);
  ARMCI_Malloc((void**)p, 2 * sizeof(long));
  for (int k = 0; k < gsize; k++) CHECK(p[k] != NULL, "default-group block %d is NULL", k);
  long v[2] = {me, 7L * me};
  int next = (grank + 1) % gsize;
  ARMCI_Put(v, p[next], sizeof v, ARMCI_Absolute_id(&def, next));
  ARMCI_AllFence();
  armci_msg_group_barrier(&def);
  int prev = ARMCI_Absolute_id(&def, (grank - 1 + gsize) % gsize);
  ARMCI_Access_begin(p[grank]);
  CHECK(p[grank][0] == prev && p[grank][1] == 7L * prev, "default-group block %ld %ld from %d",
        p[grank][0], p[grank][1], prev);
  ARMCI_Access_end(p[grank]);
  armci_msg_group_barrier(&def);
  ARMCI_Free(p[grank]);
  free(p);
#endif
  ARMCI_Group world;
  ARMCI_Group_get_world(&world);
  ARMCI_Group_set_default(&world);
  ARMCI_Group_get_default(&def);
  ARMCI_Group_size(&def, &s);
  CHECK(s == nproc, "default group back to the world: size %d", s);
  void** w = malloc(sizeof(void*) * (size_t)nproc);
  ARMCI_Malloc(w, 16);
  for (int k = 0; k < nproc; k++) CHECK(w[k] != NULL, "world block %d is NULL", k);
  ARMCI_Barrier();
  ARMCI_Free(w[me]);
  free(w);
  free_parity_groups();
}

/* ARMCI_Malloc_group_memdev / ARMCI_Malloc_memdev, and (Remora only: ARMCI-MPI leaves them
 * unimplemented) armci_exchange_address(_grp), armci_msg_reduce and the armci_msg_clus_* /
 * armci_grp_clus_brdcst node collectives. */
static void part_extras(void) {
  make_parity_groups();
  int** g = malloc(sizeof(int*) * (size_t)gsize);
  ARMCI_Malloc_group_memdev((void**)g, sizeof(int), &mine, "DDR");
  int next = (grank + 1) % gsize;
  ARMCI_PutValueInt(me + 40, g[next], ARMCI_Absolute_id(&mine, next));
  ARMCI_AllFence();
  armci_msg_group_barrier(&mine);
  int prev = ARMCI_Absolute_id(&mine, (grank - 1 + gsize) % gsize);
  CHECK(ARMCI_GetValueInt(g[grank], me) == prev + 40, "memdev block %d, expected %d",
        ARMCI_GetValueInt(g[grank], me), prev + 40);
  armci_msg_group_barrier(&mine);
  ARMCI_Free_group(g[grank], &mine);
  void** w = malloc(sizeof(void*) * (size_t)nproc);
  ARMCI_Malloc_memdev(w, 8, "DDR");
  for (int r = 0; r < nproc; r++) CHECK(w[r] != NULL, "memdev world block %d is NULL", r);
  ARMCI_Barrier();
  ARMCI_Free_memdev(w[me]);
#ifdef REMORA_ARMCI
  /* Values standing for addresses (each process has its own address space). */
#define FAKE_ADDRESS(r) ((void*)(size_t)(0x1000 * ((r) + 1)))
  void** a = malloc(sizeof(void*) * (size_t)nproc);
  for (int r = 0; r < nproc; r++) a[r] = NULL;
  a[me] = FAKE_ADDRESS(me);
  armci_exchange_address(a, nproc);
  for (int r = 0; r < nproc; r++) CHECK(a[r] == FAKE_ADDRESS(r), "exchanged a[%d]=%p", r, a[r]);
  for (int k = 0; k < gsize; k++) g[k] = NULL;
  g[grank] = (int*)FAKE_ADDRESS(me);
  armci_exchange_address_grp((void**)g, gsize, &mine);
  for (int k = 0; k < gsize; k++)
    CHECK((void*)g[k] == FAKE_ADDRESS(2 * k + parity), "exchanged g[%d]=%p in the group", k,
          (void*)g[k]);
  double d = me + 0.5;
  armci_msg_reduce(&d, 1, "+", ARMCI_DOUBLE);
  CHECK(d == nproc * (nproc - 1) / 2.0 + 0.5 * nproc, "reduce + %g", d);
  free(a);
  /* The node ("cluster") forms: over the ranks of this rank's node (of the group for
   * armci_grp_clus_brdcst), expected values from armci_domain_*. */
  int node = armci_domain_my_id(ARMCI_DOMAIN_SMP), on_node = 0, node_sum = 0, node_first = -1;
  int group_on_node = 0, group_first = -1;
  for (int r = 0; r < nproc; r++) {
    if (armci_domain_id(ARMCI_DOMAIN_SMP, r) != node) continue;
    on_node++;
    node_sum += r + 1;
    if (node_first < 0) node_first = r;
    if (r % 2 == parity) {
      group_on_node++;
      if (group_first < 0) group_first = r;
    }
  }
  int ci = me + 1;
  armci_msg_clus_igop(&ci, 1, "+");
  CHECK(ci == node_sum, "clus_igop + %d, expected %d", ci, node_sum);
  double cd = me;
  armci_msg_clus_dgop(&cd, 1, "max");
  int node_last = node_first;
  for (int r = 0; r < nproc; r++)
    if (armci_domain_id(ARMCI_DOMAIN_SMP, r) == node) node_last = r;
  CHECK(cd == node_last, "clus_dgop max %g, expected %d", cd, node_last);
  long cl = 1;
  armci_msg_clus_lgop(&cl, 1, "+");
  CHECK(cl == on_node, "clus_lgop + %ld, expected %d", cl, on_node);
  int from = me == node_first ? 1000 + me : -1;
  armci_msg_clus_brdcst(&from, sizeof from);
  CHECK(from == 1000 + node_first, "clus_brdcst %d, expected %d", from, 1000 + node_first);
  int gfrom = me == group_first ? 2000 + me : -1;
  armci_grp_clus_brdcst(&gfrom, sizeof gfrom, group_first, group_on_node, &mine);
  CHECK(gfrom == 2000 + group_first, "grp_clus_brdcst %d, expected %d", gfrom, 2000 + group_first);
#endif
  free(w);
  free(g);
  free_parity_groups();
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ARMCI_Init();
  me = armci_msg_me();
  nproc = armci_msg_nproc();
  const char* names[] = {"ranks", "memory", "collectives", "default", "extras"};
  void (*parts[])(void) = {part_ranks, part_memory, part_collectives, part_default, part_extras};
  for (int i = 0; i < 5; i++) {
    int wanted = argc == 1;
    for (int a = 1; a < argc; a++) wanted |= strcmp(argv[a], names[i]) == 0;
    if (!wanted) continue;
    int before = failures;
    parts[i]();
    ARMCI_Barrier();
    int bad = failures - before;
    armci_msg_igop(&bad, 1, "+");
    if (me == 0) printf("armci_group %s: %s\n", names[i], bad == 0 ? "ok" : "FAILED");
  }
  int total = failures;
  armci_msg_igop(&total, 1, "+");
  ARMCI_Finalize();
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
