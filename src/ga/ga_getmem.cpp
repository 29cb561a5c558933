// GA_Getmem / GA_Freemem: memory from GA's shared pool, allocated collectively over a process
// group (GA: ARMCI_Malloc on the group). Each allocation here is a Remora window over the
// group's communicator, so the memory is registered for one-sided access like GA's; the pointer
// returned is this rank's part. GA_Assemble_duplicate, which builds an array over such memory,
// is not provided: Remora arrays live in windows they allocate themselves
// (docs/global-arrays.md).
#include <map>
#include <mutex>

#include "ga/ga_registry.hpp"

namespace remora::ga {
namespace {
// This rank's part of each live allocation -> its window. Guarded by state_mutex().
std::map<const void*, remora_win_t>& allocations() {
  static std::map<const void*, remora_win_t> table;
  return table;
}
}  // namespace
}  // namespace remora::ga

using namespace remora::ga;

extern "C" {

void* GA_Getmem(int type, int nelem, int grp_id) {
  const char* fn = "GA_Getmem";
  require_initialized(fn);
  if (nelem < 0) ga_fail(fn, "nelem=%d is negative", nelem);
  const size_t element = element_size(fn, type);
  // GA: a positive id names a group, anything else the world group.
  const remora_comm_t comm = pgroup_comm(fn, grp_id > 0 ? grp_id : kWorldGroup);
  // At least one element, so that every allocation has a pointer of its own.
  const size_t bytes = element * static_cast<size_t>(nelem > 0 ? nelem : 1);
  void* base = nullptr;
  remora_win_t win = nullptr;
  check(fn, remora_win_allocate_comm(comm, bytes, element, nullptr, &base, &win));
  const std::lock_guard<std::mutex> hold(state_mutex());
  allocations()[base] = win;
  return base;
}

void GA_Freemem(void* ptr) {
  const char* fn = "GA_Freemem";
  require_initialized(fn);
  remora_win_t win = nullptr;
  {
    const std::lock_guard<std::mutex> hold(state_mutex());
    const auto it = allocations().find(ptr);
    if (it == allocations().end())
      ga_fail(fn, "ptr=%p was not returned by GA_Getmem (or was freed already)", ptr);
    win = it->second;
    allocations().erase(it);
  }
  check(fn, remora_win_free(&win));  // collective over the group, as GA's ARMCI_Free
}

}  // extern "C"
