/* GA's dense linear algebra and step bounds, checked by the values they compute:
 * GA_Lu_solve ('n' and 't'), GA_Llt_solve, GA_Solve and GA_Spd_invert on random well-conditioned
 * matrices (A X = B in GA's column-major view, which for C arrays reads X A = B with one
 * right-hand side per row of B; inverse times A is the identity), their return codes for a
 * matrix that is not positive definite; GA_Diag_std_seq on a matrix of known eigenvalues and
 * GA_Diag_seq on a generalized problem (A v = lambda S v, eigenvectors S-orthonormal); and
 * GA_Step_bound_info(_patch)(64) on bounds worked out by hand. GA 5.8 as Debian builds it has no
 * PeIGS, so its GA_Diag, GA_Diag_std and GA_Diag_reuse end the job, and its GA_Lu_solve hands
 * ScaLAPACK's pdgetrs an illegal argument; GA 5.8's GA_Step_bound_info_patch computes parts of
 * its result on the whole arrays, so elements outside the patch change it: those parts are
 * built for Remora only (#ifdef REMORA_GA_H); a Remora built without LAPACK checks the step bounds
 * only (REMORA_GA_WITHOUT_LAPACK). With an argument, one misuse that must end the job with
 * GA_Error's message (the modes in misuse()). */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

enum { N = 7, NRHS = 3 };

static uint64_t state = 12345;
static double uniform(void) { /* in [-1, 1) */
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(state >> 11) / 4503599627370496.0 - 1.0;
}

static int create(int rows, int cols, const char* name) {
  int dims[2] = {rows, cols};
  return NGA_Create(C_DBL, 2, dims, (char*)name, NULL);
}

/* syncs first: the other ranks may still be reading the array's previous values */
static void put_all(int g, int rows, int cols, const double* values) {
  GA_Sync();
  if (GA_Nodeid() == 0) {
    int lo[2] = {0, 0}, hi[2] = {rows - 1, cols - 1}, ld[1] = {cols};
    NGA_Put(g, lo, hi, (void*)values, ld);
  }
  GA_Sync();
}

static void get_all(int g, int rows, int cols, double* values) {
  GA_Sync();
  int lo[2] = {0, 0}, hi[2] = {rows - 1, cols - 1}, ld[1] = {cols};
  NGA_Get(g, lo, hi, values, ld);
}

static int near(double a, double b) {
  return fabs(a - b) <= 1e-9 * (1.0 + fabs(a) + fabs(b));
}

/* a general matrix with a heavy diagonal; spd = m m^T + n I */
static void general(double* a) {
  for (int i = 0; i < N * N; ++i) a[i] = uniform();
  for (int i = 0; i < N; ++i) a[i * N + i] += N;
}

static void spd(double* a) {
  double m[N * N];
  for (int i = 0; i < N * N; ++i) m[i] = uniform();
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double sum = i == j ? N : 0.0;
      for (int k = 0; k < N; ++k) sum += m[i * N + k] * m[j * N + k];
      a[i * N + j] = sum;
    }
}

/* x a = b (transposed: x a^T = b) for the rows of x and b */
static void check_solution(const double* a, const double* x, const double* b, int transposed) {
  for (int r = 0; r < NRHS; ++r)
    for (int j = 0; j < N; ++j) {
      double sum = 0;
      for (int k = 0; k < N; ++k) sum += x[r * N + k] * (transposed ? a[j * N + k] : a[k * N + j]);
      CHECK(near(sum, b[r * N + j]));
    }
}

