/* GA's sparse-dense calls (NGA_Sprs_array_create_from_sparse, _sprsdns_multiply,
 * _dnssprs_multiply, _sampled_multiply, _quantize256, _activate_ReLU(64)) and create_from_dense's
 * diagonal, against dense serial references every rank computes. Matrices are not square, so
 * every dimension check is exercised; values are small integers, so results are compared
 * exactly. With an argument: one misuse, which must end the job with GA_Error's message. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

static int me, nproc;

static uint64_t rng = 4242;
static int next_int(int n) { /* the same sequence on every rank */
  rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
  return (int)((rng >> 33) % (uint64_t)n);
}

/* A 64-bit-index double sparse array of the non-zeros of ref (idim x jdim), elements spread over
 * the ranks. */
static int sparse_from(const double* ref, int64_t idim, int64_t jdim) {
  int s = NGA_Sprs_array_create64(idim, jdim, C_DBL);
  int64_t count = 0;
  for (int64_t i = 0; i < idim; ++i)
    for (int64_t j = 0; j < jdim; ++j)
      if (ref[i * jdim + j] != 0 && count++ % nproc == me)
        NGA_Sprs_array_add_element64(s, i, j, (void*)&ref[i * jdim + j]);
  CHECK(NGA_Sprs_array_assemble(s) == 1);
  return s;
}

/* A random idim x jdim matrix, about one element in three non-zero, values in [lo, hi]. */
static void random_sparse(double* ref, int64_t idim, int64_t jdim, int lo, int hi) {
  for (int64_t k = 0; k < idim * jdim; ++k) {
    ref[k] = 0;
    if (next_int(3) == 0) {
      int v = lo + next_int(hi - lo + 1);
      ref[k] = v == 0 ? 1 : v;
    }
  }
}

static int dense_from(const double* ref, int64_t rows, int64_t cols) {
  int64_t dims[2] = {rows, cols};
  int g = NGA_Create64(C_DBL, 2, dims, "dense", NULL);
  if (me == 0) {
    int64_t lo[2] = {0, 0}, hi[2] = {rows - 1, cols - 1}, ld = cols;
    NGA_Put64(g, lo, hi, (void*)ref, &ld);
  }
  GA_Sync();
  return g;
}

static void read_dense(int g, int64_t rows, int64_t cols, double* out) {
  int64_t lo[2] = {0, 0}, hi[2] = {rows - 1, cols - 1}, ld = cols;
  NGA_Get64(g, lo, hi, out, &ld);
}

/* First row of block p when dim rows go to nproc blocks, row k to block (k*nproc)/dim. */
static int64_t first_row(int64_t dim, int p) {
  int64_t k = 0;
  while (k < dim && (k * nproc) / dim < p) ++k;
  return k;
}

/* A dense result's rows are split as the sparse arrays' rows: GA's rule. */
static void check_row_split(int g, int64_t rows, int64_t cols) {
  if (rows < nproc) return; /* some block would be empty: the default distribution */
  for (int p = 0; p < nproc; ++p) {
    int64_t lo[2], hi[2];
    NGA_Distribution64(g, p, lo, hi);
    CHECK(lo[0] == first_row(rows, p) && hi[0] == first_row(rows, p + 1) - 1);
    CHECK(lo[1] == 0 && hi[1] == cols - 1);
  }
}

/* Every stored element of a 64-bit-index sparse array, read with get_block64 from every block:
 * present[k] counts entries at k (an entry appears once), val[k] their value. */
static void gather(int s, int64_t idim, int64_t jdim, double* val, int* present) {
  memset(present, 0, sizeof(int) * (size_t)(idim * jdim));
  for (int64_t k = 0; k < idim * jdim; ++k) val[k] = 0;
  for (int irow = 0; irow < nproc; ++irow)
    for (int icol = 0; icol < nproc; ++icol) {
      int64_t *idx, *jdx, rlo, rhi, clo, chi;
      double* v;
      if (!NGA_Sprs_array_get_block64(s, irow, icol, &idx, &jdx, (void**)&v, &rlo, &rhi, &clo,
                                      &chi))
        continue;
      for (int64_t i = rlo; i <= rhi; ++i)
        for (int64_t e = idx[i - rlo]; e < idx[i - rlo + 1]; ++e) {
          CHECK(jdx[e] >= clo && jdx[e] <= chi);
          present[i * jdim + jdx[e]]++;
          val[i * jdim + jdx[e]] = v[e];
        }
      free(idx);
      free(jdx);
      free(v);
    }
}

