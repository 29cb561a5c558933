// C API: patch forms of the collective array operations and the matrix norms (remora/array.h,
// "Patch forms"). Validates every argument, then hands over to arrays/patch_ops.
#include <cinttypes>

#include "api/array_checks.hpp"
#include "api/runtime.hpp"
#include "arrays/patch_ops.hpp"
#include "core/error.hpp"
#include "remora/array.h"
#include "rma/reduce_op.hpp"

using remora::fail;
using remora::api::check_2d;
using remora::api::check_patch;
using remora::api::check_pointer;
using remora::api::check_same_ranks;
using remora::api::check_trans;
using remora::api::find_array;
using remora::arrays::Array;

namespace {

int64_t patch_elements(const Array& a, const int64_t* lo, const int64_t* hi) {
  int64_t n = 1;
  for (int d = 0; d < a.ndim(); ++d) n *= hi[d] - lo[d] + 1;
  return n;
}

// A live array named `name` and a valid patch of it (lo_name/hi_name are named in messages by
// check_patch as lo/hi; the array's name tells which).
int find_patch(const char* function, const char* name, remora_array_t handle, const int64_t* lo,
               const int64_t* hi, Array** array) {
  if (int status = find_array(function, name, handle, array)) return status;
  return check_patch(function, **array, lo, hi);
}

// other has first's type and its patch as many elements as first's.
int check_matching(const char* function, const char* name, const Array& first,
                   int64_t first_elements, const Array& other, int64_t other_elements) {
  if (other.type() != first.type())
    return fail(REMORA_ERR_ARG, "%s: %s ('%s') has type REMORA_%s but a ('%s') has REMORA_%s",
                function, name, other.name().c_str(), remora::rma::datatype_name(other.type()),
                first.name().c_str(), remora::rma::datatype_name(first.type()));
  if (other_elements != first_elements)
    return fail(REMORA_ERR_ARG,
                "%s: the patch of %s ('%s') has %" PRId64 " elements but a's patch has %" PRId64,
                function, name, other.name().c_str(), other_elements, first_elements);
  return check_same_ranks(function, name, first, other);
}

// Live arrays a and b of one type with valid patches of equal element counts.
int find_matching_pair(const char* function, remora_array_t a, const int64_t* alo,
                       const int64_t* ahi, remora_array_t b, const int64_t* blo, const int64_t* bhi,
                       Array** x, Array** y) {
  if (int status = find_patch(function, "a", a, alo, ahi, x)) return status;
  if (int status = find_patch(function, "b", b, blo, bhi, y)) return status;
  return check_matching(function, "b", **x, patch_elements(**x, alo, ahi), **y,
                        patch_elements(**y, blo, bhi));
}

// ... and a third, c, matching them (the output of add_patch and elem_patch).
int find_matching_triple(const char* function, remora_array_t a, const int64_t* alo,
                         const int64_t* ahi, remora_array_t b, const int64_t* blo,
                         const int64_t* bhi, remora_array_t c, const int64_t* clo,
                         const int64_t* chi, Array** x, Array** y, Array** z) {
  if (int status = find_matching_pair(function, a, alo, ahi, b, blo, bhi, x, y)) return status;
  if (int status = find_patch(function, "c", c, clo, chi, z)) return status;
  return check_matching(function, "c", **x, patch_elements(**x, alo, ahi), **z,
                        patch_elements(**z, clo, chi));
}

bool overlap(int ndim, const int64_t* alo, const int64_t* ahi, const int64_t* blo,
             const int64_t* bhi) {
  for (int d = 0; d < ndim; ++d)
    if (ahi[d] < blo[d] || bhi[d] < alo[d]) return false;
  return true;
}

// An operation on one patch of one array with a value (fill, scale, add_constant).
using ValuedPatchOp = int (*)(Array&, const int64_t*, const int64_t*, const void*);
int valued_patch(const char* function, remora_array_t a, const int64_t* lo, const int64_t* hi,
                 const char* value_name, const void* value, ValuedPatchOp op) {
  Array* array = nullptr;
  if (int status = find_patch(function, "a", a, lo, hi, &array)) return status;
  if (int status = check_pointer(function, value_name, value)) return status;
  return op(*array, lo, hi, value);
}

// lo..hi in a's 2-D patch and its extents rows x cols.
void extents_2d(const int64_t* lo, const int64_t* hi, bool trans, int64_t* rows, int64_t* cols) {
  *rows = trans ? hi[1] - lo[1] + 1 : hi[0] - lo[0] + 1;
  *cols = trans ? hi[0] - lo[0] + 1 : hi[1] - lo[1] + 1;
}

}  // namespace

