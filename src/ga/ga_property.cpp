// Array properties: NGA_Set_property / NGA_Unset_property (and the GA_ spellings).
// "read_only": every rank of the array's group copies the whole array once, when the property
// is set; gets (blocking, nonblocking, periodic, strided) then read that copy, and writes
// (put, acc, scatter, read_inc, release_update) fail until the property is unset. GA forbids
// writes while the property is set, so the copy is never refreshed.
// "read_cache": accepted; gets stay one-sided reads of the owners (always current).
#include <cstring>
#include <string>

#include "ga-mpi.h"
#include "ga/ga_registry.hpp"

namespace remora::ga {

void require_writable(const char* fn, const GaArray& a) {
  if (a.read_only)
    ga_fail(fn,
            "array '%s' has the property \"read_only\" (NGA_Set_property): writes are refused "
            "until NGA_Unset_property",
            a.name.c_str());
}

void replica_get(const char* fn, const GaArray& a, const int64_t* lo, const int64_t* hi,
                 void* buffer, const int64_t* ld) {
  if (lo == nullptr || hi == nullptr) ga_fail(fn, "lo or hi is NULL");
  if (buffer == nullptr) ga_fail(fn, "buf is NULL");
  for (int d = 0; d < a.ndim; ++d)
    if (lo[d] < 0 || hi[d] >= a.dims[d] || lo[d] > hi[d])
      ga_fail(fn, "lo[%d]=%lld..hi[%d]=%lld lies outside dimension %d of array '%s' (0..%lld)", d,
              static_cast<long long>(lo[d]), d, static_cast<long long>(hi[d]), d, a.name.c_str(),
              static_cast<long long>(a.dims[d] - 1));
  if (a.ndim > 1 && ld == nullptr) ga_fail(fn, "ld is NULL for a %d-d array", a.ndim);
  for (int d = 0; d + 1 < a.ndim; ++d)
    if (ld[d] < hi[d + 1] - lo[d + 1] + 1)
      ga_fail(fn, "ld[%d]=%lld is smaller than the patch extent %lld", d,
              static_cast<long long>(ld[d]), static_cast<long long>(hi[d + 1] - lo[d + 1] + 1));
  const size_t elem = element_size(fn, a.type);
  const int n = a.ndim;
  // Element strides of the replica (the whole array) and of the buffer.
  int64_t array_stride[GA_MAX_DIM], buffer_stride[GA_MAX_DIM];
  array_stride[n - 1] = buffer_stride[n - 1] = 1;
  for (int d = n - 2; d >= 0; --d) {
    array_stride[d] = array_stride[d + 1] * a.dims[d + 1];
    buffer_stride[d] = buffer_stride[d + 1] * ld[d];
  }
  const size_t row = static_cast<size_t>(hi[n - 1] - lo[n - 1] + 1) * elem;
  int64_t at[GA_MAX_DIM];
  std::memcpy(at, lo, sizeof(int64_t) * static_cast<size_t>(n));
  auto* out = static_cast<unsigned char*>(buffer);
  while (true) {
    int64_t from = 0, to = 0;
    for (int d = 0; d < n; ++d) {
      from += at[d] * array_stride[d];
      to += (at[d] - lo[d]) * buffer_stride[d];
    }
    std::memcpy(out + static_cast<size_t>(to) * elem,
                a.replica.data() + static_cast<size_t>(from) * elem, row);
    int d = n - 2;
    while (d >= 0 && at[d] == hi[d]) at[d] = lo[d], --d;
    if (d < 0) return;
    ++at[d];
  }
}

namespace {

void set_property(const char* fn, int g_a, const char* property) {
  GaArray& a = lookup_allocated(fn, g_a);
  if (property == nullptr) ga_fail(fn, "property is NULL");
  const std::string name(property);
  if (name == "read_cache") return;
  if (name != "read_only")
    ga_fail(fn, "property \"%s\" is not one Remora provides (\"read_only\", \"read_cache\")",
            property);
  if (a.read_only) return;
  const remora_comm_t comm = pgroup_comm(fn, a.pgroup);
  check(fn, remora_array_sync_comm(comm));  // every rank's writes are complete
  int64_t elements = 1, lo[GA_MAX_DIM], hi[GA_MAX_DIM], ld[GA_MAX_DIM];
  for (int d = 0; d < a.ndim; ++d) {
    elements *= a.dims[d];
    lo[d] = 0;
    hi[d] = a.dims[d] - 1;
    if (d > 0) ld[d - 1] = a.dims[d];
  }
  a.replica.resize(static_cast<size_t>(elements) * element_size(fn, a.type));
  check(fn, remora_array_get(a.array, lo, hi, a.replica.data(), a.ndim > 1 ? ld : nullptr));
  a.read_only = true;
  check(fn, remora_array_sync_comm(comm));
}

void unset_property(const char* fn, int g_a) {
  GaArray& a = lookup_allocated(fn, g_a);
  check(fn, remora_array_sync_comm(pgroup_comm(fn, a.pgroup)));
  a.read_only = false;
  std::vector<unsigned char>().swap(a.replica);
}

}  // namespace
}  // namespace remora::ga

using namespace remora::ga;

extern "C" {

void NGA_Set_property(int g_a, char* property) {
  set_property("NGA_Set_property", g_a, property);
}
void GA_Set_property(int g_a, char* property) {
  set_property("GA_Set_property", g_a, property);
}
void NGA_Unset_property(int g_a) {
  unset_property("NGA_Unset_property", g_a);
}
void GA_Unset_property(int g_a) {
  unset_property("GA_Unset_property", g_a);
}

}  // extern "C"
