/* GA collective array operations against a serial reference, on block, irregular and
 * ScaLAPACK block-cyclic arrays: GA_Zero/Fill/Scale/Add_constant and the patch forms,
 * GA_Copy and NGA_Copy_patch ('N' reshaping and 'T') between every pair of distributions,
 * GA_Add and NGA_Add_patch, the dot products (GA_Ddot/Idot/Ldot/Zdot, NGA_Ddot_patch with all
 * four transpose pairs), GA_Transpose, GA_Symmetrize, GA_Norm1/GA_Norm_infinity,
 * GA_Patch_enum, GA_Abs_value / GA_Recip / GA_Elem_*, GA_Print_file / NGA_Print_patch,
 * and the *64 twins. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "coll_util.h"
#include "ga.h"
#include "macdecls.h"

enum { ROWS = 9, COLS = 7 };
static int me;

/* ref[patch] op= value over the rows x cols reference (op: 0 set, 1 scale, 2 add). */
static void ref_patch(long* ref, int cols, const int* lo, const int* hi, int op, long value) {
  for (int i = lo[0]; i <= hi[0]; ++i)
    for (int j = lo[1]; j <= hi[1]; ++j) {
      long* x = &ref[i * cols + j];
      *x = op == 0 ? value : op == 1 ? *x * value : *x + value;
    }
}

/* A scale factor of type holding v (complex: (v, 0): a real factor keeps (v, -v) elements). */
static void scalar(int type, void* out, long v) {
  set_value(type, out, 0, v);
  if (type == C_DCPL) ((DoubleComplex*)out)->imag = 0;
}

static void check_elementwise(int layout, int type) {
  long ref[ROWS * COLS];
  int g_a = coll_create(layout, type, ROWS, COLS, "elementwise");
  char value[16], alpha[16];
  set_value(type, value, 0, 3); /* complex: (3, -3), the form elements keep */
  GA_Fill(g_a, value);
  for (int i = 0; i < ROWS * COLS; ++i) ref[i] = 3;
  coll_expect(g_a, type, ROWS, COLS, ref, "GA_Fill");
  GA_Zero(g_a);
  memset(ref, 0, sizeof ref);
  coll_expect(g_a, type, ROWS, COLS, ref, "GA_Zero");
  coll_random(ref, ROWS * COLS, 7 + (uint64_t)layout);
  coll_load(g_a, type, ROWS, COLS, ref);
  scalar(type, alpha, -2);
  GA_Scale(g_a, alpha);
  for (int i = 0; i < ROWS * COLS; ++i) ref[i] *= -2;
  coll_expect(g_a, type, ROWS, COLS, ref, "GA_Scale");
  set_value(type, value, 0, 5);
  GA_Add_constant(g_a, value);
  for (int i = 0; i < ROWS * COLS; ++i) ref[i] += 5;
  coll_expect(g_a, type, ROWS, COLS, ref, "GA_Add_constant");
  int lo[2] = {1, 2}, hi[2] = {7, 5};
  NGA_Scale_patch(g_a, lo, hi, alpha);
  ref_patch(ref, COLS, lo, hi, 1, -2);
  coll_expect(g_a, type, ROWS, COLS, ref, "NGA_Scale_patch");
  GA_Add_constant_patch(g_a, lo, hi, value);
  ref_patch(ref, COLS, lo, hi, 2, 5);
  coll_expect(g_a, type, ROWS, COLS, ref, "GA_Add_constant_patch");
  int flo[2] = {0, 4}, fhi[2] = {4, 6};
  NGA_Fill_patch(g_a, flo, fhi, value);
  ref_patch(ref, COLS, flo, fhi, 0, 5);
  coll_expect(g_a, type, ROWS, COLS, ref, "NGA_Fill_patch");
  NGA_Zero_patch(g_a, lo, hi);
  ref_patch(ref, COLS, lo, hi, 0, 0);
  coll_expect(g_a, type, ROWS, COLS, ref, "NGA_Zero_patch");
  /* The 64-bit twins on another patch. */
  int64_t lo64[2] = {3, 0}, hi64[2] = {8, 3};
  const int plo[2] = {3, 0}, phi[2] = {8, 3};
  NGA_Fill_patch64(g_a, lo64, hi64, value);
  ref_patch(ref, COLS, plo, phi, 0, 5);
  NGA_Scale_patch64(g_a, lo64, hi64, alpha);
  ref_patch(ref, COLS, plo, phi, 1, -2);
  GA_Add_constant_patch64(g_a, lo64, hi64, value);
  ref_patch(ref, COLS, plo, phi, 2, 5);
  coll_expect(g_a, type, ROWS, COLS, ref, "patch64 fill/scale/add_constant");
  NGA_Zero_patch64(g_a, lo64, hi64);
  ref_patch(ref, COLS, plo, phi, 0, 0);
  coll_expect(g_a, type, ROWS, COLS, ref, "NGA_Zero_patch64");
  GA_Destroy(g_a);
}