extern "C" {

int remora_array_zero_patch(remora_array_t a, const int64_t* lo, const int64_t* hi) {
  REMORA_API_ENTRY();
  Array* array = nullptr;
  if (int status = find_patch("remora_array_zero_patch", "a", a, lo, hi, &array)) return status;
  return remora::arrays::fill_patch(*array, lo, hi, nullptr);
}

int remora_array_fill_patch(remora_array_t a, const int64_t* lo, const int64_t* hi,
                            const void* value) {
  REMORA_API_ENTRY();
  return valued_patch("remora_array_fill_patch", a, lo, hi, "value", value,
                      remora::arrays::fill_patch);
}

int remora_array_scale_patch(remora_array_t a, const int64_t* lo, const int64_t* hi,
                             const void* alpha) {
  REMORA_API_ENTRY();
  return valued_patch("remora_array_scale_patch", a, lo, hi, "alpha", alpha,
                      remora::arrays::scale_patch);
}

int remora_array_add_constant_patch(remora_array_t a, const int64_t* lo, const int64_t* hi,
                                    const void* value) {
  REMORA_API_ENTRY();
  return valued_patch("remora_array_add_constant_patch", a, lo, hi, "value", value,
                      remora::arrays::add_constant_patch);
}

int remora_array_add_constant(remora_array_t a, const void* value) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_add_constant";
  Array* array = nullptr;
  if (int status = find_array(function, "a", a, &array)) return status;
  if (int status = check_pointer(function, "value", value)) return status;
  int64_t lo[REMORA_ARRAY_MAX_DIM] = {}, hi[REMORA_ARRAY_MAX_DIM] = {};
  for (int d = 0; d < array->ndim(); ++d) hi[d] = array->dist().dims()[static_cast<size_t>(d)] - 1;
  return remora::arrays::add_constant_patch(*array, lo, hi, value);
}

int remora_array_patch_enum(remora_array_t a, int64_t lo, int64_t hi, const void* start,
                            const void* inc) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_patch_enum";
  Array* array = nullptr;
  if (int status = find_array(function, "a", a, &array)) return status;
  if (array->ndim() != 1)
    return fail(REMORA_ERR_ARG, "%s: a ('%s') has %d dimensions; patch_enum needs 1", function,
                array->name().c_str(), array->ndim());
  if (int status = check_patch(function, *array, &lo, &hi)) return status;
  if (int status = check_pointer(function, "start", start)) return status;
  if (int status = check_pointer(function, "inc", inc)) return status;
  return remora::arrays::patch_enum(*array, &lo, &hi, start, inc);
}

int remora_array_copy_patch(char trans, remora_array_t a, const int64_t* alo, const int64_t* ahi,
                            remora_array_t b, const int64_t* blo, const int64_t* bhi) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_copy_patch";
  bool transposed = false;
  if (int status = check_trans(function, "trans", trans, &transposed)) return status;
  Array *x = nullptr, *y = nullptr;
  if (int status = find_matching_pair(function, a, alo, ahi, b, blo, bhi, &x, &y)) return status;
  if (x == y && overlap(x->ndim(), alo, ahi, blo, bhi))
    return fail(REMORA_ERR_ARG, "%s: a and b are the same array ('%s') and the patches overlap",
                function, x->name().c_str());
  return remora::arrays::copy_patch(transposed, *x, alo, ahi, *y, blo, bhi);
}

int remora_array_add_patch(const void* alpha, remora_array_t a, const int64_t* alo,
                           const int64_t* ahi, const void* beta, remora_array_t b,
                           const int64_t* blo, const int64_t* bhi, remora_array_t c,
                           const int64_t* clo, const int64_t* chi) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_add_patch";
  Array *x = nullptr, *y = nullptr, *z = nullptr;
  if (int status =
          find_matching_triple(function, a, alo, ahi, b, blo, bhi, c, clo, chi, &x, &y, &z))
    return status;
  if (int status = check_pointer(function, "alpha", alpha)) return status;
  if (int status = check_pointer(function, "beta", beta)) return status;
  return remora::arrays::add_patch(alpha, *x, alo, ahi, beta, *y, blo, bhi, *z, clo, chi);
}

int remora_array_dot_patch(remora_array_t a, char trans_a, const int64_t* alo, const int64_t* ahi,
                           remora_array_t b, char trans_b, const int64_t* blo, const int64_t* bhi,
                           void* result) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_dot_patch";
  bool ta = false, tb = false;
  if (int status = check_trans(function, "trans_a", trans_a, &ta)) return status;
  if (int status = check_trans(function, "trans_b", trans_b, &tb)) return status;
  Array *x = nullptr, *y = nullptr;
  if (int status = find_matching_pair(function, a, alo, ahi, b, blo, bhi, &x, &y)) return status;
  if (int status = check_pointer(function, "result", result)) return status;
  return remora::arrays::dot_patch(*x, ta, alo, ahi, *y, tb, blo, bhi, result);
}

int remora_array_abs_value_patch(remora_array_t a, const int64_t* lo, const int64_t* hi) {
  REMORA_API_ENTRY();
  Array* array = nullptr;
  if (int status = find_patch("remora_array_abs_value_patch", "a", a, lo, hi, &array))
    return status;
  return remora::arrays::abs_value_patch(*array, lo, hi);
}

