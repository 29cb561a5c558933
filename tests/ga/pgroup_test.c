/* Process groups in GA style: the even ranks and the odd ranks each form a group; each group
 * creates an array on itself (NGA_Create_config, and GA_Create_handle + GA_Set_pgroup +
 * GA_Allocate) and works on it with put/get/acc/sync while the other group works on its own.
 * Then the default group: NGA_Create, GA_Nodeid, GA_Nnodes and GA_Sync inside it, a group
 * created inside the default group (list in its ranks). Group collectives: GA_Pgroup_igop,
 * lgop, dgop with every op, GA_Pgroup_brdcst, GA_Pgroup_sync, and the MPI communicators of
 * the groups (GA_MPI_Comm_pgroup, GA_MPI_Comm_pgroup_default). Collective array operations
 * (fill, dot, copy, scale, duplicate) and GA_Dgop inside the default group. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "ga-mpi.h"
#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

enum { ROWS = 8, COLS = 6 };

static double value(int i, int j, int salt) {
  return 100.0 * i + j + salt;
}

/* Members of g put their rows, get everything back, accumulate, then check. */
static void work_on(int g_a, int grp, int salt) {
  const int me = GA_Pgroup_nodeid(grp), n = GA_Pgroup_nnodes(grp);
  double row[COLS], all[ROWS][COLS], ones[ROWS][COLS];
  for (int i = me; i < ROWS; i += n) {
    for (int j = 0; j < COLS; ++j) row[j] = value(i, j, salt);
    int lo[2] = {i, 0}, hi[2] = {i, COLS - 1}, ld[1] = {COLS};
    NGA_Put(g_a, lo, hi, row, ld);
  }
  GA_Pgroup_sync(grp);
  int lo[2] = {0, 0}, hi[2] = {ROWS - 1, COLS - 1}, ld[1] = {COLS};
  NGA_Get(g_a, lo, hi, all, ld);
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) {
      CHECK(all[i][j] == value(i, j, salt));
      ones[i][j] = 1.0;
    }
  GA_Pgroup_sync(grp);
  double alpha = 3.0;
  NGA_Acc(g_a, lo, hi, ones, ld, &alpha);
  GA_Pgroup_sync(grp);
  NGA_Get(g_a, lo, hi, all, ld);
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) CHECK(all[i][j] == value(i, j, salt) + 3.0 * n);
  /* Owners are ranks of the group. */
  int sub[2] = {ROWS - 1, COLS - 1};
  const int owner = NGA_Locate(g_a, sub);
  CHECK(owner >= 0 && owner < n);
  GA_Pgroup_sync(grp);
}

static void collectives(int grp) {
  const int me = GA_Pgroup_nodeid(grp), n = GA_Pgroup_nnodes(grp);
  int ix[2] = {me + 1, -(me + 1)};
  GA_Pgroup_igop(grp, ix, 2, "+");
  CHECK(ix[0] == n * (n + 1) / 2 && ix[1] == -n * (n + 1) / 2);
  long lx[2] = {me + 1, -(long)(me + 1)};
  GA_Pgroup_lgop(grp, lx, 2, "absmax");
  CHECK(lx[0] == n && lx[1] == n);
  double dx[3] = {me + 1.0, -(me + 1.0), 2.0};
  GA_Pgroup_dgop(grp, dx, 1, "max");
  CHECK(dx[0] == n);
  GA_Pgroup_dgop(grp, dx + 1, 1, "absmin");
  CHECK(dx[1] == 1.0);
  GA_Pgroup_dgop(grp, dx + 2, 1, "*");
  double power = 1.0;
  for (int k = 0; k < n; ++k) power *= 2.0;
  CHECK(dx[2] == power);
  int mn = me;
  GA_Pgroup_igop(grp, &mn, 1, "min");
  CHECK(mn == 0);
  char text[32] = "";
  const int root = n - 1;
  if (me == root) snprintf(text, sizeof text, "root %d", root);
  GA_Pgroup_brdcst(grp, text, (int)sizeof text, root);
  char expected[32];
  snprintf(expected, sizeof expected, "root %d", root);
  CHECK(strcmp(text, expected) == 0);
  /* The group's MPI communicator has the same ranks. */
  MPI_Comm comm = GA_MPI_Comm_pgroup(grp);
  int mpi_rank = -1, mpi_size = 0;
  MPI_Comm_rank(comm, &mpi_rank);
  MPI_Comm_size(comm, &mpi_size);
  CHECK(mpi_rank == me && mpi_size == n);
  GA_Pgroup_sync(grp);
}

/* Collective array operations on an array of the default group grp run over grp only (the
 * other group runs the same calls on its own array at the same time). */
