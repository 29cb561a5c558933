/* GA's searches and selections against serial references computed here: NGA_Select_elem(64)
 * "min" / "max" (value and subscript) on int, long, float, double and double complex arrays;
 * GA_Median and GA_Median_patch(64) (on Remora also patches of other shapes, matched in
 * row-major order);
 * GA_Step_max(_patch)(64); NGA_Fdot_patch / NGA_Lldot_patch / NGA_Cdot_patch (and 64);
 * GA_Get_proc_index on a ScaLAPACK-style grid; GA_List_nodeid. With an argument, one misuse that
 * must end the job with GA_Error's message (the modes in misuse()). */
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

enum { ROWS = 7, COLS = 5, N = ROWS * COLS, SHIFT = 16, LOW = -SHIFT, HIGH = N - 1 - SHIFT };

/* A permutation of 0..N-1 (11 is prime to 35), shifted to cross zero: -16..18, so that the
 * largest magnitude (18) and the smallest (0) are each taken once. */
static int value(int k) {
  return (k * 11) % N - SHIFT;
}

static int filled(int type, const char* name) {
  int dims[2] = {ROWS, COLS};
  const int g = NGA_Create(type, 2, dims, (char*)name, NULL);
  if (GA_Nodeid() == 0) {
    int ibuf[N];
    long lbuf[N];
    float fbuf[N];
    double dbuf[N];
    DoubleComplex zbuf[N];
    void* buf = dbuf;
    for (int k = 0; k < N; ++k) {
      ibuf[k] = value(k);
      lbuf[k] = 1000000000L * value(k);
      fbuf[k] = 0.5f * (float)value(k);
      dbuf[k] = 0.25 * value(k);
      zbuf[k].real = 3.0 * value(k); /* |z| grows with |value| (4 and 3: a 3-4-5 triangle) */
      zbuf[k].imag = -4.0 * value(k);
    }
    if (type == C_INT) buf = ibuf;
    if (type == C_LONG) buf = lbuf;
    if (type == C_FLOAT) buf = fbuf;
    if (type == C_DCPL) buf = zbuf;
    int lo[2] = {0, 0}, hi[2] = {ROWS - 1, COLS - 1}, ld[1] = {COLS};
    NGA_Put(g, lo, hi, buf, ld);
  }
  GA_Sync();
  return g;
}

static int position_of(int v) {
  for (int k = 0; k < N; ++k)
    if (value(k) == v) return k;
  return -1;
}

static void check_select(void) {
  const int low = position_of(LOW), high = position_of(HIGH);
  int index[2];
  int64_t index64[2];
  const int gi = filled(C_INT, "i");
  int ival = 0;
  NGA_Select_elem(gi, "min", &ival, index);
  CHECK(ival == LOW && index[0] == low / COLS && index[1] == low % COLS);
  NGA_Select_elem(gi, "max", &ival, index);
  CHECK(ival == HIGH && index[0] == high / COLS && index[1] == high % COLS);
  GA_Destroy(gi);
  const int gl = filled(C_LONG, "l");
  long lval = 0;
  NGA_Select_elem64(gl, "maximum", &lval, index64); /* GA reads the first three characters */
  CHECK(lval == 1000000000L * HIGH && index64[0] == high / COLS && index64[1] == high % COLS);
  GA_Destroy(gl);
  const int gf = filled(C_FLOAT, "f");
  float fval = 0;
  NGA_Select_elem(gf, "min", &fval, index);
  CHECK(fval == 0.5f * (float)LOW && index[0] == low / COLS && index[1] == low % COLS);
  GA_Destroy(gf);
  const int gd = filled(C_DBL, "d");
  double dval = 0;
  NGA_Select_elem(gd, "max", &dval, index);
  CHECK(dval == 0.25 * HIGH && index[0] == high / COLS && index[1] == high % COLS);
  GA_Destroy(gd);
  /* Complex: by magnitude (5 |value|); the largest is value HIGH, the smallest value 0. */
  const int gz = filled(C_DCPL, "z");
  DoubleComplex zval;
  NGA_Select_elem(gz, "max", &zval, index);
  CHECK(zval.real == 3.0 * HIGH && zval.imag == -4.0 * HIGH && index[0] * COLS + index[1] == high);
  NGA_Select_elem(gz, "min", &zval, index);
  CHECK(zval.real == 0.0 && zval.imag == 0.0 && index[0] * COLS + index[1] == position_of(0));
  GA_Destroy(gz);
}

static double median3(double a, double b, double c) {
  const double lo = a < b ? a : b, hi = a < b ? b : a;
  return c < lo ? lo : c > hi ? hi : c;
}

