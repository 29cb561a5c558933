// Patch transfers shared by the blocking, periodic, strided and nonblocking forms.
#pragma once

#include <cstdint>

#include "ga/ga_registry.hpp"

namespace remora::ga {

enum class Transfer { Put, Get, Acc };

// lo, hi (ndim entries) and ld (ndim-1) of a GA call, widened to int64_t.
struct PatchArgs {
  Indices lo, hi, ld;
  template <typename Index>
  PatchArgs(const GaArray& a, const Index* lo_in, const Index* hi_in, const Index* ld_in)
      : lo(lo_in, a.ndim), hi(hi_in, a.ndim), ld(ld_in, a.ndim - 1) {}
};

// One blocking patch operation (alpha: Acc only).
void transfer(const char* fn, const GaArray& a, Transfer op, const int64_t* lo, const int64_t* hi,
              void* buffer, const int64_t* ld, const void* alpha);
// The same with indices that wrap around the array's ends (lo..hi may lie outside [0, dims)):
// one transfer per wrapped run.
void periodic(const char* fn, const GaArray& a, Transfer op, const int64_t* lo, const int64_t* hi,
              void* buffer, const int64_t* ld, const void* alpha);
// Bytes first..first+count-1 of each element of lo..hi of an array of a registered type, the
// buffer holding count bytes per element (ld counting elements, as GA's field calls); handle:
// nullptr for a blocking transfer, else the nonblocking handle the request joins (ga_types.cpp).
void transfer_bytes(const char* fn, const GaArray& a, Transfer op, const int64_t* lo,
                    const int64_t* hi, int64_t first, int64_t count, void* buffer,
                    const int64_t* ld, ga_nbhdl_t* handle);
// Adds a pending request to the list *handle names, or starts one (ga_nonblocking.cpp).
void add_request(const char* fn, ga_nbhdl_t* handle, remora_array_request_t request);
// Makes *handle name an operation that has completed (ga_nonblocking.cpp): for nonblocking
// calls that finish before they return.
void complete_handle(const char* fn, ga_nbhdl_t* handle);
// The number of elements in lo..hi.
int64_t patch_elements(int ndim, const int64_t* lo, const int64_t* hi);

}  // namespace remora::ga
