// Direct access: NGA_Access / NGA_Access_block and their releases. Remora gives a pointer into
// the owner's memory when the patch lies in one block mapped by this rank, else a copy (see
// docs/global-arrays.md). GA releases by patch, Remora by pointer: each handle remembers its
// open accesses. An access never released does not disturb later calls: accessing the same
// patch again drops the stale record first. The records are guarded by state_mutex() (threads
// may access patches of one array at the same time); Remora is called outside it.
#include <algorithm>
#include <mutex>

#include "ga/ga_blocks.hpp"
#include "ga/ga_registry.hpp"
#include "ga/ga_stats.hpp"

namespace remora::ga {
namespace {

using Access = GaArray::Access;

std::vector<Access>::iterator find_access(GaArray& a, const int64_t* lo, const int64_t* hi) {
  const size_t n = static_cast<size_t>(a.ndim);
  return std::find_if(a.accesses.begin(), a.accesses.end(), [&](const Access& x) {
    return std::equal(lo, lo + n, x.lo.begin()) && std::equal(hi, hi + n, x.hi.begin());
  });
}

void release(const char* fn, GaArray& a, const int64_t* lo, const int64_t* hi, bool update) {
  if (lo == nullptr || hi == nullptr) ga_fail(fn, "lo or hi is NULL");
  if (update) {
    const std::lock_guard<std::mutex> hold(state_mutex());
    if (find_access(a, lo, hi) == a.accesses.end()) return;
  }
  if (update) require_writable(fn, a);
  void* pointer = nullptr;
  {
    const std::lock_guard<std::mutex> hold(state_mutex());
    const auto it = find_access(a, lo, hi);
    if (it == a.accesses.end()) return;  // GA: releasing what was not accessed does nothing
    pointer = it->pointer;
    a.accesses.erase(it);
  }
  if (ghost_release(fn, a, pointer)) return;  // a pointer into the padded block
  check(fn, update ? remora_array_release_update(a.array, pointer)
                   : remora_array_release(a.array, pointer));
}

template <typename Index>
void access(const char* fn, GaArray& a, const int64_t* lo, const int64_t* hi, void* ptr,
            Index* ld) {
  if (ptr == nullptr) ga_fail(fn, "ptr is NULL");
  if (ld == nullptr && a.ndim > 1) ga_fail(fn, "ld is NULL for a %d-d array", a.ndim);
  release(fn, a, lo, hi, false);  // an earlier access of this patch that was never released
  void* pointer = nullptr;
  int64_t ld64[GA_MAX_DIM] = {};
  // A ghosted array's own patches live in the padded block (ld counting the ghosts, as GA's).
  if (a.ghosts) pointer = ghost_access(fn, a, lo, hi, ld64);
  if (pointer == nullptr) check(fn, remora_array_access(a.array, lo, hi, &pointer, ld64));
  const std::lock_guard<std::mutex> hold(state_mutex());
  a.accesses.push_back(
      {std::vector<int64_t>(lo, lo + a.ndim), std::vector<int64_t>(hi, hi + a.ndim), pointer});
  *static_cast<void**>(ptr) = pointer;
  if (ld != nullptr) from_int64(ld64, a.ndim - 1, ld);
  stat_record(Stat::Access, 0);
}

template <typename Index>
void access_patch(const char* fn, int g_a, const Index* lo, const Index* hi, void* ptr, Index* ld) {
  GaArray& a = lookup_allocated(fn, g_a);
  const Indices lo64(lo, a.ndim), hi64(hi, a.ndim);
  if (lo64.data == nullptr || hi64.data == nullptr) ga_fail(fn, "lo or hi is NULL");
  access(fn, a, lo64.data, hi64.data, ptr, ld);
}

// Block idx: a block of a block-cyclic array, or process idx's block otherwise.
void block_patch(const char* fn, const GaArray& a, int64_t idx, int64_t* lo, int64_t* hi) {
  if (is_cyclic(a)) return block_bounds(fn, a, idx, lo, hi);
  if (idx < 0 || idx >= array_ranks(a))
    ga_fail(fn, "idx=%lld is not a process of array '%s' [0, %d)", static_cast<long long>(idx),
            a.name.c_str(), array_ranks(a));
  owned_patch(fn, a, static_cast<int>(idx), lo, hi);
  if (hi[0] < lo[0])
    ga_fail(fn, "process %lld owns no block of array '%s'", static_cast<long long>(idx),
            a.name.c_str());
}

template <typename Index>
void access_block(const char* fn, int g_a, int64_t idx, void* ptr, Index* ld) {
  GaArray& a = lookup_allocated(fn, g_a);
  int64_t lo[GA_MAX_DIM], hi[GA_MAX_DIM];
  block_patch(fn, a, idx, lo, hi);
  access(fn, a, lo, hi, ptr, ld);
}

// NGA_Access_block_grid: the block at block-grid coordinates index (C order) of an array on a
// process grid (GA refuses the others too).
template <typename Index>
void grid_block_patch(const char* fn, const GaArray& a, const Index* index, int64_t* lo,
                      int64_t* hi) {
  if (index == nullptr) ga_fail(fn, "index is NULL");
  if (a.layout != Layout::ScalapackCyclic && a.layout != Layout::Tiled &&
      a.layout != Layout::TiledIrregular)
    ga_fail(fn, "array '%s' has no block grid (GA_Set_block_cyclic_proc_grid or GA_Set_tiled*)",
            a.name.c_str());
  int64_t counts[GA_MAX_DIM];
  block_counts(a, counts);
  for (int d = 0; d < a.ndim; ++d) {
    if (index[d] < 0 || index[d] >= counts[d])
      ga_fail(fn, "index[%d]=%lld is outside [0, %lld) of array '%s'", d,
              static_cast<long long>(index[d]), static_cast<long long>(counts[d]), a.name.c_str());
    lo[d] = block_start(a, d, index[d]);
    hi[d] = (index[d] + 1 < counts[d] ? block_start(a, d, index[d] + 1) : a.dims[d]) - 1;
  }
}

template <typename Index>
void access_grid_block(const char* fn, int g_a, const Index* index, void* ptr, Index* ld) {
  GaArray& a = lookup_allocated(fn, g_a);
  int64_t lo[GA_MAX_DIM], hi[GA_MAX_DIM];
  grid_block_patch(fn, a, index, lo, hi);
  access(fn, a, lo, hi, ptr, ld);
}

void release_grid_block(const char* fn, int g_a, const int* index, bool update) {
  GaArray& a = lookup_allocated(fn, g_a);
  int64_t lo[GA_MAX_DIM], hi[GA_MAX_DIM];
  grid_block_patch(fn, a, index, lo, hi);
  release(fn, a, lo, hi, update);
}

// NGA_Access_block_segment: proc's whole local memory, in place (nothing to copy back).
template <typename Length>
void access_segment(const char* fn, int g_a, int proc, void* ptr, Length* len) {
  GaArray& a = lookup_allocated(fn, g_a);
  if (ptr == nullptr || len == nullptr) ga_fail(fn, "ptr or len is NULL");
  if (proc < 0 || proc >= array_ranks(a))
    ga_fail(fn, "proc=%d is not a process of array '%s' [0, %d)", proc, a.name.c_str(),
            array_ranks(a));
  void* pointer = nullptr;
  int64_t count = 0;
  check(fn, remora_array_access_local(a.array, array_rank_of(a, proc), &pointer, &count));
  *static_cast<void**>(ptr) = pointer;
  *len = static_cast<Length>(count);
  stat_record(Stat::Access, 0);
}

void release_segment(const char* fn, int g_a, int idx) {
  const GaArray& a = lookup_allocated(fn, g_a);
  if (idx < 0 || idx >= array_ranks(a))
    ga_fail(fn, "idx=%d is not a process of array '%s' [0, %d)", idx, a.name.c_str(),
            array_ranks(a));
}

template <typename Index>
void release_patch(const char* fn, int g_a, const Index* lo, const Index* hi, bool update) {
  GaArray& a = lookup_allocated(fn, g_a);
  const Indices lo64(lo, a.ndim), hi64(hi, a.ndim);
  release(fn, a, lo64.data, hi64.data, update);
}

void release_block(const char* fn, int g_a, int idx, bool update) {
  GaArray& a = lookup_allocated(fn, g_a);
  int64_t lo[GA_MAX_DIM], hi[GA_MAX_DIM];
  block_patch(fn, a, idx, lo, hi);
  release(fn, a, lo, hi, update);
}

}  // namespace
}  // namespace remora::ga

