/* Helpers for the GA test programs: typed elements holding small integers (exact in every
 * type; complex elements hold (v, -v)), a deterministic random sequence, patches, and the
 * serial reference of an array (one long per element, kept identically on every rank). */
#ifndef REMORA_GA_TEST_UTIL_H
#define REMORA_GA_TEST_UTIL_H

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ga.h"
#include "ga_check.h"

static inline size_t elem_size(int type) {
  switch (type) {
    case C_INT:
    case C_FLOAT:
      return 4;
    case C_LONG:
    case C_DBL:
    case F_DBL:
    case C_SCPL:
      return 8;
    case F_INT:
      return sizeof(Integer);
    default:
      return 16;
  }
}

static inline void set_value(int type, void* buf, long i, long v) {
  switch (type) {
    case C_INT:
      ((int*)buf)[i] = (int)v;
      break;
    case C_LONG:
      ((long*)buf)[i] = v;
      break;
    case F_INT:
      ((Integer*)buf)[i] = (Integer)v;
      break;
    case C_FLOAT:
      ((float*)buf)[i] = (float)v;
      break;
    case C_DBL:
    case F_DBL:
      ((double*)buf)[i] = (double)v;
      break;
    case C_SCPL:
      ((SingleComplex*)buf)[i].real = (float)v;
      ((SingleComplex*)buf)[i].imag = (float)-v;
      break;
    default:
      ((DoubleComplex*)buf)[i].real = (double)v;
      ((DoubleComplex*)buf)[i].imag = (double)-v;
      break;
  }
}

/* LONG_MIN when a complex element is not of the form (v, -v). */
static inline long get_value(int type, const void* buf, long i) {
  switch (type) {
    case C_INT:
      return ((const int*)buf)[i];
    case C_LONG:
      return ((const long*)buf)[i];
    case F_INT:
      return (long)((const Integer*)buf)[i];
    case C_FLOAT:
      return (long)((const float*)buf)[i];
    case C_DBL:
    case F_DBL:
      return (long)((const double*)buf)[i];
    case C_SCPL: {
      SingleComplex z = ((const SingleComplex*)buf)[i];
      return z.imag == -z.real ? (long)z.real : LONG_MIN;
    }
    default: {
      DoubleComplex z = ((const DoubleComplex*)buf)[i];
      return z.imag == -z.real ? (long)z.real : LONG_MIN;
    }
  }
}

static uint64_t rng_state = 88172645463325252ull;
static inline void rng_seed(uint64_t seed) {
  rng_state = seed * 2654435761ull + 1;
}
static inline long rng(long n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (long)(rng_state % (uint64_t)n);
}

/* A patch lo..hi of an array with dims, and a buffer for it with leading dimensions
 * ld[d] = extent(d+1) + pad. */
typedef struct {
  int ndim;
  int lo[GA_MAX_DIM], hi[GA_MAX_DIM], ld[GA_MAX_DIM];
  long count, buffer_elems;
} Patch;

static inline Patch random_patch(int ndim, const int* dims, int pad) {
  /* Designated: the dimensions past ndim are zero, so copies of p read no indeterminate values. */
  Patch p = {.ndim = ndim, .count = 1};
  for (int d = 0; d < ndim; ++d) {
    p.lo[d] = (int)rng(dims[d]);
    p.hi[d] = p.lo[d] + (int)rng(dims[d] - p.lo[d]);
    p.count *= p.hi[d] - p.lo[d] + 1;
  }
  p.buffer_elems = p.hi[0] - p.lo[0] + 1;
  for (int d = 0; d + 1 < ndim; ++d) {
    p.ld[d] = p.hi[d + 1] - p.lo[d + 1] + 1 + pad;
    p.buffer_elems *= p.ld[d];
  }
  return p;
}

static inline Patch whole(int ndim, const int* dims) {
  Patch p = {.ndim = ndim, .count = 1};
  for (int d = 0; d < ndim; ++d) {
    p.lo[d] = 0;
    p.hi[d] = dims[d] - 1;
    p.count *= dims[d];
    if (d + 1 < ndim) p.ld[d] = dims[d + 1];
  }
  p.buffer_elems = p.count;
  return p;
}

/* Element k of the patch (row-major): its flat index in the array and offset in the buffer. */
static inline void patch_element(const Patch* p, const int* dims, long k, long* global,
                                 long* offset) {
  long g = 0, o = 0, rest = k, gstride = 1, bstride = 1;
  for (int d = p->ndim - 1; d >= 0; --d) {
    const long extent = p->hi[d] - p->lo[d] + 1, i = rest % extent;
    rest /= extent;
    g += (p->lo[d] + i) * gstride;
    o += i * bstride;
    gstride *= dims[d];
    bstride *= d > 0 ? p->ld[d - 1] : 1;
  }
  *global = g;
  *offset = o;
}

static inline void to_int64(const int* in, int n, int64_t* out) {
  for (int i = 0; i < n; ++i) out[i] = in[i];
}

/* The same patch for the *64 functions. */
typedef struct {
  int64_t lo[GA_MAX_DIM], hi[GA_MAX_DIM], ld[GA_MAX_DIM];
} Patch64;
static inline Patch64 patch64(const Patch* p) {
  Patch64 q;
  to_int64(p->lo, p->ndim, q.lo);
  to_int64(p->hi, p->ndim, q.hi);
  to_int64(p->ld, p->ndim - 1, q.ld);
  return q;
}

#endif /* REMORA_GA_TEST_UTIL_H */
