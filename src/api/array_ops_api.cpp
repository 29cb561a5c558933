// C API: distributed arrays (remora/array.h), collective operations on whole arrays (fill, scale,
// copy, add, dot, norm, transpose, symmetrize, print, gemm). Validates every argument, then hands
// over to the arrays layer, which trusts them.
#include <cinttypes>
#include <string>

#include "api/array_checks.hpp"
#include "api/runtime.hpp"
#include "arrays/array.hpp"
#include "arrays/collective_ops.hpp"
#include "arrays/element_types.hpp"
#include "arrays/local_gemm.hpp"
#include "arrays/summa_gemm.hpp"
#include "core/error.hpp"
#include "remora/array.h"

using remora::fail;
using remora::api::check_2d;
using remora::api::check_alpha;
using remora::api::check_patch;
using remora::api::check_pointer;
using remora::api::check_same_ranks;
using remora::api::check_trans;
using remora::api::enter_collective;
using remora::api::find_array;
using remora::api::Runtime;
using remora::api::type_name;
using remora::arrays::Array;

namespace {

// b matches a in type and shape, and lives on the same ranks.
int check_conformable(const char* function, const char* name, const Array& a, const Array& b) {
  if (int status = check_same_ranks(function, name, a, b)) return status;
  if (b.type() != a.type())
    return fail(REMORA_ERR_ARG, "%s: %s has type REMORA_%s but the first array has REMORA_%s",
                function, name, type_name(b.type()), type_name(a.type()));
  if (b.dist().dims() != a.dist().dims())
    return fail(REMORA_ERR_ARG, "%s: %s ('%s') has a different shape from '%s'", function, name,
                b.name().c_str(), a.name().c_str());
  return REMORA_SUCCESS;
}

// a and b are live arrays of one type and shape.
int find_conformable(const char* function, remora_array_t a, remora_array_t b, Array** x,
                     Array** y) {
  if (int status = find_array(function, "a", a, x)) return status;
  if (int status = find_array(function, "b", b, y)) return status;
  return check_conformable(function, "b", **x, **y);
}

}  // namespace

extern "C" {

int remora_array_zero(remora_array_t a) {
  REMORA_API_ENTRY();
  Array* array = nullptr;
  if (int status = find_array("remora_array_zero", "a", a, &array)) return status;
  return remora::arrays::fill(*array, nullptr);
}

int remora_array_fill(remora_array_t a, const void* value) {
  REMORA_API_ENTRY();
  Array* array = nullptr;
  if (int status = find_array("remora_array_fill", "a", a, &array)) return status;
  if (int status = check_pointer("remora_array_fill", "value", value)) return status;
  return remora::arrays::fill(*array, value);
}

int remora_array_scale(remora_array_t a, const void* alpha) {
  REMORA_API_ENTRY();
  Array* array = nullptr;
  if (int status = find_array("remora_array_scale", "a", a, &array)) return status;
  if (int status = check_alpha("remora_array_scale", alpha)) return status;
  return remora::arrays::scale(*array, alpha);
}

int remora_array_copy(remora_array_t a, remora_array_t b) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_copy";
  Array *x = nullptr, *y = nullptr;
  if (int status = find_conformable(function, a, b, &x, &y)) return status;
  if (x == y) return fail(REMORA_ERR_ARG, "%s: a and b are the same array", function);
  return remora::arrays::copy(*x, *y);
}

int remora_array_add(const void* alpha, remora_array_t a, const void* beta, remora_array_t b,
                     remora_array_t c) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_add";
  Array *x = nullptr, *y = nullptr, *z = nullptr;
  if (int status = find_conformable(function, a, b, &x, &y)) return status;
  if (int status = find_array(function, "c", c, &z)) return status;
  if (int status = check_conformable(function, "c", *x, *z)) return status;
  if (int status = check_alpha(function, alpha)) return status;
  if (int status = check_pointer(function, "beta", beta)) return status;
  return remora::arrays::add(alpha, *x, beta, *y, *z);
}

int remora_array_dot(remora_array_t a, remora_array_t b, void* result) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_dot";
  Array *x = nullptr, *y = nullptr;
  if (int status = find_conformable(function, a, b, &x, &y)) return status;
  if (int status = check_pointer(function, "result", result)) return status;
  return remora::arrays::dot(*x, *y, result);
}

int remora_array_norm(remora_array_t a, double* result) {
  REMORA_API_ENTRY();
  Array* array = nullptr;
  if (int status = find_array("remora_array_norm", "a", a, &array)) return status;
  if (int status = check_pointer("remora_array_norm", "result", result)) return status;
  return remora::arrays::norm(*array, result);
}

