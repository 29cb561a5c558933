/* The GA-compatible functions no other test calls, each checked against values computed here:
 * NGA_Initialize_ltd with NGA_Memory_avail / NGA_Inquire_memory; element-wise patch operations
 * (GA_Recip_patch, GA_Abs_value_patch64, GA_Elem_{divide,maximum}_patch{,64},
 * GA_Elem_multiply_patch64) on patches at different places of three arrays; dot products of
 * every remaining type (GA_Lldot, GA_Fdot, GA_Cdot, NGA_{I,L,Z}dot_patch{,64}, one transposed);
 * GA_{C,S,Z}gemm{,64} and GA_Matmul_patch64 against a reference product; block-cyclic, ScaLAPACK
 * and tiled layouts (NGA_Get_block_info) and NGA_Set_irreg_distr64 (NGA_Distribution);
 * NGA_Release / NGA_Release_update64 after direct access; NGA_Mask_sync (no effect in Remora);
 * process groups through their NGA_ spellings (create, size, set/get default, set/get an array's
 * group, sync, igop, lgop, dgop, destroy); GA_Print, GA_Print_patch and NGA_Print_patch64 with rank
 * 0's stdout captured in a file and searched for the values. (NGA_Error ends the job:
 * error_test.c.) */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

enum { ROWS = 6, COLS = 5 };
static const size_t LIMIT = 8u << 20;

/* Rank 0 writes the whole 2-D array from buf (row-major, cols columns) once every rank is done
 * with the previous contents; then everyone syncs. */
static void put_all(int g_a, int rows, int cols, void* buf) {
  GA_Sync();
  if (GA_Nodeid() == 0) {
    int lo[2] = {0, 0}, hi[2] = {rows - 1, cols - 1}, ld[1] = {cols};
    NGA_Put(g_a, lo, hi, buf, ld);
  }
  GA_Sync();
}

static void get_all(int g_a, int rows, int cols, void* buf) {
  int lo[2] = {0, 0}, hi[2] = {rows - 1, cols - 1}, ld[1] = {cols};
  NGA_Get(g_a, lo, hi, buf, ld);
}

static double a_value(int i, int j) {
  return (double)(i * COLS + j + 1);
}
static double b_value(int i, int j) {
  return (double)((i + 2 * j) % 5 + 1);
}

static void memory(void) {
  CHECK(NGA_Memory_avail() == LIMIT - NGA_Inquire_memory());
  const size_t before = NGA_Inquire_memory();
  int dims[2] = {64, 32};
  int g_a = NGA_Create(C_DBL, 2, dims, "mem", NULL);
  CHECK(g_a != 0);
  int lo[2], hi[2];
  NGA_Distribution(g_a, GA_Nodeid(), lo, hi);
  const size_t mine =
      hi[0] >= lo[0] ? (size_t)(hi[0] - lo[0] + 1) * (size_t)(hi[1] - lo[1] + 1) * 8 : 0;
  CHECK(NGA_Inquire_memory() == before + mine);
  CHECK(NGA_Memory_avail() == LIMIT - before - mine);
  GA_Destroy(g_a);
  CHECK(NGA_Inquire_memory() == before);
}

/* a, b, c (C_DBL ROWS x COLS) reset to a_value, b_value and -1. */
static void reset(int g_a, int g_b, int g_c, double ref_a[ROWS][COLS], double ref_b[ROWS][COLS],
                  double ref_c[ROWS][COLS]) {
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) {
      ref_a[i][j] = a_value(i, j);
      ref_b[i][j] = b_value(i, j);
      ref_c[i][j] = -1.0;
    }
  put_all(g_a, ROWS, COLS, ref_a);
  put_all(g_b, ROWS, COLS, ref_b);
  put_all(g_c, ROWS, COLS, ref_c);
}

static void check_equal(int g_a, double ref[ROWS][COLS]) {
  double got[ROWS][COLS];
  get_all(g_a, ROWS, COLS, got);
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) {
      CHECK(got[i][j] == ref[i][j]);
    }
}

enum { DIVIDE, MAXIMUM, MULTIPLY };

