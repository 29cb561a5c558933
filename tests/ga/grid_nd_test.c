/* N-dimensional arrays on a process grid: GA_Set_block_cyclic_proc_grid (ScaLAPACK layout),
 * GA_Set_tiled_proc_grid and GA_Set_tiled_irreg_proc_grid on 1- to 4-d arrays with short
 * edge tiles and tiles of irregular extents, against a serial model of where GA keeps each
 * element: tile c lives on grid position (c_d mod grid[d]), ranks row-major over the grid; the
 * ScaLAPACK layout keeps a rank's local array row-major, the tiled layouts a rank's tiles one
 * after another in row-major tile order, each row-major with its own extents (the model walks
 * the tiles and appends). Checked: the tiles (GA_Total_blocks, NGA_Distribution of every tile,
 * NGA_Locate of every element, NGA_Locate_region of an inner patch), the process grid
 * (GA_Get_proc_index, NGA_Proc_topology), the memory (each rank writes f(element) into its
 * NGA_Access_block_segment memory at the model's places, its length the model's count;
 * NGA_Access_block_grid pointers and ld against the segment), data movement (every rank reads
 * the whole array back; accumulates of overlapping patches from every rank against a serial
 * sum; a put of a patch spanning tiles read back into a padded buffer) and whole-array
 * operations (GA_Duplicate, GA_Compare_distr, GA_Copy, GA_Scale, GA_Elem_multiply, GA_Ddot);
 * and arrays of a registered type (NGA_Register_type) on each layout, put and read back.
 * With REMORA_GA_H also grids smaller than the number of processes (GA requires them equal;
 * the other ranks own nothing). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

enum { MAXD = 4, MAXT = 8, SCALAPACK = 0, TILED = 1, TILED_IRREG = 2 };

typedef struct {
  int kind, ndim, dims[MAXD], grid[MAXD], block[MAXD];
  int nt[MAXD], starts[MAXD][MAXT];
} Layout;

static int tile_extent(const Layout* L, int d, int c) {
  return (c + 1 < L->nt[d] ? L->starts[d][c + 1] : L->dims[d]) - L->starts[d][c];
}

static int tile_of(const Layout* L, int d, int x) {
  int c = 0;
  while (c + 1 < L->nt[d] && L->starts[d][c + 1] <= x) ++c;
  return c;
}

static int grid_size(const Layout* L) {
  int n = 1;
  for (int d = 0; d < L->ndim; ++d) n *= L->grid[d];
  return n;
}

/* rank's grid coordinates (row-major); 0 when it is beyond the grid. */
static int grid_coords(const Layout* L, int rank, int* p) {
  if (rank >= grid_size(L)) return 0;
  for (int d = L->ndim - 1; d >= 0; --d) p[d] = rank % L->grid[d], rank /= L->grid[d];
  return 1;
}

static int owner(const Layout* L, const int* c) {
  int rank = 0;
  for (int d = 0; d < L->ndim; ++d) rank = rank * L->grid[d] + c[d] % L->grid[d];
  return rank;
}

/* The extents of the tiles of coordinate p along d before tile c (all of them: c = nt). */
static int local_before(const Layout* L, int d, int p, int c) {
  int n = 0;
  for (int k = p; k < c; k += L->grid[d]) n += tile_extent(L, d, k);
  return n;
}

static int64_t linear(const Layout* L, const int* x) {
  int64_t g = 0;
  for (int d = 0; d < L->ndim; ++d) g = g * L->dims[d] + x[d];
  return g;
}

static int64_t elements(const Layout* L) {
  int64_t n = 1;
  for (int d = 0; d < L->ndim; ++d) n *= L->dims[d];
  return n;
}

static int next(int ndim, int* i, const int* lo, const int* hi) {
  int d = ndim - 1;
  while (d >= 0 && i[d] == hi[d]) i[d] = lo[d], --d;
  if (d < 0) return 0;
  ++i[d];
  return 1;
}

static double f(int64_t g) {
  return 0.25 + (double)g;
}

/* The model of rank's memory: at[k] = the global linear index stored at local position k;
 * returns the count. ScaLAPACK: the local array row-major; tiled: tiles appended. */
