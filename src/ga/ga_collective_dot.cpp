// GA's dot products of whole arrays and patches (no conjugation, as GA). Each function is for
// one element type: GA_Ddot on a C_INT array is an error here (GA would misread the bytes).

#include <cstring>
#include <utility>

#include "ga/ga_registry.hpp"

using remora::ga::check;
using remora::ga::ga_fail;
using remora::ga::GaArray;
using remora::ga::Indices;
using remora::ga::lookup_allocated;

namespace {

const GaArray& typed_array(const char* fn, const char* name, int g_a, remora_datatype_t type) {
  const GaArray& a = lookup_allocated(fn, g_a);
  if (a.datatype != type)
    ga_fail(fn, "%s=%d ('%s') has GA type %d, which this dot product does not take", name, g_a,
            a.name.c_str(), a.type);
  return a;
}

template <typename Result>
Result whole_dot(const char* fn, int g_a, int g_b, remora_datatype_t type) {
  const GaArray& a = typed_array(fn, "g_a", g_a, type);
  const GaArray& b = typed_array(fn, "g_b", g_b, type);
  Result result{};
  check(fn, remora_array_dot(a.array, b.array, &result));
  return result;
}

template <typename Result, typename Index>
Result patch_dot(const char* fn, remora_datatype_t type, int g_a, char t_a, const Index* alo,
                 const Index* ahi, int g_b, char t_b, const Index* blo, const Index* bhi) {
  const GaArray& a = typed_array(fn, "g_a", g_a, type);
  const GaArray& b = typed_array(fn, "g_b", g_b, type);
  const Indices al(alo, a.ndim), ah(ahi, a.ndim), bl(blo, b.ndim), bh(bhi, b.ndim);
  for (const auto& [name, trans] : {std::pair{"t_a", t_a}, std::pair{"t_b", t_b}})
    if (std::strchr("NnTt", trans) == nullptr || trans == '\0')
      ga_fail(fn, "%s='%c' (%d) must be 'N' or 'T' (either case)", name, trans,
              static_cast<int>(trans));
  Result result{};
  check(fn, remora_array_dot_patch(a.array, t_a, al.data, ah.data, b.array, t_b, bl.data, bh.data,
                                   &result));
  return result;
}

constexpr remora_datatype_t kLong = sizeof(long) == 8 ? REMORA_INT64 : REMORA_INT32;

}  // namespace

extern "C" {

int GA_Idot(int g_a, int g_b) {
  return whole_dot<int>("GA_Idot", g_a, g_b, REMORA_INT32);
}

long GA_Ldot(int g_a, int g_b) {
  return whole_dot<long>("GA_Ldot", g_a, g_b, kLong);
}

long long GA_Lldot(int g_a, int g_b) {
  return whole_dot<long long>("GA_Lldot", g_a, g_b, REMORA_INT64);
}

float GA_Fdot(int g_a, int g_b) {
  return whole_dot<float>("GA_Fdot", g_a, g_b, REMORA_FLOAT);
}

double GA_Ddot(int g_a, int g_b) {
  return whole_dot<double>("GA_Ddot", g_a, g_b, REMORA_DOUBLE);
}

SingleComplex GA_Cdot(int g_a, int g_b) {
  return whole_dot<SingleComplex>("GA_Cdot", g_a, g_b, REMORA_FLOAT_COMPLEX);
}

DoubleComplex GA_Zdot(int g_a, int g_b) {
  return whole_dot<DoubleComplex>("GA_Zdot", g_a, g_b, REMORA_DOUBLE_COMPLEX);
}

int NGA_Idot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[],
                   int bhi[]) {
  return patch_dot<int>("NGA_Idot_patch", REMORA_INT32, g_a, t_a, alo, ahi, g_b, t_b, blo, bhi);
}

long NGA_Ldot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[],
                    int bhi[]) {
  return patch_dot<long>("NGA_Ldot_patch", kLong, g_a, t_a, alo, ahi, g_b, t_b, blo, bhi);
}

double NGA_Ddot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[],
                      int bhi[]) {
  return patch_dot<double>("NGA_Ddot_patch", REMORA_DOUBLE, g_a, t_a, alo, ahi, g_b, t_b, blo, bhi);
}

DoubleComplex NGA_Zdot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[],
                             int bhi[]) {
  return patch_dot<DoubleComplex>("NGA_Zdot_patch", REMORA_DOUBLE_COMPLEX, g_a, t_a, alo, ahi, g_b,
                                  t_b, blo, bhi);
}

int NGA_Idot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b,
                     int64_t blo[], int64_t bhi[]) {
  return patch_dot<int>("NGA_Idot_patch64", REMORA_INT32, g_a, t_a, alo, ahi, g_b, t_b, blo, bhi);
}

long NGA_Ldot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b,
                      int64_t blo[], int64_t bhi[]) {
  return patch_dot<long>("NGA_Ldot_patch64", kLong, g_a, t_a, alo, ahi, g_b, t_b, blo, bhi);
}

double NGA_Ddot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b,
                        int64_t blo[], int64_t bhi[]) {
  return patch_dot<double>("NGA_Ddot_patch64", REMORA_DOUBLE, g_a, t_a, alo, ahi, g_b, t_b, blo,
                           bhi);
}

DoubleComplex NGA_Zdot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b,
                               int64_t blo[], int64_t bhi[]) {
  return patch_dot<DoubleComplex>("NGA_Zdot_patch64", REMORA_DOUBLE_COMPLEX, g_a, t_a, alo, ahi,
                                  g_b, t_b, blo, bhi);
}

long long NGA_Lldot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[],
                          int bhi[]) {
  return patch_dot<long long>("NGA_Lldot_patch", REMORA_INT64, g_a, t_a, alo, ahi, g_b, t_b, blo,
                              bhi);
}

float NGA_Fdot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[],
                     int bhi[]) {
  return patch_dot<float>("NGA_Fdot_patch", REMORA_FLOAT, g_a, t_a, alo, ahi, g_b, t_b, blo, bhi);
}

SingleComplex NGA_Cdot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[],
                             int bhi[]) {
  return patch_dot<SingleComplex>("NGA_Cdot_patch", REMORA_FLOAT_COMPLEX, g_a, t_a, alo, ahi, g_b,
                                  t_b, blo, bhi);
}

long long NGA_Lldot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b,
                            int64_t blo[], int64_t bhi[]) {
  return patch_dot<long long>("NGA_Lldot_patch64", REMORA_INT64, g_a, t_a, alo, ahi, g_b, t_b, blo,
                              bhi);
}

float NGA_Fdot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b,
                       int64_t blo[], int64_t bhi[]) {
  return patch_dot<float>("NGA_Fdot_patch64", REMORA_FLOAT, g_a, t_a, alo, ahi, g_b, t_b, blo, bhi);
}

SingleComplex NGA_Cdot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b,
                               int64_t blo[], int64_t bhi[]) {
  return patch_dot<SingleComplex>("NGA_Cdot_patch64", REMORA_FLOAT_COMPLEX, g_a, t_a, alo, ahi, g_b,
                                  t_b, blo, bhi);
}

}  // extern "C"
