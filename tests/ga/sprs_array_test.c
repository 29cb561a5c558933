/* GA 5.9's sparse arrays (NGA_Sprs_array_*) against a dense serial reference every rank
 * computes: elements added from all ranks (some (i, j) added twice, from different ranks, which
 * assembly sums), GA's row and column distribution, the CSR blocks access_col_block returns,
 * get_block of every block, export (read back), matvec, get_diag, shift_diag, diag left /
 * right multiply, duplicate, matmat, create_from_dense(64), elementwise_multiply, the int-index
 * forms on a C_INT array, a double complex matrix, and a Jacobi iteration on a 2-D Laplacian
 * converging to the known solution. With an argument: one misuse, which must end the job with
 * GA_Error's message. */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"
#include "remora.h"

static int me, nproc;

/* Deterministic pseudo-random numbers, the same on every rank. */
static uint64_t rng = 12345;
static double next_random(void) {
  rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(rng >> 11) / 9007199254740992.0;
}

/* GA's block of index k among dim split n ways: k belongs to (k*n)/dim. */
static void expected_block(int64_t dim, int p, int64_t* lo, int64_t* hi) {
  *lo = -1;
  *hi = -2;
  for (int64_t k = 0; k < dim; ++k)
    if ((k * nproc) / dim == p) {
      if (*lo < 0) *lo = k;
      *hi = k;
    }
  if (*lo < 0) { /* empty block: lo..hi is an empty range at its place */
    int64_t first = 0;
    while (first < dim && (first * nproc) / dim < p) ++first;
    *lo = first;
    *hi = first - 1;
  }
}

/* A random idim x jdim sparse matrix (density about 1/4 plus the diagonal): its dense
 * reference in ref, added to s_a element by element, spread over the ranks, some elements in
 * two parts from two ranks. */
static int random_matrix(int64_t idim, int64_t jdim, double* ref) {
  int s_a = NGA_Sprs_array_create64(idim, jdim, C_DBL);
  int64_t count = 0;
  for (int64_t i = 0; i < idim; ++i)
    for (int64_t j = 0; j < jdim; ++j) {
      double r = next_random();
      double v = 0;
      if (i == j || r < 0.25) v = 1.0 + floor(next_random() * 9.0) * (r < 0.125 ? -1 : 1);
      ref[i * jdim + j] = v;
      if (v == 0) continue;
      if (count % 5 == 0) { /* a duplicate: two parts from two ranks */
        double a = 0.25 * v, b = 0.75 * v;
        if (count % nproc == me) NGA_Sprs_array_add_element64(s_a, i, j, &a);
        if ((count + 1) % nproc == me) NGA_Sprs_array_add_element64(s_a, i, j, &b);
      } else if (count % nproc == me) {
        NGA_Sprs_array_add_element64(s_a, i, j, &v);
      }
      ++count;
    }
  CHECK(NGA_Sprs_array_assemble(s_a) == 1);
  return s_a;
}

