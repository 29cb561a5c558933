// GA's matrix multiplies: GA_?gemm on the leading patches of 2-D arrays and NGA_Matmul_patch,
// in the row-major C view of GA's C API (C(m x n) = alpha op(A)(m x k) op(B)(k x n) + beta C),
// on remora_array_gemm_patch. GA's patch ranges for A and B index op(A) and op(B); Remora's
// gemm_patch takes the patches as stored, so a transposed operand's range is swapped.
// GA_Matmul_patch(64) is the exception: GA's C binding hands its (i, j) ranges to the Fortran
// core unchanged, so i ranges over the C view's columns and the product is the Fortran view's,
// which in the C view is C(j, i) = op(B)(j, k) op(A)(k, i) (checked against GA 5.8).
#include "ga/ga_registry.hpp"

using remora::ga::check;
using remora::ga::ga_fail;
using remora::ga::GaArray;
using remora::ga::lookup_allocated;

namespace {

bool transposed(char trans) {
  return trans == 'T' || trans == 't';
}

// The stored patch of an operand whose op() range is rows ilo..ihi, columns jlo..jhi.
struct StoredPatch {
  int64_t lo[2], hi[2];
  StoredPatch(char trans, int64_t ilo, int64_t ihi, int64_t jlo, int64_t jhi)
      : lo{transposed(trans) ? jlo : ilo, transposed(trans) ? ilo : jlo},
        hi{transposed(trans) ? jhi : ihi, transposed(trans) ? ihi : jhi} {}
};

void matmul_patch(const char* fn, char transa, char transb, const void* alpha, const void* beta,
                  int g_a, int64_t ailo, int64_t aihi, int64_t ajlo, int64_t ajhi, int g_b,
                  int64_t bilo, int64_t bihi, int64_t bjlo, int64_t bjhi, int g_c, int64_t cilo,
                  int64_t cihi, int64_t cjlo, int64_t cjhi) {
  const GaArray& a = lookup_allocated(fn, g_a);
  const GaArray& b = lookup_allocated(fn, g_b);
  const GaArray& c = remora::ga::writable(fn, g_c);
  const StoredPatch pa(transa, ailo, aihi, ajlo, ajhi), pb(transb, bilo, bihi, bjlo, bjhi);
  const StoredPatch pc('N', cilo, cihi, cjlo, cjhi);
  check(fn, remora_array_gemm_patch(transa, transb, alpha, beta, a.array, pa.lo, pa.hi, b.array,
                                    pb.lo, pb.hi, c.array, pc.lo, pc.hi));
}

// GA_Matmul_patch: (i, j) ranges in the Fortran view (i a column of the C view), product of the
// Fortran view: the C view's product of B then A, every range swapped.
void matmul_patch_fortran_order(const char* fn, char transa, char transb, const void* alpha,
                                const void* beta, int g_a, int64_t ailo, int64_t aihi, int64_t ajlo,
                                int64_t ajhi, int g_b, int64_t bilo, int64_t bihi, int64_t bjlo,
                                int64_t bjhi, int g_c, int64_t cilo, int64_t cihi, int64_t cjlo,
                                int64_t cjhi) {
  matmul_patch(fn, transb, transa, alpha, beta, g_b, bjlo, bjhi, bilo, bihi, g_a, ajlo, ajhi, ailo,
               aihi, g_c, cjlo, cjhi, cilo, cihi);
}

// NGA_Matmul_patch: the same on lo/hi arrays (row, column) of 2-D arrays.
template <typename Index>
void matmul_nd_patch(const char* fn, char transa, char transb, const void* alpha, const void* beta,
                     int g_a, const Index* alo, const Index* ahi, int g_b, const Index* blo,
                     const Index* bhi, int g_c, const Index* clo, const Index* chi) {
  const int handles[3] = {g_a, g_b, g_c};
  const char* names[3] = {"g_a", "g_b", "g_c"};
  for (int i = 0; i < 3; ++i) {
    const GaArray& x = lookup_allocated(fn, handles[i]);
    if (x.ndim != 2)
      ga_fail(fn, "%s=%d ('%s') has %d dimensions; %s takes 2-D arrays", names[i], handles[i],
              x.name.c_str(), x.ndim, fn);
  }
  if (alo == nullptr || ahi == nullptr || blo == nullptr || bhi == nullptr || clo == nullptr ||
      chi == nullptr)
    ga_fail(fn, "a patch bound (alo, ahi, blo, bhi, clo or chi) is NULL");
  matmul_patch(fn, transa, transb, alpha, beta, g_a, alo[0], ahi[0], alo[1], ahi[1], g_b, blo[0],
               bhi[0], blo[1], bhi[1], g_c, clo[0], chi[0], clo[1], chi[1]);
}

// GA_?gemm: the type's arrays, m, n, k at least 1.
template <typename Scalar>
void gemm(const char* fn, remora_datatype_t type, char ta, char tb, int64_t m, int64_t n, int64_t k,
          const Scalar& alpha, int g_a, int g_b, const Scalar& beta, int g_c) {
  const int handles[3] = {g_a, g_b, g_c};
  const char* names[3] = {"g_a", "g_b", "g_c"};
  for (int i = 0; i < 3; ++i) {
    const GaArray& x = lookup_allocated(fn, handles[i]);
    if (x.datatype != type)
      ga_fail(fn, "%s=%d ('%s') has GA type %d, which %s does not take", names[i], handles[i],
              x.name.c_str(), x.type, fn);
  }
  if (m < 1 || n < 1 || k < 1)
    ga_fail(fn, "m=%lld, n=%lld, k=%lld must all be at least 1", static_cast<long long>(m),
            static_cast<long long>(n), static_cast<long long>(k));
  matmul_patch(fn, ta, tb, &alpha, &beta, g_a, 0, m - 1, 0, k - 1, g_b, 0, k - 1, 0, n - 1, g_c, 0,
               m - 1, 0, n - 1);
}

}  // namespace