static void test_dense_products(void) {
  const int64_t m = 19, idim = 23, jdim = 17, n = 11;
  double* s_ref = malloc(sizeof(double) * idim * jdim);
  double* b_ref = malloc(sizeof(double) * jdim * n);
  double* a_ref = malloc(sizeof(double) * m * idim);
  double* out = malloc(sizeof(double) * idim * jdim * 2 + sizeof(double) * m * jdim);
  random_sparse(s_ref, idim, jdim, -4, 9);
  for (int64_t k = 0; k < jdim * n; ++k) b_ref[k] = next_int(11) - 5;
  for (int64_t k = 0; k < m * idim; ++k) a_ref[k] = next_int(7) - 3;
  int s_a = sparse_from(s_ref, idim, jdim);

  /* create_from_sparse: the matrix densely, zeros elsewhere, rows split as s_a's. */
  int g_d = NGA_Sprs_array_create_from_sparse(s_a);
  {
    int type, ndim;
    int64_t dims[2];
    NGA_Inquire64(g_d, &type, &ndim, dims);
    CHECK(type == C_DBL && ndim == 2 && dims[0] == idim && dims[1] == jdim);
  }
  check_row_split(g_d, idim, jdim);
  read_dense(g_d, idim, jdim, out);
  for (int64_t k = 0; k < idim * jdim; ++k) CHECK(out[k] == s_ref[k]);
  GA_Destroy(g_d);

  /* sprsdns: C = S B, idim x n. */
  int g_b = dense_from(b_ref, jdim, n);
  int g_c = NGA_Sprs_array_sprsdns_multiply(s_a, g_b);
  {
    int type, ndim;
    int64_t dims[2];
    NGA_Inquire64(g_c, &type, &ndim, dims);
    CHECK(type == C_DBL && ndim == 2 && dims[0] == idim && dims[1] == n);
  }
  check_row_split(g_c, idim, n);
  read_dense(g_c, idim, n, out);
  for (int64_t i = 0; i < idim; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t k = 0; k < jdim; ++k) sum += s_ref[i * jdim + k] * b_ref[k * n + j];
      CHECK(out[i * n + j] == sum);
    }
  GA_Destroy(g_c);
  GA_Destroy(g_b);

  /* dnssprs: C = A S, m x jdim. */
  int g_a = dense_from(a_ref, m, idim);
  g_c = NGA_Sprs_array_dnssprs_multiply(g_a, s_a);
  {
    int type, ndim;
    int64_t dims[2];
    NGA_Inquire64(g_c, &type, &ndim, dims);
    CHECK(type == C_DBL && ndim == 2 && dims[0] == m && dims[1] == jdim);
  }
  check_row_split(g_c, m, jdim);
  read_dense(g_c, m, jdim, out);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < jdim; ++j) {
      double sum = 0;
      for (int64_t k = 0; k < idim; ++k) sum += a_ref[i * idim + k] * s_ref[k * jdim + j];
      CHECK(out[i * jdim + j] == sum);
    }
  GA_Destroy(g_c);
  GA_Destroy(g_a);

  /* The int-index form through sprsdns as well (identity times B gives B's rows). */
  {
    int s_i = NGA_Sprs_array_create(5, 5, C_DBL);
    double one = 1;
    for (int i = 0; i < 5; ++i)
      if (i % nproc == me) NGA_Sprs_array_add_element(s_i, i, i, &one);
    NGA_Sprs_array_assemble(s_i);
    double b5[15];
    for (int k = 0; k < 15; ++k) b5[k] = k + 1;
    int g5 = dense_from(b5, 5, 3);
    int g6 = NGA_Sprs_array_sprsdns_multiply(s_i, g5);
    double got[15];
    read_dense(g6, 5, 3, got);
    for (int k = 0; k < 15; ++k) CHECK(got[k] == b5[k]);
    GA_Destroy(g6);
    GA_Destroy(g5);
    CHECK(NGA_Sprs_array_destroy(s_i) == 1);
  }
  CHECK(NGA_Sprs_array_destroy(s_a) == 1);
  free(s_ref);
  free(b_ref);
  free(a_ref);
  free(out);
}

