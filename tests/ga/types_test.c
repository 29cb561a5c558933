/* User-defined types and fields (NGA_Register_type, NGA_Deregister_type, NGA_Get_field,
 * NGA_Put_field, NGA_Nbget_field, NGA_Nbput_field): arrays of a 24-byte record and of a 13-byte
 * type, whole elements written by one rank, fields written by others (blocking and
 * nonblocking), read back by every rank and compared byte for byte with a serial reference, so
 * the bytes outside each field must survive. 2-d patches with a buffer wider than the patch run
 * on Remora only (GA 5.8 misplaces the rows of a 2-d field transfer: docs/global-arrays.md).
 * With an argument, a misuse that must end the job with GA_Error's message (misuse()). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

typedef struct {
  int id;
  double x;
  char tag[5];
} record; /* 24 bytes: 4 of padding after id, 3 after tag */

static int me, nprocs;

/* The reference value of byte b of element i after the first whole-element put. */
static unsigned char initial(int i, int b) {
  return (unsigned char)(i * 31 + b * 7 + 1);
}
/* The value a field put gives byte b of element i (round: which put). */
static unsigned char written(int round, int i, int b) {
  return (unsigned char)(round * 59 + i * 13 + b * 3 + 5);
}

/* 1-d array of n elements of size bytes: rank 0 puts every element; then rank r puts field
 * (foff, fsize) of the elements i with i % nprocs == r one patch at a time, blocking for even
 * i and nonblocking for odd ones; every rank then gets every element whole and by field. */
static void one_dim(int type, int size, int foff, int fsize) {
  const int n = 4 * nprocs + 3;
  int dims[1] = {n};
  int g = NGA_Create(type, 1, dims, "records", NULL);
  CHECK(g != 0);
  int itype = 0, ndim = 0, idims[1] = {0};
  NGA_Inquire(g, &itype, &ndim, idims);
  CHECK(itype == type && ndim == 1 && idims[0] == n);
  unsigned char* ref = malloc((size_t)n * size);
  unsigned char* buf = malloc((size_t)n * size);
  for (int i = 0; i < n; ++i)
    for (int b = 0; b < size; ++b) ref[i * size + b] = initial(i, b);
  if (me == 0) {
    int lo[1] = {0}, hi[1] = {n - 1};
    NGA_Put(g, lo, hi, ref, NULL);
  }
  GA_Sync();
  ga_nbhdl_t handle;
  int nb = 0;
  unsigned char field_values[64 * 64];
  for (int i = me; i < n; i += nprocs) {
    unsigned char* mine = field_values + (size_t)nb * fsize;
    for (int b = 0; b < fsize; ++b) mine[b] = written(1, i, b);
    int lo[1] = {i}, hi[1] = {i};
    if (i % 2 == 0) {
      NGA_Put_field(g, lo, hi, foff, fsize, mine, NULL);
    } else {
      NGA_Nbput_field(g, lo, hi, foff, fsize, mine, NULL, &handle);
      NGA_NbWait(&handle);
    }
    ++nb;
  }
  for (int i = 0; i < n; ++i)
    for (int b = 0; b < fsize; ++b) ref[i * size + foff + b] = written(1, i, b);
  GA_Sync();
  int lo[1] = {0}, hi[1] = {n - 1};
  memset(buf, 0, (size_t)n * size);
  NGA_Get(g, lo, hi, buf, NULL);
  CHECK(memcmp(buf, ref, (size_t)n * size) == 0);
  /* The field alone, packed: fsize bytes per element. */
  memset(buf, 0, (size_t)n * size);
  NGA_Get_field(g, lo, hi, foff, fsize, buf, NULL);
  for (int i = 0; i < n; ++i)
    for (int b = 0; b < fsize; ++b) CHECK(buf[i * fsize + b] == written(1, i, b));
  /* The bytes before the field, nonblocking, from a patch in the middle. */
  if (foff > 0) {
    int mlo[1] = {1}, mhi[1] = {n - 2};
    memset(buf, 0, (size_t)n * size);
    NGA_Nbget_field(g, mlo, mhi, 0, foff, buf, NULL, &handle);
    NGA_NbWait(&handle);
    for (int i = 1; i <= n - 2; ++i)
      for (int b = 0; b < foff; ++b) CHECK(buf[(i - 1) * foff + b] == initial(i, b));
  }
  GA_Sync();
  GA_Destroy(g);
  free(ref);
  free(buf);
}

#ifdef REMORA_GA_TYPES_2D_FIELDS
/* 2-d: a 6 x 5 array of 13-byte elements; each rank puts field (2, 4) of its own rows of the
 * patch [1..4][1..3] from a buffer 5 elements wide, then every rank gets field (7, 6) and the
 * whole array, compared with the reference. */
