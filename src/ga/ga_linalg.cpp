// GA's dense linear algebra on 2-D double arrays: GA_Lu_solve, GA_Llt_solve, GA_Solve,
// GA_Spd_invert and the eigensolvers GA_Diag(_seq / _std / _std_seq / _reuse). Done the way
// GA's sequential versions do them: collective over A's group, the group's rank 0 gathers the
// whole matrices, calls LAPACK and writes the results back; return codes and eigenvalues are
// broadcast. A C array's row-major buffer is the column-major buffer of GA's (Fortran) view, the
// transpose: the buffers go to LAPACK unchanged, so the C calls mean what GA's C calls mean
// (GA_Lu_solve('n') with B of nrhs rows of n solves X A = B in the C view; eigenvectors are rows).
// LAPACK is optional at build time (REMORA_GA_HAVE_LAPACK); without it these calls end the job.
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "ga/ga_registry.hpp"

using namespace remora::ga;

#ifdef REMORA_GA_HAVE_LAPACK
// LAPACK's Fortran interface (the trailing size_t are the hidden lengths of the strings).
extern "C" {
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda,
             const int* ipiv, double* b, const int* ldb, int* info, size_t);
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t);
void dpotrs_(const char* uplo, const int* n, const int* nrhs, const double* a, const int* lda,
             double* b, const int* ldb, int* info, size_t);
void dpotri_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t);
void dsyev_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w,
            double* work, const int* lwork, int* info, size_t, size_t);
void dsygv_(const int* itype, const char* jobz, const char* uplo, const int* n, double* a,
            const int* lda, double* b, const int* ldb, double* w, double* work, const int* lwork,
            int* info, size_t, size_t);
}
#endif