/* The offsets into ref (row-major, cols columns) of a 2-D patch in sequence order: row-major,
 * or column-major when transposed (the patch with its axes reversed). */
static void sequence(const int* lo, const int* hi, int cols, int transposed, long* out) {
  long k = 0;
  if (!transposed) {
    for (int i = lo[0]; i <= hi[0]; ++i)
      for (int j = lo[1]; j <= hi[1]; ++j) out[k++] = (long)i * cols + j;
  } else {
    for (int j = lo[1]; j <= hi[1]; ++j)
      for (int i = lo[0]; i <= hi[0]; ++i) out[k++] = (long)i * cols + j;
  }
}

static void check_copy(int la, int lb) {
  long x[ROWS * COLS], y[8 * 10], from[64], to[64];
  int g_a = coll_create(la, C_DBL, ROWS, COLS, "copy_a");
  int g_b = coll_create(lb, C_DBL, ROWS, COLS, "copy_b");
  int g_c = coll_create(lb + 1, C_DBL, 8, 10, "copy_c");
  coll_random(x, ROWS * COLS, 11);
  coll_load(g_a, C_DBL, ROWS, COLS, x);
  GA_Copy(g_a, g_b);
  coll_expect(g_b, C_DBL, ROWS, COLS, x, "GA_Copy");
  coll_random(y, 80, 12);
  coll_load(g_c, C_DBL, 8, 10, y);
  /* 'N': a 3x4 patch reshaped into a 2x6 patch; 'T': a 4x5 patch into a 5x4 patch. */
  int alo[2] = {2, 1}, ahi[2] = {4, 4}, blo[2] = {5, 3}, bhi[2] = {6, 8};
  NGA_Copy_patch('N', g_a, alo, ahi, g_c, blo, bhi);
  sequence(alo, ahi, COLS, 0, from);
  sequence(blo, bhi, 10, 0, to);
  for (int k = 0; k < 12; ++k) y[to[k]] = x[from[k]];
  coll_expect(g_c, C_DBL, 8, 10, y, "NGA_Copy_patch N");
  int tlo[2] = {4, 2}, thi[2] = {7, 6}, ulo[2] = {0, 0}, uhi[2] = {4, 3};
  int64_t tlo64[2] = {4, 2}, thi64[2] = {7, 6}, ulo64[2] = {0, 0}, uhi64[2] = {4, 3};
  if (la % 2 == 0)
    NGA_Copy_patch('T', g_a, tlo, thi, g_c, ulo, uhi);
  else
    NGA_Copy_patch64('t', g_a, tlo64, thi64, g_c, ulo64, uhi64);
  sequence(tlo, thi, COLS, 1, from);
  sequence(ulo, uhi, 10, 0, to);
  for (int k = 0; k < 20; ++k) y[to[k]] = x[from[k]];
  coll_expect(g_c, C_DBL, 8, 10, y, "NGA_Copy_patch T");
  GA_Destroy(g_a);
  GA_Destroy(g_b);
  GA_Destroy(g_c);
}

