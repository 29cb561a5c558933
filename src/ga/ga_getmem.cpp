// GA_Getmem / GA_Freemem: memory from GA's shared pool, allocated collectively over a process
// group (GA: ARMCI_Malloc on the group), and GA_Assemble_duplicate, an array built on such
// memory, which then owns it. Each allocation is a Remora byte array on the group, cut so that each
// rank's part is the bytes it asked for (at least one element, so that every part has a pointer of
// its own): registered for one-sided access like GA's, and usable as the memory of an array
// (remora_array_set_create_memory). The pointer returned is the start of this rank's part.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "ga-mpi.h"
#include "ga/ga_memory.hpp"
#include "ga/ga_registry.hpp"

namespace remora::ga {
namespace {

struct PoolMemory {
  remora_array_t array;
  int type;        // GA's type code given to GA_Getmem
  size_t counted;  // bytes counted against GA_Initialize_ltd's limit (0: none)
  uint64_t order;  // creation order, the same on every rank (GA_Getmem is collective)
};

uint64_t next_order = 0;  // guarded by state_mutex()

// What GA counts against the limit for GA_Getmem: the elements and its header before them
// (four longs, then one pointer per process of the world), so GA_Memory_avail reads the same.
size_t pool_charge(size_t element, int nelem) {
  int world = 0;
  MPI_Comm_size(GA_MPI_Comm(), &world);
  return element * static_cast<size_t>(nelem) + 4 * sizeof(long) +
         static_cast<size_t>(world) * sizeof(void*);
}

// This rank's part of each live allocation -> its array. Guarded by state_mutex().
std::map<const void*, PoolMemory>& allocations() {
  static std::map<const void*, PoolMemory> table;
  return table;
}

PoolMemory find_allocation(const char* fn, const void* ptr) {
  const std::lock_guard<std::mutex> hold(state_mutex());
  const auto it = allocations().find(ptr);
  if (it == allocations().end())
    ga_fail(fn,
            "ptr=%p was not returned by GA_Getmem (or was freed, or given to "
            "GA_Assemble_duplicate, whose array owns it)",
            ptr);
  return it->second;
}

}  // namespace

void free_pool_memory() {
  std::vector<PoolMemory> left;
  {
    const std::lock_guard<std::mutex> hold(state_mutex());
    for (const auto& entry : allocations()) left.push_back(entry.second);
    allocations().clear();
  }
  // Destruction is collective over each allocation's group: every rank goes in creation order,
  // as the program created them, not in the order of its own addresses.
  std::sort(left.begin(), left.end(),
            [](const PoolMemory& a, const PoolMemory& b) { return a.order < b.order; });
  for (PoolMemory& pool : left) {
    pool_remove(pool.counted);
    check("GA_Terminate", remora_array_destroy(&pool.array));
  }
}

}  // namespace remora::ga

using namespace remora::ga;

extern "C" {

void* GA_Getmem(int type, int nelem, int grp_id) {
  const char* fn = "GA_Getmem";
  require_initialized(fn);
  if (nelem < 0) ga_fail(fn, "nelem=%d is negative", nelem);
  const size_t element = element_size(fn, type);
  // GA: a positive id names a group, anything else the world group.
  const int group = grp_id > 0 ? grp_id : kWorldGroup;
  const remora_comm_t comm = pgroup_comm(fn, group);
  const int64_t bytes = static_cast<int64_t>(element) * std::max(nelem, 1);
  int ranks = 0, rank = 0;
  check(fn, remora_comm_size(comm, &ranks));
  check(fn, remora_comm_rank(comm, &rank));
  std::vector<int64_t> starts(static_cast<size_t>(ranks));
  MPI_Allgather(&bytes, 1, MPI_INT64_T, starts.data(), 1, MPI_INT64_T, GA_MPI_Comm_pgroup(group));
  int64_t total = 0;
  for (int64_t& start : starts) {  // each rank's size -> where its part starts
    const int64_t size = start;
    start = total;
    total += size;
  }
  // A byte array on the group, one block per rank.
  const int64_t dims[1] = {total};
  const int nblock[1] = {ranks};
  remora_array_t array = nullptr;
  std::string why;
  const int created = create_on(
      fn, comm, nullptr,
      [&](remora_array_t* out) {
        return remora_array_create_irregular(REMORA_UINT8, 1, dims, nblock, starts.data(), fn, out);
      },
      &array, &why);
  if (created < 0) ga_fail(fn, "%s", why.c_str());
  void* base = nullptr;
  int64_t count = 0;
  check(fn, remora_array_access_local(array, rank, &base, &count));
  // As GA: counted when it fits under the limit on every rank; allocated either way.
  const size_t charge = pool_charge(element, nelem);
  const size_t counted = memory_admits_everywhere(charge, GA_MPI_Comm_pgroup(group)) ? charge : 0;
  pool_add(counted);
  const std::lock_guard<std::mutex> hold(state_mutex());
  allocations()[base] = {array, type, counted, next_order++};
  return base;
}

void GA_Freemem(void* ptr) {
  const char* fn = "GA_Freemem";
  require_initialized(fn);
  const PoolMemory pool = find_allocation(fn, ptr);
  remora_array_t array = pool.array;
  pool_remove(pool.counted);
  {
    const std::lock_guard<std::mutex> hold(state_mutex());
    allocations().erase(ptr);
  }
  // Collective over the group, as GA's ARMCI_Free. An array assembled on it keeps the memory
  // until it is destroyed too.
  check(fn, remora_array_destroy(&array));
}

int GA_Assemble_duplicate(int g_a, char* array_name, void* ptr) {
  const char* fn = "GA_Assemble_duplicate";
  require_initialized(fn);
  const GaArray& source = lookup_allocated(fn, g_a, Types::Any);
  const PoolMemory pool = find_allocation(fn, ptr);
  if (!source.ghost_width.empty())
    ga_fail(fn,
            "g_a=%d has ghost cells, which Remora keeps in a copy of their own: an array with "
            "ghost cells cannot be assembled on GA_Getmem's memory",
            g_a);
  const int handle = new_handle();
  GaArray& a = lookup(fn, handle);
  a = settings_of(source);
  // As GA: g_a's shape and distribution, GA_Getmem's type.
  set_data(fn, a, source.ndim, source.dims, pool.type);
  a.name = array_name != nullptr ? array_name : "";
  std::string refused;
  if (allocate(fn, a, pool.array, &refused) == 0)
    ga_fail(fn, "g_a=%d's distribution with type %d does not fit in ptr=%p: %s", g_a, pool.type,
            ptr, refused.c_str());
  // As in GA the new array owns the memory (its GA_Destroy frees it): the pool's own array
  // goes, the memory stays with the new one, and ptr is no longer GA_Freemem's.
  {
    const std::lock_guard<std::mutex> hold(state_mutex());
    allocations().erase(ptr);
  }
  // The counted memory becomes the array's (GA_Inquire_memory), given back at its GA_Destroy.
  pool_remove(pool.counted);
  memory_add(pool.counted);
  a.pool_bytes = pool.counted;
  remora_array_t own = pool.array;
  check(fn, remora_array_destroy(&own));
  return handle;
}

}  // extern "C"