static void check_solvers(void) {
  double a[N * N], s[N * N], b[NRHS * N], x[NRHS * N];
  general(a);
  spd(s);
  for (int i = 0; i < NRHS * N; ++i) b[i] = uniform();
  const int g_a = create(N, N, "a"), g_s = create(N, N, "s"), g_b = create(NRHS, N, "b");
  put_all(g_a, N, N, a);
  put_all(g_s, N, N, s);
#ifdef REMORA_GA_H
  for (int t = 0; t < 2; ++t) { /* 'n', then 'T' */
    put_all(g_b, NRHS, N, b);
    GA_Lu_solve(t ? 'T' : 'n', g_a, g_b);
    get_all(g_b, NRHS, N, x);
    check_solution(a, x, b, t);
    double unchanged[N * N];
    get_all(g_a, N, N, unchanged);
    CHECK(memcmp(unchanged, a, sizeof a) == 0);
  }
#endif
  put_all(g_b, NRHS, N, b);
  CHECK(GA_Llt_solve(g_s, g_b) == 0);
  get_all(g_b, NRHS, N, x);
  check_solution(s, x, b, 0);
  put_all(g_b, NRHS, N, b);
  CHECK(GA_Solve(g_s, g_b) == 0);
  get_all(g_b, NRHS, N, x);
  check_solution(s, x, b, 0);

  /* not positive definite from order 3 on: the identity with -2 at [2][2] */
  double indefinite[N * N] = {0};
  for (int i = 0; i < N; ++i) indefinite[i * N + i] = i == 2 ? -2.0 : 1.0;
  const int g_i = create(N, N, "indefinite");
  put_all(g_i, N, N, indefinite);
  put_all(g_b, NRHS, N, b);
  CHECK(GA_Llt_solve(g_i, g_b) == 3);
  GA_Sync();
  put_all(g_b, NRHS, N, b);
  CHECK(GA_Solve(g_i, g_b) == 3); /* solved by LU instead */
  get_all(g_b, NRHS, N, x);
  check_solution(indefinite, x, b, 0);
  CHECK(GA_Spd_invert(g_i) == 3);

  /* the inverse times s is the identity */
  CHECK(GA_Spd_invert(g_s) == 0);
  double inverse[N * N];
  get_all(g_s, N, N, inverse);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double sum = 0;
      for (int k = 0; k < N; ++k) sum += inverse[i * N + k] * s[k * N + j];
      CHECK(fabs(sum - (i == j ? 1.0 : 0.0)) < 1e-10);
    }
  GA_Destroy(g_i);
  GA_Destroy(g_b);
  GA_Destroy(g_s);
  GA_Destroy(g_a);
}

/* rows of v: eigenvectors of a (generalized: of a against s), eval ascending */
static void check_eigen(const double* a, const double* s, int g_v, const double* eval) {
  double v[N * N];
  get_all(g_v, N, N, v);
  for (int e = 0; e < N; ++e) {
    if (e > 0) CHECK(eval[e - 1] <= eval[e]);
    for (int i = 0; i < N; ++i) {
      double av = 0, sv = 0;
      for (int k = 0; k < N; ++k) {
        av += a[i * N + k] * v[e * N + k];
        sv += (s ? s[i * N + k] : (i == k)) * v[e * N + k];
      }
      CHECK(fabs(av - eval[e] * sv) < 1e-9 * (1 + fabs(eval[e])));
    }
    for (int f = 0; f < N; ++f) { /* v_e S v_f = delta */
      double dot = 0;
      for (int i = 0; i < N; ++i)
        for (int k = 0; k < N; ++k)
          dot += v[e * N + i] * (s ? s[i * N + k] : (i == k)) * v[f * N + k];
      CHECK(fabs(dot - (e == f ? 1.0 : 0.0)) < 1e-9);
    }
  }
}

static void check_eigensolvers(void) {
  /* tridiagonal (-1, 2, -1): eigenvalues 2 - 2 cos(k pi / (N + 1)), k = 1..N */
  double a[N * N] = {0}, s[N * N], eval[N];
  for (int i = 0; i < N; ++i) {
    a[i * N + i] = 2.0;
    if (i > 0) a[i * N + i - 1] = a[(i - 1) * N + i] = -1.0;
  }
  spd(s);
  const int g_a = create(N, N, "a"), g_s = create(N, N, "s"), g_v = create(N, N, "v");
  put_all(g_a, N, N, a);
  put_all(g_s, N, N, s);
  GA_Diag_std_seq(g_a, g_v, eval);
  for (int k = 1; k <= N; ++k) CHECK(near(eval[k - 1], 2.0 - 2.0 * cos(k * M_PI / (N + 1))));
  check_eigen(a, NULL, g_v, eval);
  GA_Diag_seq(g_a, g_s, g_v, eval);
  check_eigen(a, s, g_v, eval);
#ifdef REMORA_GA_H
  double again[N];
  GA_Diag_std(g_a, g_v, again);
  for (int k = 1; k <= N; ++k) CHECK(near(again[k - 1], 2.0 - 2.0 * cos(k * M_PI / (N + 1))));
  check_eigen(a, NULL, g_v, again);
  GA_Diag(g_a, g_s, g_v, again);
  check_eigen(a, s, g_v, again);
  for (int k = 0; k < N; ++k) CHECK(near(again[k], eval[k]));
  GA_Diag_reuse(0, g_a, g_s, g_v, again);
  GA_Diag_reuse(1, g_a, g_s, g_v, again);
  check_eigen(a, s, g_v, again);
  GA_Diag_reuse(-1, g_a, g_s, g_v, again);
#endif
  GA_Destroy(g_v);
  GA_Destroy(g_s);
  GA_Destroy(g_a);
}