static double ma(int k) {
  return (double)value(k);
}
static double mb(int k) {
  return (double)((k * 13) % N - 10);
}
static double mc(int k) {
  return k % 3 == 0 ? ma(k) : (double)(17 - k);
}

static int put_all(int g, const double* values, int rows, int cols) {
  if (GA_Nodeid() == 0) {
    int lo[2] = {0, 0}, hi[2] = {rows - 1, cols - 1}, ld[1] = {cols};
    NGA_Put(g, lo, hi, (void*)values, ld);
  }
  GA_Sync();
  return g;
}

static void check_median(void) {
  int dims[2] = {ROWS, COLS};
  double va[N], vb[N], vc[N];
  for (int k = 0; k < N; ++k) {
    va[k] = ma(k);
    vb[k] = mb(k);
    vc[k] = mc(k);
  }
  const int a = put_all(NGA_Create(C_DBL, 2, dims, "a", NULL), va, ROWS, COLS);
  const int b = put_all(NGA_Create(C_DBL, 2, dims, "b", NULL), vb, ROWS, COLS);
  const int c = put_all(NGA_Create(C_DBL, 2, dims, "c", NULL), vc, ROWS, COLS);
  const int m = NGA_Create(C_DBL, 2, dims, "m", NULL);
  int lo[2] = {0, 0}, hi[2] = {ROWS - 1, COLS - 1}, ld[1] = {COLS};
  double out[N];
  GA_Median_patch(a, lo, hi, b, lo, hi, c, lo, hi, m, lo, hi);
  NGA_Get(m, lo, hi, out, ld);
  for (int k = 0; k < N; ++k) CHECK(out[k] == median3(ma(k), mb(k), mc(k)));
#ifdef REMORA_GA_H
  /* Patches of other shapes, matched in row-major order (GA 5.8 fails on patches that are
   * not distributed as m's: docs/global-arrays.md). */
  int dims1[1] = {N + 3}, dimsT[2] = {COLS, ROWS};
  double vb1[N + 3] = {0.0};
  memcpy(vb1 + 3, vb, sizeof vb);
  const int b1 = put_all(NGA_Create(C_DBL, 1, dims1, "b1", NULL), vb1, N + 3, 1);
  const int cT = put_all(NGA_Create(C_DBL, 2, dimsT, "cT", NULL), vc, COLS, ROWS);
  GA_Zero(m);
  int blo[1] = {3}, bhi[1] = {N + 2}, chi[2] = {COLS - 1, ROWS - 1};
  GA_Median_patch(a, lo, hi, b1, blo, bhi, cT, lo, chi, m, lo, hi);
  NGA_Get(m, lo, hi, out, ld);
  for (int k = 0; k < N; ++k) CHECK(out[k] == median3(ma(k), mb(k), mc(k)));
  GA_Destroy(cT);
  GA_Destroy(b1);
#endif
  /* Whole arrays: m = median(a, a, c2) is a. */
  const int c2 = GA_Duplicate(a, "c2");
  GA_Zero(c2);
  GA_Median(a, a, c2, m);
  NGA_Get(m, lo, hi, out, ld);
  for (int k = 0; k < N; ++k) CHECK(out[k] == ma(k));
  /* 64-bit patches: row 2 of m from row 2 of a, b and c2 (zero). */
  int64_t lo64[2] = {2, 0}, hi64[2] = {2, COLS - 1};
  GA_Median_patch64(a, lo64, hi64, b, lo64, hi64, c2, lo64, hi64, m, lo64, hi64);
  NGA_Get(m, lo, hi, out, ld);
  for (int k = 0; k < N; ++k) CHECK(out[k] == (k / COLS == 2 ? median3(ma(k), mb(k), 0.0) : ma(k)));
  GA_Destroy(c2);
  GA_Destroy(m);
  GA_Destroy(c);
  GA_Destroy(b);
  GA_Destroy(a);
}

/* GA_Step_max's rule, serially: the largest s with a + s b >= 0 (a >= 0). */
static double step_reference(const double* a, const double* b, int n) {
  double largest = -1.0e307;
  for (int i = 0; i < n; ++i) {
    const double q = a[i] == 0.0   ? (b[i] >= 0.0 ? 1.0e307 : 0.0)
                     : b[i] != 0.0 ? a[i] / b[i]
                                   : 1.0e307;
    if (q <= 0.0 && q > largest) largest = q;
  }
  return largest < 0.0 ? -largest : largest;
}