static void test_sampled(void) {
  const int64_t idim = 21, jdim = 13, kdim = 6;
  double* c_ref = malloc(sizeof(double) * idim * jdim);
  double* a_ref = malloc(sizeof(double) * idim * kdim);
  double* b_ref = malloc(sizeof(double) * kdim * jdim);
  double* bt_ref = malloc(sizeof(double) * jdim * kdim);
  double* val = malloc(sizeof(double) * idim * jdim);
  int* present = malloc(sizeof(int) * idim * jdim);
  random_sparse(c_ref, idim, jdim, 1, 9);
  for (int64_t k = 0; k < idim * kdim; ++k) a_ref[k] = next_int(9) - 4;
  for (int64_t l = 0; l < kdim; ++l)
    for (int64_t j = 0; j < jdim; ++j) {
      b_ref[l * jdim + j] = next_int(9) - 4;
      bt_ref[j * kdim + l] = b_ref[l * jdim + j];
    }
  int g_a = dense_from(a_ref, idim, kdim);
  int g_b = dense_from(b_ref, kdim, jdim);
  int g_bt = dense_from(bt_ref, jdim, kdim);
  for (int transB = 0; transB <= 1; ++transB) {
    int s_c = sparse_from(c_ref, idim, jdim);
    NGA_Sprs_array_sampled_multiply(g_a, transB ? g_bt : g_b, s_c, transB);
    gather(s_c, idim, jdim, val, present);
    for (int64_t i = 0; i < idim; ++i)
      for (int64_t j = 0; j < jdim; ++j) {
        /* the same elements as before, each now (A B)[i][j] */
        CHECK(present[i * jdim + j] == (c_ref[i * jdim + j] != 0));
        if (!present[i * jdim + j]) continue;
        double sum = 0;
        for (int64_t l = 0; l < kdim; ++l) sum += a_ref[i * kdim + l] * b_ref[l * jdim + j];
        CHECK(val[i * jdim + j] == sum);
      }
    CHECK(NGA_Sprs_array_destroy(s_c) == 1);
  }
  GA_Destroy(g_a);
  GA_Destroy(g_b);
  GA_Destroy(g_bt);
  free(c_ref);
  free(a_ref);
  free(b_ref);
  free(bt_ref);
  free(val);
  free(present);
}

/* GA's quantization of one value (kept: 1 when the element stays). */
static double quantize(double v, double mx, int diagonal, int* kept) {
  *kept = 1;
  if (v >= mx) return 255;
  if (v > 0) {
    double q = (double)(int)((v / mx) * 255.0);
    if (q == 0 && !diagonal) *kept = 0;
    return q;
  }
  if (!diagonal) *kept = 0;
  return 0;
}