namespace {

void require_lapack(const char* fn) {
#ifndef REMORA_GA_HAVE_LAPACK
  ga_fail(fn, "Remora was built without LAPACK (none found at configure time); %s needs it", fn);
#else
  (void)fn;
#endif
}

// A double array of 2 dimensions (or, for right-hand sides, 1), on the group of `group`.
const GaArray& operand(const char* fn, const char* name, int handle, bool one_d_allowed,
                       const GaArray* group) {
  const GaArray& a = lookup_allocated(fn, handle);
  if (a.ndim != 2 && !(one_d_allowed && a.ndim == 1))
    ga_fail(fn, "%s=%d ('%s') has %d dimensions; %s takes a 2-D array", name, handle,
            a.name.c_str(), a.ndim, fn);
  if (a.datatype != REMORA_DOUBLE)
    ga_fail(fn, "%s=%d ('%s') has GA type %d; %s takes double arrays (C_DBL) only", name, handle,
            a.name.c_str(), a.type, fn);
  if (group != nullptr && a.pgroup != group->pgroup)
    ga_fail(fn, "%s=%d and g_a live on different process groups", name, handle);
  return a;
}

// A square matrix (dims[0] == dims[1]); its order.
int square(const char* fn, const char* name, int handle, const GaArray& a) {
  if (a.dims[0] != a.dims[1])
    ga_fail(fn, "%s=%d ('%s') is %lld x %lld; it must be square", name, handle, a.name.c_str(),
            static_cast<long long>(a.dims[0]), static_cast<long long>(a.dims[1]));
  if (a.dims[0] > INT32_MAX)
    ga_fail(fn, "%s=%d has order %lld, more than LAPACK's int can index", name, handle,
            static_cast<long long>(a.dims[0]));
  return static_cast<int>(a.dims[0]);
}

int64_t elements(const GaArray& a) {
  int64_t n = 1;
  for (int d = 0; d < a.ndim; ++d) n *= a.dims[d];
  return n;
}

// The whole array into a row-major buffer, or back.
[[maybe_unused]] void whole(const char* fn, const GaArray& a, std::vector<double>* buffer,
                            bool put) {
  int64_t lo[GA_MAX_DIM] = {}, hi[GA_MAX_DIM] = {}, ld[GA_MAX_DIM] = {};
  for (int d = 0; d < a.ndim; ++d) hi[d] = a.dims[d] - 1;
  if (a.ndim == 2) ld[0] = a.dims[1];
  if (put) {
    check(fn, remora_array_put(a.array, lo, hi, buffer->data(), ld));
  } else {
    buffer->resize(static_cast<size_t>(elements(a)));
    check(fn, remora_array_get(a.array, lo, hi, buffer->data(), ld));
  }
}

// Runs `root_work` (which returns an int code) on rank 0 of a's group between two syncs, and
// gives every rank its code and the `shared` doubles it left (eigenvalues).
template <typename Work>
int on_root(const char* fn, const GaArray& a, Work root_work, double* shared = nullptr,
            size_t count = 0) {
  const remora_comm_t comm = pgroup_comm(fn, a.pgroup);
  check(fn, remora_array_sync_comm(comm));
  int rank = 0;
  check(fn, remora_comm_rank(comm, &rank));
  int code = rank == 0 ? root_work() : 0;
  check(fn, remora_array_sync_comm(comm));  // results written before anyone reads them
  check(fn, remora_bcast(&code, 1, REMORA_INT32, 0, comm, REMORA_COLL_AUTO));
  if (count > 0) check(fn, remora_bcast(shared, count, REMORA_DOUBLE, 0, comm, REMORA_COLL_AUTO));
  return code;
}

// The right-hand sides B for a matrix of order n: GA's view n x nrhs, so the C array's last
// dimension is n (a 1-D array of n: one right-hand side). Returns nrhs.
int right_hand_sides(const char* fn, int g_b, const GaArray& b, int n) {
  const int64_t last = b.dims[b.ndim - 1];
  if (last != n)
    ga_fail(fn,
            "g_b=%d ('%s') has %lld elements in its last dimension but g_a is of order %d: "
            "they must match (B holds one right-hand side per row)",
            g_b, b.name.c_str(), static_cast<long long>(last), n);
  return b.ndim == 1 ? 1 : static_cast<int>(b.dims[0]);
}

#ifdef REMORA_GA_HAVE_LAPACK
// Solves with the Cholesky factor in `factor` (order n), B in place.
void cholesky_solve(const char* fn, const std::vector<double>& factor, int n, int nrhs,
                    std::vector<double>* b) {
  int info = 0;
  dpotrs_("L", &n, &nrhs, factor.data(), &n, b->data(), &n, &info, 1);
  if (info != 0) ga_fail(fn, "LAPACK dpotrs failed (info=%d)", info);
}

// LU with partial pivoting of a copy of `matrix`, then B in place; a singular matrix ends the job.
void lu_solve(const char* fn, std::vector<double> matrix, int n, const char* trans, int nrhs,
              std::vector<double>* b) {
  std::vector<int> pivots(static_cast<size_t>(n));
  int info = 0;
  dgetrf_(&n, &n, matrix.data(), &n, pivots.data(), &info);
  if (info > 0)
    ga_fail(fn, "g_a is singular: U(%d,%d) of its LU factorization is exactly zero", info, info);
  dgetrs_(trans, &n, &nrhs, matrix.data(), &n, pivots.data(), b->data(), &n, &info, 1);
  if (info != 0) ga_fail(fn, "LAPACK dgetrs failed (info=%d)", info);
}

// Eigenvalues into w and eigenvectors into a (as columns of GA's view); with s, the generalized
// problem A v = lambda S v (S symmetric positive definite, vectors S-orthonormal).
void eigen(const char* fn, std::vector<double>* a, std::vector<double>* s, int n, double* w) {
  int info = 0, lwork = -1, itype = 1;
  double query = 0;
  if (s != nullptr)
    dsygv_(&itype, "V", "L", &n, a->data(), &n, s->data(), &n, w, &query, &lwork, &info, 1, 1);
  else
    dsyev_("V", "L", &n, a->data(), &n, w, &query, &lwork, &info, 1, 1);
  lwork = static_cast<int>(query);
  std::vector<double> work(static_cast<size_t>(lwork > 1 ? lwork : 1));
  if (s != nullptr)
    dsygv_(&itype, "V", "L", &n, a->data(), &n, s->data(), &n, w, work.data(), &lwork, &info, 1, 1);
  else
    dsyev_("V", "L", &n, a->data(), &n, w, work.data(), &lwork, &info, 1, 1);
  if (info > n)
    ga_fail(fn, "g_s is not positive definite: its leading minor of order %d is not", info - n);
  if (info != 0) ga_fail(fn, "the eigensolver did not converge (LAPACK info=%d)", info);
}
#endif

// GA_Llt_solve (lu_fallback false) and GA_Solve (true): Cholesky of A; on success B = A^-1 B
// and 0; else the order of the leading minor that is not positive definite, B left alone
// (GA_Llt_solve) or solved by LU (GA_Solve).
int symmetric_solve(const char* fn, int g_a, int g_b, [[maybe_unused]] bool lu_fallback) {
  require_lapack(fn);
  const GaArray& a = operand(fn, "g_a", g_a, false, nullptr);
  const int n = square(fn, "g_a", g_a, a);
  const GaArray& b = operand(fn, "g_b", g_b, true, &a);
  const int nrhs = right_hand_sides(fn, g_b, b, n);
  require_writable(fn, b);
  return on_root(fn, a, [&]() {
    int info = 0;
#ifdef REMORA_GA_HAVE_LAPACK
    std::vector<double> matrix, factor, rhs;
    whole(fn, a, &matrix, false);
    whole(fn, b, &rhs, false);
    factor = matrix;
    dpotrf_("L", &n, factor.data(), &n, &info, 1);
    if (info == 0)
      cholesky_solve(fn, factor, n, nrhs, &rhs);
    else if (lu_fallback)
      lu_solve(fn, matrix, n, "N", nrhs, &rhs);
    if (info == 0 || lu_fallback) whole(fn, b, &rhs, true);
#else
    (void)nrhs;
#endif
    return info;
  });
}

// The eigensolvers (generalized: A v = lambda S v, else A v = lambda v). reuse < 0 (GA_Diag_reuse)
// only releases what GA keeps between calls, which is nothing here.
void diag(const char* fn, int reuse, int g_a, bool generalized, int g_s, int g_v, void* eval) {
  require_lapack(fn);
  const GaArray& a = operand(fn, "g_a", g_a, false, nullptr);
  const int n = square(fn, "g_a", g_a, a);
  const GaArray* s = nullptr;
  if (generalized) {
    s = &operand(fn, "g_s", g_s, false, &a);
    if (s->dims[0] != n || s->dims[1] != n)
      ga_fail(fn, "g_s=%d ('%s') is %lld x %lld; g_a is of order %d: they must match", g_s,
              s->name.c_str(), static_cast<long long>(s->dims[0]),
              static_cast<long long>(s->dims[1]), n);
  }
  const GaArray& v = operand(fn, "g_v", g_v, false, &a);
  if (v.dims[0] != n || v.dims[1] != n)
    ga_fail(fn, "g_v=%d ('%s') is %lld x %lld; g_a is of order %d: they must match", g_v,
            v.name.c_str(), static_cast<long long>(v.dims[0]), static_cast<long long>(v.dims[1]),
            n);
  require_writable(fn, v);
  if (eval == nullptr) ga_fail(fn, "eval is NULL; it receives the %d eigenvalues", n);
  if (reuse < 0) return;
  std::vector<double> values(static_cast<size_t>(n));
  on_root(
      fn, a,
      [&]() {
#ifdef REMORA_GA_HAVE_LAPACK
        std::vector<double> matrix, metric;
        whole(fn, a, &matrix, false);
        if (s != nullptr) whole(fn, *s, &metric, false);
        eigen(fn, &matrix, s != nullptr ? &metric : nullptr, n, values.data());
        whole(fn, v, &matrix, true);
#endif
        return 0;
      },
      values.data(), values.size());
  std::memcpy(eval, values.data(), values.size() * sizeof(double));
}

}  // namespace