/* c[3..5][2..4] = a[0..2][0..2] op b[2..4][1..3] (3x3 patches at different places). */
static void elem_patch(int op, int use64, int g_a, int g_b, int g_c) {
  double ra[ROWS][COLS], rb[ROWS][COLS], rc[ROWS][COLS];
  reset(g_a, g_b, g_c, ra, rb, rc);
  int alo[2] = {0, 0}, ahi[2] = {2, 2}, blo[2] = {2, 1}, bhi[2] = {4, 3}, clo[2] = {3, 2},
      chi[2] = {5, 4};
  int64_t alo64[2] = {0, 0}, ahi64[2] = {2, 2}, blo64[2] = {2, 1}, bhi64[2] = {4, 3},
          clo64[2] = {3, 2}, chi64[2] = {5, 4};
  if (op == DIVIDE && !use64) GA_Elem_divide_patch(g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi);
  if (op == DIVIDE && use64)
    GA_Elem_divide_patch64(g_a, alo64, ahi64, g_b, blo64, bhi64, g_c, clo64, chi64);
  if (op == MAXIMUM && !use64) GA_Elem_maximum_patch(g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi);
  if (op == MAXIMUM && use64)
    GA_Elem_maximum_patch64(g_a, alo64, ahi64, g_b, blo64, bhi64, g_c, clo64, chi64);
  if (op == MULTIPLY)
    GA_Elem_multiply_patch64(g_a, alo64, ahi64, g_b, blo64, bhi64, g_c, clo64, chi64);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const double x = ra[i][j], y = rb[2 + i][1 + j];
      rc[3 + i][2 + j] = op == DIVIDE ? x / y : op == MAXIMUM ? (x > y ? x : y) : x * y;
    }
  check_equal(g_c, rc);
  check_equal(g_a, ra);
  check_equal(g_b, rb);
}

static void elementwise(void) {
  int dims[2] = {ROWS, COLS};
  int g_a = NGA_Create(C_DBL, 2, dims, "a", NULL), g_b = NGA_Create(C_DBL, 2, dims, "b", NULL),
      g_c = NGA_Create(C_DBL, 2, dims, "c", NULL);
  CHECK(g_a != 0 && g_b != 0 && g_c != 0);
  double ra[ROWS][COLS], rb[ROWS][COLS], rc[ROWS][COLS];
  /* GA_Recip_patch: 1/x inside rows 1..3, columns 1..3, the rest unchanged. */
  reset(g_a, g_b, g_c, ra, rb, rc);
  int lo[2] = {1, 1}, hi[2] = {3, 3};
  GA_Recip_patch(g_a, lo, hi);
  for (int i = 1; i <= 3; ++i)
    for (int j = 1; j <= 3; ++j) ra[i][j] = 1.0 / ra[i][j];
  check_equal(g_a, ra);
  /* GA_Abs_value_patch64: negative values made positive in rows 2..5, columns 0..1 only. */
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) ra[i][j] = -a_value(i, j);
  put_all(g_a, ROWS, COLS, ra);
  int64_t lo64[2] = {2, 0}, hi64[2] = {5, 1};
  GA_Abs_value_patch64(g_a, lo64, hi64);
  for (int i = 2; i <= 5; ++i)
    for (int j = 0; j <= 1; ++j) ra[i][j] = a_value(i, j);
  check_equal(g_a, ra);
  for (int use64 = 0; use64 <= 1; ++use64) {
    elem_patch(DIVIDE, use64, g_a, g_b, g_c);
    elem_patch(MAXIMUM, use64, g_a, g_b, g_c);
  }
  elem_patch(MULTIPLY, 1, g_a, g_b, g_c);
  GA_Destroy(g_c);
  GA_Destroy(g_b);
  GA_Destroy(g_a);
}