static int64_t model(const Layout* L, int rank, int64_t* at) {
  int p[MAXD], zero[MAXD] = {0}, last[MAXD], c[MAXD], x[MAXD], lo[MAXD], hi[MAXD];
  if (!grid_coords(L, rank, p)) return 0;
  int64_t count = 0;
  for (int d = 0; d < L->ndim; ++d) last[d] = L->nt[d] - 1, c[d] = 0;
  do {
    if (owner(L, c) != rank) continue;
    for (int d = 0; d < L->ndim; ++d) {
      lo[d] = x[d] = L->starts[d][c[d]];
      hi[d] = lo[d] + tile_extent(L, d, c[d]) - 1;
    }
    do {
      int64_t k = 0;
      if (L->kind == SCALAPACK) {
        for (int d = 0; d < L->ndim; ++d)
          k = k * local_before(L, d, p[d], L->nt[d]) + local_before(L, d, p[d], c[d]) + x[d] -
              lo[d];
      } else {
        k = count;
      }
      at[k] = linear(L, x);
      ++count;
    } while (next(L->ndim, x, lo, hi));
  } while (next(L->ndim, c, zero, last));
  return count;
}

static int make(const Layout* L, int type) {
  int dims[MAXD], grid[MAXD], block[MAXD], nt[MAXD], map[MAXD * MAXT], m = 0;
  for (int d = 0; d < L->ndim; ++d) {
    dims[d] = L->dims[d], grid[d] = L->grid[d], block[d] = L->block[d], nt[d] = L->nt[d];
    for (int k = 0; k < L->nt[d]; ++k) map[m++] = L->starts[d][k];
  }
  const int g = GA_Create_handle();
  GA_Set_data(g, L->ndim, dims, type);
  if (L->kind == SCALAPACK) GA_Set_block_cyclic_proc_grid(g, block, grid);
  if (L->kind == TILED) GA_Set_tiled_proc_grid(g, block, grid);
  if (L->kind == TILED_IRREG) GA_Set_tiled_irreg_proc_grid(g, map, nt, grid);
  CHECK(GA_Allocate(g) == 1);
  return g;
}

/* The patch's elements from the whole array (row-major), with leading dimensions ld. */
static void ld_of(const Layout* L, const int* lo, const int* hi, int pad, int* ld) {
  for (int d = 0; d + 1 < L->ndim; ++d) ld[d] = hi[d + 1] - lo[d + 1] + 1 + pad;
}

static int64_t at_ld(int ndim, const int* lo, const int* x, const int* ld) {
  int64_t k = 0;
  for (int d = 0; d < ndim; ++d) k = k * (d > 0 ? ld[d - 1] : 1) + x[d] - lo[d];
  return k;
}

static void whole(const Layout* L, int g, double* out) {
  int lo[MAXD] = {0}, hi[MAXD], ld[MAXD];
  for (int d = 0; d < L->ndim; ++d) hi[d] = L->dims[d] - 1;
  ld_of(L, lo, hi, 0, ld);
  NGA_Get(g, lo, hi, out, ld);
}

/* Rank r's accumulate patch: overlapping the others', spanning tiles. */
static void acc_patch(const Layout* L, int r, int* lo, int* hi) {
  for (int d = 0; d < L->ndim; ++d) {
    lo[d] = (r * 2 + d) % L->dims[d];
    hi[d] = lo[d] + L->dims[d] / 2 + r;
    if (hi[d] >= L->dims[d]) hi[d] = L->dims[d] - 1;
  }
}

