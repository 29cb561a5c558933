// Array properties: NGA_Set_property / NGA_Unset_property (and the GA_ spellings).
// "read_only": one copy of the whole array per node, in memory the node's ranks of the array's
// group share (a window allocated on them, whose first rank holds the copy), taken once when
// the property is set; gets (blocking, nonblocking, periodic, strided) then read that copy, and
// writes (one-sided and collective) fail until the property is unset. GA forbids writes while
// the property is set, so the copy is never refreshed.
// "read_cache": each rank keeps the owners' blocks it has read (whole blocks, read once) and
// serves later gets from them; its own writes into the array and any synchronisation
// (GA_Sync, GA_Fence, GA_Lock, GA_Unlock, NGA_Unset_property) empty the cache.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "ga-mpi.h"
#include "ga/ga_blocks.hpp"
#include "ga/ga_registry.hpp"

namespace remora::ga {

struct ReadCache {
  struct Block {
    int64_t lo[GA_MAX_DIM], hi[GA_MAX_DIM];
    std::vector<unsigned char> data;  // empty until read
  };
  std::mutex mutex;  // threads of the rank read through one cache
  uint64_t epoch = 0;
  std::vector<Block> blocks;  // one per rank of the array's group (hi < lo: owns nothing)
};

namespace {

std::atomic<uint64_t> cache_epoch{1};

// Copies the box lo..hi (global indices) from src, a row-major patch starting at src_lo with
// extents src_ext, into dst, a buffer starting at dst_lo with leading dimensions dst_ld
// (ndim-1 entries; the last dimension contiguous).
void copy_box(int n, size_t elem, const unsigned char* src, const int64_t* src_lo,
              const int64_t* src_ext, unsigned char* dst, const int64_t* dst_lo,
              const int64_t* dst_ld, const int64_t* lo, const int64_t* hi) {
  int64_t src_stride[GA_MAX_DIM], dst_stride[GA_MAX_DIM];
  src_stride[n - 1] = dst_stride[n - 1] = 1;
  for (int d = n - 2; d >= 0; --d) {
    src_stride[d] = src_stride[d + 1] * src_ext[d + 1];
    dst_stride[d] = dst_stride[d + 1] * dst_ld[d];
  }
  const size_t row = static_cast<size_t>(hi[n - 1] - lo[n - 1] + 1) * elem;
  int64_t at[GA_MAX_DIM];
  std::memcpy(at, lo, sizeof(int64_t) * static_cast<size_t>(n));
  while (true) {
    int64_t from = 0, to = 0;
    for (int d = 0; d < n; ++d) {
      from += (at[d] - src_lo[d]) * src_stride[d];
      to += (at[d] - dst_lo[d]) * dst_stride[d];
    }
    std::memcpy(dst + static_cast<size_t>(to) * elem, src + static_cast<size_t>(from) * elem, row);
    int d = n - 2;
    while (d >= 0 && at[d] == hi[d]) at[d] = lo[d], --d;
    if (d < 0) return;
    ++at[d];
  }
}

void check_patch(const char* fn, const GaArray& a, const int64_t* lo, const int64_t* hi,
                 const void* buffer, const int64_t* ld) {
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
}

}  // namespace

void require_writable(const char* fn, const GaArray& a) {
  if (a.read_only)
    ga_fail(fn,
            "array '%s' has the property \"read_only\" (NGA_Set_property): writes are refused "
            "until NGA_Unset_property",
            a.name.c_str());
  if (a.cache) {
    const std::lock_guard<std::mutex> hold(a.cache->mutex);
    for (ReadCache::Block& b : a.cache->blocks) std::vector<unsigned char>().swap(b.data);
  }
}

const GaArray& writable(const char* fn, int g_a) {
  const GaArray& a = lookup_allocated(fn, g_a);
  require_writable(fn, a);
  return a;
}

void invalidate_read_caches() {
  cache_epoch.fetch_add(1, std::memory_order_acq_rel);
}

void replica_get(const char* fn, const GaArray& a, const int64_t* lo, const int64_t* hi,
                 void* buffer, const int64_t* ld) {
  check_patch(fn, a, lo, hi, buffer, ld);
  const int64_t zero[GA_MAX_DIM] = {};
  copy_box(a.ndim, element_size(fn, a.type), a.replica, zero, a.dims,
           static_cast<unsigned char*>(buffer), lo, ld, lo, hi);
}

bool cached_get(const char* fn, const GaArray& a, const int64_t* lo, const int64_t* hi,
                void* buffer, const int64_t* ld) {
  if (!a.cache) return false;
  check_patch(fn, a, lo, hi, buffer, ld);
  ReadCache& cache = *a.cache;
  const size_t elem = element_size(fn, a.type);
  const int n = a.ndim;
  const uint64_t epoch = cache_epoch.load(std::memory_order_acquire);
  for (size_t r = 0; r < cache.blocks.size(); ++r) {
    int64_t box_lo[GA_MAX_DIM], box_hi[GA_MAX_DIM], ext[GA_MAX_DIM];
    bool empty = false;
    {
      const ReadCache::Block& b = cache.blocks[r];
      for (int d = 0; d < n; ++d) {
        box_lo[d] = std::max(lo[d], b.lo[d]);
        box_hi[d] = std::min(hi[d], b.hi[d]);
        ext[d] = b.hi[d] - b.lo[d] + 1;
        if (box_lo[d] > box_hi[d]) empty = true;
      }
    }
    if (empty) continue;
    std::unique_lock<std::mutex> hold(cache.mutex);
    if (cache.epoch != epoch) {  // synchronised since: other ranks' writes may be visible
      for (ReadCache::Block& b : cache.blocks) std::vector<unsigned char>().swap(b.data);
      cache.epoch = epoch;
    }
    ReadCache::Block& b = cache.blocks[r];
    if (b.data.empty()) {
      // Read the owner's whole block, without the lock (the read waits for the owner).
      hold.unlock();
      int64_t elements = 1, block_ld[GA_MAX_DIM];
      for (int d = 0; d < n; ++d) elements *= ext[d];
      for (int d = 0; d + 1 < n; ++d) block_ld[d] = ext[d + 1];
      std::vector<unsigned char> data(static_cast<size_t>(elements) * elem);
      check(fn, remora_array_get(a.array, b.lo, b.hi, data.data(), n > 1 ? block_ld : nullptr));
      hold.lock();
      if (cache.epoch == epoch && b.data.empty()) b.data.swap(data);
      if (b.data.empty()) {  // emptied meanwhile: serve this get from what was read
        copy_box(n, elem, data.data(), b.lo, ext, static_cast<unsigned char*>(buffer), lo, ld,
                 box_lo, box_hi);
        continue;
      }
    }
    copy_box(n, elem, b.data.data(), b.lo, ext, static_cast<unsigned char*>(buffer), lo, ld, box_lo,
             box_hi);
  }
  return true;
}

void release_properties(const char* fn, GaArray& a) {
  a.cache.reset();
  if (!a.read_only) return;
  a.read_only = false;
  a.replica = nullptr;
  check(fn, remora_win_free(&a.replica_win));
  check(fn, remora_comm_free(&a.replica_node));
}

namespace {

void set_read_only(const char* fn, GaArray& a) {
  const remora_comm_t comm = pgroup_comm(fn, a.pgroup);
  check(fn, remora_array_sync_comm(comm));  // every rank's writes are complete
  int rank = 0;
  check(fn, remora_comm_rank(comm, &rank));
  check(fn, remora_comm_split(comm, remora_node(), rank, &a.replica_node));
  int node_rank = 0;
  check(fn, remora_comm_rank(a.replica_node, &node_rank));
  int64_t elements = 1, lo[GA_MAX_DIM], hi[GA_MAX_DIM], ld[GA_MAX_DIM];
  for (int d = 0; d < a.ndim; ++d) {
    elements *= a.dims[d];
    lo[d] = 0;
    hi[d] = a.dims[d] - 1;
    if (d > 0) ld[d - 1] = a.dims[d];
  }
  const size_t bytes = static_cast<size_t>(elements) * element_size(fn, a.type);
  void* mine = nullptr;
  check(fn, remora_win_allocate_comm(a.replica_node, node_rank == 0 ? bytes : 0, 1, nullptr, &mine,
                                     &a.replica_win));
  if (node_rank == 0) check(fn, remora_array_get(a.array, lo, hi, mine, a.ndim > 1 ? ld : nullptr));
  size_t size = 0, unit = 0;
  void* base = nullptr;
  check(fn, remora_win_shared_query(a.replica_win, 0, &size, &unit, &base));
  // The copy's stores before the other ranks' loads (the window's synchronisation).
  check(fn, remora_win_fence(a.replica_win, 0));
  check(fn, remora_win_fence(a.replica_win, 0));
  a.replica = static_cast<const unsigned char*>(base);
  a.read_only = true;
  check(fn, remora_array_sync_comm(comm));
}

void set_read_cache(const char* fn, GaArray& a) {
  if (a.cache || is_cyclic(a)) return;  // block-cyclic arrays: gets stay reads of the owners
  auto cache = std::make_shared<ReadCache>();
  const int ranks = array_ranks(a);
  cache->blocks.resize(static_cast<size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    ReadCache::Block& b = cache->blocks[static_cast<size_t>(r)];
    owned_patch(fn, a, r, b.lo, b.hi);
  }
  cache->epoch = cache_epoch.load(std::memory_order_acquire);
  a.cache = std::move(cache);
}

void set_property(const char* fn, int g_a, const char* property) {
  GaArray& a = lookup_allocated(fn, g_a);
  if (property == nullptr) ga_fail(fn, "property is NULL");
  const std::string name(property);
  if (name == "read_cache") return set_read_cache(fn, a);
  if (name != "read_only")
    ga_fail(fn, "property \"%s\" is not one Remora provides (\"read_only\", \"read_cache\")",
            property);
  if (a.read_only) return;
  a.cache.reset();
  set_read_only(fn, a);
}

void unset_property(const char* fn, int g_a) {
  GaArray& a = lookup_allocated(fn, g_a);
  check(fn, remora_array_sync_comm(pgroup_comm(fn, a.pgroup)));
  invalidate_read_caches();
  release_properties(fn, a);
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
