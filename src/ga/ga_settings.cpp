// GA's settings and reports that change nothing Remora computes: the memory limit after
// initialisation, the debug flag, the irregular-distribution flag, the stack-memory allocator
// and the memory device (recorded, as GA records them), the gather/scatter buffers (GA's
// bookkeeping only), and GA_Summarize's table of arrays.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "ga/ga_blocks.hpp"
#include "ga/ga_memory.hpp"
#include "ga/ga_registry.hpp"

using namespace remora::ga;

namespace {

std::atomic<int> debug_flag{0};
std::atomic<int> gatscat_elements{0};  // NGA_Alloc_gatscat_buf's nelems, 0: none

// GA's Fortran names of the element types, as GA_Summarize prints them.
const char* type_name(remora_datatype_t type) {
  switch (type) {
    case REMORA_INT32:
    case REMORA_INT64:
      return "integer";
    case REMORA_FLOAT:
      return "real";
    case REMORA_DOUBLE:
      return "double precision";
    case REMORA_FLOAT_COMPLEX:
      return "complex";
    default:
      return "double complex";
  }
}

// "(lo:hi,...)" 1-based, in Fortran order (the last C dimension first), as GA prints patches.
std::string fortran_box(int ndim, const int64_t* lo, const int64_t* hi) {
  std::string text = "(";
  for (int d = ndim - 1; d >= 0; --d) {
    text += std::to_string(lo[d] + 1) + ":" + std::to_string(hi[d] + 1);
    if (d > 0) text += ",";
  }
  return text + ")";
}

}  // namespace

extern "C" {

void GA_Set_memory_limit(size_t limit) {
  require_initialized("GA_Set_memory_limit");
  // GA's limit is a signed Integer: a "negative" one means no limit, as 0 does here
  // (GA_Initialize_ltd's convention).
  memory_set_limit(limit > static_cast<size_t>(INT64_MAX) ? 0 : limit);
}

void GA_Set_debug(int flag) {
  debug_flag = flag;
}

int GA_Get_debug(void) {
  return debug_flag;
}

void GA_Set_irreg_flag(int g_a, int flag) {
  // GA only records it (its irregular distributions are set by GA_Set_irreg_distr); so does
  // this layer, after checking the handle.
  lookup("GA_Set_irreg_flag", g_a);
  (void)flag;
}

void GA_Register_stack_memory(void* (*ext_alloc)(size_t, int, char*), void (*ext_free)(void*)) {
  constexpr const char* fn = "GA_Register_stack_memory";
  // GA takes its temporary buffers from these; Remora's come from its own allocator, so they
  // are checked and not called.
  if (ext_alloc == nullptr || ext_free == nullptr)
    ga_fail(fn, "ext_alloc or ext_free is NULL: both are required");
}

void GA_Set_memory_dev(int g_a, char* device) {
  constexpr const char* fn = "GA_Set_memory_dev";
  const GaArray& a = lookup(fn, g_a);
  if (device == nullptr) ga_fail(fn, "device is NULL");
  if (a.array != nullptr)
    ga_fail(fn, "array '%s' is already allocated: its memory device cannot change", a.name.c_str());
  // Remora's arrays live in host memory whatever the device: the name is accepted and unused.
}

void NGA_Alloc_gatscat_buf(int nelems) {
  constexpr const char* fn = "NGA_Alloc_gatscat_buf";
  require_initialized(fn);
  // GA preallocates its gather/scatter work buffers here; Remora's gathers and scatters need
  // none, so only GA's bookkeeping (and its errors) remain.
  if (nelems < 0) ga_fail(fn, "nelems=%d is negative", nelems);
  if (gatscat_elements != 0)
    ga_fail(fn, "nelems=%d: the gather/scatter buffers are already allocated (for %d elements)",
            nelems, gatscat_elements.load());
  gatscat_elements = nelems;
}

void NGA_Free_gatscat_buf(void) {
  constexpr const char* fn = "NGA_Free_gatscat_buf";
  require_initialized(fn);
  if (gatscat_elements == 0) ga_fail(fn, "the gather/scatter buffers are not allocated");
  gatscat_elements = 0;
}

void GA_Summarize(int verbose) {
  constexpr const char* fn = "GA_Summarize";
  require_initialized(fn);
  // As GA: every process prints the arrays it knows, and with verbose != 0 who owns what.
  std::printf(" Summary of allocated global arrays\n-----------------------------------\n");
  int index = 0;
  for (int handle : live_handles()) {
    const GaArray& a = lookup(fn, handle);
    if (a.array == nullptr) continue;
    int64_t lo[GA_MAX_DIM] = {}, hi[GA_MAX_DIM] = {};
    std::string dims = "(";
    for (int d = a.ndim - 1; d >= 0; --d) dims += std::to_string(a.dims[d]) + (d > 0 ? "," : "");
    std::printf("  array %d => %s %s%s),  handle: %d \n", index++, type_name(a.datatype),
                a.name.c_str(), dims.c_str(), handle);
    if (verbose == 0 || is_cyclic(a)) continue;
    for (int rank = 0; rank < array_ranks(a); ++rank) {
      owned_patch(fn, a, rank, lo, hi);
      if (lo[0] > hi[0]) continue;  // owns nothing
      std::printf("    %s -> %d \n", fortran_box(a.ndim, lo, hi).c_str(), rank);
    }
  }
  std::printf("\n\n");
  std::fflush(stdout);
}

}  // extern "C"
