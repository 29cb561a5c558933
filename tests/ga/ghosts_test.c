/* Ghost cells: 1-, 2- and 3-d arrays with several widths, block and irregular distributions.
 * Each process writes its block through NGA_Access (whose ld must count the ghosts), then the
 * ghosts are updated and every element of the padded block (NGA_Access_ghosts) is checked
 * against the serial reference: the interior holds the element's value, a ghost the value of
 * the element it stands for with periodic wrap-around, and ghosts left out (corners with the
 * corner flag off, other sides for NGA_Update_ghost_dir and NGA_NbGet_ghost_dir) keep the
 * sentinel written there before. Also NGA_Access_ghost_element, NGA_Get_ghost_block (inside
 * the padded block and a periodic patch around the whole array), puts and gets addressing the
 * interior only, and the handle API (GA_Set_ghosts). With an argument: one misuse, which must
 * end the job with GA_Error's message. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

#define SENTINEL (-1.0)

static const char* stage = ""; /* what is being checked, for the failure message */

/* The value of global element idx (wrapped into the array first). */
static double value_of(int ndim, const int* dims, const int* idx) {
  double v = 0;
  for (int d = 0; d < ndim; ++d) v = v * 100 + (double)(((idx[d] % dims[d]) + dims[d]) % dims[d]);
  return v + 0.5;
}

struct Shape {
  int ndim, dims[3], width[3];
};

/* Which ghosts an update is expected to have filled: all (corners with), the faces only
 * (corners 0), or one side of one dimension (dir_dim >= 0), with or without its corners; or
 * the one region mask (nbget). */
struct Expect {
  int corners;
  int dir_dim, dir_side, dir_flag;
  const int* mask;
};

static int filled(const struct Shape* s, const struct Expect* e, const int* side) {
  int nonzero = 0;
  for (int d = 0; d < s->ndim; ++d) nonzero += side[d] != 0;
  if (nonzero == 0) return 1;
  if (e->mask != NULL) {
    for (int d = 0; d < s->ndim; ++d)
      if (side[d] != e->mask[d]) return 0;
    return 1;
  }
  if (e->dir_dim >= 0) {
    if (side[e->dir_dim] != e->dir_side) return 0;
    return e->dir_flag || nonzero == 1;
  }
  return e->corners || nonzero == 1;
}

/* Writes the block through NGA_Access, checking its ld. */
static void write_block(int g_a, const struct Shape* s) {
  int lo[3], hi[3], ld[2] = {0, 0};
  double* p = NULL;
  NGA_Distribution(g_a, GA_Nodeid(), lo, hi);
  if (hi[0] < lo[0]) return;
  NGA_Access(g_a, lo, hi, &p, ld);
  for (int d = 0; d + 1 < s->ndim; ++d)
    CHECK(ld[d] == hi[d + 1] - lo[d + 1] + 1 + 2 * s->width[d + 1]);
  int n[3] = {1, 1, 1}, stride[3];
  for (int d = 0; d < s->ndim; ++d) n[d] = hi[d] - lo[d] + 1;
  stride[s->ndim - 1] = 1;
  for (int d = s->ndim - 2; d >= 0; --d) stride[d] = stride[d + 1] * ld[d];
  for (int i = 0; i < n[0]; ++i)
    for (int j = 0; j < (s->ndim > 1 ? n[1] : 1); ++j)
      for (int k = 0; k < (s->ndim > 2 ? n[2] : 1); ++k) {
        int at[3] = {i, j, k}, g[3];
        long offset = 0;
        for (int d = 0; d < s->ndim; ++d) {
          g[d] = lo[d] + at[d];
          offset += (long)at[d] * stride[d];
        }
        p[offset] = value_of(s->ndim, s->dims, g);
      }
  NGA_Release_update(g_a, lo, hi);
}

/* Calls fn(padded index, global index, side) for each element of the padded block. */
typedef void (*Visit)(double* element, const int* global, const int* side, void* context);
static void for_each_padded(int g_a, const struct Shape* s, Visit visit, void* context) {
  int lo[3], hi[3], pdims[3], ld[2] = {0, 0};
  double* p = NULL;
  NGA_Distribution(g_a, GA_Nodeid(), lo, hi);
  if (hi[0] < lo[0]) return;
  NGA_Access_ghosts(g_a, pdims, &p, ld);
  for (int d = 0; d < s->ndim; ++d) CHECK(pdims[d] == hi[d] - lo[d] + 1 + 2 * s->width[d]);
  for (int d = 0; d + 1 < s->ndim; ++d) CHECK(ld[d] == pdims[d + 1]);
  long total = 1;
  for (int d = 0; d < s->ndim; ++d) total *= pdims[d];
  for (long k = 0; k < total; ++k) {
    int pi[3], global[3], side[3];
    long rest = k;
    for (int d = s->ndim - 1; d >= 0; --d) {
      pi[d] = (int)(rest % pdims[d]);
      rest /= pdims[d];
    }
    for (int d = 0; d < s->ndim; ++d) {
      global[d] = lo[d] - s->width[d] + pi[d];
      side[d] = global[d] < lo[d] ? -1 : global[d] > hi[d] ? 1 : 0;
    }
    visit(p + k, global, side, context);
  }
  NGA_Release_ghosts(g_a);
}

