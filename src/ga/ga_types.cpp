// User-defined element types (NGA_Register_type / NGA_Deregister_type) and the field calls
// (NGA_Get_field, NGA_Put_field and their nonblocking forms), as in GA 5.8. A registered type
// is a size in bytes; an array of it is a Remora REMORA_UINT8 array with one more dimension,
// the element's bytes, never split across ranks (ga_create.cpp), so a field (bytes foff ..
// foff+fsize-1 of each element) is a strided patch of that array and moves in one Remora
// transfer. The user's buffer holds fsize bytes per element, ld counting elements (GA's
// packing). Documented in docs/global-arrays.md ("User-defined types and fields").
#include <algorithm>
#include <atomic>
#include <mutex>

#include "ga/ga_patch.hpp"
#include "ga/ga_stats.hpp"

namespace remora::ga {
namespace {

// GA numbers registered types after its built-in codes (C_LONGLONG = 1016): the first is
// 1017, and a deregistered code is handed out again (the lowest free one first).
constexpr int kFirstUserType = 1017;
constexpr size_t kMaxUserTypes = 256;
// Slot k: the size of type kFirstUserType + k, 0 while free. Read without the lock by every
// element_size(); written under state_mutex().
std::atomic<size_t> user_types[kMaxUserTypes];

template <typename Index>
void field(const char* fn, int g_a, Transfer op, const Index* lo, const Index* hi, Index foff,
           Index fsize, void* buf, const Index* ld, ga_nbhdl_t* handle) {
  const GaArray& a = lookup_allocated(fn, g_a, Types::Any);
  const size_t element = element_bytes(fn, a);
  if (foff < 0) ga_fail(fn, "foff=%lld is negative", static_cast<long long>(foff));
  if (fsize < 1) ga_fail(fn, "fsize=%lld is not positive", static_cast<long long>(fsize));
  if (static_cast<size_t>(foff) + static_cast<size_t>(fsize) > element)
    ga_fail(fn, "foff=%lld + fsize=%lld exceeds the %zu bytes of an element of array '%s'",
            static_cast<long long>(foff), static_cast<long long>(fsize), element, a.name.c_str());
  // Remora holds a built-in type as typed elements: a field of it is the whole element.
  if (a.user_bytes == 0 && (foff != 0 || static_cast<size_t>(fsize) != element))
    ga_fail(fn,
            "foff=%lld, fsize=%lld: array '%s' has the built-in type %d, whose fields are whole "
            "elements (foff=0, fsize=%zu); parts of elements need a type from NGA_Register_type",
            static_cast<long long>(foff), static_cast<long long>(fsize), a.name.c_str(), a.type,
            element);
  if (op == Transfer::Put) require_writable(fn, a);
  const PatchArgs args(a, lo, hi, ld);
  transfer_bytes(fn, a, op, args.lo.data, args.hi.data, static_cast<int64_t>(foff),
                 static_cast<int64_t>(fsize), buf, args.ld.data, handle);
}

}  // namespace

size_t user_type_bytes(int type) {
  const int64_t k = static_cast<int64_t>(type) - kFirstUserType;
  if (k < 0 || k >= static_cast<int64_t>(kMaxUserTypes)) return 0;
  return user_types[k].load(std::memory_order_acquire);
}

void transfer_bytes(const char* fn, const GaArray& a, Transfer op, const int64_t* lo,
                    const int64_t* hi, int64_t first, int64_t count, void* buffer,
                    const int64_t* ld, ga_nbhdl_t* handle) {
  if (lo == nullptr || hi == nullptr) ga_fail(fn, "lo or hi is NULL");
  if (ld == nullptr && a.ndim > 1) ga_fail(fn, "ld is NULL for a %d-d array", a.ndim);
  const int n = a.ndim;
  int64_t byte_lo[GA_MAX_DIM], byte_hi[GA_MAX_DIM], byte_ld[GA_MAX_DIM];
  const int64_t *patch_lo = lo, *patch_hi = hi, *patch_ld = ld;
  if (a.user_bytes != 0) {  // the Remora array's last dimension: the element's bytes
    std::copy(lo, lo + n, byte_lo);
    std::copy(hi, hi + n, byte_hi);
    if (n > 1) std::copy(ld, ld + n - 1, byte_ld);
    byte_lo[n] = first;
    byte_hi[n] = first + count - 1;
    byte_ld[n - 1] = count;
    patch_lo = byte_lo;
    patch_hi = byte_hi;
    patch_ld = byte_ld;
  }
  remora_array_request_t request = REMORA_ARRAY_REQUEST_NULL;
  remora_array_request_t* pending = handle != nullptr ? &request : nullptr;
  if (op == Transfer::Put)
    check(fn, pending ? remora_array_nbput(a.array, patch_lo, patch_hi, buffer, patch_ld, pending)
                      : remora_array_put(a.array, patch_lo, patch_hi, buffer, patch_ld));
  else
    check(fn, pending ? remora_array_nbget(a.array, patch_lo, patch_hi, buffer, patch_ld, pending)
                      : remora_array_get(a.array, patch_lo, patch_hi, buffer, patch_ld));
  if (pending != nullptr) add_request(fn, handle, request);
  stat_record(op == Transfer::Put ? Stat::Put : Stat::Get,
              static_cast<size_t>(patch_elements(n, lo, hi) * count));
}

}  // namespace remora::ga