static void check_layout(const Layout* L, int me, int nprocs) {
  const int n = L->ndim;
  const int64_t total = elements(L);
  if (me == 0) {
    static const char* names[] = {"scalapack", "tiled", "tiled_irreg"};
    printf("grid_nd: %s %d-d, grid", names[L->kind], n);
    for (int d = 0; d < n; ++d) printf("%s%d", d > 0 ? "x" : " ", L->grid[d]);
    printf("\n");
    fflush(stdout);
  }
  const int g = make(L, C_DBL);
  int zero[MAXD] = {0}, last[MAXD], c[MAXD], lo[MAXD], hi[MAXD], x[MAXD], full[MAXD];
  int64_t tiles = 1;
  for (int d = 0; d < n; ++d) last[d] = L->nt[d] - 1, tiles *= L->nt[d], full[d] = L->dims[d] - 1;

  /* Tiles: numbered row-major, each one's bounds; the tile of every element. */
  CHECK(GA_Total_blocks(g) == tiles);
  int64_t k = 0;
  for (int d = 0; d < n; ++d) c[d] = 0;
  do {
    NGA_Distribution(g, (int)k, lo, hi);
    for (int d = 0; d < n; ++d) {
      CHECK(lo[d] == L->starts[d][c[d]]);
      CHECK(hi[d] == lo[d] + tile_extent(L, d, c[d]) - 1);
    }
    ++k;
  } while (next(n, c, zero, last));
  for (int d = 0; d < n; ++d) x[d] = 0;
  do {
    int64_t t = 0;
    for (int d = 0; d < n; ++d) t = t * L->nt[d] + tile_of(L, d, x[d]);
    CHECK(NGA_Locate(g, x) == t);
  } while (next(n, x, zero, full));
  /* An inner patch: the tiles it meets in row-major order, clipped. */
  int plo[MAXD], phi[MAXD], tlo[MAXD], thi[MAXD];
  for (int d = 0; d < n; ++d) {
    plo[d] = L->dims[d] > 2 ? 1 : 0;
    phi[d] = L->dims[d] > 2 ? L->dims[d] - 2 : L->dims[d] - 1;
    tlo[d] = c[d] = tile_of(L, d, plo[d]);
    thi[d] = tile_of(L, d, phi[d]);
  }
  int met = 1;
  for (int d = 0; d < n; ++d) met *= thi[d] - tlo[d] + 1;
  int* procs = malloc(sizeof(int) * (size_t)met);
  int* map = malloc(sizeof(int) * 2 * (size_t)n * (size_t)met);
  CHECK(NGA_Locate_region(g, plo, phi, map, procs) == met);
  k = 0;
  do {
    int64_t t = 0;
    for (int d = 0; d < n; ++d) t = t * L->nt[d] + c[d];
    CHECK(procs[k] == t);
    for (int d = 0; d < n; ++d) {
      const int s = L->starts[d][c[d]], e = s + tile_extent(L, d, c[d]) - 1;
      CHECK(map[2 * k * n + d] == (plo[d] > s ? plo[d] : s));
      CHECK(map[(2 * k + 1) * n + d] == (phi[d] < e ? phi[d] : e));
    }
    ++k;
  } while (next(n, c, tlo, thi));
  free(procs);
  free(map);

  /* The process grid: this rank's coordinates, C order and (topology) Fortran order. */
  int p[MAXD], got[MAXD];
  if (grid_coords(L, me, p)) {
    GA_Get_proc_index(g, me, got);
    for (int d = 0; d < n; ++d) CHECK(got[d] == p[d]);
    NGA_Proc_topology(g, me, got);
    for (int d = 0; d < n; ++d) CHECK(got[n - 1 - d] == p[d]);
  }

  /* The memory: f(element) written where the model keeps it, read back whole everywhere. */
  int64_t* at = malloc(sizeof(int64_t) * (size_t)(total + 1));
  const int64_t count = model(L, me, at);
  double* segment = NULL;
  int len = -1;
  GA_Sync();
  NGA_Access_block_segment(g, me, &segment, &len);
  CHECK(len == count);
  for (int64_t i = 0; i < count; ++i) segment[i] = f(at[i]);
  NGA_Release_update_block_segment(g, me);
  GA_Sync();
  double* all = malloc(sizeof(double) * (size_t)total);
  whole(L, g, all);
  for (int64_t i = 0; i < total; ++i) CHECK(all[i] == f(i));
  /* Each tile this rank owns: NGA_Access_block_grid points at its first element, ld as GA's. */
  for (int d = 0; d < n; ++d) c[d] = 0;
  do {
    if (owner(L, c) != me) continue;
    int first[MAXD], ld[MAXD];
    for (int d = 0; d < n; ++d) first[d] = L->starts[d][c[d]];
#ifndef REMORA_GA_H
    /* GA 5.8 points one tile too far on GA_Set_tiled_proc_grid arrays (docs/global-arrays.md) */
    if (L->kind == TILED) continue;
#endif
    double* ptr = NULL;
    NGA_Access_block_grid(g, c, &ptr, ld);
    int64_t i = 0;
    while (at[i] != linear(L, first)) ++i;
    CHECK(ptr == segment + i);
    CHECK(*ptr == f(linear(L, first)));
    for (int d = 0; d + 1 < n; ++d)
      CHECK(ld[d] == (L->kind == SCALAPACK ? local_before(L, d + 1, p[d + 1], L->nt[d + 1])
                                           : tile_extent(L, d + 1, c[d + 1])));
    NGA_Release_block_grid(g, c);
  } while (next(n, c, zero, last));

  /* Accumulates of overlapping patches from every rank, against a serial sum. */
  GA_Zero(g);
  double* expect = calloc((size_t)total, sizeof(double));
  for (int r = 0; r < nprocs; ++r) {
    int ld[MAXD];
    acc_patch(L, r, lo, hi);
    ld_of(L, lo, hi, 0, ld);
    int64_t size = 1;
    for (int d = 0; d < n; ++d) size *= hi[d] - lo[d] + 1;
    double* buf = malloc(sizeof(double) * (size_t)size);
    for (int d = 0; d < n; ++d) x[d] = lo[d];
    do {
      const double v = (double)(r + 1) * f(linear(L, x));
      buf[at_ld(n, lo, x, ld)] = v;
      expect[linear(L, x)] += 2.0 * v;
    } while (next(n, x, lo, hi));
    double alpha = 2.0;
    if (r == me) NGA_Acc(g, lo, hi, buf, ld, &alpha);
    free(buf);
  }
  GA_Sync();
  whole(L, g, all);
  for (int64_t i = 0; i < total; ++i) CHECK(all[i] == expect[i]);
  GA_Sync(); /* every rank has read before the put below changes the array */

  /* A put of an inner patch spanning tiles by the last rank, read back through a padded
   * buffer. */
  {
    int ld[MAXD], pld[MAXD];
    ld_of(L, plo, phi, 0, ld);
    ld_of(L, plo, phi, 3, pld);
    int64_t size = 1, padded = phi[0] - plo[0] + 1;
    for (int d = 0; d < n; ++d) size *= phi[d] - plo[d] + 1;
    for (int d = 0; d + 1 < n; ++d) padded *= pld[d];
    double* buf = malloc(sizeof(double) * (size_t)size);
    double* back = malloc(sizeof(double) * (size_t)padded);
    for (int d = 0; d < n; ++d) x[d] = plo[d];
    do {
      buf[at_ld(n, plo, x, ld)] = -f(linear(L, x));
      expect[linear(L, x)] = -f(linear(L, x));
    } while (next(n, x, plo, phi));
    if (me == nprocs - 1) NGA_Put(g, plo, phi, buf, ld);
    GA_Sync();
    NGA_Get(g, plo, phi, back, pld);
    for (int d = 0; d < n; ++d) x[d] = plo[d];
    do {
      CHECK(back[at_ld(n, plo, x, pld)] == -f(linear(L, x)));
    } while (next(n, x, plo, phi));
    whole(L, g, all);
    for (int64_t i = 0; i < total; ++i) CHECK(all[i] == expect[i]);
    free(buf);
    free(back);
  }

  /* Whole-array operations on a duplicate: d = 2 g^2, and g . d. (GA 5.8 walks a
   * GA_Set_tiled_proc_grid array's local tiles with the misplaced pointers above.) */
#ifndef REMORA_GA_H
  if (L->kind == TILED) goto done;
#endif
  const int dup = GA_Duplicate(g, "dup");
  CHECK(dup != 0);
  CHECK(GA_Compare_distr(g, dup) == 0);
  GA_Copy(g, dup);
  double two = 2.0;
  GA_Scale(dup, &two);
  GA_Elem_multiply(g, dup, dup);
  whole(L, dup, all);
  double dot = 0.0;
  for (int64_t i = 0; i < total; ++i) {
    CHECK(all[i] == 2.0 * expect[i] * expect[i]);
    dot += expect[i] * all[i];
  }
  /* Summed in another order: equal to a relative 1e-12. */
  const double error = GA_Ddot(g, dup) - dot, bound = 1e-12 * (dot < 0 ? -dot : dot);
  CHECK(error <= bound && -error <= bound);
  GA_Destroy(dup);
#ifndef REMORA_GA_H
done:
#endif
  GA_Destroy(g);
  free(at);
  free(all);
  free(expect);
}