/* Every block this rank holds equals the reference; blocks without entries are NULL. */
static void check_blocks(int s_a, int64_t idim, int64_t jdim, const double* ref) {
  int64_t ilo, ihi;
  NGA_Sprs_array_row_distribution64(s_a, me, &ilo, &ihi);
  int* list = NULL;
  int nlist = -1;
  NGA_Sprs_array_col_block_list(s_a, &list, &nlist);
  int listed = 0;
  for (int icol = 0; icol < nproc; ++icol) {
    int64_t jlo, jhi;
    NGA_Sprs_array_column_distribution64(s_a, icol, &jlo, &jhi);
    int64_t *idx, *jdx;
    double* val;
    NGA_Sprs_array_access_col_block64(s_a, icol, &idx, &jdx, (void**)&val);
    int64_t nonzero = 0;
    for (int64_t i = ilo; i <= ihi; ++i)
      for (int64_t j = jlo; j <= jhi; ++j)
        if (ref[i * jdim + j] != 0) ++nonzero;
    if (nonzero == 0) {
      CHECK(idx == NULL && jdx == NULL && val == NULL);
      continue;
    }
    CHECK(listed < nlist && list[listed] == icol);
    ++listed;
    CHECK(idx != NULL && jdx != NULL && val != NULL);
    CHECK(idx[0] == 0);
    CHECK(idx[ihi - ilo + 1] == nonzero);
    for (int64_t i = ilo; i <= ihi; ++i) {
      int64_t k = idx[i - ilo];
      for (int64_t j = jlo; j <= jhi; ++j) {
        if (ref[i * jdim + j] == 0) continue;
        CHECK(k < idx[i - ilo + 1]); /* in increasing column order, one entry per (i, j) */
        CHECK(jdx[k] == j);
        CHECK(fabs(val[k] - ref[i * jdim + j]) < 1e-12);
        ++k;
      }
      CHECK(k == idx[i - ilo + 1]);
    }
  }
  CHECK(listed == nlist);
  free(list);
  /* Every block of every process through get_block64: copies the caller frees. */
  for (int irow = 0; irow < nproc; ++irow)
    for (int icol = 0; icol < nproc; ++icol) {
      int64_t *idx, *jdx, rlo, rhi, clo, chi, elo, ehi;
      double* val;
      int got = NGA_Sprs_array_get_block64(s_a, irow, icol, &idx, &jdx, (void**)&val, &rlo, &rhi,
                                           &clo, &chi);
      expected_block(idim, irow, &elo, &ehi);
      CHECK(rlo == elo && rhi == ehi);
      expected_block(jdim, icol, &elo, &ehi);
      CHECK(clo == elo && chi == ehi);
      int64_t nonzero = 0;
      for (int64_t i = rlo; i <= rhi; ++i)
        for (int64_t j = clo; j <= chi; ++j)
          if (ref[i * jdim + j] != 0) ++nonzero;
      if (nonzero == 0) {
        CHECK(got == 0 && idx == NULL && jdx == NULL && val == NULL);
        continue;
      }
      CHECK(got == 1 && idx[0] == 0 && idx[rhi - rlo + 1] == nonzero);
      for (int64_t i = rlo; i <= rhi; ++i) {
        int64_t k = idx[i - rlo];
        for (int64_t j = clo; j <= chi; ++j) {
          if (ref[i * jdim + j] == 0) continue;
          CHECK(k < idx[i - rlo + 1] && jdx[k] == j);
          CHECK(fabs(val[k] - ref[i * jdim + j]) < 1e-12);
          ++k;
        }
        CHECK(k == idx[i - rlo + 1]);
      }
      free(idx);
      free(jdx);
      free(val);
    }
}

static int vector(int64_t n, int type) {
  int64_t dim = n;
  return NGA_Create64(type, 1, &dim, "v", NULL);
}

static void fill_vector(int g, int64_t n, const double* v) {
  if (me == 0) {
    int64_t lo = 0, hi = n - 1, ld = 1;
    NGA_Put64(g, &lo, &hi, (void*)v, &ld);
  }
  GA_Sync();
}

static void read_vector(int g, int64_t n, double* v) {
  int64_t lo = 0, hi = n - 1, ld = 1;
  NGA_Get64(g, &lo, &hi, v, &ld);
}

static void check_matvec(int s_a, int64_t idim, int64_t jdim, const double* ref) {
  double* x = malloc(sizeof(double) * jdim);
  double* y = malloc(sizeof(double) * idim);
  for (int64_t j = 0; j < jdim; ++j) x[j] = 0.5 + (double)(j % 7) - 0.25 * (double)(j % 3);
  int g_x = vector(jdim, C_DBL), g_y = vector(idim, C_DBL);
  fill_vector(g_x, jdim, x);
  NGA_Sprs_array_matvec_multiply(s_a, g_x, g_y);
  read_vector(g_y, idim, y);
  for (int64_t i = 0; i < idim; ++i) {
    double sum = 0;
    for (int64_t j = 0; j < jdim; ++j) sum += ref[i * jdim + j] * x[j];
    CHECK(fabs(y[i] - sum) < 1e-9);
  }
  GA_Sync();
  GA_Destroy(g_x);
  GA_Destroy(g_y);
  free(x);
  free(y);
}