static void check_step_max(void) {
  int dims[2] = {ROWS, COLS};
  double va[N], vb[N], pa[N], pb[N];
  int ia[N], ib[N];
  for (int k = 0; k < N; ++k) {
    va[k] = 1.0 + k % 4;
    vb[k] = (double)(k % 5 - 2);
    ia[k] = 3 * (1 + k % 4);
    ib[k] = k % 5 - 2;
  }
  const int a = put_all(NGA_Create(C_DBL, 2, dims, "a", NULL), va, ROWS, COLS);
  const int b = put_all(NGA_Create(C_DBL, 2, dims, "b", NULL), vb, ROWS, COLS);
  double step = 0.0;
  GA_Step_max(a, b, &step);
  CHECK(step == step_reference(va, vb, N));
  GA_Step_max(a, a, &step); /* a + s a stays >= 0 for any s: GA's infinity */
  CHECK(step == 1.0e307);
  /* Rows 1..3 only. GA 5.8's patch forms search the whole temporary array they divide the
   * patch into, elements outside the patch included (they give 0 here): on GA, the whole
   * array as the patch. */
#ifdef REMORA_GA_H
  const int first = 1, last = 3;
#else
  const int first = 0, last = ROWS - 1;
#endif
  const int count = (last - first + 1) * COLS;
  for (int k = 0; k < count; ++k) {
    pa[k] = va[first * COLS + k];
    pb[k] = vb[first * COLS + k];
  }
  int lo[2] = {first, 0}, hi[2] = {last, COLS - 1};
  int64_t lo64[2] = {first, 0}, hi64[2] = {last, COLS - 1};
  GA_Step_max_patch(a, lo, hi, b, lo, hi, &step);
  CHECK(step == step_reference(pa, pb, count));
  GA_Step_max_patch64(a, lo64, hi64, b, lo64, hi64, &step);
  CHECK(step == step_reference(pa, pb, count));
  /* int: the quotients truncate as C's division does. */
  int gi = NGA_Create(C_INT, 2, dims, "ia", NULL), gj = NGA_Create(C_INT, 2, dims, "ib", NULL);
  if (GA_Nodeid() == 0) {
    int zero[2] = {0, 0}, top[2] = {ROWS - 1, COLS - 1}, ld[1] = {COLS};
    NGA_Put(gi, zero, top, ia, ld);
    NGA_Put(gj, zero, top, ib, ld);
  }
  GA_Sync();
  int istep = 0, expected = 2147483647;
  for (int k = 0; k < N; ++k)
    if (ib[k] < 0 && -(ia[k] / ib[k]) < expected) expected = -(ia[k] / ib[k]);
  GA_Step_max(gi, gj, &istep);
  CHECK(istep == expected);
  GA_Destroy(gj);
  GA_Destroy(gi);
  GA_Destroy(b);
  GA_Destroy(a);
}

static void check_dots(void) {
  int dims[2] = {ROWS, COLS};
  const int f = NGA_Create(C_FLOAT, 2, dims, "f", NULL), f2 = GA_Duplicate(f, "f2");
  const int l = NGA_Create(C_LONGLONG, 2, dims, "l", NULL), l2 = GA_Duplicate(l, "l2");
  const int c = NGA_Create(C_SCPL, 2, dims, "c", NULL), c2 = GA_Duplicate(c, "c2");
  if (GA_Nodeid() == 0) {
    float vf[N], vf2[N];
    long long vl[N], vl2[N];
    SingleComplex vc[N], vc2[N];
    for (int k = 0; k < N; ++k) {
      vf[k] = (float)value(k);
      vf2[k] = (float)(k % 4);
      vl[k] = 100000000LL * value(k);
      vl2[k] = k;
      vc[k].real = (float)(k % 5);
      vc[k].imag = 1.0f;
      vc2[k].real = 2.0f;
      vc2[k].imag = (float)(k % 3);
    }
    int lo[2] = {0, 0}, hi[2] = {ROWS - 1, COLS - 1}, ld[1] = {COLS};
    NGA_Put(f, lo, hi, vf, ld);
    NGA_Put(f2, lo, hi, vf2, ld);
    NGA_Put(l, lo, hi, vl, ld);
    NGA_Put(l2, lo, hi, vl2, ld);
    NGA_Put(c, lo, hi, vc, ld);
    NGA_Put(c2, lo, hi, vc2, ld);
  }
  GA_Sync();
  /* Rows 1..5, columns 1..3 of both. */
  int lo[2] = {1, 1}, hi[2] = {5, 3};
  int64_t lo64[2] = {1, 1}, hi64[2] = {5, 3};
  float sf = 0.0f;
  long long sl = 0;
  SingleComplex sc = {0.0f, 0.0f};
  for (int i = 1; i <= 5; ++i)
    for (int j = 1; j <= 3; ++j) {
      const int k = i * COLS + j;
      sf += (float)value(k) * (float)(k % 4);
      sl += 100000000LL * value(k) * k;
      const float ar = (float)(k % 5), ai = 1.0f, br = 2.0f, bi = (float)(k % 3);
      sc.real += ar * br - ai * bi; /* no conjugation, as GA */
      sc.imag += ar * bi + ai * br;
    }
  CHECK(NGA_Fdot_patch(f, 'N', lo, hi, f2, 'N', lo, hi) == sf);
  CHECK(NGA_Fdot_patch64(f, 'n', lo64, hi64, f2, 'n', lo64, hi64) == sf);
  CHECK(NGA_Lldot_patch(l, 'N', lo, hi, l2, 'N', lo, hi) == sl);
  CHECK(NGA_Lldot_patch64(l, 'N', lo64, hi64, l2, 'N', lo64, hi64) == sl);
  SingleComplex rc = NGA_Cdot_patch(c, 'N', lo, hi, c2, 'N', lo, hi);
  CHECK(rc.real == sc.real && rc.imag == sc.imag);
  rc = NGA_Cdot_patch64(c, 'N', lo64, hi64, c2, 'N', lo64, hi64);
  CHECK(rc.real == sc.real && rc.imag == sc.imag);
  GA_Destroy(c2);
  GA_Destroy(c);
  GA_Destroy(l2);
  GA_Destroy(l);
  GA_Destroy(f2);
  GA_Destroy(f);
}