static void test_quantize_relu(void) {
  const int64_t idim = 17, jdim = 14;
  double* ref = malloc(sizeof(double) * idim * jdim);
  double* val = malloc(sizeof(double) * idim * jdim);
  int* present = malloc(sizeof(int) * idim * jdim);
  random_sparse(ref, idim, jdim, -30, 60);
  /* values that land exactly on the rules' edges, on and off the diagonal */
  ref[0 * jdim + 0] = -5;   /* diagonal, negative: kept as 0 */
  ref[1 * jdim + 1] = 0.01; /* diagonal, quantizes to 0: kept */
  ref[2 * jdim + 3] = 0.01; /* off the diagonal, quantizes to 0: dropped */
  ref[3 * jdim + 2] = 40;   /* exactly max: 255 */
  ref[4 * jdim + 5] = -1;   /* off the diagonal, negative: dropped */
  int s_a = sparse_from(ref, idim, jdim);
  double mx = 40;
  int s_q = NGA_Sprs_array_quantize256(s_a, &mx);
  gather(s_q, idim, jdim, val, present);
  for (int64_t i = 0; i < idim; ++i)
    for (int64_t j = 0; j < jdim; ++j) {
      const int64_t k = i * jdim + j;
      int kept = 0;
      double q = ref[k] != 0 ? quantize(ref[k], mx, i == j, &kept) : 0;
      CHECK(present[k] == kept);
      if (kept) CHECK(val[k] == q);
    }
  CHECK(val[0] == 0 && present[0] && present[1 * jdim + 1] && !present[2 * jdim + 3]);
  CHECK(val[3 * jdim + 2] == 255 && !present[4 * jdim + 5]);
  /* the original is unchanged */
  gather(s_a, idim, jdim, val, present);
  for (int64_t k = 0; k < idim * jdim; ++k)
    CHECK(present[k] == (ref[k] != 0) && (!present[k] || val[k] == ref[k]));
  CHECK(NGA_Sprs_array_destroy(s_q) == 1);

  /* ReLU in place: v + bias clamped to [0, 32], every element kept. */
  double bias = -2;
  CHECK(NGA_Sprs_array_activate_ReLU64(s_a, &bias, NULL, NULL) == 1);
  gather(s_a, idim, jdim, val, present);
  for (int64_t k = 0; k < idim * jdim; ++k) {
    CHECK(present[k] == (ref[k] != 0));
    if (!present[k]) continue;
    double x = ref[k] + bias;
    CHECK(val[k] == (x < 0 ? 0 : x > 32 ? 32 : x));
  }
  CHECK(NGA_Sprs_array_destroy(s_a) == 1);

  /* The int-index forms on C_INT and C_FLOAT arrays. */
  {
    int s_i = NGA_Sprs_array_create(4, 6, C_INT);
    int vals[4][6] = {
        {3, 0, 9, 0, 0, 1}, {0, -2, 0, 7, 0, 0}, {0, 0, 0, 0, 10, 0}, {5, 0, 0, 4, 0, 0}};
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 6; ++j)
        if (vals[i][j] != 0 && (i + j) % nproc == me)
          NGA_Sprs_array_add_element(s_i, i, j, &vals[i][j]);
    NGA_Sprs_array_assemble(s_i);
    int imax = 9;
    int s_iq = NGA_Sprs_array_quantize256(s_i, &imax);
    int g = NGA_Sprs_array_create_from_sparse(s_iq);
    int got[4][6];
    int64_t lo[2] = {0, 0}, hi[2] = {3, 5}, ld = 6;
    NGA_Get64(g, lo, hi, got, &ld);
    /* 3 -> (int)(3/9*255) = 85, 9 and 10 -> 255, 1 -> 28, -2 (diagonal) -> 0, 7 -> 198, 5 -> 141,
       4 -> 113 */
    int expect[4][6] = {
        {85, 0, 255, 0, 0, 28}, {0, 0, 0, 198, 0, 0}, {0, 0, 0, 0, 255, 0}, {141, 0, 0, 113, 0, 0}};
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 6; ++j) CHECK(got[i][j] == expect[i][j]);
    GA_Destroy(g);
    /* -2 on the diagonal stays as an element holding 0: row 1 keeps two elements */
    int rlo, rhi, clo, chi, *idx, *jdx;
    void* v;
    int stored = 0;
    for (int irow = 0; irow < nproc; ++irow)
      for (int icol = 0; icol < nproc; ++icol)
        if (NGA_Sprs_array_get_block(s_iq, irow, icol, &idx, &jdx, &v, &rlo, &rhi, &clo, &chi)) {
          if (rlo <= 1 && 1 <= rhi) stored += idx[1 - rlo + 1] - idx[1 - rlo];
          free(idx);
          free(jdx);
          free(v);
        }
    CHECK(stored == 2);
    int ibias = 1;
    CHECK(NGA_Sprs_array_activate_ReLU(s_i, &ibias, NULL, NULL) == 1);
    g = NGA_Sprs_array_create_from_sparse(s_i);
    NGA_Get64(g, lo, hi, got, &ld);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 6; ++j) {
        int x = vals[i][j] == 0 ? 0 : vals[i][j] + 1;
        CHECK(got[i][j] == (x < 0 ? 0 : x > 32 ? 32 : x));
      }
    GA_Destroy(g);
    CHECK(NGA_Sprs_array_destroy(s_iq) == 1);
    CHECK(NGA_Sprs_array_destroy(s_i) == 1);

    int s_f = NGA_Sprs_array_create64(3, 3, C_FLOAT);
    float fv[3] = {40.5f, -7.25f, 3.5f};
    if (me == 0)
      for (int i = 0; i < 3; ++i) NGA_Sprs_array_add_element64(s_f, i, (i + 1) % 3, &fv[i]);
    NGA_Sprs_array_assemble(s_f);
    float fbias = 0.5f;
    int64_t cats = 7, *catp = &cats, features = 3;
    CHECK(NGA_Sprs_array_activate_ReLU64(s_f, &fbias, &catp, &features) == 1);
    CHECK(catp == &cats && cats == 7 && features == 3); /* not written */
    g = NGA_Sprs_array_create_from_sparse(s_f);
    float fgot[9];
    int64_t flo[2] = {0, 0}, fhi[2] = {2, 2}, fld = 3;
    NGA_Get64(g, flo, fhi, fgot, &fld);
    float fexp[9] = {0, 32, 0, 0, 0, 0, 4, 0, 0};
    for (int k = 0; k < 9; ++k) CHECK(fgot[k] == fexp[k]);
    GA_Destroy(g);
    CHECK(NGA_Sprs_array_destroy(s_f) == 1);
  }
  free(ref);
  free(val);
  free(present);
}