/* Dot products: the arrays hold small integers, so every sum is exact. */
static void dots(void) {
  int dims[2] = {ROWS, COLS};
  long long lla[ROWS][COLS], llb[ROWS][COLS], want_ll = 0;
  float fa[ROWS][COLS], fb[ROWS][COLS], want_f = 0;
  SingleComplex ca[ROWS][COLS], cb[ROWS][COLS], want_c = {0, 0};
  int ia[ROWS][COLS], ib[ROWS][COLS];
  long la[ROWS][COLS], lb[ROWS][COLS];
  DoubleComplex za[ROWS][COLS], zb[ROWS][COLS];
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) {
      const int x = (int)a_value(i, j) - 10, y = (int)b_value(i, j);
      lla[i][j] = 1000000000ll * x;
      llb[i][j] = y;
      want_ll += lla[i][j] * llb[i][j];
      fa[i][j] = (float)x;
      fb[i][j] = (float)y;
      want_f += (float)(x * y);
      ca[i][j].real = (float)x;
      ca[i][j].imag = (float)(j - i);
      cb[i][j].real = (float)y;
      cb[i][j].imag = (float)(i + 1);
      want_c.real += ca[i][j].real * cb[i][j].real - ca[i][j].imag * cb[i][j].imag;
      want_c.imag += ca[i][j].real * cb[i][j].imag + ca[i][j].imag * cb[i][j].real;
      ia[i][j] = x;
      ib[i][j] = y;
      la[i][j] = 100000L * x;
      lb[i][j] = y;
      za[i][j].real = x;
      za[i][j].imag = j - i;
      zb[i][j].real = y;
      zb[i][j].imag = i + 1;
    }
  int g_lla = NGA_Create(C_LONGLONG, 2, dims, "lla", NULL),
      g_llb = NGA_Create(C_LONGLONG, 2, dims, "llb", NULL);
  put_all(g_lla, ROWS, COLS, lla);
  put_all(g_llb, ROWS, COLS, llb);
  CHECK(GA_Lldot(g_lla, g_llb) == want_ll);
  int g_fa = NGA_Create(C_FLOAT, 2, dims, "fa", NULL),
      g_fb = NGA_Create(C_FLOAT, 2, dims, "fb", NULL);
  put_all(g_fa, ROWS, COLS, fa);
  put_all(g_fb, ROWS, COLS, fb);
  CHECK(GA_Fdot(g_fa, g_fb) == want_f);
  int g_ca = NGA_Create(C_SCPL, 2, dims, "ca", NULL),
      g_cb = NGA_Create(C_SCPL, 2, dims, "cb", NULL);
  put_all(g_ca, ROWS, COLS, ca);
  put_all(g_cb, ROWS, COLS, cb);
  const SingleComplex c = GA_Cdot(g_ca, g_cb);
  CHECK(c.real == want_c.real && c.imag == want_c.imag);

  int g_ia = NGA_Create(C_INT, 2, dims, "ia", NULL), g_ib = NGA_Create(C_INT, 2, dims, "ib", NULL);
  int g_la = NGA_Create(C_LONG, 2, dims, "la", NULL),
      g_lb = NGA_Create(C_LONG, 2, dims, "lb", NULL);
  int g_za = NGA_Create(C_DCPL, 2, dims, "za", NULL),
      g_zb = NGA_Create(C_DCPL, 2, dims, "zb", NULL);
  put_all(g_ia, ROWS, COLS, ia);
  put_all(g_ib, ROWS, COLS, ib);
  put_all(g_la, ROWS, COLS, la);
  put_all(g_lb, ROWS, COLS, lb);
  put_all(g_za, ROWS, COLS, za);
  put_all(g_zb, ROWS, COLS, zb);
  /* a[1..3][0..2] . b[2..4][2..4] (3x3 patches, row-major matched). */
  int alo[2] = {1, 0}, ahi[2] = {3, 2}, blo[2] = {2, 2}, bhi[2] = {4, 4};
  int64_t alo64[2] = {1, 0}, ahi64[2] = {3, 2}, blo64[2] = {2, 2}, bhi64[2] = {4, 4};
  long want_i = 0, want_l = 0, want_it = 0;
  DoubleComplex want_z = {0, 0};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const int ai = 1 + i, aj = j, bi = 2 + i, bj = 2 + j;
      want_i += (long)ia[ai][aj] * ib[bi][bj];
      want_it += (long)ia[ai][aj] * ib[2 + j][2 + i]; /* b's patch transposed */
      want_l += la[ai][aj] * lb[bi][bj];
      want_z.real += za[ai][aj].real * zb[bi][bj].real - za[ai][aj].imag * zb[bi][bj].imag;
      want_z.imag += za[ai][aj].real * zb[bi][bj].imag + za[ai][aj].imag * zb[bi][bj].real;
    }
  CHECK(NGA_Idot_patch(g_ia, 'N', alo, ahi, g_ib, 'N', blo, bhi) == want_i);
  CHECK(NGA_Idot_patch64(g_ia, 'N', alo64, ahi64, g_ib, 'T', blo64, bhi64) == want_it);
  CHECK(want_it != want_i); /* the transposition is visible */
  CHECK(NGA_Ldot_patch(g_la, 'N', alo, ahi, g_lb, 'N', blo, bhi) == want_l);
  CHECK(NGA_Ldot_patch64(g_la, 'N', alo64, ahi64, g_lb, 'N', blo64, bhi64) == want_l);
  DoubleComplex z = NGA_Zdot_patch(g_za, 'N', alo, ahi, g_zb, 'N', blo, bhi);
  CHECK(z.real == want_z.real && z.imag == want_z.imag);
  z = NGA_Zdot_patch64(g_za, 'N', alo64, ahi64, g_zb, 'N', blo64, bhi64);
  CHECK(z.real == want_z.real && z.imag == want_z.imag);
  int handles[] = {g_lla, g_llb, g_fa, g_fb, g_ca, g_cb, g_ia, g_ib, g_la, g_lb, g_za, g_zb};
  for (int k = 0; k < 12; ++k) GA_Destroy(handles[k]);
}