static void check_add(int la, int lb, int lc, int type) {
  long x[ROWS * COLS], y[ROWS * COLS], z[ROWS * COLS], xs[64], ys[64], zs[64];
  int g_a = coll_create(la, type, ROWS, COLS, "add_a");
  int g_b = coll_create(lb, type, ROWS, COLS, "add_b");
  int g_c = coll_create(lc, type, ROWS, COLS, "add_c");
  coll_random(x, ROWS * COLS, 21);
  coll_random(y, ROWS * COLS, 22);
  coll_random(z, ROWS * COLS, 23);
  coll_load(g_a, type, ROWS, COLS, x);
  coll_load(g_b, type, ROWS, COLS, y);
  coll_load(g_c, type, ROWS, COLS, z);
  char alpha[16], beta[16];
  scalar(type, alpha, 2);
  scalar(type, beta, -3);
  GA_Add(alpha, g_a, beta, g_b, g_c);
  for (int i = 0; i < ROWS * COLS; ++i) z[i] = 2 * x[i] - 3 * y[i];
  coll_expect(g_c, type, ROWS, COLS, z, "GA_Add");
  /* Patches of 12 elements in three shapes. */
  int alo[2] = {0, 0}, ahi[2] = {2, 3}, blo[2] = {3, 1}, bhi[2] = {8, 2}, clo[2] = {6, 1},
      chi[2] = {7, 6};
  NGA_Add_patch(alpha, g_a, alo, ahi, beta, g_b, blo, bhi, g_c, clo, chi);
  sequence(alo, ahi, COLS, 0, xs);
  sequence(blo, bhi, COLS, 0, ys);
  sequence(clo, chi, COLS, 0, zs);
  for (int k = 0; k < 12; ++k) z[zs[k]] = 2 * x[xs[k]] - 3 * y[ys[k]];
  coll_expect(g_c, type, ROWS, COLS, z, "NGA_Add_patch");
  int64_t alo64[2] = {0, 0}, ahi64[2] = {2, 3}, blo64[2] = {3, 1}, bhi64[2] = {8, 2};
  NGA_Add_patch64(alpha, g_a, alo64, ahi64, beta, g_b, blo64, bhi64, g_a, alo64, ahi64);
  for (int k = 0; k < 12; ++k) x[xs[k]] = 2 * x[xs[k]] - 3 * y[ys[k]];
  coll_expect(g_a, type, ROWS, COLS, x, "NGA_Add_patch64 into a");
  GA_Destroy(g_a);
  GA_Destroy(g_b);
  GA_Destroy(g_c);
}

static void check_dots(int la, int lb) {
  long x[ROWS * COLS], y[COLS * ROWS], xs[64], ys[64];
  coll_random(x, ROWS * COLS, 31);
  coll_random(y, ROWS * COLS, 32);
  const int types[4] = {C_DBL, C_INT, C_LONG, C_DCPL};
  for (int t = 0; t < 4; ++t) {
    const int type = types[t];
    int g_a = coll_create(la, type, ROWS, COLS, "dot_a");
    int g_b = coll_create(lb, type, ROWS, COLS, "dot_b");
    coll_load(g_a, type, ROWS, COLS, x);
    coll_load(g_b, type, ROWS, COLS, y);
    long want = 0;
    for (int i = 0; i < ROWS * COLS; ++i) want += x[i] * y[i];
    if (type == C_DBL) CHECK(GA_Ddot(g_a, g_b) == (double)want);
    if (type == C_INT) CHECK(GA_Idot(g_a, g_b) == (int)want);
    if (type == C_LONG) CHECK(GA_Ldot(g_a, g_b) == want);
    if (type == C_DCPL) { /* (v, -v)(w, -w) = (0, -2vw): no conjugation */
      DoubleComplex z = GA_Zdot(g_a, g_b);
      CHECK(z.real == 0 && z.imag == -2.0 * (double)want);
    }
    GA_Destroy(g_a);
    GA_Destroy(g_b);
  }
  /* NGA_Ddot_patch: a 3x5 patch of a with a 5x3 (or 3x5) patch of b; b's patch is transposed
   * when exactly one of the two is 'T'. */
  int g_a = coll_create(la, C_DBL, ROWS, COLS, "dot_a");
  int g_b = coll_create(lb, C_DBL, COLS, ROWS, "dot_b");
  coll_load(g_a, C_DBL, ROWS, COLS, x);
  coll_load(g_b, C_DBL, COLS, ROWS, y);
  int alo[2] = {2, 1}, ahi[2] = {4, 5}, blo[2] = {1, 3}, bhi[2] = {5, 5};
  int64_t alo64[2] = {2, 1}, ahi64[2] = {4, 5}, blo64[2] = {1, 3}, bhi64[2] = {5, 5};
  const char trans[2] = {'N', 'T'};
  for (int ta = 0; ta < 2; ++ta)
    for (int tb = 0; tb < 2; ++tb) {
      sequence(alo, ahi, COLS, 0, xs);
      sequence(blo, bhi, ROWS, ta != tb, ys);
      double want = 0;
      for (int k = 0; k < 15; ++k) want += (double)(x[xs[k]] * y[ys[k]]);
      const double got =
          ta == tb ? NGA_Ddot_patch(g_a, trans[ta], alo, ahi, g_b, trans[tb], blo, bhi)
                   : NGA_Ddot_patch64(g_a, trans[ta], alo64, ahi64, g_b, trans[tb], blo64, bhi64);
      if (got != want) {
        fprintf(stderr, "NGA_Ddot_patch %c%c: %g, expected %g\n", trans[ta], trans[tb], got, want);
        CHECK(got == want);
      }
    }
  GA_Destroy(g_a);
  GA_Destroy(g_b);
}

