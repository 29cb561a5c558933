// The argument checks that the array entry points share (array_checks.hpp).
#include "api/array_checks.hpp"

#include <cinttypes>

#include "api/runtime.hpp"
#include "arrays/element_types.hpp"
#include "core/error.hpp"
#include "rma/reduce_op.hpp"

namespace remora::api {

using arrays::Array;

// lo..hi is a non-empty patch inside a.
int check_patch(const char* function, const Array& a, const int64_t* lo, const int64_t* hi) {
  if (int status = check_pointer(function, "lo", lo)) return status;
  if (int status = check_pointer(function, "hi", hi)) return status;
  for (int d = 0; d < a.ndim(); ++d) {
    const int64_t dim = a.dist().dims()[static_cast<size_t>(d)];
    if (lo[d] > hi[d])
      return fail(REMORA_ERR_ARG, "%s: lo[%d]=%" PRId64 " > hi[%d]=%" PRId64 " (empty patch)",
                  function, d, lo[d], d, hi[d]);
    if (lo[d] < 0)
      return fail(REMORA_ERR_RANGE,
                  "%s: lo[%d]=%" PRId64 " lies outside dimension %d of array '%s' [0, %" PRId64 ")",
                  function, d, lo[d], d, a.name().c_str(), dim);
    if (hi[d] >= dim)
      return fail(REMORA_ERR_RANGE,
                  "%s: hi[%d]=%" PRId64 " lies outside dimension %d of array '%s' [0, %" PRId64 ")",
                  function, d, hi[d], d, a.name().c_str(), dim);
  }
  return REMORA_SUCCESS;
}

// A patch with a buffer and leading dimensions.
int check_transfer(const char* function, const Array& a, const int64_t* lo, const int64_t* hi,
                   const void* buffer, const int64_t* ld) {
  if (int status = check_patch(function, a, lo, hi)) return status;
  if (int status = check_pointer(function, "buffer", buffer)) return status;
  if (a.ndim() > 1)
    if (int status = check_pointer(function, "ld", ld)) return status;
  for (int d = 0; d + 1 < a.ndim(); ++d)
    if (ld[d] < hi[d + 1] - lo[d + 1] + 1)
      return fail(REMORA_ERR_ARG,
                  "%s: ld[%d]=%" PRId64 " is less than the patch's extent %" PRId64
                  " in dimension %d",
                  function, d, ld[d], hi[d + 1] - lo[d + 1] + 1, d + 1);
  return REMORA_SUCCESS;
}

int find_array(const char* function, const char* name, remora_array_t handle, Array** array,
               ArrayUse use) {
  Runtime* runtime = nullptr;
  if (int status = enter(function, &runtime)) return status;
  if (handle == nullptr) return fail(REMORA_ERR_ARG, "%s: %s is NULL", function, name);
  if (current_runtime().array_handles.arrays.count(handle) == 0)
    return fail(REMORA_ERR_ARG, "%s: %s=%p is not a live array (destroyed, or never created)",
                function, name, static_cast<void*>(handle));
  *array = static_cast<Array*>(handle);
  if (use == ArrayUse::Compute && arrays::is_byte_type((*array)->type()))
    return fail(REMORA_ERR_ARG,
                "%s: %s ('%s') is a byte array (REMORA_UINT8), which is moved, not computed on: "
                "put, get, their nonblocking forms, scatter, gather, access, the queries, "
                "duplicate and destroy take it",
                function, name, (*array)->name().c_str());
  return REMORA_SUCCESS;
}

// b lives on the same ranks as a (arrays of one collective operation must).
int check_same_ranks(const char* function, const char* name, const Array& a, const Array& b) {
  if (a.same_ranks(b)) return REMORA_SUCCESS;
  return fail(REMORA_ERR_ARG,
              "%s: %s ('%s') lives on other ranks than '%s' (arrays of one operation must be "
              "created on the same ranks)",
              function, name, b.name().c_str(), a.name().c_str());
}

const char* type_name(int type) {
  return remora::rma::datatype_name(type);
}

// Collective entry: initialized, not inside a handler.
int enter_collective(const char* function, Runtime** runtime) {
  if (int status = enter(function, runtime)) return status;
  return remora::api::check_not_in_handler(function);
}

int check_alpha(const char* function, const void* alpha) {
  return check_pointer(function, "alpha", alpha);
}

int check_2d(const char* function, const char* name, const Array& a) {
  if (a.ndim() != 2)
    return fail(REMORA_ERR_ARG, "%s: %s ('%s') has %d dimensions; 2 are needed", function, name,
                a.name().c_str(), a.ndim());
  return REMORA_SUCCESS;
}

int check_trans(const char* function, const char* name, char trans, bool* transposed) {
  if (trans == 'N' || trans == 'n' || trans == 'T' || trans == 't') {
    *transposed = trans == 'T' || trans == 't';
    return REMORA_SUCCESS;
  }
  return fail(REMORA_ERR_ARG, "%s: %s='%c' (%d) must be 'N' or 'T'", function, name, trans, trans);
}

}  // namespace remora::api