/* NGA_Sprs_array_export: rank 0 reads the Matrix Market file back; every non-zero of the
 * reference appears once, rows in order and columns in order within a row. */
static void check_export(int s_a, int64_t idim, int64_t jdim, const double* ref) {
  char file[64];
  snprintf(file, sizeof file, "sprs_export_np%d.mtx", nproc);
  NGA_Sprs_array_export(s_a, file);
  if (me == 0) {
    FILE* in = fopen(file, "r");
    CHECK(in != NULL);
    char header[128];
    CHECK(fgets(header, sizeof header, in) != NULL);
    CHECK(strcmp(header, "%%MatrixMarket matrix coordinate real general\n") == 0);
    long long rows, cols, nnz, expected = 0;
    CHECK(fscanf(in, "%lld %lld %lld", &rows, &cols, &nnz) == 3);
    CHECK(rows == idim && cols == jdim);
    for (int64_t i = 0; i < idim; ++i)
      for (int64_t j = 0; j < jdim; ++j)
        if (ref[i * jdim + j] != 0) {
          long long fi, fj;
          double v;
          CHECK(fscanf(in, "%lld %lld %lf", &fi, &fj, &v) == 3);
          CHECK(fi == i + 1 && fj == j + 1 && v == ref[i * jdim + j]);
          ++expected;
        }
    CHECK(nnz == expected);
    long long extra;
    CHECK(fscanf(in, "%lld", &extra) == EOF);
    fclose(in);
    remove(file);
  }
  GA_Sync();
}