enum { LEN = 8 };

static int vector_of(const double* values, const char* name) {
  int dims[1] = {LEN};
  const int g = NGA_Create(C_DBL, 1, dims, (char*)name, NULL);
  if (GA_Nodeid() == 0) {
    int lo[1] = {0}, hi[1] = {LEN - 1}, ld[1] = {1};
    NGA_Put(g, lo, hi, (void*)values, ld);
  }
  GA_Sync();
  return g;
}

static void check_step_bounds(void) {
  /* per element the step to the bound x + s v meets: 3, 2, 0.5, none (v = 0), 0.5, none but x
   * on l, none but x on u, 4 */
  const double x[LEN] = {1, 2, 3, 1, 2, 0, 4, 2}, v[LEN] = {1, -1, 2, 0, -4, 0, 0, 0.5},
               l[LEN] = {0}, u[LEN] = {4, 4, 4, 4, 4, 4, 4, 4};
  const int g_x = vector_of(x, "x"), g_v = vector_of(v, "v"), g_l = vector_of(l, "l"),
            g_u = vector_of(u, "u");
  double boundmin = -1, wolfemin = -1, boundmax = -1;
  GA_Step_bound_info(g_x, g_v, g_l, g_u, &boundmin, &wolfemin, &boundmax);
  CHECK(wolfemin == 0.5);   /* the first bound met */
  CHECK(boundmin == 0.0);   /* v = 0 with x on a bound */
  CHECK(boundmax >= 1e300); /* GA's infinity: v = 0 elsewhere */
  int lo[1] = {0}, hi[1] = {2};
#ifdef REMORA_GA_H
  GA_Step_bound_info_patch(g_x, lo, hi, g_v, lo, hi, g_l, lo, hi, g_u, lo, hi, &boundmin, &wolfemin,
                           &boundmax);
  CHECK(wolfemin == 0.5 && boundmin == 0.5 && boundmax == 3.0);
  int64_t lo64[1] = {4}, hi64[1] = {7};
  GA_Step_bound_info_patch64(g_x, lo64, hi64, g_v, lo64, hi64, g_l, lo64, hi64, g_u, lo64, hi64,
                             &boundmin, &wolfemin, &boundmax);
  CHECK(wolfemin == 0.5 && boundmin == 0.0 && boundmax == 4.0);
#endif
  GA_Destroy(g_u);
  GA_Destroy(g_l);
  GA_Destroy(g_v);
  GA_Destroy(g_x);
}

static void misuse(const char* mode) {
  const int g = create(4, 4, "a");
  double one = 1.0, eval[4];
  GA_Fill(g, &one);
  if (strcmp(mode, "lu_type") == 0) {
    int dims[2] = {4, 4};
    GA_Lu_solve('n', NGA_Create(C_INT, 2, dims, "i", NULL), g);
  }
  if (strcmp(mode, "lu_tran") == 0) GA_Lu_solve('x', g, g);
  if (strcmp(mode, "lu_singular") == 0) GA_Lu_solve('n', g, create(2, 4, "b"));
  if (strcmp(mode, "llt_rhs") == 0) GA_Llt_solve(g, create(4, 3, "b"));
  if (strcmp(mode, "solve_square") == 0) GA_Solve(create(4, 3, "a3"), g);
  if (strcmp(mode, "spd_handle") == 0) GA_Spd_invert(12345);
  if (strcmp(mode, "diag_v") == 0) GA_Diag_seq(g, g, create(3, 3, "v"), eval);
  if (strcmp(mode, "diag_eval") == 0) GA_Diag_std_seq(g, g, NULL);
  if (strcmp(mode, "step_upper") == 0) {
    double two = 2.0;
    const int x = GA_Duplicate(g, "x");
    GA_Fill(x, &two);
    GA_Step_bound_info(x, g, g, g, &one, &one, &one);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  MA_init(C_DBL, 1000000, 1000000);
  if (argc > 1) {
    misuse(argv[1]);
  } else {
#ifdef REMORA_GA_WITHOUT_LAPACK
    const int lapack = 0; /* the solvers end the job without it */
#else
    const int lapack = 1;
#endif
    if (lapack) {
      check_solvers();
      check_eigensolvers();
    }
    check_step_bounds();
  }
  GA_Sync();
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