enum { M = 3, N = 4, K = 2 };

/* Complex gemm references: C = alpha op(A) op(B) + beta C with A stored (ta == 'T' ? K x M :
 * M x K), B stored N x K when tb == 'T' (else K x N); small integer parts, exact in float. */
static DoubleComplex cmul(DoubleComplex x, DoubleComplex y) {
  DoubleComplex r = {x.real * y.real - x.imag * y.imag, x.real * y.imag + x.imag * y.real};
  return r;
}
static DoubleComplex a_elem(int r, int c) {
  DoubleComplex z = {r + 2 * c - 1, r - c};
  return z;
}
static DoubleComplex b_elem(int r, int c) {
  DoubleComplex z = {c - r + 1, r + c};
  return z;
}
static DoubleComplex c_elem(int r, int c) {
  DoubleComplex z = {r * N + c, 1};
  return z;
}

/* The reference of op(A)[i][l] with A stored per ta. */
static DoubleComplex opa(char ta, int i, int l) {
  return ta == 'T' ? a_elem(l, i) : a_elem(i, l);
}
static DoubleComplex opb(char tb, int l, int j) {
  return tb == 'T' ? b_elem(j, l) : b_elem(l, j);
}

/* kind: 0 Cgemm, 1 Cgemm64, 2 Zgemm64, 3 Sgemm64 (real parts only). */
static void gemm_case(int kind, char ta, char tb) {
  const int is_real = kind == 3, is_single = kind != 2;
  const int type = is_real ? C_FLOAT : is_single ? C_SCPL : C_DCPL;
  int adims[2] = {ta == 'T' ? K : M, ta == 'T' ? M : K};
  int bdims[2] = {tb == 'T' ? N : K, tb == 'T' ? K : N};
  int cdims[2] = {M, N};
  int g_a = NGA_Create(type, 2, adims, "A", NULL), g_b = NGA_Create(type, 2, bdims, "B", NULL),
      g_c = NGA_Create(type, 2, cdims, "C", NULL);
  CHECK(g_a != 0 && g_b != 0 && g_c != 0);
  DoubleComplex za[M * K], zb[K * N], zc[M * N];
  SingleComplex ca[M * K], cb[K * N], cc[M * N];
  float fa[M * K], fb[K * N], fc[M * N];
  for (int r = 0; r < adims[0]; ++r)
    for (int s = 0; s < adims[1]; ++s) {
      const DoubleComplex v = a_elem(r, s);
      const int k = r * adims[1] + s;
      za[k] = v;
      ca[k].real = (float)v.real;
      ca[k].imag = (float)v.imag;
      fa[k] = (float)v.real;
    }
  for (int r = 0; r < bdims[0]; ++r)
    for (int s = 0; s < bdims[1]; ++s) {
      const DoubleComplex v = b_elem(r, s);
      const int k = r * bdims[1] + s;
      zb[k] = v;
      cb[k].real = (float)v.real;
      cb[k].imag = (float)v.imag;
      fb[k] = (float)v.real;
    }
  for (int r = 0; r < M; ++r)
    for (int s = 0; s < N; ++s) {
      const DoubleComplex v = c_elem(r, s);
      zc[r * N + s] = v;
      cc[r * N + s].real = (float)v.real;
      cc[r * N + s].imag = (float)v.imag;
      fc[r * N + s] = (float)v.real;
    }
  const DoubleComplex alpha = {2, is_real ? 0 : -1}, beta = {-1, is_real ? 0 : 3};
  put_all(g_a, adims[0], adims[1], is_real ? (void*)fa : is_single ? (void*)ca : (void*)za);
  put_all(g_b, bdims[0], bdims[1], is_real ? (void*)fb : is_single ? (void*)cb : (void*)zb);
  put_all(g_c, M, N, is_real ? (void*)fc : is_single ? (void*)cc : (void*)zc);
  const SingleComplex calpha = {(float)alpha.real, (float)alpha.imag},
                      cbeta = {(float)beta.real, (float)beta.imag};
  if (kind == 0) GA_Cgemm(ta, tb, M, N, K, calpha, g_a, g_b, cbeta, g_c);
  if (kind == 1) GA_Cgemm64(ta, tb, M, N, K, calpha, g_a, g_b, cbeta, g_c);
  if (kind == 2) GA_Zgemm64(ta, tb, M, N, K, alpha, g_a, g_b, beta, g_c);
  if (kind == 3) GA_Sgemm64(ta, tb, M, N, K, (float)alpha.real, g_a, g_b, (float)beta.real, g_c);
  get_all(g_c, M, N, is_real ? (void*)fc : is_single ? (void*)cc : (void*)zc);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      DoubleComplex sum = {0, 0};
      for (int l = 0; l < K; ++l) {
        DoubleComplex x = opa(ta, i, l), y = opb(tb, l, j);
        if (is_real) x.imag = y.imag = 0;
        const DoubleComplex p = cmul(x, y);
        sum.real += p.real;
        sum.imag += p.imag;
      }
      DoubleComplex old = c_elem(i, j);
      if (is_real) old.imag = 0;
      const DoubleComplex t1 = cmul(alpha, sum), t2 = cmul(beta, old);
      const double want_re = t1.real + t2.real, want_im = t1.imag + t2.imag;
      if (is_real) {
        CHECK(fc[i * N + j] == (float)want_re);
      } else if (is_single) {
        CHECK(cc[i * N + j].real == (float)want_re && cc[i * N + j].imag == (float)want_im);
      } else {
        CHECK(zc[i * N + j].real == want_re && zc[i * N + j].imag == want_im);
      }
    }
  GA_Destroy(g_c);
  GA_Destroy(g_b);
  GA_Destroy(g_a);
}