static void test_random(void) {
  const int64_t idim = 37, jdim = 29, kdim = 23;
  double* a = malloc(sizeof(double) * idim * jdim);
  double* b = malloc(sizeof(double) * jdim * kdim);
  double* c = malloc(sizeof(double) * idim * kdim);
  int s_a = random_matrix(idim, jdim, a);
  int s_b = random_matrix(jdim, kdim, b);

  /* Distributions: GA's rule, for every process. */
  for (int p = 0; p < nproc; ++p) {
    int64_t lo, hi, elo, ehi;
    NGA_Sprs_array_row_distribution64(s_a, p, &lo, &hi);
    expected_block(idim, p, &elo, &ehi);
    CHECK(lo == elo && hi == ehi);
    NGA_Sprs_array_column_distribution64(s_a, p, &lo, &hi);
    expected_block(jdim, p, &elo, &ehi);
    CHECK(lo == elo && hi == ehi);
  }
  check_blocks(s_a, idim, jdim, a);
  check_blocks(s_b, jdim, kdim, b);
  check_export(s_a, idim, jdim, a);
  /* create_from_dense(64): the non-zeros of a dense 2-D array (and its diagonal, zeros
   * included, which ga.sprs_dense checks: here the diagonal has no zeros, so the elements are
   * exactly the non-zeros). */
  {
    double* d = malloc(sizeof(double) * idim * jdim);
    memcpy(d, a, sizeof(double) * idim * jdim);
    for (int64_t i = 0; i < idim && i < jdim; ++i)
      if (d[i * jdim + i] == 0) d[i * jdim + i] = 7;
    int64_t dims[2] = {idim, jdim};
    int g_a = NGA_Create64(C_DBL, 2, dims, "dense", NULL);
    if (me == 0) {
      int64_t lo[2] = {0, 0}, hi[2] = {idim - 1, jdim - 1}, ld = jdim;
      NGA_Put64(g_a, lo, hi, d, &ld);
    }
    GA_Sync();
    int s_d = NGA_Sprs_array_create_from_dense64(g_a);
    check_blocks(s_d, idim, jdim, d);
    int s_i = NGA_Sprs_array_create_from_dense(g_a);
    check_matvec(s_i, idim, jdim, d);
    free(d);
    CHECK(NGA_Sprs_array_destroy(s_i) == 1);
    CHECK(NGA_Sprs_array_destroy(s_d) == 1);
    GA_Destroy(g_a);
  }
  check_matvec(s_a, idim, jdim, a);

  /* matmat: C = A B. */
  for (int64_t i = 0; i < idim; ++i)
    for (int64_t k = 0; k < kdim; ++k) {
      double sum = 0;
      for (int64_t j = 0; j < jdim; ++j) sum += a[i * jdim + j] * b[j * kdim + k];
      c[i * kdim + k] = sum;
    }
  int s_c = NGA_Sprs_array_matmat_multiply(s_a, s_b);
  {
    /* Structural entries may hold 0 (cancellation); compare through the blocks densely. */
    int64_t ilo, ihi;
    NGA_Sprs_array_row_distribution64(s_c, me, &ilo, &ihi);
    double* dense = calloc((size_t)(idim * kdim), sizeof(double));
    for (int icol = 0; icol < nproc; ++icol) {
      int64_t jlo, jhi, *idx, *jdx;
      double* val;
      NGA_Sprs_array_column_distribution64(s_c, icol, &jlo, &jhi);
      NGA_Sprs_array_access_col_block64(s_c, icol, &idx, &jdx, (void**)&val);
      if (idx == NULL) continue;
      for (int64_t i = ilo; i <= ihi; ++i)
        for (int64_t k = idx[i - ilo]; k < idx[i - ilo + 1]; ++k) {
          CHECK(jdx[k] >= jlo && jdx[k] <= jhi);
          dense[i * kdim + jdx[k]] += val[k];
        }
    }
    for (int64_t i = ilo; i <= ihi; ++i)
      for (int64_t k = 0; k < kdim; ++k) CHECK(fabs(dense[i * kdim + k] - c[i * kdim + k]) < 1e-9);
    free(dense);
  }
  check_matvec(s_c, idim, kdim, c);
  CHECK(NGA_Sprs_array_destroy(s_c) == 1);

  /* Diagonal operations on the square 29 x 23 ... use B B^T's shape: a square random matrix. */
  const int64_t n = 31;
  double* q = malloc(sizeof(double) * n * n);
  double* d = malloc(sizeof(double) * n);
  int s_q = random_matrix(n, n, q);
  int g_d = 0;
  NGA_Sprs_array_get_diag(s_q, &g_d);
  {
    int type, ndim;
    int64_t dims[GA_MAX_DIM];
    NGA_Inquire64(g_d, &type, &ndim, dims);
    CHECK(type == C_DBL && ndim == 1 && dims[0] == n);
    int64_t lo, hi, rlo, rhi; /* split as the rows are, as in GA */
    NGA_Distribution64(g_d, me, &lo, &hi);
    NGA_Sprs_array_row_distribution64(s_q, me, &rlo, &rhi);
    CHECK(lo == rlo && hi == rhi);
  }
  read_vector(g_d, n, d);
  for (int64_t i = 0; i < n; ++i) CHECK(d[i] == q[i * n + i]);
  GA_Sync();

  int s_dup = NGA_Sprs_array_duplicate(s_q);
  CHECK(s_dup != s_q);
  double shift = 2.5;
  NGA_Sprs_array_shift_diag(s_dup, &shift);
  double* q2 = malloc(sizeof(double) * n * n);
  memcpy(q2, q, sizeof(double) * n * n);
  for (int64_t i = 0; i < n; ++i) q2[i * n + i] += shift;
  check_blocks(s_dup, n, n, q2);
  check_blocks(s_q, n, n, q); /* the original is unchanged */
  check_matvec(s_dup, n, n, q2);

  /* Left: rows scaled by d; right: columns scaled by e. */
  double* e = malloc(sizeof(double) * n);
  for (int64_t i = 0; i < n; ++i) {
    d[i] = 1.0 + (double)(i % 4);
    e[i] = 2.0 - (double)(i % 3);
  }
  int g_l = vector(n, C_DBL), g_r = vector(n, C_DBL);
  fill_vector(g_l, n, d);
  fill_vector(g_r, n, e);
  NGA_Sprs_array_diag_left_multiply(s_dup, g_l);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) q2[i * n + j] *= d[i];
  check_matvec(s_dup, n, n, q2);
  NGA_Sprs_array_diag_right_multiply(s_dup, g_r);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) q2[i * n + j] *= e[j];
  check_matvec(s_dup, n, n, q2);
  check_matvec(s_q, n, n, q);
  /* elementwise_multiply: Q .* Q2. */
  {
    int s_e = NGA_Sprs_array_elementwise_multiply(s_q, s_dup);
    double* qe = malloc(sizeof(double) * n * n);
    for (int64_t k = 0; k < n * n; ++k) qe[k] = q[k] * q2[k];
    check_matvec(s_e, n, n, qe);
    CHECK(NGA_Sprs_array_destroy(s_e) == 1);
    free(qe);
  }

  GA_Destroy(g_d);
  GA_Destroy(g_l);
  GA_Destroy(g_r);
  CHECK(NGA_Sprs_array_destroy(s_dup) == 1);
  CHECK(NGA_Sprs_array_destroy(s_q) == 1);
  CHECK(NGA_Sprs_array_destroy(s_a) == 1);
  CHECK(NGA_Sprs_array_destroy(s_b) == 1);
  free(a);
  free(b);
  free(c);
  free(q);
  free(q2);
  free(d);
  free(e);
}

