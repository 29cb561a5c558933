/* GA_Overlay / NGA_Overlay and GA_Assemble_duplicate: arrays on memory that is not their own.
 * An overlay of a parent's shape and type shows the parent's elements, writes through either
 * handle are read through the other, and its blocks start where the parent's do (the same
 * pointer from NGA_Access); a smaller overlay of another type (one C_INT per rank) reads the
 * first bytes of each rank's block of the parent; an overlay larger than its parent on some
 * rank returns 0 and its handle is gone. An array assembled on GA_Getmem's memory puts its
 * block, row-major, at the memory's start on every rank, and local stores into the memory are
 * read through the array. The same checks pass on GA 5.8 (tools/ga-reference-run.sh); what GA
 * cannot do (destroying the parent before the overlay, then using the overlay) runs on Remora
 * only, under #ifdef REMORA_GA_H. */
#include <mpi.h>
#include <string.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

enum { ROWS = 8, COLS = 6 };

static int me, nprocs;

static double value(int i, int j, double shift) {
  return 100.0 * i + j + shift;
}

/* Rank 0 writes the whole array through g (value(i, j, shift)); every rank then reads it through
 * h and checks it. Collective. */
static void write_and_read(int g, int h, double shift) {
  int lo[2] = {0, 0}, hi[2] = {ROWS - 1, COLS - 1}, ld[1] = {COLS};
  double buf[ROWS][COLS];
  if (me == 0) {
    for (int i = 0; i < ROWS; ++i)
      for (int j = 0; j < COLS; ++j) buf[i][j] = value(i, j, shift);
    NGA_Put(g, lo, hi, buf, ld);
  }
  GA_Sync();
  memset(buf, 0, sizeof buf);
  NGA_Get(h, lo, hi, buf, ld);
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) CHECK(buf[i][j] == value(i, j, shift));
  GA_Sync();
}

/* A handle with a shape and type, not allocated yet. */
static int handle(int ndim, int* dims, int type, char* name) {
  const int g = GA_Create_handle();
  GA_Set_data(g, ndim, dims, type);
  GA_Set_array_name(g, name);
  return g;
}

/* This rank's block of g (2-d) through NGA_Access: its pointer, after checking its bounds. */
static double* own_block(int g, int lo[2], int hi[2]) {
  NGA_Distribution(g, me, lo, hi);
  CHECK(lo[0] <= hi[0] && lo[1] <= hi[1]); /* every rank holds a block of ROWS x COLS at <= 4 */
  double* p = NULL;
  int ld[1] = {0};
  NGA_Access(g, lo, hi, &p, ld);
  CHECK(p != NULL && ld[0] == hi[1] - lo[1] + 1);
  return p;
}

static void same_shape_overlay(void) {
  int dims[2] = {ROWS, COLS};
  const int g_p = NGA_Create(C_DBL, 2, dims, "parent", NULL);
  write_and_read(g_p, g_p, 0.5);
#ifdef REMORA_GA_H
  /* Larger than the parent on some rank: 0, and the handle is gone. (Remora only: GA 5.8
     returns 0, then its destruction of the handle fails in ARMCI_Free, "Invalid shared
     pointer".) */
  int big_dims[2] = {2 * ROWS, COLS};
  const int g_big = handle(2, big_dims, C_DBL, "too big");
  CHECK(GA_Overlay(g_big, g_p) == 0);
  CHECK(GA_Valid_handle(g_big) == 0);
#endif
  const int g_a = handle(2, dims, C_DBL, "overlay");
  CHECK(GA_Overlay(g_a, g_p) == 1);
  /* The parent's values, through the overlay; then each handle's writes through the other. */
  int lo[2], hi[2], ld[1] = {COLS};
  double buf[ROWS][COLS];
  int all_lo[2] = {0, 0}, all_hi[2] = {ROWS - 1, COLS - 1};
  NGA_Get(g_a, all_lo, all_hi, buf, ld);
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) CHECK(buf[i][j] == value(i, j, 0.5));
  GA_Sync();
  write_and_read(g_a, g_p, 0.25);
  write_and_read(g_p, g_a, 0.75);
  /* The same memory: NGA_Access of this rank's block gives one pointer through both. */
  int plo[2], phi[2];
  double* parent_block = own_block(g_p, plo, phi);
  double* overlay_block = own_block(g_a, lo, hi);
  CHECK(parent_block == overlay_block);
  CHECK(lo[0] == plo[0] && hi[0] == phi[0] && lo[1] == plo[1] && hi[1] == phi[1]);
  NGA_Release(g_a, lo, hi);
  NGA_Release(g_p, plo, phi);
  /* Destroying the overlay leaves the parent with what was written through it. */
  write_and_read(g_a, g_a, 1.5);
  GA_Destroy(g_a);
  NGA_Get(g_p, all_lo, all_hi, buf, ld);
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) CHECK(buf[i][j] == value(i, j, 1.5));
  GA_Sync();

  /* NGA_Overlay, another type and shape: one int per rank, at the start of its parent block. */
  int per_rank[1] = {nprocs};
  const int g_i = handle(1, per_rank, C_INT, "ints");
  CHECK(NGA_Overlay(g_i, g_p) == 1);
  int mine[1] = {me}, mine_hi[1] = {me};
  int stamp = 1000 + me;
  NGA_Put(g_i, mine, mine_hi, &stamp, NULL);
  GA_Sync();
  double* block = own_block(g_p, plo, phi);
  int first = 0;
  memcpy(&first, block, sizeof first);
  CHECK(first == 1000 + me);
  NGA_Release(g_p, plo, phi);
  GA_Sync();
  /* The rest of the parent's block is untouched. */
  NGA_Get(g_p, all_lo, all_hi, buf, ld);
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) {
      int owner_first = 0;
      for (int r = 0; r < nprocs; ++r) {
        int rlo[2], rhi[2];
        NGA_Distribution(g_p, r, rlo, rhi);
        if (rlo[0] == i && rlo[1] == j) owner_first = 1;
      }
      if (!owner_first) CHECK(buf[i][j] == value(i, j, 1.5));
    }
  GA_Sync();