/* create_from_dense keeps the diagonal's zeros as elements (GA adds i == j always). */
static void test_from_dense_diagonal(void) {
  const int64_t rows = 6, cols = 9;
  double ref[6 * 9];
  for (int64_t k = 0; k < rows * cols; ++k) ref[k] = (k % 4 == 1) ? (double)(k % 7) + 1 : 0;
  for (int64_t i = 0; i < rows; ++i) ref[i * cols + i] = (i % 2) ? 0 : 5; /* zeros on it */
  int g = dense_from(ref, rows, cols);
  int s = NGA_Sprs_array_create_from_dense64(g);
  double val[6 * 9];
  int present[6 * 9];
  gather(s, rows, cols, val, present);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      const int64_t k = i * cols + j;
      CHECK(present[k] == (ref[k] != 0 || i == j));
      CHECK(val[k] == ref[k]);
    }
  CHECK(NGA_Sprs_array_destroy(s) == 1);
  GA_Destroy(g);
}

static void misuse(const char* mode) {
  double ref[4 * 3] = {1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0};
  int s_a = sparse_from(ref, 4, 3);
  if (strcmp(mode, "sprsdns_rows") == 0) {
    int g = dense_from(ref, 4, 3); /* 4 rows; s_a has 3 columns */
    NGA_Sprs_array_sprsdns_multiply(s_a, g);
  } else if (strcmp(mode, "dnssprs_cols") == 0) {
    int g = dense_from(ref, 4, 3); /* 3 columns; s_a has 4 rows */
    NGA_Sprs_array_dnssprs_multiply(g, s_a);
  } else if (strcmp(mode, "sampled_inner") == 0) {
    int a = dense_from(ref, 4, 3), b = dense_from(ref, 4, 3); /* inner 3 vs 4 */
    NGA_Sprs_array_sampled_multiply(a, b, s_a, 0);
  } else if (strcmp(mode, "quantize_complex") == 0) {
    int s_z = NGA_Sprs_array_create64(2, 2, C_DCPL);
    NGA_Sprs_array_assemble(s_z);
    double mx[2] = {1, 0};
    NGA_Sprs_array_quantize256(s_z, mx);
  } else if (strcmp(mode, "quantize_max") == 0) {
    double mx = 0;
    NGA_Sprs_array_quantize256(s_a, &mx);
  } else if (strcmp(mode, "relu_bias") == 0) {
    NGA_Sprs_array_activate_ReLU64(s_a, NULL, NULL, NULL);
  }
  fprintf(stderr, "misuse '%s' was not caught\n", mode);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  me = GA_Nodeid();
  nproc = GA_Nnodes();
  if (argc > 1) {
    misuse(argv[1]);
    GA_Terminate();
    MPI_Finalize();
    return 0; /* reaching here fails the EXPECT_FAILURE test */
  }
  test_dense_products();
  test_sampled();
  test_quantize_relu();
  test_from_dense_diagonal();
  if (me == 0) printf("sprs_dense: all checks passed on %d ranks\n", nproc);
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