/* The int-index forms on a C_INT array: a tridiagonal matrix, every element added by the rank
 * that owns its column (as GA's examples do), checked through the int CSR and an int matvec. */
static void test_int_form(void) {
  const int n = 26;
  int s_a = NGA_Sprs_array_create(n, n, C_INT);
  for (int i = 0; i < n; ++i)
    for (int j = i - 1; j <= i + 1; ++j) {
      if (j < 0 || j >= n || j % nproc != me) continue;
      int v = i == j ? 2 + i : -1 - (i + j) % 3;
      NGA_Sprs_array_add_element(s_a, i, j, &v);
    }
  CHECK(NGA_Sprs_array_assemble(s_a) == 1);
  int ilo, ihi;
  NGA_Sprs_array_row_distribution(s_a, me, &ilo, &ihi);
  int total = 0;
  for (int icol = 0; icol < nproc; ++icol) {
    int jlo, jhi, *idx, *jdx;
    int* val;
    NGA_Sprs_array_column_distribution(s_a, icol, &jlo, &jhi);
    NGA_Sprs_array_access_col_block(s_a, icol, &idx, &jdx, &val); /* int**, as GA's void* takes */
    if (idx == NULL) continue;
    for (int i = ilo; i <= ihi; ++i)
      for (int k = idx[i - ilo]; k < idx[i - ilo + 1]; ++k) {
        int j = jdx[k];
        CHECK(j >= jlo && j <= jhi && j >= i - 1 && j <= i + 1);
        CHECK(val[k] == (i == j ? 2 + i : -1 - (i + j) % 3));
        ++total;
      }
  }
  int expected = 0;
  for (int i = ilo; i <= ihi; ++i) expected += (i > 0) + 1 + (i < n - 1);
  CHECK(total == expected);
  /* The int get_block: every block of every process adds up to the whole matrix. */
  int all = 0;
  for (int irow = 0; irow < nproc; ++irow)
    for (int icol = 0; icol < nproc; ++icol) {
      int *idx, *jdx, *val, rlo, rhi, clo, chi;
      int got = NGA_Sprs_array_get_block(s_a, irow, icol, &idx, &jdx, (void**)&val, &rlo, &rhi,
                                         &clo, &chi);
      if (!got) {
        for (int i = rlo; i <= rhi; ++i) CHECK(i + 1 < clo || i - 1 > chi);
        continue;
      }
      for (int i = rlo; i <= rhi; ++i)
        for (int k = idx[i - rlo]; k < idx[i - rlo + 1]; ++k) {
          CHECK(jdx[k] >= clo && jdx[k] <= chi && jdx[k] >= i - 1 && jdx[k] <= i + 1);
          CHECK(val[k] == (i == jdx[k] ? 2 + i : -1 - (i + jdx[k]) % 3));
          ++all;
        }
      free(idx);
      free(jdx);
      free(val);
    }
  CHECK(all == 3 * n - 2);
  int dims = n;
  int g_x = NGA_Create(C_INT, 1, &dims, "x", NULL), g_y = NGA_Create(C_INT, 1, &dims, "y", NULL);
  int x[26], y[26];
  for (int i = 0; i < n; ++i) x[i] = i % 5 - 2;
  if (me == 0) {
    int lo = 0, hi = n - 1, ld = 1;
    NGA_Put(g_x, &lo, &hi, x, &ld);
  }
  GA_Sync();
  NGA_Sprs_array_matvec_multiply(s_a, g_x, g_y);
  {
    int lo = 0, hi = n - 1, ld = 1;
    NGA_Get(g_y, &lo, &hi, y, &ld);
  }
  for (int i = 0; i < n; ++i) {
    int sum = 0;
    for (int j = i - 1; j <= i + 1; ++j)
      if (j >= 0 && j < n) sum += (i == j ? 2 + i : -1 - (i + j) % 3) * x[j];
    CHECK(y[i] == sum);
  }
  GA_Sync();
  GA_Destroy(g_x);
  GA_Destroy(g_y);
  CHECK(NGA_Sprs_array_destroy(s_a) == 1);
}