int remora_array_transpose(remora_array_t a, remora_array_t b) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_transpose";
  Array *x = nullptr, *y = nullptr;
  if (int status = find_array(function, "a", a, &x)) return status;
  if (int status = find_array(function, "b", b, &y)) return status;
  if (int status = check_same_ranks(function, "b", *x, *y)) return status;
  if (int status = check_2d(function, "a", *x)) return status;
  if (int status = check_2d(function, "b", *y)) return status;
  if (x == y) return fail(REMORA_ERR_ARG, "%s: a and b are the same array", function);
  if (x->type() != y->type())
    return fail(REMORA_ERR_ARG, "%s: b has type REMORA_%s but a has REMORA_%s", function,
                type_name(y->type()), type_name(x->type()));
  if (y->dist().dims()[0] != x->dist().dims()[1] || y->dist().dims()[1] != x->dist().dims()[0])
    return fail(REMORA_ERR_ARG, "%s: b ('%s') is not shaped as the transpose of a ('%s')", function,
                y->name().c_str(), x->name().c_str());
  return remora::arrays::transpose(*x, *y);
}

int remora_array_symmetrize(remora_array_t a) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_symmetrize";
  Array* array = nullptr;
  if (int status = find_array(function, "a", a, &array)) return status;
  if (int status = check_2d(function, "a", *array)) return status;
  if (array->dist().dims()[0] != array->dist().dims()[1])
    return fail(REMORA_ERR_ARG, "%s: a ('%s') is not square", function, array->name().c_str());
  if (remora::arrays::is_integer_type(array->type()))
    return fail(REMORA_ERR_ARG, "%s: a ('%s') has the integer type REMORA_%s", function,
                array->name().c_str(), type_name(array->type()));
  return remora::arrays::symmetrize(*array);
}

int remora_array_print_patch(remora_array_t a, const int64_t* lo, const int64_t* hi, FILE* stream) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_print_patch";
  Array* array = nullptr;
  if (int status = find_array(function, "a", a, &array)) return status;
  if (int status = check_patch(function, *array, lo, hi)) return status;
  if (int status = check_pointer(function, "stream", stream)) return status;
  return remora::arrays::print_patch(*array, lo, hi, stream);
}

int remora_array_gemm(char transa, char transb, const void* alpha, remora_array_t a,
                      remora_array_t b, const void* beta, remora_array_t c) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_gemm";
  bool ta = false, tb = false;
  if (int status = check_trans(function, "transa", transa, &ta)) return status;
  if (int status = check_trans(function, "transb", transb, &tb)) return status;
  Array *x = nullptr, *y = nullptr, *z = nullptr;
  if (int status = find_array(function, "a", a, &x)) return status;
  if (int status = find_array(function, "b", b, &y)) return status;
  if (int status = find_array(function, "c", c, &z)) return status;
  if (int status = check_same_ranks(function, "b", *x, *y)) return status;
  if (int status = check_same_ranks(function, "c", *x, *z)) return status;
  if (int status = check_2d(function, "a", *x)) return status;
  if (int status = check_2d(function, "b", *y)) return status;
  if (int status = check_2d(function, "c", *z)) return status;
  if (int status = check_alpha(function, alpha)) return status;
  if (int status = check_pointer(function, "beta", beta)) return status;
  if (z == x || z == y) return fail(REMORA_ERR_ARG, "%s: c must differ from a and b", function);
  for (const Array* other : {x, y})
    if (other->type() != z->type())
      return fail(REMORA_ERR_ARG, "%s: '%s' has type REMORA_%s but c has REMORA_%s", function,
                  other->name().c_str(), type_name(other->type()), type_name(z->type()));
  const auto& da = x->dist().dims();
  const auto& db = y->dist().dims();
  const auto& dc = z->dist().dims();
  const int64_t m = ta ? da[1] : da[0], ka = ta ? da[0] : da[1];
  const int64_t kb = tb ? db[1] : db[0], n = tb ? db[0] : db[1];
  if (ka != kb || m != dc[0] || n != dc[1])
    return fail(REMORA_ERR_ARG,
                "%s: shapes do not match: op(a) is %" PRId64 "x%" PRId64 ", op(b) %" PRId64
                "x%" PRId64 ", c %" PRId64 "x%" PRId64,
                function, m, ka, kb, n, dc[0], dc[1]);
  Runtime* runtime = nullptr;
  if (int status = enter_collective(function, &runtime)) return status;
  const std::string& algorithm = runtime->config.array_gemm;
  if ((algorithm == "summa" && remora::arrays::summa_applies(*z)) ||
      (algorithm == "auto" && remora::arrays::summa_suits(*z)))
    return remora::arrays::summa_gemm(ta, tb, alpha, *x, *y, beta, *z);
  return remora::arrays::gemm(ta, tb, alpha, *x, *y, beta, *z);
}

int remora_array_gemm_uses_blas(void) {
  REMORA_API_ENTRY();
  return remora::arrays::local_gemm_uses_blas() ? 1 : 0;
}

}  // extern "C"