static void two_dim(int type) {
  enum { R = 6, C = 5, S = 13 };
  int dims[2] = {R, C};
  int g = NGA_Create(type, 2, dims, "odd", NULL);
  unsigned char ref[R * C * S], buf[R * C * S], field[R * C * S];
  for (int i = 0; i < R * C; ++i)
    for (int b = 0; b < S; ++b) ref[i * S + b] = initial(i, b);
  if (me == nprocs - 1) {
    int lo[2] = {0, 0}, hi[2] = {R - 1, C - 1}, ld[1] = {C};
    NGA_Put(g, lo, hi, ref, ld);
  }
  GA_Sync();
  for (int r = 1; r <= 4; ++r) {
    for (int c = 1; c <= 3; ++c)
      for (int b = 0; b < 4; ++b) {
        const unsigned char v = written(2, r * C + c, b);
        field[((r - 1) * 5 + (c - 1)) * 4 + b] = v; /* buffer rows 5 elements wide */
        ref[(r * C + c) * S + 2 + b] = v;
      }
  }
  for (int r = 1 + me; r <= 4; r += nprocs) {
    int lo[2] = {r, 1}, hi[2] = {r, 3}, ld[1] = {5};
    NGA_Put_field(g, lo, hi, 2, 4, field + (size_t)(r - 1) * 5 * 4, ld);
  }
  GA_Sync();
  int lo[2] = {0, 0}, hi[2] = {R - 1, C - 1}, ld[1] = {C};
  NGA_Get(g, lo, hi, buf, ld);
  CHECK(memcmp(buf, ref, sizeof ref) == 0);
  int plo[2] = {2, 1}, phi[2] = {5, 4}, pld[1] = {7};
  ga_nbhdl_t handle;
  memset(field, 0, sizeof field);
  NGA_Nbget_field(g, plo, phi, 7, 6, field, pld, &handle);
  NGA_NbWait(&handle);
  for (int r = 2; r <= 5; ++r)
    for (int c = 1; c <= 4; ++c)
      for (int b = 0; b < 6; ++b)
        CHECK(field[((r - 2) * 7 + (c - 1)) * 6 + b] == ref[(r * C + c) * S + 7 + b]);
  GA_Sync();
  GA_Destroy(g);
}
#endif

static void misuse(const char* mode, int type) {
  int dims[1] = {8}, lo[1] = {0}, hi[1] = {3};
  char buf[8 * 32];
  int g = NGA_Create(type, 1, dims, "a", NULL);
  if (strcmp(mode, "bytes") == 0) NGA_Register_type(0);
  if (strcmp(mode, "foff") == 0) NGA_Get_field(g, lo, hi, -1, 4, buf, NULL);
  if (strcmp(mode, "fsize") == 0) NGA_Put_field(g, lo, hi, 0, 0, buf, NULL);
  if (strcmp(mode, "beyond") == 0) NGA_Get_field(g, lo, hi, 20, 8, buf, NULL);
  if (strcmp(mode, "handle") == 0) NGA_Get_field(12345, lo, hi, 0, 4, buf, NULL);
  if (strcmp(mode, "acc") == 0) {
    int alpha = 1;
    NGA_Acc(g, lo, hi, buf, NULL, &alpha);
  }
  if (strcmp(mode, "builtin") == 0) {
    int d = NGA_Create(C_DCPL, 1, dims, "z", NULL);
    NGA_Get_field(d, lo, hi, 8, 8, buf, NULL); /* the imaginary parts */
  }
  fprintf(stderr, "misuse '%s' did not end the job\n", mode);
  MPI_Abort(MPI_COMM_WORLD, 3);
}

int main(int argc, char** argv) {
  ga_test_begin(&argc, &argv, &me, &nprocs);
  const int t_record = NGA_Register_type(sizeof(record));
  const int t_odd = NGA_Register_type(13);
  CHECK(t_record == 1017 && t_odd == 1018); /* GA numbers them after C_LONGLONG */
  if (argc > 1) misuse(argv[1], t_record);
  /* Deregistering: 0, then -2 (no longer registered); -1 for a built-in code; the freed code
   * is handed out again first. */
  const int t_tmp = NGA_Register_type(3);
  CHECK(t_tmp == 1019);
  CHECK(NGA_Deregister_type(t_record) == 0);
  CHECK(NGA_Deregister_type(t_record) == -2);
  CHECK(NGA_Deregister_type(C_DBL) == -1);
  CHECK(NGA_Register_type(sizeof(record)) == t_record);
  /* An array outlives its type's registration (GA keeps the element size per array). */
  {
    int dims[1] = {2 * nprocs}, lo[1] = {0}, hi[1] = {2 * nprocs - 1};
    int g = NGA_Create(t_tmp, 1, dims, "three", NULL);
    CHECK(NGA_Deregister_type(t_tmp) == 0);
    unsigned char in[3 * 64], out[3 * 64];
    for (int i = 0; i < 3 * dims[0]; ++i) in[i] = initial(i, 1);
    if (me == 0) NGA_Put(g, lo, hi, in, NULL);
    GA_Sync();
    NGA_Get_field(g, lo, hi, 1, 2, out, NULL);
    for (int i = 0; i < dims[0]; ++i)
      CHECK(out[2 * i] == in[3 * i + 1] && out[2 * i + 1] == in[3 * i + 2]);
    GA_Sync();
    GA_Destroy(g);
  }

  one_dim(t_record, (int)sizeof(record), 8, 8);  /* the double x */
  one_dim(t_record, (int)sizeof(record), 16, 5); /* tag; the padding after it is kept */
  one_dim(t_record, (int)sizeof(record), 0, 24); /* the whole element as one field */
  one_dim(t_odd, 13, 3, 7);
  one_dim(t_odd, 13, 12, 1);
#ifdef REMORA_GA_TYPES_2D_FIELDS
  two_dim(t_odd);
#endif
  /* A built-in type's field is a whole element there. */
  {
    int dims[1] = {5}, lo[1] = {1}, hi[1] = {3};
    int g = NGA_Create(C_DBL, 1, dims, "d", NULL);
    double in[3] = {1.5, -2.25, 8.0}, out[3] = {0, 0, 0};
    if (me == 0) NGA_Put_field(g, lo, hi, 0, sizeof(double), in, NULL);
    GA_Sync();
    NGA_Get(g, lo, hi, out, NULL);
    CHECK(out[0] == 1.5 && out[1] == -2.25 && out[2] == 8.0);
    GA_Sync();
    GA_Destroy(g);
  }
  CHECK(NGA_Deregister_type(t_record) == 0 && NGA_Deregister_type(t_odd) == 0);
  return ga_test_end("types", me, nprocs);
}
