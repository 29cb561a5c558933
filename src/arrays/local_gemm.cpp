#include "arrays/local_gemm.hpp"

#include <complex>

#include "arrays/element_types.hpp"

#ifdef REMORA_HAVE_CBLAS
#include <cblas.h>
#endif

namespace remora::arrays {

namespace {

template <typename T>
void loop_gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, T alpha, const T* a,
               int64_t lda, const T* b, int64_t ldb, T* c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      const T aip = alpha * (trans_a ? a[p * lda + i] : a[i * lda + p]);
      T* row = c + i * ldc;
      if (trans_b)
        for (int64_t j = 0; j < n; ++j) row[j] += aip * b[j * ldb + p];
      else
        for (int64_t j = 0; j < n; ++j) row[j] += aip * b[p * ldb + j];
    }
}

#ifdef REMORA_HAVE_CBLAS
// One BLAS call per floating type; returns false for the integer types.
template <typename T>
bool blas_gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, const T& alpha,
               const T* a, int64_t lda, const T* b, int64_t ldb, T* c, int64_t ldc) {
  const CBLAS_TRANSPOSE ta = trans_a ? CblasTrans : CblasNoTrans;
  const CBLAS_TRANSPOSE tb = trans_b ? CblasTrans : CblasNoTrans;
  const auto M = static_cast<blasint>(m), N = static_cast<blasint>(n), K = static_cast<blasint>(k);
  const auto LA = static_cast<blasint>(lda), LB = static_cast<blasint>(ldb),
             LC = static_cast<blasint>(ldc);
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemm(CblasRowMajor, ta, tb, M, N, K, alpha, a, LA, b, LB, 1.0f, c, LC);
  } else if constexpr (std::is_same_v<T, double>) {
    cblas_dgemm(CblasRowMajor, ta, tb, M, N, K, alpha, a, LA, b, LB, 1.0, c, LC);
  } else if constexpr (std::is_same_v<T, std::complex<float>>) {
    const std::complex<float> one{1.0f, 0.0f};
    cblas_cgemm(CblasRowMajor, ta, tb, M, N, K, &alpha, a, LA, b, LB, &one, c, LC);
  } else if constexpr (std::is_same_v<T, std::complex<double>>) {
    const std::complex<double> one{1.0, 0.0};
    cblas_zgemm(CblasRowMajor, ta, tb, M, N, K, &alpha, a, LA, b, LB, &one, c, LC);
  } else {
    return false;
  }
  return true;
}
#endif

}  // namespace

void local_gemm(int type, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
                const void* alpha, const void* a, int64_t lda, const void* b, int64_t ldb, void* c,
                int64_t ldc) {
  if (m == 0 || n == 0 || k == 0) return;
  dispatch(type, [&](auto zero) {
    using T = decltype(zero);
    const T s = *static_cast<const T*>(alpha);
    const T* A = static_cast<const T*>(a);
    const T* B = static_cast<const T*>(b);
    T* C = static_cast<T*>(c);
#ifdef REMORA_HAVE_CBLAS
    if (blas_gemm(trans_a, trans_b, m, n, k, s, A, lda, B, ldb, C, ldc)) return;
#endif
    loop_gemm(trans_a, trans_b, m, n, k, s, A, lda, B, ldb, C, ldc);
  });
}

bool local_gemm_uses_blas() {
#ifdef REMORA_HAVE_CBLAS
  return true;
#else
  return false;
#endif
}

}  // namespace remora::arrays