/* GA_Matmul_patch64 with (i, j) ranges A 1..2 x 0..2, B^T 0..2 x 2..3, C 2..3 x 1..2: GA's C
 * binding takes them in the Fortran view (i a column of the C view), so in the C view
 * C[1 + j][2 + i] = 3 sum_l B^T[j][l] A[l][1 + i] - 2 C[1 + j][2 + i], B^T[j][l] = B[l][2 + j]. */
static void matmul_patch64(void) {
  enum { AR = 4, AC = 5, BR = 5, BC = 4, CR = 5, CC = 5 };
  int adims[2] = {AR, AC}, bdims[2] = {BR, BC}, cdims[2] = {CR, CC};
  int g_a = NGA_Create(C_DBL, 2, adims, "A", NULL), g_b = NGA_Create(C_DBL, 2, bdims, "B", NULL),
      g_c = NGA_Create(C_DBL, 2, cdims, "C", NULL);
  double a[AR][AC], b[BR][BC], c[CR][CC], got[CR][CC];
  for (int i = 0; i < AR; ++i)
    for (int j = 0; j < AC; ++j) a[i][j] = i * AC + j - 7;
  for (int i = 0; i < BR; ++i)
    for (int j = 0; j < BC; ++j) b[i][j] = (i * 3 + j) % 7 - 2;
  for (int i = 0; i < CR; ++i)
    for (int j = 0; j < CC; ++j) c[i][j] = i - j;
  put_all(g_a, AR, AC, a);
  put_all(g_b, BR, BC, b);
  put_all(g_c, CR, CC, c);
  double alpha = 3.0, beta = -2.0;
  GA_Matmul_patch64('N', 'T', &alpha, &beta, g_a, 1, 2, 0, 2, g_b, 0, 2, 2, 3, g_c, 2, 3, 1, 2);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      double sum = 0;
      for (int l = 0; l < 3; ++l) sum += b[l][2 + j] * a[l][1 + i];
      c[1 + j][2 + i] = alpha * sum + beta * c[1 + j][2 + i];
    }
  get_all(g_c, CR, CC, got);
  for (int i = 0; i < CR; ++i)
    for (int j = 0; j < CC; ++j) CHECK(got[i][j] == c[i][j]);
  GA_Destroy(g_c);
  GA_Destroy(g_b);
  GA_Destroy(g_a);
}