/* Records of a registered type on the layout: put whole by rank 0, read back whole by every
 * rank, byte for byte. */
typedef struct {
  double x;
  long n;
  char tag[8];
} Record;

static void check_records(const Layout* L) {
  const int t = NGA_Register_type(sizeof(Record));
  const int g = make(L, t);
  const int64_t total = elements(L);
  int lo[MAXD] = {0}, hi[MAXD], ld[MAXD];
  for (int d = 0; d < L->ndim; ++d) hi[d] = L->dims[d] - 1;
  ld_of(L, lo, hi, 0, ld);
  Record* out = calloc((size_t)total, sizeof(Record));
  Record* back = calloc((size_t)total, sizeof(Record));
  for (int64_t i = 0; i < total; ++i) {
    out[i].x = f(i);
    out[i].n = -(long)i;
    snprintf(out[i].tag, sizeof out[i].tag, "r%ld", (long)(i % 1000));
  }
  if (GA_Nodeid() == 0) NGA_Put(g, lo, hi, out, ld);
  GA_Sync();
  NGA_Get(g, lo, hi, back, ld);
  CHECK(memcmp(out, back, sizeof(Record) * (size_t)total) == 0);
  GA_Destroy(g);
  NGA_Deregister_type(t);
  free(out);
  free(back);
}

