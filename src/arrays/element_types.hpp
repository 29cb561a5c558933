// The element types of distributed arrays and a dispatch from remora_datatype_t to C++ types,
// so each kernel (fill, scale, axpby, dot, gemm) is written once as a template.
#pragma once

#include <complex>
#include <cstdint>

#include "remora/types.h"

namespace remora::arrays {

inline bool is_array_type(int type) {
  switch (type) {
    case REMORA_INT32:
    case REMORA_INT64:
    case REMORA_FLOAT:
    case REMORA_DOUBLE:
    case REMORA_FLOAT_COMPLEX:
    case REMORA_DOUBLE_COMPLEX:
      return true;
    default:
      return false;
  }
}

// Byte arrays (REMORA_UINT8): elements of any size as the GA layer's user-defined types need
// them, moved but never computed on (the C API refuses arithmetic on them).
inline bool is_byte_type(int type) {
  return type == REMORA_UINT8;
}

inline bool is_integer_type(int type) {
  return type == REMORA_INT32 || type == REMORA_INT64;
}

// Calls f(T{}) with the C++ type of an array element type (is_array_type(type) holds).
template <typename F>
decltype(auto) dispatch(int type, F&& f) {
  switch (type) {
    case REMORA_INT32:
      return f(int32_t{});
    case REMORA_INT64:
      return f(int64_t{});
    case REMORA_FLOAT:
      return f(float{});
    case REMORA_DOUBLE:
      return f(double{});
    case REMORA_FLOAT_COMPLEX:
      return f(std::complex<float>{});
    default:
      return f(std::complex<double>{});
  }
}

// |x|^2 as a double, for norms.
template <typename T>
double magnitude_squared(const T& x) {
  if constexpr (requires { x.imag(); })
    return static_cast<double>(std::norm(x));
  else
    return static_cast<double>(x) * static_cast<double>(x);
}

}  // namespace remora::arrays