extern "C" {

// GA_?gemm and GA_?gemm64: one entry point per type and index width (C linkage, so a macro).
#define REMORA_GA_GEMM(name, index_t, scalar_t, type)                                            \
  void name(char ta, char tb, index_t m, index_t n, index_t k, scalar_t alpha, int g_a, int g_b, \
            scalar_t beta, int g_c) {                                                            \
    gemm(#name, type, ta, tb, m, n, k, alpha, g_a, g_b, beta, g_c);                              \
  }

REMORA_GA_GEMM(GA_Dgemm, int, double, REMORA_DOUBLE)
REMORA_GA_GEMM(GA_Sgemm, int, float, REMORA_FLOAT)
REMORA_GA_GEMM(GA_Zgemm, int, DoubleComplex, REMORA_DOUBLE_COMPLEX)
REMORA_GA_GEMM(GA_Cgemm, int, SingleComplex, REMORA_FLOAT_COMPLEX)
REMORA_GA_GEMM(GA_Dgemm64, int64_t, double, REMORA_DOUBLE)
REMORA_GA_GEMM(GA_Sgemm64, int64_t, float, REMORA_FLOAT)
REMORA_GA_GEMM(GA_Zgemm64, int64_t, DoubleComplex, REMORA_DOUBLE_COMPLEX)
REMORA_GA_GEMM(GA_Cgemm64, int64_t, SingleComplex, REMORA_FLOAT_COMPLEX)

#undef REMORA_GA_GEMM

void GA_Matmul_patch(char transa, char transb, void* alpha, void* beta, int g_a, int ailo, int aihi,
                     int ajlo, int ajhi, int g_b, int bilo, int bihi, int bjlo, int bjhi, int g_c,
                     int cilo, int cihi, int cjlo, int cjhi) {
  matmul_patch_fortran_order("GA_Matmul_patch", transa, transb, alpha, beta, g_a, ailo, aihi, ajlo,
                             ajhi, g_b, bilo, bihi, bjlo, bjhi, g_c, cilo, cihi, cjlo, cjhi);
}

void GA_Matmul_patch64(char transa, char transb, void* alpha, void* beta, int g_a, int64_t ailo,
                       int64_t aihi, int64_t ajlo, int64_t ajhi, int g_b, int64_t bilo,
                       int64_t bihi, int64_t bjlo, int64_t bjhi, int g_c, int64_t cilo,
                       int64_t cihi, int64_t cjlo, int64_t cjhi) {
  matmul_patch_fortran_order("GA_Matmul_patch64", transa, transb, alpha, beta, g_a, ailo, aihi,
                             ajlo, ajhi, g_b, bilo, bihi, bjlo, bjhi, g_c, cilo, cihi, cjlo, cjhi);
}

void NGA_Matmul_patch(char transa, char transb, void* alpha, void* beta, int g_a, int alo[],
                      int ahi[], int g_b, int blo[], int bhi[], int g_c, int clo[], int chi[]) {
  matmul_nd_patch("NGA_Matmul_patch", transa, transb, alpha, beta, g_a, alo, ahi, g_b, blo, bhi,
                  g_c, clo, chi);
}

void NGA_Matmul_patch64(char transa, char transb, void* alpha, void* beta, int g_a, int64_t alo[],
                        int64_t ahi[], int g_b, int64_t blo[], int64_t bhi[], int g_c,
                        int64_t clo[], int64_t chi[]) {
  matmul_nd_patch("NGA_Matmul_patch64", transa, transb, alpha, beta, g_a, alo, ahi, g_b, blo, bhi,
                  g_c, clo, chi);
}

}  // extern "C"