/* A double complex tridiagonal matrix: matvec, get_diag, shift_diag, diag left / right
 * multiply with complex factors, against the complex arithmetic done here. */
static DoubleComplex cmul(DoubleComplex a, DoubleComplex b) {
  DoubleComplex c = {a.real * b.real - a.imag * b.imag, a.real * b.imag + a.imag * b.real};
  return c;
}
static DoubleComplex entry(int64_t i, int64_t j) {
  DoubleComplex v = {(double)(i + 1), (double)(j - i) - 0.5};
  return v;
}
static void test_complex(void) {
  const int64_t n = 19;
  DoubleComplex a[19][19], x[19], y[19], d[19], e[19];
  memset(a, 0, sizeof a);
  int s_a = NGA_Sprs_array_create64(n, n, C_DCPL);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i - 1; j <= i + 1; ++j)
      if (j >= 0 && j < n) {
        a[i][j] = entry(i, j);
        if ((i + j) % nproc == me) NGA_Sprs_array_add_element64(s_a, i, j, &a[i][j]);
      }
  CHECK(NGA_Sprs_array_assemble(s_a) == 1);
  DoubleComplex shift = {1.0, -2.0};
  NGA_Sprs_array_shift_diag(s_a, &shift);
  for (int64_t k = 0; k < n; ++k) {
    a[k][k].real += shift.real;
    a[k][k].imag += shift.imag;
    d[k].real = 1.0 + (double)(k % 3);
    d[k].imag = 0.5;
    e[k].real = -1.0;
    e[k].imag = (double)(k % 4);
    x[k].real = (double)(k % 5);
    x[k].imag = 1.0 - (double)(k % 2);
  }
  int64_t dim = n, lo = 0, hi = n - 1, ld = 1;
  int g_l = NGA_Create64(C_DCPL, 1, &dim, "l", NULL),
      g_r = NGA_Create64(C_DCPL, 1, &dim, "r", NULL);
  int g_x = NGA_Create64(C_DCPL, 1, &dim, "x", NULL),
      g_y = NGA_Create64(C_DCPL, 1, &dim, "y", NULL);
  if (me == 0) {
    NGA_Put64(g_l, &lo, &hi, d, &ld);
    NGA_Put64(g_r, &lo, &hi, e, &ld);
    NGA_Put64(g_x, &lo, &hi, x, &ld);
  }
  GA_Sync();
  NGA_Sprs_array_diag_left_multiply(s_a, g_l);
  NGA_Sprs_array_diag_right_multiply(s_a, g_r);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) a[i][j] = cmul(cmul(d[i], a[i][j]), e[j]);
  NGA_Sprs_array_matvec_multiply(s_a, g_x, g_y);
  NGA_Get64(g_y, &lo, &hi, y, &ld);
  for (int64_t i = 0; i < n; ++i) {
    DoubleComplex sum = {0, 0};
    for (int64_t j = 0; j < n; ++j) {
      DoubleComplex p = cmul(a[i][j], x[j]);
      sum.real += p.real;
      sum.imag += p.imag;
    }
    CHECK(fabs(y[i].real - sum.real) < 1e-9 && fabs(y[i].imag - sum.imag) < 1e-9);
  }
  int g_d;
  NGA_Sprs_array_get_diag(s_a, &g_d);
  NGA_Get64(g_d, &lo, &hi, y, &ld);
  for (int64_t i = 0; i < n; ++i)
    CHECK(fabs(y[i].real - a[i][i].real) < 1e-12 && fabs(y[i].imag - a[i][i].imag) < 1e-12);
  GA_Sync();
  GA_Destroy(g_l);
  GA_Destroy(g_r);
  GA_Destroy(g_x);
  GA_Destroy(g_y);
  GA_Destroy(g_d);
  CHECK(NGA_Sprs_array_destroy(s_a) == 1);
}

