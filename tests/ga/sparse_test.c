/* GA_Pack / GA_Unpack / GA_Scan_add (inclusive and exclusive) / GA_Scan_copy and their *64
 * twins against a serial reference, for integer, real and complex arrays with integer and real
 * masks, over whole arrays and sub-ranges, with masks whose first set element lies inside the
 * range (before it, Scan_add leaves the destination unchanged and Scan_copy zeroes it, as GA
 * 5.8 does) and dense and sparse masks. Also valid for GA itself (tools/ga-reference-run.sh). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

enum { N = 53 };

/* Element i of a typed buffer from / to a double (complex: (v, -v) and the real part). */
static void store(int type, void* buf, int i, double v) {
  switch (type) {
    case C_INT:
      ((int*)buf)[i] = (int)v;
      break;
    case C_LONG:
      ((long*)buf)[i] = (long)v;
      break;
    case C_FLOAT:
      ((float*)buf)[i] = (float)v;
      break;
    case C_DBL:
      ((double*)buf)[i] = v;
      break;
    default:
      ((DoubleComplex*)buf)[i].real = v;
      ((DoubleComplex*)buf)[i].imag = -v;
  }
}

static double load(int type, const void* buf, int i, double* imag) {
  *imag = 0;
  switch (type) {
    case C_INT:
      return ((const int*)buf)[i];
    case C_LONG:
      return (double)((const long*)buf)[i];
    case C_FLOAT:
      return ((const float*)buf)[i];
    case C_DBL:
      return ((const double*)buf)[i];
    default:
      *imag = ((const DoubleComplex*)buf)[i].imag;
      return ((const DoubleComplex*)buf)[i].real;
  }
}

static int create_filled(int type, const double* values, const char* name) {
  int dims[1] = {N}, lo[1] = {0}, hi[1] = {N - 1};
  int g = NGA_Create(type, 1, dims, (char*)name, NULL);
  if (GA_Nodeid() == 0) {
    char buf[N * 16];
    for (int i = 0; i < N; i++) store(type, buf, i, values[i]);
    NGA_Put(g, lo, hi, buf, NULL);
  }
  GA_Sync();
  return g;
}

static void expect(int g, int type, const double* want, const char* what) {
  char buf[N * 16];
  int lo[1] = {0}, hi[1] = {N - 1};
  NGA_Get(g, lo, hi, buf, NULL);
  for (int i = 0; i < N; i++) {
    double imag, v = load(type, buf, i, &imag);
    int is_complex = type == C_DCPL;
    if (v != want[i] || (is_complex && imag != -want[i])) {
      fprintf(stderr, "rank %d: %s (type %d): element %d is %g%+gi, want %g\n", GA_Nodeid(), what,
              type, i, v, imag, want[i]);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
}

static void run(int type, int mask_type, int lo, int hi, int q, int mask_lo) {
  double src[N], mask[N], ref[N], prefill[N];
  for (int i = 0; i < N; i++) {
    src[i] = i + 1;
    mask[i] = ((unsigned)(i * 7 + q) % (unsigned)q == 0) ? (mask_type == C_DBL ? 0.5 : 3) : 0;
    prefill[i] = -5;
  }
  mask[lo] = mask_lo ? 1 : 0;
  int g_src = create_filled(type, src, "src");
  int g_mask = create_filled(mask_type, mask, "mask");
  int g_dst = create_filled(type, prefill, "dst");
  int start = lo;
  while (start <= hi && mask[start] == 0) start++;

  /* Scan_copy, Scan_add inclusive and exclusive. */
  for (int kind = 0; kind < 3; kind++) {
    GA_Fill(g_dst, (void*)(type == C_INT     ? (void*)&(int){-5}
                           : type == C_LONG  ? (void*)&(long){-5}
                           : type == C_FLOAT ? (void*)&(float){-5}
                           : type == C_DBL   ? (void*)&(double){-5}
                                             : (void*)&(DoubleComplex){-5, 5}));
    memcpy(ref, prefill, sizeof ref);
    if (kind == 0) /* GA: Scan_copy zeroes the elements before the first segment start */
      for (int i = lo; i < start; i++) ref[i] = 0;
    double running = 0;
    for (int i = start; i <= hi; i++) {
      double before = running;
      running = mask[i] != 0 ? src[i] : (kind == 0 ? running : running + src[i]);
      ref[i] = kind == 2 ? (mask[i] != 0 ? 0 : before) : running;
    }
    if (kind == 0) {
      if (lo % 2)
        GA_Scan_copy(g_src, g_dst, g_mask, lo, hi);
      else
        GA_Scan_copy64(g_src, g_dst, g_mask, lo, hi);
    } else if (lo % 2) {
      GA_Scan_add(g_src, g_dst, g_mask, lo, hi, kind == 2);
    } else {
      GA_Scan_add64(g_src, g_dst, g_mask, lo, hi, kind == 2);
    }
    expect(g_dst, type, ref,
           kind == 0   ? "GA_Scan_copy"
           : kind == 1 ? "GA_Scan_add"
                       : "GA_Scan_add excl");
  }

  /* Pack: the selected elements of src to dst from 0. */
  int g_packed = create_filled(type, prefill, "packed");
  memcpy(ref, prefill, sizeof ref);
  int count = 0;
  for (int i = lo; i <= hi; i++)
    if (mask[i] != 0) ref[count++] = src[i];
  int icount = -1;
  int64_t icount64 = -1;
  if (q % 2) {
    GA_Pack(g_src, g_packed, g_mask, lo, hi, &icount);
  } else {
    GA_Pack64(g_src, g_packed, g_mask, lo, hi, &icount64);
    icount = (int)icount64;
  }
  CHECK(icount == count);
  expect(g_packed, type, ref, "GA_Pack");

  /* Unpack: packed values 1000 + k to the selected places of a prefilled array. */
  double packed[N];
  for (int k = 0; k < N; k++) packed[k] = 1000 + k;
  int g_values = create_filled(type, packed, "values");
  int g_out = create_filled(type, prefill, "out");
  memcpy(ref, prefill, sizeof ref);
  for (int i = lo, k = 0; i <= hi; i++)
    if (mask[i] != 0) ref[i] = packed[k++];
  icount = -1;
  if (q % 2) {
    GA_Unpack(g_values, g_out, g_mask, lo, hi, &icount);
  } else {
    GA_Unpack64(g_values, g_out, g_mask, lo, hi, &icount64);
    icount = (int)icount64;
  }
  CHECK(icount == count);
  expect(g_out, type, ref, "GA_Unpack");

  GA_Destroy(g_out);
  GA_Destroy(g_values);
  GA_Destroy(g_packed);
  GA_Destroy(g_dst);
  GA_Destroy(g_mask);
  GA_Destroy(g_src);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  MA_init(MT_DBL, 100000, 100000); /* GA's scans and packs take their buffers from MA */
  const int types[] = {C_INT, C_LONG, C_FLOAT, C_DBL, C_DCPL};
  const struct {
    int lo, hi, q, mask_lo;
  } ranges[] = {{0, N - 1, 1, 1}, {0, N - 1, 4, 1}, {3, N - 2, 5, 0},
                {10, 30, 3, 0},   {17, 17, 2, 1},   {7, 40, 9, 0}};
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++)
      run(types[t], r % 2 ? C_DBL : C_INT, ranges[r].lo, ranges[r].hi, ranges[r].q,
          ranges[r].mask_lo);
  if (GA_Nodeid() == 0) printf("sparse: %d ranks, all correct\n", GA_Nnodes());
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
