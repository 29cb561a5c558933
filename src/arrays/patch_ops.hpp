// Patch forms of the collective operations (Global Arrays' NGA_*_patch) and the matrix norms.
// Each begins and ends with a sync. Patches are matched element by element in row-major order
// (LinearPatch), so they may differ in shape and distribution as long as their element counts
// agree; each rank moves a near-equal share of the elements: it gets its share of every input
// patch, computes, and puts its share of the output. Arguments are validated by the C API.
#pragma once

#include <cstdint>

#include "arrays/array.hpp"

namespace remora::arrays {

int fill_patch(Array& a, const int64_t* lo, const int64_t* hi, const void* value);  // nullptr: 0
int scale_patch(Array& a, const int64_t* lo, const int64_t* hi, const void* alpha);
int add_constant_patch(Array& a, const int64_t* lo, const int64_t* hi, const void* value);
// Element lo + i of a 1-D patch = start + i * inc.
int patch_enum(Array& a, const int64_t* lo, const int64_t* hi, const void* start, const void* inc);
// b[blo..bhi] = a[alo..ahi] (trans: a's patch with its axes reversed).
int copy_patch(bool trans, Array& a, const int64_t* alo, const int64_t* ahi, Array& b,
               const int64_t* blo, const int64_t* bhi);
// c[patch] = alpha a[patch] + beta b[patch].
int add_patch(const void* alpha, Array& a, const int64_t* alo, const int64_t* ahi, const void* beta,
              Array& b, const int64_t* blo, const int64_t* bhi, Array& c, const int64_t* clo,
              const int64_t* chi);
// *result = sum a[patch] * b[patch] (no conjugation); b's patch is taken with its axes reversed
// when exactly one of trans_a, trans_b is set (GA's rule).
int dot_patch(Array& a, bool trans_a, const int64_t* alo, const int64_t* ahi, Array& b,
              bool trans_b, const int64_t* blo, const int64_t* bhi, void* result);
// c[patch] = alpha op(a[patch]) op(b[patch]) + beta c[patch] for 2-D patches.
int gemm_patch(bool trans_a, bool trans_b, const void* alpha, Array& a, const int64_t* alo,
               const int64_t* ahi, Array& b, const int64_t* blo, const int64_t* bhi,
               const void* beta, Array& c, const int64_t* clo, const int64_t* chi);
// Element-wise (GA_Abs_value, GA_Recip, GA_Elem_*): |x| (complex: the magnitude), 1/x (an
// error on a zero element), and c = a op b for op a remora_elem_op_t (division by zero is an
// error; maximum / minimum for real types only).
int abs_value_patch(Array& a, const int64_t* lo, const int64_t* hi);
int recip_patch(Array& a, const int64_t* lo, const int64_t* hi);
int elem_patch(int op, Array& a, const int64_t* alo, const int64_t* ahi, Array& b,
               const int64_t* blo, const int64_t* bhi, Array& c, const int64_t* clo,
               const int64_t* chi);
// 1-D or 2-D (a vector is one column): the largest column sum of |a| (norm1) or row sum
// (norm_infinity).
int norm1(Array& a, double* result);
int norm_infinity(Array& a, double* result);

}  // namespace remora::arrays