static void put_sentinel(double* element, const int* global, const int* side, void* context) {
  const struct Shape* s = context;
  (void)global;
  for (int d = 0; d < s->ndim; ++d)
    if (side[d] != 0) *element = SENTINEL;
}

struct CheckContext {
  const struct Shape* s;
  const struct Expect* e;
};

static void check_element(double* element, const int* global, const int* side, void* context) {
  const struct CheckContext* c = context;
  const double want =
      filled(c->s, c->e, side) ? value_of(c->s->ndim, c->s->dims, global) : SENTINEL;
  if (*element != want) {
    fprintf(stderr, "rank %d: %s, %d-d: element (%d %d %d) side (%d %d %d): %g, expected %g\n",
            GA_Nodeid(), stage, c->s->ndim, global[0], c->s->ndim > 1 ? global[1] : 0,
            c->s->ndim > 2 ? global[2] : 0, side[0], c->s->ndim > 1 ? side[1] : 0,
            c->s->ndim > 2 ? side[2] : 0, *element, want);
    CHECK(*element == want);
  }
}

static void check_ghosts(int g_a, const struct Shape* s, const struct Expect* e) {
  struct CheckContext c = {s, e};
  for_each_padded(g_a, s, check_element, &c);
}

/* Fresh values, sentinels in every ghost. */
static void reset(int g_a, const struct Shape* s) {
  write_block(g_a, s);
  for_each_padded(g_a, s, put_sentinel, (void*)s);
  GA_Sync();
}

/* NGA_Access_ghost_element at the padded block's corners and centre. */
static void check_ghost_elements(int g_a, const struct Shape* s) {
  int lo[3], hi[3], pdims[3], ld[2], base_ld[2];
  double* base = NULL;
  NGA_Distribution(g_a, GA_Nodeid(), lo, hi);
  if (hi[0] < lo[0]) return;
  NGA_Access_ghosts(g_a, pdims, &base, base_ld);
  for (int pick = 0; pick < 3; ++pick) {
    int sub[3], global[3];
    long offset = 0;
    for (int d = 0; d < s->ndim; ++d) {
      sub[d] = pick == 0 ? 0 : pick == 1 ? pdims[d] - 1 : pdims[d] / 2;
      offset = offset * pdims[d] + sub[d];
      global[d] = lo[d] - s->width[d] + sub[d];
    }
    double* p = NULL;
    NGA_Access_ghost_element(g_a, &p, sub, ld);
    CHECK(p == base + offset); /* (ld: GA 5.8 leaves it unchanged, Remora fills it) */
    CHECK(*p == value_of(s->ndim, s->dims, global));
    NGA_Release_ghost_element(g_a, sub);
  }
  NGA_Release_ghosts(g_a);
}

/* NGA_Get_ghost_block of the whole padded block, and of a patch one element beyond the array
 * on every side (a periodic get). */
static void check_ghost_block(int g_a, const struct Shape* s) {
  int lo[3], hi[3], glo[3], ghi[3], n[3] = {1, 1, 1}, ld[2];
  NGA_Distribution(g_a, GA_Nodeid(), lo, hi);
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 0 && hi[0] < lo[0]) continue;
    long total = 1;
    for (int d = 0; d < s->ndim; ++d) {
      glo[d] = pass == 0 ? lo[d] - s->width[d] : -1;
      ghi[d] = pass == 0 ? hi[d] + s->width[d] : s->dims[d];
      n[d] = ghi[d] - glo[d] + 1;
      total *= n[d];
    }
    for (int d = 0; d + 1 < s->ndim; ++d) ld[d] = n[d + 1];
    double* buf = malloc(sizeof(double) * (size_t)total);
    NGA_Get_ghost_block(g_a, glo, ghi, buf, ld);
    for (long k = 0; k < total; ++k) {
      int global[3];
      long rest = k;
      for (int d = s->ndim - 1; d >= 0; --d) {
        global[d] = glo[d] + (int)(rest % n[d]);
        rest /= n[d];
      }
      CHECK(buf[k] == value_of(s->ndim, s->dims, global));
    }
    free(buf);
  }
}

