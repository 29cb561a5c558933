// GA's element-wise operations: GA_Abs_value, GA_Recip, GA_Elem_multiply/divide/maximum/
// minimum on whole arrays and patches, on Remora's element-wise patch operations. A zero met by
// GA_Recip or a zero divisor ends the job (GA_Error), as in GA.
#include "ga/ga_registry.hpp"

using remora::ga::check;
using remora::ga::GaArray;
using remora::ga::Indices;
using remora::ga::lookup_allocated;

namespace {

// A GA patch argument (or the whole array when lo and hi are both NULL), widened to int64_t.
struct Box {
  remora_array_t array;
  int64_t lo[GA_MAX_DIM] = {}, hi[GA_MAX_DIM] = {};
  const int64_t* lo_data = lo;
  const int64_t* hi_data = hi;
  template <typename Index>
  Box(const char* fn, int g_a, const Index* lo_in, const Index* hi_in, bool written = false) {
    const GaArray& a = written ? remora::ga::writable(fn, g_a) : lookup_allocated(fn, g_a);
    array = a.array;
    if (lo_in == nullptr && hi_in == nullptr) {
      for (int d = 0; d < a.ndim; ++d) hi[d] = a.dims[d] - 1;
      return;
    }
    const Indices l(lo_in, a.ndim), h(hi_in, a.ndim);
    for (int d = 0; d < a.ndim && l.data != nullptr; ++d) lo[d] = l.data[d];
    for (int d = 0; d < a.ndim && h.data != nullptr; ++d) hi[d] = h.data[d];
    if (l.data == nullptr) lo_data = nullptr;  // the native call names the NULL argument
    if (h.data == nullptr) hi_data = nullptr;
  }
};

template <typename Index>
void abs_value(const char* fn, int g_a, const Index* lo, const Index* hi) {
  const Box a(fn, g_a, lo, hi, true);
  check(fn, remora_array_abs_value_patch(a.array, a.lo_data, a.hi_data));
}

template <typename Index>
void recip(const char* fn, int g_a, const Index* lo, const Index* hi) {
  const Box a(fn, g_a, lo, hi, true);
  check(fn, remora_array_recip_patch(a.array, a.lo_data, a.hi_data));
}

template <typename Index>
void elem(const char* fn, remora_elem_op_t op, int g_a, const Index* alo, const Index* ahi, int g_b,
          const Index* blo, const Index* bhi, int g_c, const Index* clo, const Index* chi) {
  const Box a(fn, g_a, alo, ahi), b(fn, g_b, blo, bhi), c(fn, g_c, clo, chi, true);
  check(fn, remora_array_elem_patch(op, a.array, a.lo_data, a.hi_data, b.array, b.lo_data,
                                    b.hi_data, c.array, c.lo_data, c.hi_data));
}

constexpr const int* kWhole = nullptr;

}  // namespace

extern "C" {

void GA_Abs_value(int g_a) {
  abs_value("GA_Abs_value", g_a, kWhole, kWhole);
}
void GA_Abs_value_patch(int g_a, int* lo, int* hi) {
  abs_value("GA_Abs_value_patch", g_a, lo, hi);
}
void GA_Abs_value_patch64(int g_a, int64_t* lo, int64_t* hi) {
  abs_value("GA_Abs_value_patch64", g_a, lo, hi);
}

void GA_Recip(int g_a) {
  recip("GA_Recip", g_a, kWhole, kWhole);
}
void GA_Recip_patch(int g_a, int* lo, int* hi) {
  recip("GA_Recip_patch", g_a, lo, hi);
}
void GA_Recip_patch64(int g_a, int64_t* lo, int64_t* hi) {
  recip("GA_Recip_patch64", g_a, lo, hi);
}

void GA_Elem_multiply(int g_a, int g_b, int g_c) {
  elem("GA_Elem_multiply", REMORA_ELEM_MULTIPLY, g_a, kWhole, kWhole, g_b, kWhole, kWhole, g_c,
       kWhole, kWhole);
}
void GA_Elem_divide(int g_a, int g_b, int g_c) {
  elem("GA_Elem_divide", REMORA_ELEM_DIVIDE, g_a, kWhole, kWhole, g_b, kWhole, kWhole, g_c, kWhole,
       kWhole);
}
void GA_Elem_maximum(int g_a, int g_b, int g_c) {
  elem("GA_Elem_maximum", REMORA_ELEM_MAXIMUM, g_a, kWhole, kWhole, g_b, kWhole, kWhole, g_c,
       kWhole, kWhole);
}
void GA_Elem_minimum(int g_a, int g_b, int g_c) {
  elem("GA_Elem_minimum", REMORA_ELEM_MINIMUM, g_a, kWhole, kWhole, g_b, kWhole, kWhole, g_c,
       kWhole, kWhole);
}

void GA_Elem_multiply_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, int g_c,
                            int* clo, int* chi) {
  elem("GA_Elem_multiply_patch", REMORA_ELEM_MULTIPLY, g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi);
}
void GA_Elem_divide_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, int g_c,
                          int* clo, int* chi) {
  elem("GA_Elem_divide_patch", REMORA_ELEM_DIVIDE, g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi);
}
void GA_Elem_maximum_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, int g_c,
                           int* clo, int* chi) {
  elem("GA_Elem_maximum_patch", REMORA_ELEM_MAXIMUM, g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi);
}
void GA_Elem_minimum_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, int g_c,
                           int* clo, int* chi) {
  elem("GA_Elem_minimum_patch", REMORA_ELEM_MINIMUM, g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi);
}

void GA_Elem_multiply_patch64(int g_a, int64_t* alo, int64_t* ahi, int g_b, int64_t* blo,
                              int64_t* bhi, int g_c, int64_t* clo, int64_t* chi) {
  elem("GA_Elem_multiply_patch64", REMORA_ELEM_MULTIPLY, g_a, alo, ahi, g_b, blo, bhi, g_c, clo,
       chi);
}
void GA_Elem_divide_patch64(int g_a, int64_t* alo, int64_t* ahi, int g_b, int64_t* blo,
                            int64_t* bhi, int g_c, int64_t* clo, int64_t* chi) {
  elem("GA_Elem_divide_patch64", REMORA_ELEM_DIVIDE, g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi);
}
void GA_Elem_maximum_patch64(int g_a, int64_t* alo, int64_t* ahi, int g_b, int64_t* blo,
                             int64_t* bhi, int g_c, int64_t* clo, int64_t* chi) {
  elem("GA_Elem_maximum_patch64", REMORA_ELEM_MAXIMUM, g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi);
}
void GA_Elem_minimum_patch64(int g_a, int64_t* alo, int64_t* ahi, int g_b, int64_t* blo,
                             int64_t* bhi, int g_c, int64_t* clo, int64_t* chi) {
  elem("GA_Elem_minimum_patch64", REMORA_ELEM_MINIMUM, g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi);
}

}  // extern "C"