using namespace remora::ga;

extern "C" {

void NGA_Access(int g_a, int lo[], int hi[], void* ptr, int ld[]) {
  access_patch("NGA_Access", g_a, lo, hi, ptr, ld);
}
void NGA_Access64(int g_a, int64_t lo[], int64_t hi[], void* ptr, int64_t ld[]) {
  access_patch("NGA_Access64", g_a, lo, hi, ptr, ld);
}
void NGA_Access_block(int g_a, int idx, void* ptr, int ld[]) {
  access_block("NGA_Access_block", g_a, idx, ptr, ld);
}
void NGA_Access_block64(int g_a, int64_t idx, void* ptr, int64_t ld[]) {
  access_block("NGA_Access_block64", g_a, idx, ptr, ld);
}
void NGA_Release(int g_a, int lo[], int hi[]) {
  release_patch("NGA_Release", g_a, lo, hi, false);
}
void NGA_Release64(int g_a, int64_t lo[], int64_t hi[]) {
  release_patch("NGA_Release64", g_a, lo, hi, false);
}
void NGA_Release_update(int g_a, int lo[], int hi[]) {
  release_patch("NGA_Release_update", g_a, lo, hi, true);
}
void NGA_Release_update64(int g_a, int64_t lo[], int64_t hi[]) {
  release_patch("NGA_Release_update64", g_a, lo, hi, true);
}
void NGA_Release_block(int g_a, int idx) {
  release_block("NGA_Release_block", g_a, idx, false);
}
void NGA_Release_update_block(int g_a, int idx) {
  release_block("NGA_Release_update_block", g_a, idx, true);
}

void NGA_Access_block_grid(int g_a, int index[], void* ptr, int ld[]) {
  access_grid_block("NGA_Access_block_grid", g_a, index, ptr, ld);
}
void NGA_Access_block_grid64(int g_a, int64_t index[], void* ptr, int64_t ld[]) {
  access_grid_block("NGA_Access_block_grid64", g_a, index, ptr, ld);
}
void NGA_Release_block_grid(int g_a, int index[]) {
  release_grid_block("NGA_Release_block_grid", g_a, index, false);
}
void NGA_Release_update_block_grid(int g_a, int index[]) {
  release_grid_block("NGA_Release_update_block_grid", g_a, index, true);
}
void NGA_Access_block_segment(int g_a, int proc, void* ptr, int* len) {
  access_segment("NGA_Access_block_segment", g_a, proc, ptr, len);
}
void NGA_Access_block_segment64(int g_a, int proc, void* ptr, int64_t* len) {
  access_segment("NGA_Access_block_segment64", g_a, proc, ptr, len);
}
// The segment is the array's memory itself: releasing has nothing to put back.
void NGA_Release_block_segment(int g_a, int idx) {
  release_segment("NGA_Release_block_segment", g_a, idx);
}
void NGA_Release_update_block_segment(int g_a, int idx) {
  release_segment("NGA_Release_update_block_segment", g_a, idx);
}

}  // extern "C"