static void check_process_queries(void) {
  const int n = GA_Nnodes();
  int dims[2] = {8, 6}, block[2] = {2, 3};
  int grid[2] = {n % 2 == 0 ? 2 : 1, n % 2 == 0 ? n / 2 : n};
  const int g = GA_Create_handle();
  GA_Set_data(g, 2, dims, C_DBL);
  GA_Set_block_cyclic_proc_grid(g, block, grid);
  GA_Allocate(g);
  for (int p = 0; p < n; ++p) {
    int index[2] = {-1, -1};
    if (p % 2 == 0)
      GA_Get_proc_index(g, p, index);
    else
      NGA_Get_proc_index(g, p, index);
    CHECK(index[0] == p / grid[1] && index[1] == p % grid[1]); /* row-major over the grid */
  }
  GA_Destroy(g);
  /* GA 5.8's C binding allocates nprocs ints for nprocs 8-byte Integers and overruns the
   * buffer beyond 2 (docs/global-arrays.md): on GA, at most 2. */
#ifdef REMORA_GA_H
  const int count = n;
#else
  const int count = n < 2 ? n : 2;
#endif
  int list[64];
  for (int i = 0; i < 64; ++i) list[i] = -1;
  GA_List_nodeid(list, count);
  for (int i = 0; i < 64; ++i) CHECK(list[i] == (i < count ? i : -1));
  NGA_List_nodeid(list, count - 1);
  CHECK(list[count - 1] == count - 1);
}

static void misuse(const char* mode) {
  int dims[2] = {4, 4};
  const int g = NGA_Create(C_DBL, 2, dims, "a", NULL);
  double v = 0.0;
  int index[2];
  if (strcmp(mode, "select_op") == 0) NGA_Select_elem(g, "avg", &v, index);
  if (strcmp(mode, "median_count") == 0) {
    int lo[2] = {0, 0}, hi[2] = {3, 3}, small[2] = {2, 3};
    GA_Median_patch(g, lo, hi, g, lo, small, g, lo, hi, g, lo, hi);
  }
  if (strcmp(mode, "median_type") == 0) {
    const int gi = NGA_Create(C_INT, 2, dims, "i", NULL);
    GA_Median(g, gi, g, g);
  }
  if (strcmp(mode, "proc_index") == 0) GA_Get_proc_index(g, 0, index);
  if (strcmp(mode, "step_negative") == 0) {
    double minus = -1.0;
    GA_Fill(g, &minus);
    GA_Step_max(g, GA_Duplicate(g, "b"), &v);
  }
  if (strcmp(mode, "list_nodeid") == 0) {
    int list[70];
    GA_List_nodeid(list, GA_Nnodes() + 1);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  if (argc > 1) {
    misuse(argv[1]);
  } else {
    check_select();
    check_median();
    check_step_max();
    check_dots();
    check_process_queries();
  }
  GA_Sync();
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
