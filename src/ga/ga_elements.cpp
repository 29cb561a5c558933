// Element lists: NGA_Scatter/Gather/Scatter_acc (an array of subscript pointers, as GA's C
// API passes them), their _flat forms (n * ndim subscripts in one array) and NGA_Read_inc.
#include <vector>

#include "ga/ga_registry.hpp"
#include "ga/ga_stats.hpp"

namespace remora::ga {
namespace {

enum class ListOp { Scatter, Gather, ScatterAcc };

// GA's subsArray[k] -> ndim subscripts; flat: subs[k * ndim + d].
template <typename Index>
std::vector<int64_t> subscripts_of(const char* fn, const GaArray& a, Index* const* subs,
                                   int64_t n) {
  std::vector<int64_t> out(static_cast<size_t>(n * a.ndim));
  for (int64_t k = 0; k < n; ++k) {
    if (subs[k] == nullptr) ga_fail(fn, "subsArray[%lld] is NULL", static_cast<long long>(k));
    to_int64(subs[k], a.ndim, &out[static_cast<size_t>(k * a.ndim)]);
  }
  return out;
}
template <typename Index>
std::vector<int64_t> subscripts_of(const char*, const GaArray& a, const Index* flat, int64_t n) {
  std::vector<int64_t> out(static_cast<size_t>(n * a.ndim));
  to_int64(flat, static_cast<int>(n * a.ndim), out.data());
  return out;
}

template <typename Subscripts>
void element_list(const char* fn, int g_a, ListOp op, void* values, Subscripts subs, int64_t n,
                  const void* alpha) {
  const GaArray& a = lookup_allocated(fn, g_a);
  if (n < 0) ga_fail(fn, "n=%lld is negative", static_cast<long long>(n));
  if (n == 0) return;
  if (values == nullptr || subs == nullptr) ga_fail(fn, "v or subsArray is NULL");
  const std::vector<int64_t> s = subscripts_of(fn, a, subs, n);
  const size_t count = static_cast<size_t>(n), bytes = count * element_size(fn, a.type);
  if (op != ListOp::Gather) require_writable(fn, a);
  switch (op) {
    case ListOp::Scatter:
      check(fn, remora_array_scatter(a.array, values, s.data(), count));
      stat_record(Stat::Scatter, bytes);
      break;
    case ListOp::Gather:
      check(fn, remora_array_gather(a.array, values, s.data(), count));
      stat_record(Stat::Gather, bytes);
      break;
    case ListOp::ScatterAcc:
      if (alpha == nullptr) ga_fail(fn, "alpha is NULL");
      check(fn, remora_array_scatter_acc(a.array, values, s.data(), count, alpha));
      stat_record(Stat::ScatterAcc, bytes);
      break;
  }
}

template <typename Index>
long read_inc(const char* fn, int g_a, const Index* subscript, long inc) {
  const GaArray& a = lookup_allocated(fn, g_a);
  require_writable(fn, a);
  if (subscript == nullptr) ga_fail(fn, "subscript is NULL");
  if (a.datatype != REMORA_INT32 && a.datatype != REMORA_INT64)
    ga_fail(fn,
            "array '%s' is not an integer array (type %d): Read_inc needs C_INT, C_LONG, "
            "C_LONGLONG or F_INT",
            a.name.c_str(), a.type);
  const Indices s(subscript, a.ndim);
  int64_t old = 0;
  check(fn, remora_array_read_inc(a.array, s.data, inc, &old));
  stat_record(Stat::ReadInc, element_size(fn, a.type));
  return static_cast<long>(old);
}

}  // namespace
}  // namespace remora::ga

using namespace remora::ga;

extern "C" {

void NGA_Scatter(int g_a, void* v, int* subsArray[], int n) {
  element_list("NGA_Scatter", g_a, ListOp::Scatter, v, subsArray, n, nullptr);
}
void NGA_Scatter64(int g_a, void* v, int64_t* subsArray[], int64_t n) {
  element_list("NGA_Scatter64", g_a, ListOp::Scatter, v, subsArray, n, nullptr);
}
void NGA_Gather(int g_a, void* v, int* subsArray[], int n) {
  element_list("NGA_Gather", g_a, ListOp::Gather, v, subsArray, n, nullptr);
}
void NGA_Gather64(int g_a, void* v, int64_t* subsArray[], int64_t n) {
  element_list("NGA_Gather64", g_a, ListOp::Gather, v, subsArray, n, nullptr);
}
void NGA_Scatter_acc(int g_a, void* v, int* subsArray[], int n, void* alpha) {
  element_list("NGA_Scatter_acc", g_a, ListOp::ScatterAcc, v, subsArray, n, alpha);
}
void NGA_Scatter_acc64(int g_a, void* v, int64_t* subsArray[], int64_t n, void* alpha) {
  element_list("NGA_Scatter_acc64", g_a, ListOp::ScatterAcc, v, subsArray, n, alpha);
}

void NGA_Scatter_flat(int g_a, void* v, int subsArray[], int n) {
  element_list("NGA_Scatter_flat", g_a, ListOp::Scatter, v, subsArray, n, nullptr);
}
void NGA_Scatter_flat64(int g_a, void* v, int64_t subsArray[], int64_t n) {
  element_list("NGA_Scatter_flat64", g_a, ListOp::Scatter, v, subsArray, n, nullptr);
}
void NGA_Gather_flat(int g_a, void* v, int subsArray[], int n) {
  element_list("NGA_Gather_flat", g_a, ListOp::Gather, v, subsArray, n, nullptr);
}
void NGA_Gather_flat64(int g_a, void* v, int64_t subsArray[], int64_t n) {
  element_list("NGA_Gather_flat64", g_a, ListOp::Gather, v, subsArray, n, nullptr);
}
void NGA_Scatter_acc_flat(int g_a, void* v, int subsArray[], int n, void* alpha) {
  element_list("NGA_Scatter_acc_flat", g_a, ListOp::ScatterAcc, v, subsArray, n, alpha);
}
void NGA_Scatter_acc_flat64(int g_a, void* v, int64_t subsArray[], int64_t n, void* alpha) {
  element_list("NGA_Scatter_acc_flat64", g_a, ListOp::ScatterAcc, v, subsArray, n, alpha);
}

long NGA_Read_inc(int g_a, int subscript[], long inc) {
  return read_inc("NGA_Read_inc", g_a, subscript, inc);
}
long NGA_Read_inc64(int g_a, int64_t subscript[], long inc) {
  return read_inc("NGA_Read_inc64", g_a, subscript, inc);
}

}  // extern "C"