static void check_transpose_symmetrize_norms(int la, int lb) {
  long x[ROWS * COLS], t[COLS * ROWS], s[ROWS * ROWS];
  int g_a = coll_create(la, C_DBL, ROWS, COLS, "tr_a");
  int g_b = coll_create(lb, C_DBL, COLS, ROWS, "tr_b");
  coll_random(x, ROWS * COLS, 41);
  coll_load(g_a, C_DBL, ROWS, COLS, x);
  GA_Transpose(g_a, g_b);
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) t[j * ROWS + i] = x[i * COLS + j];
  coll_expect(g_b, C_DBL, COLS, ROWS, t, "GA_Transpose");
  /* GA's norms in its column-major view: GA_Norm1 = the largest C row sum of |a|. */
  double rows = 0, columns = 0, nm1 = -1, nminf = -1;
  for (int i = 0; i < ROWS; ++i) {
    double sum = 0;
    for (int j = 0; j < COLS; ++j) sum += fabs((double)x[i * COLS + j]);
    rows = sum > rows ? sum : rows;
  }
  for (int j = 0; j < COLS; ++j) {
    double sum = 0;
    for (int i = 0; i < ROWS; ++i) sum += fabs((double)x[i * COLS + j]);
    columns = sum > columns ? sum : columns;
  }
  GA_Norm1(g_a, &nm1);
  GA_Norm_infinity(g_a, &nminf);
  CHECK(nm1 == rows && nminf == columns);
  GA_Destroy(g_a);
  GA_Destroy(g_b);
  /* Symmetrize: even entries so (a + a^T) / 2 stays an integer. */
  int g_s = coll_create(lb, C_DBL, ROWS, ROWS, "sym");
  coll_random(s, ROWS * ROWS, 42);
  for (int i = 0; i < ROWS * ROWS; ++i) s[i] *= 2;
  coll_load(g_s, C_DBL, ROWS, ROWS, s);
  GA_Symmetrize(g_s);
  long sym[ROWS * ROWS];
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < ROWS; ++j) sym[i * ROWS + j] = (s[i * ROWS + j] + s[j * ROWS + i]) / 2;
  coll_expect(g_s, C_DBL, ROWS, ROWS, sym, "GA_Symmetrize");
  GA_Destroy(g_s);
}

/* Every rank reads the ROWS x COLS double array g_a and compares it with want. */
static void expect_doubles(int g_a, const double* want, const char* what) {
  double got[ROWS * COLS];
  int lo[2] = {0, 0}, hi[2] = {ROWS - 1, COLS - 1}, ld[1] = {COLS};
  NGA_Get(g_a, lo, hi, got, ld);
  for (int i = 0; i < ROWS * COLS; ++i)
    if (got[i] != want[i]) {
      fprintf(stderr, "rank %d: %s: element %d is %g, expected %g\n", me, what, i, got[i], want[i]);
      CHECK(got[i] == want[i]);
    }
  GA_Sync();
}