/* Puts and gets address the interior: a put of a row from another process, read back. */
static void check_interior(int g_a, const struct Shape* s) {
  const int me = GA_Nodeid(), nprocs = GA_Nnodes();
  int lo[3] = {0, 0, 0}, hi[3], ld[2];
  for (int d = 0; d < s->ndim; ++d) hi[d] = s->dims[d] - 1;
  lo[0] = hi[0] = s->dims[0] - 1; /* the last slab along dimension 0 */
  long total = 1;
  for (int d = 0; d < s->ndim; ++d) total *= hi[d] - lo[d] + 1;
  for (int d = 0; d + 1 < s->ndim; ++d) ld[d] = hi[d + 1] - lo[d + 1] + 1;
  double* buf = malloc(sizeof(double) * (size_t)total);
  GA_Sync(); /* everyone has finished reading the block */
  if (me == nprocs - 1) {
    for (long k = 0; k < total; ++k) buf[k] = 1000000.0 + (double)k;
    NGA_Put(g_a, lo, hi, buf, ld);
  }
  GA_Sync();
  NGA_Get(g_a, lo, hi, buf, ld);
  for (long k = 0; k < total; ++k) CHECK(buf[k] == 1000000.0 + (double)k);
  free(buf);
  GA_Sync();
}

static void run_shape(const struct Shape* s, const int* nblock, const int* map) {
  char name[] = "ghosted";
  const int g_a = nblock == NULL
                      ? NGA_Create_ghosts(C_DBL, s->ndim, (int*)s->dims, (int*)s->width, name, NULL)
                      : NGA_Create_ghosts_irreg(C_DBL, s->ndim, (int*)s->dims, (int*)s->width, name,
                                                (int*)nblock, (int*)map);
  CHECK(g_a != 0);
  int any = 0;
  for (int d = 0; d < s->ndim; ++d) any |= s->width[d] > 0;
  CHECK(GA_Has_ghosts(g_a) == any && NGA_Has_ghosts(g_a) == any);

  struct Expect all = {1, -1, 0, 0, NULL};
  stage = "GA_Update_ghosts";
  reset(g_a, s);
  GA_Update_ghosts(g_a);
  check_ghosts(g_a, s, &all);
  check_ghost_elements(g_a, s);
  check_ghost_block(g_a, s);

  struct Expect faces = {0, -1, 0, 0, NULL};
  GA_Set_ghost_corner_flag(g_a, 0);
  stage = "NGA_Update_ghosts without corners";
  reset(g_a, s);
  NGA_Update_ghosts(g_a);
  check_ghosts(g_a, s, &faces);
  GA_Set_ghost_corner_flag(g_a, 1);

  /* GA refuses (cannot locate region) a direction of width 0, and corners next to one. */
  int all_wide = 1;
  for (int d = 0; d < s->ndim; ++d) all_wide &= s->width[d] > 0;
  for (int d = 0; d < s->ndim; ++d)
    for (int side = -1; side <= 1; side += 2)
      for (int flag = 0; flag <= all_wide && s->width[d] > 0; ++flag) {
        struct Expect dir = {0, d, side, flag, NULL};
        stage = "NGA_Update_ghost_dir";
        reset(g_a, s);
        /* GA's C binding counts dimension from the last C dimension (Fortran order). */
        CHECK(NGA_Update_ghost_dir(g_a, s->ndim - 1 - d, side, flag) == 1);
        check_ghosts(g_a, s, &dir);
      }

#ifdef REMORA_GA_NBGET_GHOST_DIR
  /* NGA_NbGet_ghost_dir, one region at a time: the faces of dimension 0, and a corner. Not on
   * GA 5.8, whose C binding adds 1 to each mask entry (as to an index) before its core reads
   * -1, 0, 1: a C mask of -1 gets the interior there, 1 is refused. */
  {
    int masks[3][3] = {{-1, 0, 0}, {1, 0, 0}, {1, -1, 1}};
    for (int m = 0; m < 3; ++m) {
      struct Expect one = {0, -1, 0, 0, masks[m]};
      stage = "NGA_NbGet_ghost_dir";
      reset(g_a, s);
      ga_nbhdl_t handle;
      NGA_NbGet_ghost_dir(g_a, masks[m], &handle);
      NGA_NbWait(&handle);
      GA_Sync();
      check_ghosts(g_a, s, &one);
    }
  }
#endif

  /* NGA_Update_ghosts_nb, completed by NbWait. */
  stage = "NGA_Update_ghosts_nb";
  reset(g_a, s);
  {
    ga_nbhdl_t handle;
    NGA_Update_ghosts_nb(g_a, &handle);
    NGA_NbWait(&handle);
    GA_Sync();
    check_ghosts(g_a, s, &all);
  }

  check_interior(g_a, s);
  GA_Destroy(g_a);
}

