/* GA_Dgemm (all four transpose pairs), GA_Sgemm, GA_Zgemm, GA_Dgemm64, GA_Matmul_patch and
 * NGA_Matmul_patch(64)
 * against a serial reference within a floating-point tolerance, with A, B and C on different
 * distributions and the product on the leading patches of larger arrays (GA's C view:
 * C(m x n) = alpha op(A)(m x k) op(B)(k x n) + beta C). */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "coll_util.h"
#include "ga.h"
#include "macdecls.h"

enum { M = 7, N = 6, K = 8, DIM = 9 }; /* every array is DIM x DIM */

/* Real-valued random data in [-1, 1) (complex: both parts). */
static void random_values(double* x, int n, uint64_t seed) {
  rng_seed(seed);
  for (int i = 0; i < n; ++i) x[i] = (double)(rng(2000) - 1000) / 1000.0;
}

static void put_all(int g_a, int type, const double* re, const double* im) {
  if (GA_Nodeid() == 0) {
    char* buf = malloc((size_t)(DIM * DIM) * elem_size(type));
    for (int i = 0; i < DIM * DIM; ++i) {
      if (type == C_DBL) ((double*)buf)[i] = re[i];
      if (type == C_FLOAT) ((float*)buf)[i] = (float)re[i];
      if (type == C_DCPL) ((DoubleComplex*)buf)[i] = (DoubleComplex){re[i], im[i]};
    }
    int lo[2] = {0, 0}, hi[2] = {DIM - 1, DIM - 1}, ld[1] = {DIM};
    NGA_Put(g_a, lo, hi, buf, ld);
    free(buf);
  }
  GA_Sync();
}

/* Element (i, j) of op(X) for X stored DIM x DIM with the patch origin (i0, j0). */
static int at(char trans, int i0, int j0, int i, int j) {
  return trans == 'T' ? (i0 + j) * DIM + (j0 + i) : (i0 + i) * DIM + (j0 + j);
}

/* C[ci0 + i][cj0 + j] = alpha sum_l op(A)[ai0.. + i][.. + l] op(B)[.. + l][.. + j] + beta C for
 * i < m, j < n, checked on every rank against re/im references (alpha, beta real here). */
