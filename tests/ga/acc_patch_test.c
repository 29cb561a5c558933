/* Concurrent patch accumulates: every rank accumulates patches (1-d, 2-d and 3-d, padded
 * leading dimensions, some inside one owner's block, some straddling owners and lock-table
 * stripes), single elements (1x1 NGA_Acc) and element lists (NGA_Scatter_acc) into the same
 * hot region of one array at the same time, for every element type including complex with a
 * complex alpha. Each rank replays every rank's operations into a serial reference (two longs
 * per element: real and imaginary parts); after GA_Sync the array must equal it exactly, so a
 * lost or torn update fails. Run with several lock-table geometries and strategies
 * (CMakeLists.txt) so that the strided in-place path and its fallbacks all run. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ga.h"
#include "ga_check.h"
#include "ga_test_util.h"
#include "macdecls.h"

enum { kIterations = 120, kMaxEdge = 16 };

static int nprocs, me;

static int is_complex(int type) {
  return type == C_SCPL || type == C_DCPL;
}

/* Element i of a typed buffer set to (re, im); im is dropped for real types. */
static void store(int type, void* buf, long i, long re, long im) {
  switch (type) {
    case C_SCPL:
      ((SingleComplex*)buf)[i].real = (float)re;
      ((SingleComplex*)buf)[i].imag = (float)im;
      break;
    case C_DCPL:
      ((DoubleComplex*)buf)[i].real = (double)re;
      ((DoubleComplex*)buf)[i].imag = (double)im;
      break;
    default:
      set_value(type, buf, i, re);
  }
}

/* Element i as (re, im); 1 when its parts are whole numbers. */
static int load(int type, const void* buf, long i, long* re, long* im) {
  double r = 0, m = 0;
  switch (type) {
    case C_SCPL:
      r = ((const SingleComplex*)buf)[i].real;
      m = ((const SingleComplex*)buf)[i].imag;
      break;
    case C_DCPL:
      r = ((const DoubleComplex*)buf)[i].real;
      m = ((const DoubleComplex*)buf)[i].imag;
      break;
    case C_FLOAT:
      r = ((const float*)buf)[i];
      break;
    case C_DBL:
      r = ((const double*)buf)[i];
      break;
    default:
      *re = get_value(type, buf, i);
      *im = 0;
      return 1;
  }
  *re = (long)r;
  *im = (long)m;
  return (double)*re == r && (double)*im == m;
}

typedef struct {
  int ndim;
  int dims[3];
  long* re; /* the reference, row-major */
  long* im;
} Ref;

static long flat(const Ref* ref, const int* at) {
  long k = 0;
  for (int d = 0; d < ref->ndim; ++d) k = k * ref->dims[d] + at[d];
  return k;
}

/* One operation of rank r at iteration it: chosen from (r, it) alone, so every rank replays
 * every rank's operations identically; performed when r is this rank. */