using namespace remora::ga;

extern "C" {

int NGA_Register_type(size_t bytes) {
  const char* fn = "NGA_Register_type";
  if (bytes == 0) ga_fail(fn, "bytes=0: a type must have at least one byte");
  const std::lock_guard<std::mutex> hold(state_mutex());
  for (size_t k = 0; k < kMaxUserTypes; ++k)
    if (user_types[k].load(std::memory_order_relaxed) == 0) {
      user_types[k].store(bytes, std::memory_order_release);
      return kFirstUserType + static_cast<int>(k);
    }
  return -1;  // every slot taken: GA's answer too
}

int NGA_Deregister_type(int type) {
  // GA 5.8's results: 0 when deregistered, -1 for a built-in code, -2 for a code that is not
  // registered (or no longer).
  if (type < kFirstUserType) return -1;
  const std::lock_guard<std::mutex> hold(state_mutex());
  if (user_type_bytes(type) == 0) return -2;
  user_types[type - kFirstUserType].store(0, std::memory_order_release);
  return 0;
}

void NGA_Get_field(int g_a, int* lo, int* hi, int foff, int fsize, void* buf, int* ld) {
  field("NGA_Get_field", g_a, Transfer::Get, lo, hi, foff, fsize, buf, ld, nullptr);
}
void NGA_Put_field(int g_a, int* lo, int* hi, int foff, int fsize, void* buf, int* ld) {
  field("NGA_Put_field", g_a, Transfer::Put, lo, hi, foff, fsize, buf, ld, nullptr);
}
void NGA_Nbget_field(int g_a, int* lo, int* hi, int foff, int fsize, void* buf, int* ld,
                     ga_nbhdl_t* nbhandle) {
  if (nbhandle == nullptr) ga_fail("NGA_Nbget_field", "nbhandle is NULL");
  field("NGA_Nbget_field", g_a, Transfer::Get, lo, hi, foff, fsize, buf, ld, nbhandle);
}
void NGA_Nbput_field(int g_a, int* lo, int* hi, int foff, int fsize, void* buf, int* ld,
                     ga_nbhdl_t* nbhandle) {
  if (nbhandle == nullptr) ga_fail("NGA_Nbput_field", "nbhandle is NULL");
  field("NGA_Nbput_field", g_a, Transfer::Put, lo, hi, foff, fsize, buf, ld, nbhandle);
}

}  // extern "C"