/* The stencil pattern: the padded block accessed once, its interior written through the
 * pointer between updates (each step adds 1000 to every element), the neighbours' new values
 * in the ghosts after each GA_Update_ghosts; then a duplicate, which has ghost cells too. */
static void run_persistent_access(void) {
  const struct Shape s = {2, {8, 9, 0}, {1, 1, 0}};
  char name[] = "stencil";
  const int g_a = NGA_Create_ghosts(C_DBL, 2, (int*)s.dims, (int*)s.width, name, NULL);
  int lo[2], hi[2], pdims[2], ld[1], one[1] = {1};
  double* p = NULL;
  NGA_Distribution(g_a, GA_Nodeid(), lo, hi);
  const int holds = hi[0] >= lo[0];
  if (holds) NGA_Access_ghosts(g_a, pdims, &p, ld);
  for (int step = 0; step < 3; ++step) {
    if (holds)
      for (int i = 0; i <= hi[0] - lo[0]; ++i)
        for (int j = 0; j <= hi[1] - lo[1]; ++j) {
          const int g[2] = {lo[0] + i, lo[1] + j};
          p[(i + 1) * ld[0] + j + 1] = value_of(2, s.dims, g) + 1000.0 * step;
        }
    GA_Update_ghosts(g_a);
    if (holds)
      for (int i = 0; i < pdims[0]; ++i)
        for (int j = 0; j < pdims[1]; ++j) {
          const int g[2] = {lo[0] - 1 + i, lo[1] - 1 + j};
          CHECK(p[i * ld[0] + j] == value_of(2, s.dims, g) + 1000.0 * step);
        }
  }
  if (holds) NGA_Release_update_ghosts(g_a);
  /* Another process's put into elements this one did not write survives its writes. */
  GA_Sync();
  if (holds) {
    NGA_Access_ghosts(g_a, pdims, &p, ld);
    p[1 * ld[0] + 1] = -5.0; /* its first interior element */
  }
  if (GA_Nodeid() == 0) {
    const int nprocs = GA_Nnodes();
    for (int q = 0; q < nprocs; ++q) {
      int qlo[2], qhi[2];
      NGA_Distribution(g_a, q, qlo, qhi);
      if (qhi[0] < qlo[0] || (qlo[0] == qhi[0] && qlo[1] == qhi[1])) continue;
      int last[2] = {qhi[0], qhi[1]};
      double v = -7.0;
      NGA_Put(g_a, last, last, &v, one);
    }
  }
  GA_Sync();
  if (holds) NGA_Release_update_ghosts(g_a);
  GA_Sync();
  if (holds && !(lo[0] == hi[0] && lo[1] == hi[1])) {
    double first = 0, last = 0;
    NGA_Get(g_a, lo, lo, &first, one);
    NGA_Get(g_a, hi, hi, &last, one);
    CHECK(first == -5.0 && last == -7.0);
  }
  GA_Sync();

  char copy[] = "copy";
  const int g_b = GA_Duplicate(g_a, copy);
  CHECK(g_b != 0 && GA_Has_ghosts(g_b) == 1);
  GA_Copy(g_a, g_b); /* (no update of g_b: GA 5.8 crashes updating a duplicate's ghosts) */
  if (holds) {
    double* q = NULL;
    int qdims[2], qld[1];
    NGA_Access_ghosts(g_b, qdims, &q, qld);
    NGA_Access_ghosts(g_a, pdims, &p, ld);
    CHECK(qdims[0] == pdims[0] && qdims[1] == pdims[1] && qld[0] == ld[0]);
    /* The padded blocks have the same shape and the interiors agree. */
    for (int i = 1; i + 1 < pdims[0]; ++i)
      for (int j = 1; j + 1 < pdims[1]; ++j) CHECK(q[i * qld[0] + j] == p[i * ld[0] + j]);
    NGA_Release_ghosts(g_a);
    NGA_Release_ghosts(g_b);
  }
  GA_Destroy(g_b);
  GA_Destroy(g_a);
}