/* Jacobi on the 5-point Laplacian of an nx x ny grid plus 1 on the diagonal (so it converges
 * fast): b = A x_true, x <- x + D^-1 (b - A x) until x equals x_true. */
static void test_jacobi(void) {
  const int64_t nx = 9, ny = 7, n = nx * ny;
  int s_a = NGA_Sprs_array_create64(n, n, C_DBL);
  int64_t ilo = n * me / nproc, ihi = n * (me + 1) / nproc - 1; /* any split of the adding */
  for (int64_t row = ilo; row <= ihi; ++row) {
    int64_t ix = row % nx, iy = row / nx;
    double diag = 5.0, off = -1.0;
    NGA_Sprs_array_add_element64(s_a, row, row, &diag);
    if (ix > 0) NGA_Sprs_array_add_element64(s_a, row, row - 1, &off);
    if (ix < nx - 1) NGA_Sprs_array_add_element64(s_a, row, row + 1, &off);
    if (iy > 0) NGA_Sprs_array_add_element64(s_a, row, row - nx, &off);
    if (iy < ny - 1) NGA_Sprs_array_add_element64(s_a, row, row + nx, &off);
  }
  CHECK(NGA_Sprs_array_assemble(s_a) == 1);
  double* truth = malloc(sizeof(double) * n);
  double* buf = malloc(sizeof(double) * n);
  for (int64_t k = 0; k < n; ++k) truth[k] = sin(0.3 * (double)k) + 0.01 * (double)k;
  int g_t = vector(n, C_DBL), g_b = vector(n, C_DBL), g_x = vector(n, C_DBL),
      g_ax = vector(n, C_DBL);
  fill_vector(g_t, n, truth);
  NGA_Sprs_array_matvec_multiply(s_a, g_t, g_b);
  int g_d;
  NGA_Sprs_array_get_diag(s_a, &g_d);
  GA_Zero(g_x);
  int iterations = 0;
  double err = 1;
  while (err > 1e-10 && iterations < 500) {
    NGA_Sprs_array_matvec_multiply(s_a, g_x, g_ax);
    /* x += (b - Ax) / d on this rank's part of x. */
    int64_t lo, hi, ld = 1;
    NGA_Distribution64(g_x, me, &lo, &hi);
    if (lo <= hi) {
      int64_t m = hi - lo + 1;
      double *x = malloc(sizeof(double) * m), *b = malloc(sizeof(double) * m),
             *ax = malloc(sizeof(double) * m), *d = malloc(sizeof(double) * m);
      NGA_Get64(g_x, &lo, &hi, x, &ld);
      NGA_Get64(g_b, &lo, &hi, b, &ld);
      NGA_Get64(g_ax, &lo, &hi, ax, &ld);
      NGA_Get64(g_d, &lo, &hi, d, &ld);
      for (int64_t k = 0; k < m; ++k) x[k] += (b[k] - ax[k]) / d[k];
      NGA_Put64(g_x, &lo, &hi, x, &ld);
      free(x);
      free(b);
      free(ax);
      free(d);
    }
    GA_Sync();
    read_vector(g_x, n, buf);
    err = 0;
    for (int64_t k = 0; k < n; ++k) err = fmax(err, fabs(buf[k] - truth[k]));
    GA_Dgop(&err, 1, "max");
    ++iterations;
  }
  if (me == 0) printf("jacobi: %d iterations, max error %.3g\n", iterations, err);
  CHECK(err <= 1e-10);
  GA_Destroy(g_t);
  GA_Destroy(g_b);
  GA_Destroy(g_x);
  GA_Destroy(g_ax);
  GA_Destroy(g_d);
  CHECK(NGA_Sprs_array_destroy(s_a) == 1);
  free(truth);
  free(buf);
}