/* GA_Abs_value, GA_Recip and GA_Elem_* (whole arrays, patches, *64 patches) on doubles. */
static void check_elem(int la, int lb) {
  long x[ROWS * COLS], y[ROWS * COLS];
  double a[ROWS * COLS], b[ROWS * COLS], c[ROWS * COLS];
  int g_a = coll_create(la, C_DBL, ROWS, COLS, "elem_a");
  int g_b = coll_create(lb, C_DBL, ROWS, COLS, "elem_b");
  int g_c = coll_create(la + 2, C_DBL, ROWS, COLS, "elem_c");
  coll_random(x, ROWS * COLS, 61);
  coll_random(y, ROWS * COLS, 62);
  for (int i = 0; i < ROWS * COLS; ++i) {
    if (y[i] == 0) y[i] = 4; /* divisors */
    a[i] = (double)x[i];
    b[i] = (double)y[i];
  }
  coll_load(g_a, C_DBL, ROWS, COLS, x);
  coll_load(g_b, C_DBL, ROWS, COLS, y);
  GA_Elem_multiply(g_a, g_b, g_c);
  for (int i = 0; i < ROWS * COLS; ++i) c[i] = a[i] * b[i];
  expect_doubles(g_c, c, "GA_Elem_multiply");
  GA_Elem_divide(g_a, g_b, g_c);
  for (int i = 0; i < ROWS * COLS; ++i) c[i] = a[i] / b[i];
  expect_doubles(g_c, c, "GA_Elem_divide");
  GA_Elem_maximum(g_a, g_b, g_c);
  for (int i = 0; i < ROWS * COLS; ++i) c[i] = a[i] > b[i] ? a[i] : b[i];
  expect_doubles(g_c, c, "GA_Elem_maximum");
  /* Patches: 12 elements in three shapes; the minimum through the 64-bit form. */
  int alo[2] = {0, 0}, ahi[2] = {2, 3}, blo[2] = {3, 1}, bhi[2] = {8, 2}, clo[2] = {6, 1},
      chi[2] = {7, 6};
  int64_t alo64[2] = {0, 0}, ahi64[2] = {2, 3}, blo64[2] = {3, 1}, bhi64[2] = {8, 2},
          clo64[2] = {6, 1}, chi64[2] = {7, 6};
  long as[12], bs[12], cs[12];
  sequence(alo, ahi, COLS, 0, as);
  sequence(blo, bhi, COLS, 0, bs);
  sequence(clo, chi, COLS, 0, cs);
  GA_Elem_multiply_patch(g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi);
  for (int k = 0; k < 12; ++k) c[cs[k]] = a[as[k]] * b[bs[k]];
  expect_doubles(g_c, c, "GA_Elem_multiply_patch");
  GA_Elem_minimum_patch64(g_a, alo64, ahi64, g_b, blo64, bhi64, g_c, clo64, chi64);
  for (int k = 0; k < 12; ++k) c[cs[k]] = a[as[k]] < b[bs[k]] ? a[as[k]] : b[bs[k]];
  expect_doubles(g_c, c, "GA_Elem_minimum_patch64");
  GA_Abs_value_patch(g_a, alo, ahi);
  for (int k = 0; k < 12; ++k) a[as[k]] = fabs(a[as[k]]);
  expect_doubles(g_a, a, "GA_Abs_value_patch");
  GA_Abs_value(g_a);
  for (int i = 0; i < ROWS * COLS; ++i) a[i] = fabs(a[i]);
  expect_doubles(g_a, a, "GA_Abs_value");
  GA_Recip(g_b);
  for (int i = 0; i < ROWS * COLS; ++i) b[i] = 1.0 / b[i];
  expect_doubles(g_b, b, "GA_Recip");
  GA_Recip_patch64(g_b, blo64, bhi64);
  for (int k = 0; k < 12; ++k) b[bs[k]] = 1.0 / b[bs[k]];
  expect_doubles(g_b, b, "GA_Recip_patch64");
  GA_Destroy(g_a);
  GA_Destroy(g_b);
  GA_Destroy(g_c);
}

/* GA_Elem_maximum / GA_Elem_minimum on complex arrays: the element of larger / smaller
 * magnitude, b's on a tie (GA's definition). */
static void check_elem_complex(int la, int lb) {
  enum { N = ROWS * COLS };
  DoubleComplex a[N], b[N], c[N];
  for (int i = 0; i < N; ++i) {
    /* |a| and |b| differ except at every fifth element, where they tie with other phases. */
    const double r = 1.0 + i % 7, s = i % 5 == 0 ? r : 1.0 + (i * 3) % 7 + 0.5;
    a[i] = (DoubleComplex){r * 0.6, -r * 0.8};
    b[i] = (DoubleComplex){-s * 0.8, s * 0.6};
  }
  int g_a = coll_create(la, C_DCPL, ROWS, COLS, "cmax_a");
  int g_b = coll_create(lb, C_DCPL, ROWS, COLS, "cmax_b");
  int g_c = coll_create(la + 2, C_DCPL, ROWS, COLS, "cmax_c");
  int lo[2] = {0, 0}, hi[2] = {ROWS - 1, COLS - 1}, ld[1] = {COLS};
  if (GA_Nodeid() == 0) {
    NGA_Put(g_a, lo, hi, a, ld);
    NGA_Put(g_b, lo, hi, b, ld);
  }
  GA_Sync();
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 0)
      GA_Elem_maximum(g_a, g_b, g_c);
    else
      GA_Elem_minimum_patch(g_a, lo, hi, g_b, lo, hi, g_c, lo, hi);
    NGA_Get(g_c, lo, hi, c, ld);
    for (int i = 0; i < N; ++i) {
      /* Squared magnitudes: the ties are exact (the same two products), the rest differ by
       * far more than rounding. */
      const double ma = a[i].real * a[i].real + a[i].imag * a[i].imag;
      const double mb = b[i].real * b[i].real + b[i].imag * b[i].imag;
      const int take_a = pass == 0 ? ma > mb : ma < mb;
      const DoubleComplex want = take_a ? a[i] : b[i];
      if (c[i].real != want.real || c[i].imag != want.imag) {
        fprintf(stderr, "%s element %d: got (%g, %g), want (%g, %g)\n",
                pass == 0 ? "GA_Elem_maximum" : "GA_Elem_minimum_patch", i, c[i].real, c[i].imag,
                want.real, want.imag);
        CHECK(0);
      }
    }
    GA_Sync();
  }
  GA_Destroy(g_a);
  GA_Destroy(g_b);
  GA_Destroy(g_c);
}

