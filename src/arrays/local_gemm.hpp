// The local product C += alpha op(A) op(B) of row-major blocks: BLAS (cblas_?gemm) when the
// library was built with it, else a plain loop. Integer types always use the loop.
#pragma once

#include <cstdint>

namespace remora::arrays {

// C is m x n (ldc), op(A) is m x k, op(B) is k x n; trans_a / trans_b: the stored block is the
// transpose (A stored k x m with lda, B stored n x k with ldb).
void local_gemm(int type, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
                const void* alpha, const void* a, int64_t lda, const void* b, int64_t ldb, void* c,
                int64_t ldc);

bool local_gemm_uses_blas();

}  // namespace remora::arrays