/* Layouts: 7 x 8 in 2 x 3 blocks is 4 x 3 blocks whichever way the blocks are dealt. */
static void layouts(void) {
  const int nprocs = GA_Nnodes();
  int dims[2] = {7, 8}, block[2] = {2, 3}, grid[2] = {1, nprocs};
  double ref[7][8], got[7][8];
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 8; ++j) ref[i][j] = 10 * i + j;
  for (int layout = 0; layout < 3; ++layout) {
    int g_a = GA_Create_handle();
    GA_Set_data(g_a, 2, dims, C_DBL);
    if (layout == 0) NGA_Set_block_cyclic(g_a, block);
    if (layout == 1) NGA_Set_block_cyclic_proc_grid(g_a, block, grid);
    if (layout == 2) NGA_Set_tiled_proc_grid(g_a, block, grid);
    CHECK(GA_Allocate(g_a));
    int num_blocks[2] = {0, 0}, block_dims[2] = {0, 0};
    NGA_Get_block_info(g_a, num_blocks, block_dims);
    CHECK(num_blocks[0] == 4 && num_blocks[1] == 3);
    CHECK(block_dims[0] == 2 && block_dims[1] == 3);
    put_all(g_a, 7, 8, ref);
    get_all(g_a, 7, 8, got);
    for (int i = 0; i < 7; ++i)
      for (int j = 0; j < 8; ++j) CHECK(got[i][j] == ref[i][j]);
    GA_Destroy(g_a);
  }
  /* NGA_Set_irreg_distr64: rank r owns rows map[r] .. map[r+1]-1 (row r of one rank each, the
   * last rank the rest). */
  int64_t dims64[2] = {nprocs + 3, 4}, map[65], nblock[2] = {nprocs, 1};
  for (int r = 0; r < nprocs; ++r) map[r] = r;
  map[nprocs] = 0; /* the column blocks */
  int g_i = GA_Create_handle();
  NGA_Set_data64(g_i, 2, dims64, C_DBL);
  NGA_Set_irreg_distr64(g_i, map, nblock);
  CHECK(GA_Allocate(g_i));
  for (int r = 0; r < nprocs; ++r) {
    int lo[2], hi[2];
    NGA_Distribution(g_i, r, lo, hi);
    CHECK(lo[0] == r && hi[0] == (r == nprocs - 1 ? nprocs + 2 : r));
    CHECK(lo[1] == 0 && hi[1] == 3);
  }
  GA_Destroy(g_i);
}

/* Direct access: each rank adds 100 to its own block (NGA_Release_update64), then reads it
 * again (NGA_Release); every rank then sees the updates after a collective scaling. */