/* The handle API: GA_Set_ghosts before GA_Allocate; a width of 0 everywhere is no ghosts. */
static void run_handle_api(void) {
  struct Shape s = {2, {7, 6, 0}, {1, 2, 0}};
  const int g_a = GA_Create_handle();
  GA_Set_data(g_a, 2, s.dims, C_DBL);
  GA_Set_ghosts(g_a, s.width);
  CHECK(GA_Allocate(g_a));
  CHECK(GA_Has_ghosts(g_a) == 1);
  struct Expect all = {1, -1, 0, 0, NULL};
  reset(g_a, &s);
  GA_Update_ghosts(g_a);
  check_ghosts(g_a, &s, &all);
  GA_Destroy(g_a);

  int zero[2] = {0, 0};
  const int g_b = GA_Create_handle();
  GA_Set_data(g_b, 2, s.dims, C_DBL);
  NGA_Set_ghosts(g_b, zero);
  CHECK(GA_Allocate(g_b));
  CHECK(GA_Has_ghosts(g_b) == 0);
  GA_Destroy(g_b);
}

static void misuse(const char* mode) {
  int dims[2] = {8, 8}, width[2] = {1, 1};
  char name[] = "a";
  if (strcmp(mode, "width") == 0) {
    int bad[2] = {-1, 1};
    NGA_Create_ghosts(C_DBL, 2, dims, bad, name, NULL);
  } else if (strcmp(mode, "wide") == 0) {
    int bad[2] = {1, 9};
    NGA_Create_ghosts(C_DBL, 2, dims, bad, name, NULL);
  } else if (strcmp(mode, "handle") == 0) {
    GA_Update_ghosts(12345);
  } else if (strcmp(mode, "no_ghosts") == 0) {
    const int g_a = NGA_Create(C_DBL, 2, dims, name, NULL);
    int pdims[2], ld[1];
    double* p;
    NGA_Access_ghosts(g_a, pdims, &p, ld);
  } else if (strcmp(mode, "dir") == 0) {
    const int g_a = NGA_Create_ghosts(C_DBL, 2, dims, width, name, NULL);
    NGA_Update_ghost_dir(g_a, 0, 2, 0);
  } else if (strcmp(mode, "element") == 0) {
    const int g_a = NGA_Create_ghosts(C_DBL, 2, dims, width, name, NULL);
    int sub[2] = {0, 99}, ld[1];
    double* p;
    NGA_Access_ghost_element(g_a, &p, sub, ld);
  } else if (strcmp(mode, "allocated") == 0) {
    const int g_a = NGA_Create(C_DBL, 2, dims, name, NULL);
    GA_Set_ghosts(g_a, width);
  }
  fprintf(stderr, "misuse '%s' was accepted\n", mode);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  MA_init(C_DBL, 1000000, 1000000); /* GA needs MA for its update buffers */
  if (argc > 1) {
    misuse(argv[1]);
    GA_Terminate();
    MPI_Finalize();
    return 0; /* the expected-failure test fails: the job should have ended */
  }
  const int nprocs = GA_Nnodes();
  const struct Shape one_d[] = {{1, {13, 0, 0}, {1, 0, 0}}, {1, {13, 0, 0}, {3, 0, 0}}};
  const struct Shape two_d[] = {
      {2, {9, 10, 0}, {1, 1, 0}}, {2, {9, 10, 0}, {1, 2, 0}}, {2, {9, 10, 0}, {0, 2, 0}}};
  const struct Shape three_d[] = {{3, {6, 5, 7}, {1, 1, 2}}, {3, {6, 5, 7}, {2, 0, 1}}};
  for (size_t k = 0; k < sizeof one_d / sizeof one_d[0]; ++k) run_shape(&one_d[k], NULL, NULL);
  for (size_t k = 0; k < sizeof two_d / sizeof two_d[0]; ++k) run_shape(&two_d[k], NULL, NULL);
  for (size_t k = 0; k < sizeof three_d / sizeof three_d[0]; ++k)
    run_shape(&three_d[k], NULL, NULL);
  /* Irregular: 2-d, blocks of unequal extents (each at least the width). */
  {
    const struct Shape s = {2, {11, 9, 0}, {2, 1, 0}};
    int nblock[2] = {1, 1}, map[8] = {0, 0};
    if (nprocs == 2) {
      nblock[0] = 2;
      map[0] = 0, map[1] = 3, map[2] = 0;
    } else if (nprocs >= 4) {
      nblock[0] = 2, nblock[1] = 2;
      map[0] = 0, map[1] = 7, map[2] = 0, map[3] = 2;
    }
    if (nprocs == 1 || nprocs == 2 || nprocs >= 4) run_shape(&s, nblock, map);
  }
  run_handle_api();
  run_persistent_access();
  if (GA_Nodeid() == 0) printf("ghosts: all checks passed on %d processes\n", nprocs);
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