/* grid: the prime factors of ranks, largest first, given to dimensions 0, 1, ... in turn. */
static void grid_for(Layout* L, int ranks) {
  int factors[32], count = 0;
  for (int e = 0; e < L->ndim; ++e) L->grid[e] = 1;
  for (int q = 2; ranks > 1; ++q)
    while (ranks % q == 0) factors[count++] = q, ranks /= q;
  for (int i = count - 1, d = 0; i >= 0; --i, ++d) L->grid[d % L->ndim] *= factors[i];
}

static void regular(Layout* L, int kind, int ndim, const int* dims, const int* block) {
  memset(L, 0, sizeof *L);
  L->kind = kind, L->ndim = ndim;
  for (int d = 0; d < ndim; ++d) {
    L->dims[d] = dims[d], L->block[d] = block[d];
    for (int s = 0; s < dims[d]; s += block[d]) L->starts[d][L->nt[d]++] = s;
  }
}

static void irregular(Layout* L, int ndim, const int* dims, const int* nt, const int* starts) {
  memset(L, 0, sizeof *L);
  L->kind = TILED_IRREG, L->ndim = ndim;
  for (int d = 0, m = 0; d < ndim; ++d) {
    L->dims[d] = dims[d], L->nt[d] = nt[d];
    for (int k = 0; k < nt[d]; ++k) L->starts[d][k] = starts[m++];
    L->block[d] = dims[d]; /* no block extent: never short */
  }
}

int main(int argc, char** argv) {
  int me, nprocs;
  ga_test_begin(&argc, &argv, &me, &nprocs);
  const int dims1[] = {23}, block1[] = {4};
  const int dims2[] = {10, 9}, block2[] = {3, 2};
  const int dims3[] = {7, 6, 5}, block3[] = {2, 4, 2};
  const int dims4[] = {5, 4, 3, 6}, block4[] = {2, 3, 2, 4};
  const int idims1[] = {20}, int1[] = {5}, istarts1[] = {0, 5, 6, 12, 15};
  const int int2[] = {5, 4}, istarts2[] = {0, 2, 5, 6, 9, 0, 3, 4, 8};
  const int int3[] = {4, 3, 2}, istarts3[] = {0, 1, 4, 5, 0, 3, 5, 0, 2};
  const int int4[] = {3, 3, 2, 2}, istarts4[] = {0, 2, 3, 0, 1, 3, 0, 2, 0, 4};
  Layout L;
  for (int smaller = 0; smaller < 2; ++smaller) {
#ifndef REMORA_GA_H
    if (smaller) break; /* GA requires a grid of every process */
#endif
    const int ranks = smaller ? (nprocs > 1 ? nprocs / 2 : 1) : nprocs;
    for (int kind = SCALAPACK; kind <= TILED; ++kind) {
      regular(&L, kind, 1, dims1, block1);
      grid_for(&L, ranks);
      check_layout(&L, me, nprocs);
      regular(&L, kind, 2, dims2, block2);
      grid_for(&L, ranks);
      check_layout(&L, me, nprocs);
      regular(&L, kind, 3, dims3, block3);
      grid_for(&L, ranks);
      check_layout(&L, me, nprocs);
      regular(&L, kind, 4, dims4, block4);
      grid_for(&L, ranks);
      check_layout(&L, me, nprocs);
    }
    irregular(&L, 1, idims1, int1, istarts1);
    grid_for(&L, ranks);
    check_layout(&L, me, nprocs);
    irregular(&L, 2, dims2, int2, istarts2);
    grid_for(&L, ranks);
    check_layout(&L, me, nprocs);
    irregular(&L, 3, dims3, int3, istarts3);
    grid_for(&L, ranks);
    check_layout(&L, me, nprocs);
    irregular(&L, 4, dims4, int4, istarts4);
    grid_for(&L, ranks);
    check_layout(&L, me, nprocs);
    check_records(&L);
    regular(&L, SCALAPACK, 3, dims3, block3);
    grid_for(&L, ranks);
    check_records(&L);
    regular(&L, TILED, 3, dims3, block3);
    grid_for(&L, ranks);
    check_records(&L);
  }
  return ga_test_end("grid_nd", me, nprocs);
}