static void access_release(void) {
  int dims[2] = {ROWS, COLS};
  int g_a = NGA_Create(C_DBL, 2, dims, "acc", NULL);
  double ref[ROWS][COLS], got[ROWS][COLS];
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) ref[i][j] = a_value(i, j);
  put_all(g_a, ROWS, COLS, ref);
  int lo[2], hi[2];
  NGA_Distribution(g_a, GA_Nodeid(), lo, hi);
  if (hi[0] >= lo[0] && hi[1] >= lo[1]) {
    int64_t lo64[2] = {lo[0], lo[1]}, hi64[2] = {hi[0], hi[1]}, ld64[1];
    double* p = NULL;
    NGA_Access64(g_a, lo64, hi64, &p, ld64);
    for (int i = lo[0]; i <= hi[0]; ++i)
      for (int j = lo[1]; j <= hi[1]; ++j) p[(i - lo[0]) * ld64[0] + (j - lo[1])] += 100.0;
    NGA_Release_update64(g_a, lo64, hi64);
    int ld[1];
    double* q = NULL;
    NGA_Access(g_a, lo, hi, &q, ld);
    for (int i = lo[0]; i <= hi[0]; ++i)
      for (int j = lo[1]; j <= hi[1]; ++j)
        CHECK(q[(i - lo[0]) * ld[0] + (j - lo[1])] == a_value(i, j) + 100.0);
    NGA_Release(g_a, lo, hi);
  }
  /* GA would skip the synchronisation at the start and end of the next collective operation;
   * Remora's always synchronise (the mask has no effect), so the scaling sees every update. */
  NGA_Mask_sync(0, 0);
  double two = 2.0;
  GA_Scale(g_a, &two);
  get_all(g_a, ROWS, COLS, got);
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) CHECK(got[i][j] == 2.0 * (a_value(i, j) + 100.0));
  GA_Destroy(g_a);
}

/* A group of every rank but rank 0 (or rank 0 alone on one rank), through the NGA_ spellings. */
static void pgroups(void) {
  const int me = GA_Nodeid(), nprocs = GA_Nnodes(), world = NGA_Pgroup_get_world();
  CHECK(GA_Get_pgroup_size(world) == nprocs && NGA_Get_pgroup_size(world) == nprocs);
  int list[64], count = 0;
  for (int r = nprocs > 1 ? 1 : 0; r < nprocs; ++r) list[count++] = r;
  const int grp = NGA_Pgroup_create(list, count);
  CHECK(NGA_Get_pgroup_size(grp) == count && GA_Get_pgroup_size(grp) == count);
  const int member = nprocs == 1 || me > 0;
  if (member) {
    const int gme = NGA_Pgroup_nodeid(grp);
    CHECK(gme == (nprocs > 1 ? me - 1 : 0));
    int ix[2] = {me, 1};
    NGA_Pgroup_igop(grp, ix, 2, "+");
    int want = 0;
    for (int k = 0; k < count; ++k) want += list[k];
    CHECK(ix[0] == want && ix[1] == count);
    long lx = 1000000000L * (me + 1);
    NGA_Pgroup_lgop(grp, &lx, 1, "max");
    CHECK(lx == 1000000000L * nprocs);
    double dx[2] = {0.5 * me, me};
    NGA_Pgroup_dgop(grp, dx, 2, "+");
    CHECK(dx[0] == 0.5 * want && dx[1] == want);
    NGA_Pgroup_sync(grp);
    /* The group as default: arrays are created on it. */
    NGA_Pgroup_set_default(grp);
    CHECK(NGA_Pgroup_get_default() == grp && GA_Nnodes() == count);
    int dims[1] = {10};
    int g_d = NGA_Create(C_INT, 1, dims, "on_default", NULL);
    CHECK(NGA_Get_pgroup(g_d) == grp);
    GA_Destroy(g_d);
    NGA_Pgroup_set_default(world);
  }
  GA_Sync();
  CHECK(NGA_Pgroup_get_default() == world && GA_Nnodes() == nprocs);
  /* NGA_Set_pgroup: an array of the group made by handle, written by its members. */
  if (member) {
    int dims[1] = {count}, g_h = GA_Create_handle();
    NGA_Set_data(g_h, 1, dims, C_INT);
    NGA_Set_pgroup(g_h, grp);
    CHECK(GA_Allocate(g_h));
    CHECK(NGA_Get_pgroup(g_h) == grp);
    const int gme = NGA_Pgroup_nodeid(grp);
    int lo[1] = {gme}, hi[1] = {gme}, v = 7 * me, ld[1] = {1};
    NGA_Put(g_h, lo, hi, &v, ld);
    NGA_Pgroup_sync(grp);
    int all[64], alo[1] = {0}, ahi[1] = {count - 1};
    NGA_Get(g_h, alo, ahi, all, ld);
    for (int k = 0; k < count; ++k) CHECK(all[k] == 7 * list[k]);
    GA_Destroy(g_h);
  }
  GA_Sync();
  CHECK(NGA_Pgroup_destroy(grp) == 1);
}