/* 1-D: GA_Patch_enum (int and double, both index forms) and the vector norms. */
static void check_vector(void) {
  int n = 17;
  int g_i = NGA_Create(C_INT, 1, &n, "enum_i", NULL),
      g_d = NGA_Create(C_DBL, 1, &n, "enum_d", NULL);
  int start = 4, inc = 3;
  double dstart = -2.5, dinc = 0.5;
  GA_Patch_enum(g_i, 2, 11, &start, &inc);
  GA_Patch_enum64(g_d, 0, 16, &dstart, &dinc);
  int vi[17];
  double vd[17], nm1 = 0, nminf = 0, sum = 0, largest = 0;
  int lo = 0, hi = 16;
  NGA_Get(g_i, &lo, &hi, vi, NULL);
  NGA_Get(g_d, &lo, &hi, vd, NULL);
  for (int i = 0; i < 17; ++i) {
    CHECK(vi[i] == (i >= 2 && i <= 11 ? 4 + (i - 2) * 3 : 0));
    CHECK(vd[i] == -2.5 + 0.5 * i);
    sum += fabs(vd[i]);
    largest = fabs(vd[i]) > largest ? fabs(vd[i]) : largest;
  }
  GA_Norm1(g_d, &nm1);
  GA_Norm_infinity(g_d, &nminf);
  CHECK(nm1 == sum && nminf == largest);
  GA_Destroy(g_i);
  GA_Destroy(g_d);
}

/* GA_Print_file writes the header and the values on rank 0; NGA_Print_patch runs. */
static void check_print(void) {
  long x[ROWS * COLS];
  int g_a = coll_create(COLL_IRREGULAR, C_INT, ROWS, COLS, "printed");
  for (int i = 0; i < ROWS * COLS; ++i) x[i] = 100 + i;
  coll_load(g_a, C_INT, ROWS, COLS, x);
  FILE* file = me == 0 ? tmpfile() : NULL;
  GA_Print_file(me == 0 ? file : stdout, g_a);
  if (me == 0) {
    char text[8192];
    rewind(file);
    const size_t length = fread(text, 1, sizeof text - 1, file);
    text[length] = '\0';
    fclose(file);
    CHECK(strstr(text, "global array: printed[0:8,0:6]") != NULL);
    CHECK(strstr(text, "100") != NULL && strstr(text, "162") != NULL);
  }
  int lo[2] = {1, 1}, hi[2] = {2, 3};
  NGA_Print_patch(g_a, lo, hi, 0);
  GA_Destroy(g_a);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  MA_init(C_DBL, 1000000, 1000000); /* GA needs MA for its temporary buffers */
  me = GA_Nodeid();
  for (int layout = 0; layout < COLL_LAYOUTS; ++layout) {
    check_elementwise(layout, layout == COLL_SCALAPACK ? C_DCPL : C_DBL);
    check_elementwise(layout, layout == COLL_BLOCK ? C_LONG : C_INT);
    for (int other = 0; other < COLL_LAYOUTS; ++other) check_copy(layout, other);
    check_add(layout, layout + 1, layout + 2, layout == COLL_IRREGULAR ? C_DCPL : C_DBL);
    check_dots(layout, layout + 2);
    check_transpose_symmetrize_norms(layout, layout + 1);
    check_elem(layout, layout + 1);
    check_elem_complex(layout, layout + 1);
  }
  check_vector();
  check_print();
  GA_Terminate();
  MPI_Finalize();
  if (me == 0) printf("ga collective operations: ok\n");
  return 0;
}