static void check_product(int g_c, int type, char ta, char tb, int m, int n, int k, double alpha,
                          double beta, const double* a, const double* ai, int ai0, int aj0,
                          const double* b, const double* bi, int bi0, int bj0, const double* c,
                          const double* ci, int ci0, int cj0, const char* what) {
  const size_t size = elem_size(type);
  char* got = malloc((size_t)(DIM * DIM) * size);
  int lo[2] = {0, 0}, hi[2] = {DIM - 1, DIM - 1}, ld[1] = {DIM};
  NGA_Get(g_c, lo, hi, got, ld);
  const double tolerance = type == C_FLOAT ? 1e-4 : 1e-11;
  for (int i = 0; i < DIM; ++i)
    for (int j = 0; j < DIM; ++j) {
      const int inside = i >= ci0 && i < ci0 + m && j >= cj0 && j < cj0 + n;
      double want_re = c[i * DIM + j], want_im = ci[i * DIM + j];
      if (inside) {
        double sum_re = 0, sum_im = 0;
        for (int l = 0; l < k; ++l) {
          const int p = at(ta, ai0, aj0, i - ci0, l), q = at(tb, bi0, bj0, l, j - cj0);
          sum_re += a[p] * b[q] - ai[p] * bi[q];
          sum_im += a[p] * bi[q] + ai[p] * b[q];
        }
        want_re = alpha * sum_re + beta * want_re;
        want_im = alpha * sum_im + beta * want_im;
      }
      double got_re = 0, got_im = 0;
      if (type == C_DBL) got_re = ((double*)got)[i * DIM + j];
      if (type == C_FLOAT) got_re = ((float*)got)[i * DIM + j];
      if (type == C_DCPL) {
        got_re = ((DoubleComplex*)got)[i * DIM + j].real;
        got_im = ((DoubleComplex*)got)[i * DIM + j].imag;
      }
      if (type != C_DCPL) want_im = 0;
      const double error = fabs(got_re - want_re) + fabs(got_im - want_im);
      if (error > tolerance * (1 + fabs(want_re) + fabs(want_im)) * k) {
        fprintf(stderr, "rank %d: %s %c%c: C[%d][%d] = (%g, %g), expected (%g, %g)\n", GA_Nodeid(),
                what, ta, tb, i, j, got_re, got_im, want_re, want_im);
        CHECK(0);
      }
    }
  free(got);
  GA_Sync();
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  MA_init(C_DBL, 1000000, 1000000); /* GA needs MA for its temporary buffers */
  static double a[DIM * DIM], b[DIM * DIM], c[DIM * DIM], ai[DIM * DIM], bi[DIM * DIM],
      ci[DIM * DIM], zero[DIM * DIM];
  random_values(a, DIM * DIM, 1);
  random_values(b, DIM * DIM, 2);
  random_values(c, DIM * DIM, 3);
  random_values(ai, DIM * DIM, 4);
  random_values(bi, DIM * DIM, 5);
  random_values(ci, DIM * DIM, 6);
  const int types[3] = {C_DBL, C_FLOAT, C_DCPL};
  const char trans[2] = {'N', 'T'};
  int rotation = 0;
  for (int t = 0; t < 3; ++t) {
    const int type = types[t];
    const double* aim = type == C_DCPL ? ai : zero;
    const double* bim = type == C_DCPL ? bi : zero;
    const double* cim = type == C_DCPL ? ci : zero;
    for (int x = 0; x < 2; ++x)
      for (int y = 0; y < 2; ++y, ++rotation) {
        const char ta = trans[x], tb = trans[y];
        int g_a = coll_create(rotation, type, DIM, DIM, "A");
        int g_b = coll_create(rotation + 1, type, DIM, DIM, "B");
        int g_c = coll_create(rotation + 2, type, DIM, DIM, "C");
        put_all(g_a, type, a, aim);
        put_all(g_b, type, b, bim);
        put_all(g_c, type, c, cim);
        if (type == C_DBL && rotation % 2 == 1)
          GA_Dgemm64(ta, tb, M, N, K, 1.5, g_a, g_b, -0.5, g_c);
        else if (type == C_DBL)
          GA_Dgemm(ta, tb, M, N, K, 1.5, g_a, g_b, -0.5, g_c);
        else if (type == C_FLOAT)
          GA_Sgemm(ta, tb, M, N, K, 1.5f, g_a, g_b, -0.5f, g_c);
        else
          GA_Zgemm(ta, tb, M, N, K, (DoubleComplex){1.5, 0}, g_a, g_b, (DoubleComplex){-0.5, 0},
                   g_c);
        check_product(g_c, type, ta, tb, M, N, K, 1.5, -0.5, a, aim, 0, 0, b, bim, 0, 0, c, cim, 0,
                      0, "gemm");
        /* GA_Matmul_patch: GA's C binding passes the (i, j) ranges to its Fortran core as they
         * are, so i is a column of the C view and the product is the Fortran view's: in the C view
         * C[cj0 + j][ci0 + i] = alpha sum_l op(B)[bj0 + j][bi0 + l] op(A)[aj0 + l][ai0 + i], the
         * ranges indexing op(). */
        put_all(g_c, type, c, cim);
        const int m = 4, n = 3, k = 5, ai0 = 2, aj0 = 1, bi0 = 3, bj0 = 4, ci0 = 5, cj0 = 2;
        char alpha[16], beta[16];
        if (type == C_DBL) *(double*)alpha = 2.0, *(double*)beta = 0.0;
        if (type == C_FLOAT) *(float*)alpha = 2.0f, *(float*)beta = 0.0f;
        if (type == C_DCPL)
          *(DoubleComplex*)alpha = (DoubleComplex){2.0, 0},
          *(DoubleComplex*)beta = (DoubleComplex){0, 0};
        GA_Matmul_patch(ta, tb, alpha, beta, g_a, ai0, ai0 + m - 1, aj0, aj0 + k - 1, g_b, bi0,
                        bi0 + k - 1, bj0, bj0 + n - 1, g_c, ci0, ci0 + m - 1, cj0, cj0 + n - 1);
        check_product(g_c, type, tb, ta, n, m, k, 2.0, 0.0, b, bim, tb == 'T' ? bi0 : bj0,
                      tb == 'T' ? bj0 : bi0, a, aim, ta == 'T' ? ai0 : aj0, ta == 'T' ? aj0 : ai0,
                      c, cim, cj0, ci0, "GA_Matmul_patch");
        /* NGA_Matmul_patch(64): the ranges as lo/hi arrays (row, column) of the C view, the
         * product the C view's: C[ci0 + i][cj0 + j] = alpha sum_l op(A)[ai0 + i][aj0 + l]
         * op(B)[bi0 + l][bj0 + j]. */
        put_all(g_c, type, c, cim);
        int alo[2] = {ai0, aj0}, ahi[2] = {ai0 + m - 1, aj0 + k - 1};
        int blo[2] = {bi0, bj0}, bhi[2] = {bi0 + k - 1, bj0 + n - 1};
        int clo[2] = {ci0, cj0}, chi[2] = {ci0 + m - 1, cj0 + n - 1};
        if (rotation % 2 == 0) {
          NGA_Matmul_patch(ta, tb, alpha, beta, g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi);
        } else {
          int64_t alo64[2], ahi64[2], blo64[2], bhi64[2], clo64[2], chi64[2];
          for (int d = 0; d < 2; ++d) {
            alo64[d] = alo[d], ahi64[d] = ahi[d], blo64[d] = blo[d], bhi64[d] = bhi[d];
            clo64[d] = clo[d], chi64[d] = chi[d];
          }
          NGA_Matmul_patch64(ta, tb, alpha, beta, g_a, alo64, ahi64, g_b, blo64, bhi64, g_c, clo64,
                             chi64);
        }
        check_product(g_c, type, ta, tb, m, n, k, 2.0, 0.0, a, aim, ta == 'T' ? aj0 : ai0,
                      ta == 'T' ? ai0 : aj0, b, bim, tb == 'T' ? bj0 : bi0, tb == 'T' ? bi0 : bj0,
                      c, cim, ci0, cj0, "NGA_Matmul_patch");
        GA_Destroy(g_a);
        GA_Destroy(g_b);
        GA_Destroy(g_c);
      }
  }
  if (GA_Nodeid() == 0) printf("ga gemm: ok\n");
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