int remora_array_recip_patch(remora_array_t a, const int64_t* lo, const int64_t* hi) {
  REMORA_API_ENTRY();
  Array* array = nullptr;
  if (int status = find_patch("remora_array_recip_patch", "a", a, lo, hi, &array)) return status;
  return remora::arrays::recip_patch(*array, lo, hi);
}

int remora_array_elem_patch(remora_elem_op_t op, remora_array_t a, const int64_t* alo,
                            const int64_t* ahi, remora_array_t b, const int64_t* blo,
                            const int64_t* bhi, remora_array_t c, const int64_t* clo,
                            const int64_t* chi) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_elem_patch";
  if (op < REMORA_ELEM_MULTIPLY || op > REMORA_ELEM_MINIMUM)
    return fail(REMORA_ERR_ARG,
                "%s: op=%d is not REMORA_ELEM_MULTIPLY, _DIVIDE, _MAXIMUM or _MINIMUM", function,
                static_cast<int>(op));
  Array *x = nullptr, *y = nullptr, *z = nullptr;
  if (int status =
          find_matching_triple(function, a, alo, ahi, b, blo, bhi, c, clo, chi, &x, &y, &z))
    return status;
  return remora::arrays::elem_patch(op, *x, alo, ahi, *y, blo, bhi, *z, clo, chi);
}

int remora_array_gemm_patch(char transa, char transb, const void* alpha, const void* beta,
                            remora_array_t a, const int64_t* alo, const int64_t* ahi,
                            remora_array_t b, const int64_t* blo, const int64_t* bhi,
                            remora_array_t c, const int64_t* clo, const int64_t* chi) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_gemm_patch";
  bool ta = false, tb = false;
  if (int status = check_trans(function, "transa", transa, &ta)) return status;
  if (int status = check_trans(function, "transb", transb, &tb)) return status;
  if (int status = check_pointer(function, "alpha", alpha)) return status;
  if (int status = check_pointer(function, "beta", beta)) return status;
  Array *x = nullptr, *y = nullptr, *z = nullptr;
  if (int status = find_array(function, "a", a, &x)) return status;
  if (int status = find_array(function, "b", b, &y)) return status;
  if (int status = find_array(function, "c", c, &z)) return status;
  if (int status = check_2d(function, "a", *x)) return status;
  if (int status = check_2d(function, "b", *y)) return status;
  if (int status = check_2d(function, "c", *z)) return status;
  if (int status = check_same_ranks(function, "b", *x, *y)) return status;
  if (int status = check_same_ranks(function, "c", *x, *z)) return status;
  if (int status = check_patch(function, *x, alo, ahi)) return status;
  if (int status = check_patch(function, *y, blo, bhi)) return status;
  if (int status = check_patch(function, *z, clo, chi)) return status;
  if (z == x || z == y) return fail(REMORA_ERR_ARG, "%s: c must differ from a and b", function);
  for (const Array* other : {x, y})
    if (other->type() != z->type())
      return fail(REMORA_ERR_ARG, "%s: '%s' has type REMORA_%s but c has REMORA_%s", function,
                  other->name().c_str(), remora::rma::datatype_name(other->type()),
                  remora::rma::datatype_name(z->type()));
  int64_t m = 0, ka = 0, kb = 0, n = 0, cm = 0, cn = 0;
  extents_2d(alo, ahi, ta, &m, &ka);
  extents_2d(blo, bhi, tb, &kb, &n);
  extents_2d(clo, chi, false, &cm, &cn);
  if (ka != kb || m != cm || n != cn)
    return fail(REMORA_ERR_ARG,
                "%s: patch shapes do not match: op(a) is %" PRId64 "x%" PRId64 ", op(b) %" PRId64
                "x%" PRId64 ", c %" PRId64 "x%" PRId64,
                function, m, ka, kb, n, cm, cn);
  return remora::arrays::gemm_patch(ta, tb, alpha, *x, alo, ahi, *y, blo, bhi, beta, *z, clo, chi);
}

}  // extern "C"

namespace {

int matrix_norm(const char* function, remora_array_t a, double* result,
                int (*norm)(Array&, double*)) {
  Array* array = nullptr;
  if (int status = find_array(function, "a", a, &array)) return status;
  if (array->ndim() > 2)
    return fail(REMORA_ERR_ARG, "%s: a ('%s') has %d dimensions; 1 or 2 are allowed", function,
                array->name().c_str(), array->ndim());
  if (int status = check_pointer(function, "result", result)) return status;
  return norm(*array, result);
}

}  // namespace

extern "C" {

int remora_array_norm1(remora_array_t a, double* result) {
  REMORA_API_ENTRY();
  return matrix_norm("remora_array_norm1", a, result, remora::arrays::norm1);
}

int remora_array_norm_infinity(remora_array_t a, double* result) {
  REMORA_API_ENTRY();
  return matrix_norm("remora_array_norm_infinity", a, result, remora::arrays::norm_infinity);
}

}  // extern "C"