#ifdef REMORA_GA_H
  /* Remora only (GA frees the parent's memory under the overlay): the parent destroyed first,
     the overlay keeps the memory. */
  GA_Destroy(g_p);
  NGA_Put(g_i, mine, mine_hi, &stamp, NULL);
  GA_Sync();
  int all = 0, every_lo[1] = {0}, every_hi[1] = {nprocs - 1}, got[64];
  NGA_Get(g_i, every_lo, every_hi, got, NULL);
  for (int r = 0; r < nprocs; ++r) all += got[r] == 1000 + r;
  CHECK(all == nprocs);
  GA_Sync();
  GA_Destroy(g_i);
#else
  GA_Destroy(g_i);
  GA_Destroy(g_p);
#endif
}

static void assembled(void) {
  int dims[2] = {ROWS, COLS};
  const int g_a = NGA_Create(C_DBL, 2, dims, "shape", NULL);
  int lo[2], hi[2];
  NGA_Distribution(g_a, me, lo, hi);
  const int rows = hi[0] - lo[0] + 1, cols = hi[1] - lo[1] + 1;
  double* memory = GA_Getmem(C_DBL, rows * cols, 0);
  CHECK(memory != NULL);
  const int g_b = GA_Assemble_duplicate(g_a, "assembled", memory);
  CHECK(g_b != 0 && g_b != g_a && GA_Valid_handle(g_b));
  int type = 0, ndim = 0, got_dims[2] = {0, 0};
  NGA_Inquire(g_b, &type, &ndim, got_dims);
  CHECK(type == C_DBL && ndim == 2 && got_dims[0] == ROWS && got_dims[1] == COLS);
  int blo[2], bhi[2];
  NGA_Distribution(g_b, me, blo, bhi);
  CHECK(blo[0] == lo[0] && bhi[0] == hi[0] && blo[1] == lo[1] && bhi[1] == hi[1]);
  /* Written through the array: this rank's block, row-major, at the memory's start. */
  write_and_read(g_b, g_b, 2.5);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) CHECK(memory[i * cols + j] == value(lo[0] + i, lo[1] + j, 2.5));
  /* Stored into the memory: read through the array. */
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) memory[i * cols + j] = value(lo[0] + i, lo[1] + j, 3.25);
  GA_Sync();
  int all_lo[2] = {0, 0}, all_hi[2] = {ROWS - 1, COLS - 1}, ld[1] = {COLS};
  double buf[ROWS][COLS];
  NGA_Get(g_b, all_lo, all_hi, buf, ld);
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) CHECK(buf[i][j] == value(i, j, 3.25));
  GA_Sync();
  /* As in GA, the assembled array owns the memory: destroying it frees the memory, and
     GA_Freemem is not called. */
  GA_Destroy(g_b);
  GA_Destroy(g_a);
}

/* Misuse ends the job with a message naming the argument (registered with EXPECT_FAILURE). */
static void misuse(const char* mode) {
  int dims[2] = {ROWS, COLS}, width[2] = {1, 1};
  const int g_p = NGA_Create(C_DBL, 2, dims, "parent", NULL);
  if (strcmp(mode, "allocated") == 0) {
    GA_Overlay(NGA_Create(C_DBL, 2, dims, "a", NULL), g_p);
  } else if (strcmp(mode, "parent") == 0) {
    GA_Overlay(handle(2, dims, C_DBL, "a"), 12345);
  } else if (strcmp(mode, "no_shape") == 0) {
    GA_Overlay(GA_Create_handle(), g_p);
  } else if (strcmp(mode, "group") == 0) { /* g_a on a group of the same ranks, not the world */
    int all[64];
    for (int r = 0; r < nprocs; ++r) all[r] = r;
    const int group = GA_Pgroup_create(all, nprocs);
    const int g_a = handle(2, dims, C_DBL, "a");
    GA_Set_pgroup(g_a, group);
    GA_Overlay(g_a, g_p);
  } else if (strcmp(mode, "ghosts") == 0) {
    const int g_a = handle(2, dims, C_DBL, "a");
    GA_Set_ghosts(g_a, width);
    GA_Overlay(g_a, g_p);
  } else if (strcmp(mode, "ptr") == 0) {
    double elsewhere[4];
    GA_Assemble_duplicate(g_p, "b", elsewhere);
  } else if (strcmp(mode, "small") == 0) { /* one element per rank */
    GA_Assemble_duplicate(g_p, "b", GA_Getmem(C_DBL, 1, 0));
  } else if (strcmp(mode, "freemem") == 0) { /* the assembled array owns the memory */
    double* memory = GA_Getmem(C_DBL, ROWS * COLS, 0);
    GA_Assemble_duplicate(g_p, "b", memory);
    GA_Freemem(memory);
  }
  fprintf(stderr, "misuse '%s' was accepted\n", mode);
}

int main(int argc, char** argv) {
  ga_test_begin(&argc, &argv, &me, &nprocs);
  if (argc > 1) {
    misuse(argv[1]);
    GA_Terminate();
    MPI_Finalize();
    return 0; /* the expected-failure test fails: the job should have ended */
  }
  CHECK(nprocs <= 64);
  same_shape_overlay();
  assembled();
  return ga_test_end("overlay", me, nprocs);
}