static void operation(int g_a, int type, Ref* ref, int r, int it, void* buf) {
  rng_seed((uint64_t)(r * 1000003 + it * 7919 + type * 131 + ref->ndim));
  const int ndim = ref->ndim;
  const long kind = rng(8); /* 0-4: patch, 5: wide patch, 6: 1x1, 7: element list */
  long alpha_re = 1 + rng(3), alpha_im = is_complex(type) ? rng(3) - 1 : 0;
  char alpha[16];
  store(type, alpha, 0, alpha_re, alpha_im);
  int lo[3], hi[3], ld[2];
  if (kind == 7) { /* three distinct elements of the hot region (the middle of each dimension) */
    int subs[3][3];
    int* subs_ptr[3] = {subs[0], subs[1], subs[2]};
    for (int e = 0; e < 3; ++e)
      for (int d = 0; d < ndim; ++d) {
        const int mid = ref->dims[d] / 2;
        subs[e][d] = d == 0 ? (mid - 1 + e) % ref->dims[d] : mid;
      }
    for (int e = 0; e < 3; ++e) {
      const long v = 1 + (e + r + it) % 4, w = (e * 3 + r) % 3 - 1;
      store(type, buf, e, v, is_complex(type) ? w : 0);
      const long k = flat(ref, subs[e]);
      ref->re[k] += alpha_re * v - alpha_im * (is_complex(type) ? w : 0);
      ref->im[k] += is_complex(type) ? alpha_re * w + alpha_im * v : 0;
    }
    if (r == me) NGA_Scatter_acc(g_a, buf, subs_ptr, 3, alpha);
    return;
  }
  long extent[3];
  for (int d = 0; d < ndim; ++d) {
    const int n = ref->dims[d], mid = n / 2;
    long e = kind == 6 ? 1 : kind == 5 ? n - rng(n / 2 + 1) : 1 + rng(n < kMaxEdge ? n : kMaxEdge);
    long start = kind == 5 ? rng(n - e + 1) : mid - rng(e + 1);
    if (start < 0) start = 0;
    if (start + e > n) start = n - e;
    lo[d] = (int)start;
    hi[d] = (int)(start + e - 1);
    extent[d] = e;
  }
  const int pad = (int)rng(3);
  for (int d = 0; d + 1 < ndim; ++d) ld[d] = (int)extent[d + 1] + (d == ndim - 2 ? pad : 0);
  long count = 1;
  for (int d = 0; d < ndim; ++d) count *= extent[d];
  int at[3] = {0, 0, 0};
  for (long k = 0; k < count; ++k) {
    long offset = 0; /* into the buffer, with its leading dimensions */
    for (int d = 0; d < ndim; ++d) offset = d == 0 ? at[0] : offset * ld[d - 1] + at[d];
    const long v = 1 + (k + r + it) % 4, w = (k * 3 + r) % 3 - 1;
    store(type, buf, offset, v, is_complex(type) ? w : 0);
    int global[3];
    for (int d = 0; d < ndim; ++d) global[d] = lo[d] + at[d];
    const long g = flat(ref, global);
    ref->re[g] += alpha_re * v - alpha_im * (is_complex(type) ? w : 0);
    ref->im[g] += is_complex(type) ? alpha_re * w + alpha_im * v : 0;
    for (int d = ndim - 1; d >= 0 && ++at[d] == extent[d]; --d) at[d] = 0;
  }
  if (r == me) NGA_Acc(g_a, lo, hi, buf, ndim > 1 ? ld : NULL, alpha);
}

static void run(int type, int ndim, const int* dims) {
  Ref ref = {ndim, {1, 1, 1}, NULL, NULL};
  long n = 1;
  for (int d = 0; d < ndim; ++d) ref.dims[d] = dims[d], n *= dims[d];
  ref.re = calloc((size_t)n, sizeof(long));
  ref.im = calloc((size_t)n, sizeof(long));
  int g_dims[3] = {dims[0], ndim > 1 ? dims[1] : 0, ndim > 2 ? dims[2] : 0};
  const int g_a = NGA_Create(type, ndim, g_dims, "acc_patch", NULL);
  CHECK(g_a != 0);
  GA_Zero(g_a);
  /* big enough for the widest patch with padding */
  void* buf = calloc((size_t)(n + 4 * n / dims[0] + 64), 16);
  CHECK(ref.re != NULL && ref.im != NULL && buf != NULL);
  for (int it = 0; it < kIterations; ++it)
    for (int r = 0; r < nprocs; ++r) operation(g_a, type, &ref, r, it, buf);
  GA_Sync();
  int lo[3] = {0, 0, 0}, hi[3], ld[2];
  for (int d = 0; d < ndim; ++d) hi[d] = dims[d] - 1;
  for (int d = 0; d + 1 < ndim; ++d) ld[d] = dims[d + 1];
  NGA_Get(g_a, lo, hi, buf, ld);
  long wrong = 0;
  for (long k = 0; k < n; ++k) {
    long re = 0, im = 0;
    const int whole = load(type, buf, k, &re, &im);
    if (!whole || re != ref.re[k] || im != ref.im[k]) {
      if (wrong++ < 5)
        fprintf(stderr, "rank %d: type %d, %d-d: element %ld is (%ld, %ld), expected (%ld, %ld)\n",
                me, type, ndim, k, re, im, ref.re[k], ref.im[k]);
    }
  }
  CHECK(wrong == 0);
  GA_Sync();
  GA_Destroy(g_a);
  free(buf);
  free(ref.re);
  free(ref.im);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  MA_init(C_DBL, 1000000, 1000000);
  nprocs = GA_Nnodes();
  me = GA_Nodeid();
  const int types[] = {C_INT, C_LONG, C_FLOAT, C_DBL, C_SCPL, C_DCPL};
  const int dims1[1] = {700}, dims2[2] = {40, 300}, dims3[3] = {6, 10, 50};
  for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
    run(types[t], 1, dims1);
    run(types[t], 2, dims2);
    run(types[t], 3, dims3);
  }
  if (me == 0) printf("acc_patch: %d ranks passed\n", nprocs);
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