/* Runs print(g_a) on every rank; rank 0's stdout goes to a file whose text is returned (NULL
 * on other ranks). */
static char* captured(void (*print)(int), int g_a) {
  char* text = NULL;
  int saved = -1;
  FILE* file = NULL;
  if (GA_Nodeid() == 0) {
    fflush(stdout);
    file = tmpfile();
    CHECK(file != NULL);
    saved = dup(STDOUT_FILENO);
    CHECK(saved >= 0 && dup2(fileno(file), STDOUT_FILENO) >= 0);
  }
  print(g_a);
  if (GA_Nodeid() == 0) {
    fflush(stdout);
    CHECK(dup2(saved, STDOUT_FILENO) >= 0);
    close(saved);
    CHECK(fseek(file, 0, SEEK_END) == 0);
    const long size = ftell(file);
    CHECK(size > 0);
    text = calloc((size_t)size + 1, 1);
    rewind(file);
    CHECK(fread(text, 1, (size_t)size, file) == (size_t)size);
    fclose(file);
  }
  return text;
}

static void print_all(int g_a) {
  GA_Print(g_a);
}
static void print_patch(int g_a) {
  GA_Print_patch(g_a, 1, 2, 0, 1, 0);
}
static void print_patch64(int g_a) {
  int64_t lo[2] = {0, 2}, hi[2] = {1, 2};
  NGA_Print_patch64(g_a, lo, hi, 1);
}

static void printing(void) {
  int dims[2] = {3, 3};
  int g_a = NGA_Create(C_INT, 2, dims, "printed", NULL);
  int v[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) v[i][j] = 4100 + 10 * i + j;
  put_all(g_a, 3, 3, v);
  char* text = captured(print_all, g_a);
  if (text) {
    CHECK(strstr(text, "printed[0:2,0:2]") != NULL);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        char number[16];
        snprintf(number, sizeof number, " %d", v[i][j]);
        CHECK(strstr(text, number) != NULL);
      }
  }
  free(text);
  /* Rows 1..2, columns 0..1 (one line per row): 4110 4111 / 4120 4121, nothing else. */
  text = captured(print_patch, g_a);
  if (text) {
    CHECK(strstr(text, "printed[1:2,0:1]") != NULL);
    for (int i = 1; i <= 2; ++i) {
      char line[64];
      snprintf(line, sizeof line, "\n %11d %11d\n", v[i][0], v[i][1]);
      CHECK(strstr(text, line) != NULL);
    }
    CHECK(strstr(text, "4100") == NULL && strstr(text, "4112") == NULL);
  }
  free(text);
  /* Rows 0..1 of column 2. */
  text = captured(print_patch64, g_a);
  if (text) {
    CHECK(strstr(text, "printed[0:1,2:2]") != NULL);
    CHECK(strstr(text, " 4102") != NULL && strstr(text, " 4112") != NULL);
    CHECK(strstr(text, "4122") == NULL && strstr(text, "4101") == NULL);
  }
  free(text);
  GA_Destroy(g_a);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  NGA_Initialize_ltd(LIMIT);
  CHECK(GA_Initialized() && GA_Memory_limited() == 1);
  MA_init(C_DBL, 1000, 1000);
  memory();
  elementwise();
  dots();
  const char trans[2] = {'N', 'T'};
  for (int kind = 0; kind < 4; ++kind)
    for (int x = 0; x < 2; ++x)
      for (int y = 0; y < 2; ++y) gemm_case(kind, trans[x], trans[y]);
  matmul_patch64();
  layouts();
  access_release();
  pgroups();
  printing();
  GA_Sync();
  if (GA_Nodeid() == 0) printf("coverage: all checks passed on %d ranks\n", GA_Nnodes());
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