static void group_array_ops(int g_a, int grp) {
  const int n = GA_Pgroup_nnodes(grp), me = GA_Pgroup_nodeid(grp);
  double five = 5.0, two = 2.0, x = 1.0;
  GA_Fill(g_a, &five);
  CHECK(GA_Ddot(g_a, g_a) == 25.0 * ROWS * COLS);
  int g_copy = GA_Duplicate(g_a, "copy");
  CHECK(g_copy != 0 && GA_Get_pgroup(g_copy) == grp);
  GA_Copy(g_a, g_copy);
  GA_Scale(g_copy, &two);
  CHECK(GA_Ddot(g_a, g_copy) == 50.0 * ROWS * COLS);
  GA_Dgop(&x, 1, "+");
  CHECK(x == n);
  int coordinates[2] = {-1, -1};
  NGA_Proc_topology(g_a, n - 1, coordinates);
  CHECK(coordinates[0] >= 0 && coordinates[1] >= 0);
  /* Owners are ranks of the group: the whole array's pieces come from ranks below n and add
     up to it, each piece inside its owner's block. */
  int lo[2] = {0, 0}, hi[2] = {ROWS - 1, COLS - 1}, map[4 * 64], procs[64];
  const int pieces = NGA_Locate_region(g_a, lo, hi, map, procs);
  CHECK(pieces >= 1 && pieces <= n);
  long covered = 0;
  for (int k = 0; k < pieces; ++k) {
    CHECK(procs[k] >= 0 && procs[k] < n);
    int blo[2], bhi[2];
    NGA_Distribution(g_a, procs[k], blo, bhi);
    CHECK(map[4 * k] == blo[0] && map[4 * k + 1] == blo[1]);
    CHECK(map[4 * k + 2] == bhi[0] && map[4 * k + 3] == bhi[1]);
    covered += (long)(bhi[0] - blo[0] + 1) * (bhi[1] - blo[1] + 1);
  }
  CHECK(covered == (long)ROWS * COLS);
#ifdef REMORA_GA_H
  /* This rank's own block, by its group rank (Remora's NGA_Access_block of a block array). */
  double* block = NULL;
  int bld[1] = {0};
  NGA_Access_block(g_a, me, &block, bld);
  int mlo[2], mhi[2];
  NGA_Distribution(g_a, me, mlo, mhi);
  if (mhi[0] >= mlo[0]) {
    CHECK(block != NULL && block[0] == 5.0);
    NGA_Release_block(g_a, me);
  }
#endif
  GA_Destroy(g_copy);
  GA_Pgroup_sync(grp);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  MA_init(C_DBL, 1000, 1000);
  const int me = GA_Nodeid(), nprocs = GA_Nnodes();
  const int world = GA_Pgroup_get_world();
  CHECK(GA_Pgroup_get_default() == world);
  CHECK(GA_Pgroup_nnodes(world) == nprocs && GA_Pgroup_nodeid(world) == me);

  /* Even and odd ranks (collective over the world, the default group). */
  int evens[64], odds[64], ne = 0, no = 0;
  for (int r = 0; r < nprocs; ++r) {
    if (r % 2 == 0)
      evens[ne++] = r;
    else
      odds[no++] = r;
  }
  const int g_even = GA_Pgroup_create(evens, ne);
  const int g_odd = no > 0 ? GA_Pgroup_create(odds, no) : world;
  const int mine = me % 2 == 0 ? g_even : g_odd;
  CHECK(GA_Pgroup_nodeid(mine) == me / 2);
  CHECK(GA_Pgroup_nnodes(mine) == (me % 2 == 0 ? ne : no));
  if (no > 0) CHECK(GA_Pgroup_nodeid(me % 2 == 0 ? g_odd : g_even) == -1);
  collectives(mine);

  /* Arrays on the groups, worked on side by side. */
  int dims[2] = {ROWS, COLS};
  int g_a = NGA_Create_config(C_DBL, 2, dims, "config", NULL, mine);
  CHECK(g_a != 0);
  CHECK(GA_Get_pgroup(g_a) == mine);
  work_on(g_a, mine, me % 2);
  int g_b = GA_Create_handle();
  GA_Set_data(g_b, 2, dims, C_DBL);
  GA_Set_array_name(g_b, "handle");
  GA_Set_pgroup(g_b, mine);
  CHECK(GA_Allocate(g_b));
  work_on(g_b, mine, 10 + me % 2);
  GA_Destroy(g_b);
  GA_Destroy(g_a);

  /* The default group: NGA_Create, GA_Nodeid, GA_Nnodes and GA_Sync answer for it. */
  GA_Pgroup_set_default(mine);
  CHECK(GA_Pgroup_get_default() == mine);
  CHECK(GA_Nodeid() == me / 2 && GA_Nnodes() == GA_Pgroup_nnodes(mine));
  MPI_Comm def = GA_MPI_Comm_pgroup_default();
  int def_size = 0;
  MPI_Comm_size(def, &def_size);
  CHECK(def_size == GA_Nnodes());
  int g_c = NGA_Create(C_DBL, 2, dims, "default", NULL);
  CHECK(GA_Get_pgroup(g_c) == mine);
  work_on(g_c, mine, 20);
  group_array_ops(g_c, mine);
  GA_Sync();
  /* A group inside the default group: its list holds ranks of the default group. */
  int first = 0;
  const int g_first = GA_Pgroup_create(&first, 1);
  if (GA_Nodeid() == 0) {
    CHECK(GA_Pgroup_nnodes(g_first) == 1 && GA_Pgroup_nodeid(g_first) == 0);
    collectives(g_first);
  } else {
    CHECK(GA_Pgroup_nodeid(g_first) == -1);
  }
  GA_Destroy(g_c);
  GA_Pgroup_set_default(world);
  CHECK(GA_Nodeid() == me && GA_Nnodes() == nprocs);
  GA_Sync();
  CHECK(GA_Pgroup_destroy(g_even) == 1);
  if (no > 0) CHECK(GA_Pgroup_destroy(g_odd) == 1);
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