extern "C" {

void GA_Lu_solve(char tran, int g_a, int g_b) {
  const char* fn = "GA_Lu_solve";
  require_lapack(fn);
  if (tran != 'n' && tran != 'N' && tran != 't' && tran != 'T')
    ga_fail(fn, "tran='%c' is not 'n' or 't'", tran);
  const GaArray& a = operand(fn, "g_a", g_a, false, nullptr);
  const int n = square(fn, "g_a", g_a, a);
  const GaArray& b = operand(fn, "g_b", g_b, true, &a);
  const int nrhs = right_hand_sides(fn, g_b, b, n);
  require_writable(fn, b);
  on_root(fn, a, [&]() {
#ifdef REMORA_GA_HAVE_LAPACK
    std::vector<double> matrix, rhs;
    whole(fn, a, &matrix, false);
    whole(fn, b, &rhs, false);
    lu_solve(fn, std::move(matrix), n, tran == 't' || tran == 'T' ? "T" : "N", nrhs, &rhs);
    whole(fn, b, &rhs, true);
#else
    (void)nrhs;
#endif
    return 0;
  });
}

int GA_Llt_solve(int g_a, int g_b) {
  return symmetric_solve("GA_Llt_solve", g_a, g_b, false);
}

int GA_Solve(int g_a, int g_b) {
  return symmetric_solve("GA_Solve", g_a, g_b, true);
}

// A = A^-1 by Cholesky (both triangles written); > 0: the order of the leading minor that is
// not positive definite; < 0: -i when the factor's (i,i) element is zero. A is left alone then.
int GA_Spd_invert(int g_a) {
  const char* fn = "GA_Spd_invert";
  require_lapack(fn);
  const GaArray& a = operand(fn, "g_a", g_a, false, nullptr);
  const int n = square(fn, "g_a", g_a, a);
  require_writable(fn, a);
  return on_root(fn, a, [&]() {
    int info = 0;
#ifdef REMORA_GA_HAVE_LAPACK
    std::vector<double> matrix;
    whole(fn, a, &matrix, false);
    dpotrf_("L", &n, matrix.data(), &n, &info, 1);
    if (info != 0) return info;
    dpotri_("L", &n, matrix.data(), &n, &info, 1);
    if (info != 0) return -info;
    const size_t order = static_cast<size_t>(n);
    for (size_t j = 0; j < order; ++j)  // column-major lower triangle to the upper one
      for (size_t i = j + 1; i < order; ++i) matrix[i * order + j] = matrix[j * order + i];
    whole(fn, a, &matrix, true);
#else
    (void)n;
#endif
    return info;
  });
}

void GA_Diag(int g_a, int g_s, int g_v, void* eval) {
  diag("GA_Diag", 0, g_a, true, g_s, g_v, eval);
}

void GA_Diag_seq(int g_a, int g_s, int g_v, void* eval) {
  diag("GA_Diag_seq", 0, g_a, true, g_s, g_v, eval);
}

void GA_Diag_reuse(int reuse, int g_a, int g_s, int g_v, void* eval) {
  diag("GA_Diag_reuse", reuse, g_a, true, g_s, g_v, eval);
}

void GA_Diag_std(int g_a, int g_v, void* eval) {
  diag("GA_Diag_std", 0, g_a, false, 0, g_v, eval);
}

void GA_Diag_std_seq(int g_a, int g_v, void* eval) {
  diag("GA_Diag_std_seq", 0, g_a, false, 0, g_v, eval);
}

}  // extern "C"
