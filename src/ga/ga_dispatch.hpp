// One template for every GA element type: dispatch calls body(T{}) with T the C++ type of an
// array's elements (int32_t, int64_t, float, double, std::complex<float>,
// std::complex<double>, laid out as GA's SingleComplex and DoubleComplex).
#pragma once

#include <complex>
#include <cstdint>

#include "ga/ga_registry.hpp"

namespace remora::ga {

template <typename Body>
void dispatch(const char* fn, const GaArray& a, Body&& body) {
  switch (a.datatype) {
    case REMORA_INT32:
      return body(int32_t{});
    case REMORA_INT64:
      return body(int64_t{});
    case REMORA_FLOAT:
      return body(float{});
    case REMORA_DOUBLE:
      return body(double{});
    case REMORA_FLOAT_COMPLEX:
      return body(std::complex<float>{});
    case REMORA_DOUBLE_COMPLEX:
      return body(std::complex<double>{});
    default:
      ga_fail(fn, "g_a ('%s') has GA type %d, which %s does not take", a.name.c_str(), a.type, fn);
  }
}

}  // namespace remora::ga