/* One misuse (argv[1]); GA_Error ends the job with the message the CMake test expects. */
static void misuse(const char* mode) {
  int s_a = NGA_Sprs_array_create64(10, 8, C_DBL);
  double one = 1;
  if (strcmp(mode, "handle") == 0) {
    int g = vector(8, C_DBL), h = vector(10, C_DBL);
    NGA_Sprs_array_matvec_multiply(12345, g, h);
  } else if (strcmp(mode, "row") == 0) {
    NGA_Sprs_array_add_element64(s_a, 10, 0, &one);
  } else if (strcmp(mode, "assembled") == 0) {
    NGA_Sprs_array_assemble(s_a);
    NGA_Sprs_array_add_element64(s_a, 1, 1, &one);
  } else if (strcmp(mode, "unassembled") == 0) {
    int g_d;
    NGA_Sprs_array_get_diag(s_a, &g_d);
  } else if (strcmp(mode, "length") == 0) {
    NGA_Sprs_array_assemble(s_a);
    int g = vector(10, C_DBL), h = vector(10, C_DBL);
    NGA_Sprs_array_matvec_multiply(s_a, g, h);
  } else if (strcmp(mode, "type") == 0) {
    NGA_Sprs_array_create64(4, 4, 4242);
  } else if (strcmp(mode, "width") == 0) {
    NGA_Sprs_array_assemble(s_a);
    int *idx, *jdx;
    void* val;
    NGA_Sprs_array_access_col_block(s_a, 0, &idx, &jdx, &val);
  } else if (strcmp(mode, "block") == 0) {
    NGA_Sprs_array_assemble(s_a);
    int64_t *idx, *jdx, lo, hi, clo, chi;
    void* val;
    NGA_Sprs_array_get_block64(s_a, nproc, 0, &idx, &jdx, &val, &lo, &hi, &clo, &chi);
  } else if (strcmp(mode, "destroyed") == 0) {
    NGA_Sprs_array_destroy(s_a);
    NGA_Sprs_array_assemble(s_a);
  } else if (strcmp(mode, "terminated") == 0) { /* a handle kept across GA_Terminate */
    GA_Terminate(); /* Remora, started by main, stays up: GA can start again */
    GA_Initialize();
    NGA_Sprs_array_assemble(s_a);
  }
  fprintf(stderr, "misuse '%s' was not caught\n", mode);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc > 1 && strcmp(argv[1], "terminated") == 0)
    CHECK(remora_init(&argc, &argv) == REMORA_SUCCESS); /* so that GA_Terminate keeps it */
  GA_Initialize();
  me = GA_Nodeid();
  nproc = GA_Nnodes();
  if (argc > 1) {
    misuse(argv[1]);
    GA_Terminate();
    MPI_Finalize();
    return 0; /* reaching here fails the EXPECT_FAILURE test */
  }
  test_random();
  test_int_form();
  test_complex();
  test_jacobi();
  if (me == 0) printf("sprs_array: all checks passed on %d ranks\n", nproc);
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
