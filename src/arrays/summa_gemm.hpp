// SUMMA on C's process grid (van de Geijn and Watts; in its one-sided form, SRUMMA, as Global
// Arrays' ga_dgemm): every rank computes its own local block of C in place. For each panel of
// k it fetches op(A)[its rows of C, panel] and op(B)[panel, its columns of C] and multiplies
// them into its local C with BLAS (or the built-in loop). The panels that classic SUMMA
// broadcasts along grid rows and columns are pulled here by the ranks that need them, with
// coalesced patch gets (one strided transfer per owner), so A and B may have any distribution
// and the owners do nothing. Per rank and panel it moves (m/Pr + n/Pc) * panel elements instead
// of the general algorithm's (m/P + n) * panel, and C is never sent anywhere.
//
// Any 2-D distribution of C works. Where C's local rows or columns are not runs of consecutive
// global indices (element-cyclic, or block-cyclic with blocks of 1) each such row or column is
// fetched on its own, so REMORA_ARRAY_GEMM=auto picks SUMMA only where they are (block,
// irregular, block-cyclic with blocks > 1): summa_suits. C whose blocks are stored one after
// another (dealt blocks, block_deal.hpp; tiles, grid_tiles.hpp) has no grid of local rows and
// columns: summa_applies is false, and gemm takes the general path.
#pragma once

#include "arrays/array.hpp"

namespace remora::arrays {

// The same answer on every rank (it depends on C's distribution only).
bool summa_applies(const Array& c);
bool summa_suits(const Array& c);

// Collective: c = alpha op(a) op(b) + beta c (shapes checked by the caller); begins and ends
// with a sync.
int summa_gemm(bool trans_a, bool trans_b, const void* alpha, Array& a, Array& b, const void* beta,
               Array& c);

}  // namespace remora::arrays
