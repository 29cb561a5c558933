// Ghost cells (docs/global-arrays.md, "Ghost cells"). Remora's arrays store each block densely,
// so the padded block GA programs address (the block with width[d] ghosts on each side) is a
// separate buffer per rank: its interior is a copy of the rank's block, kept in step at fixed
// points. Writes through a padded pointer reach the array when they are merged (NGA_Release*,
// NGA_Access*, GA_Update_ghosts and the directional updates, GA_Sync); the array's values come
// into the interior (pulled) at the same points after the merge. A merge writes only the
// elements that differ from the snapshot taken at the last pull, so that another rank's put into
// elements this rank did not write survives it.
#include <atomic>
#include <cstring>

#include "ga/ga_blocks.hpp"
#include "ga/ga_patch.hpp"

namespace remora::ga {
namespace {
// Padded blocks alive on this process: GA_Sync looks through the handles only when some are.
std::atomic<int> live_padded_blocks{0};
}  // namespace

struct GhostCells {
  GhostCells() { live_padded_blocks.fetch_add(1, std::memory_order_relaxed); }
  ~GhostCells() { live_padded_blocks.fetch_sub(1, std::memory_order_relaxed); }
  GhostCells(const GhostCells&) = delete;
  GhostCells& operator=(const GhostCells&) = delete;

  int ndim = 0;
  size_t element = 0;
  int64_t lo[GA_MAX_DIM] = {}, hi[GA_MAX_DIM] = {};  // this rank's block
  int64_t width[GA_MAX_DIM] = {};
  int64_t interior[GA_MAX_DIM] = {};  // block extents
  int64_t extent[GA_MAX_DIM] = {};    // padded extents
  std::vector<unsigned char> padded;
  std::vector<unsigned char> snapshot;  // the interior as last pulled, dense row-major

  // Element offset of padded coordinates p.
  int64_t offset(const int64_t* p) const {
    int64_t k = 0;
    for (int d = 0; d < ndim; ++d) k = k * extent[d] + p[d];
    return k;
  }
  unsigned char* at(const int64_t* p) { return padded.data() + offset(p) * element; }
  // ld of the padded block (ndim-1 entries, as NGA_Access's).
  void padded_ld(int64_t* ld) const {
    for (int d = 0; d + 1 < ndim; ++d) ld[d] = extent[d + 1];
  }
};

namespace {

// Calls row(index) for the first element of each interior row (index: ndim block-relative
// coordinates, the last one 0); rows run along the last dimension.
template <typename Row>
void for_each_row(const GhostCells& g, Row row) {
  int64_t index[GA_MAX_DIM] = {};
  while (true) {
    row(index);
    int d = g.ndim - 2;
    while (d >= 0 && ++index[d] == g.interior[d]) index[d--] = 0;
    if (d < 0) return;
  }
}

// The rank's block in the array's memory: pointer and element strides.
struct LocalBlock {
  void* pointer = nullptr;
  int64_t stride[GA_MAX_DIM] = {};
};

LocalBlock open_block(const char* fn, const GaArray& a, const GhostCells& g) {
  LocalBlock b;
  int64_t ld[GA_MAX_DIM] = {};
  check(fn, remora_array_access(a.array, g.lo, g.hi, &b.pointer, ld));
  for (int d = g.ndim - 1; d >= 0; --d) b.stride[d] = d == g.ndim - 1 ? 1 : b.stride[d + 1] * ld[d];
  return b;
}

// Padded coordinates of the row starting at block-relative index.
void padded_of(const GhostCells& g, const int64_t* index, int64_t* p) {
  for (int d = 0; d < g.ndim; ++d) p[d] = index[d] + g.width[d];
}

// Writes the interior elements written since the last pull into the array.
void merge(const char* fn, const GaArray& a, GhostCells& g) {
  LocalBlock b = open_block(fn, a, g);
  bool changed = false;
  const int64_t row_length = g.interior[g.ndim - 1];
  int64_t dense = 0;
  for_each_row(g, [&](const int64_t* index) {
    int64_t p[GA_MAX_DIM], k = 0;
    padded_of(g, index, p);
    for (int d = 0; d < g.ndim; ++d) k += index[d] * b.stride[d];
    const unsigned char* mine = g.at(p);
    const unsigned char* before = g.snapshot.data() + dense * g.element;
    unsigned char* target = static_cast<unsigned char*>(b.pointer) + k * g.element;
    for (int64_t i = 0; i < row_length; ++i) {
      const size_t at = static_cast<size_t>(i) * g.element;
      if (std::memcmp(mine + at, before + at, g.element) == 0) continue;
      std::memcpy(target + at, mine + at, g.element);
      changed = true;
    }
    dense += row_length;
  });
  check(fn, changed ? remora_array_release_update(a.array, b.pointer)
                    : remora_array_release(a.array, b.pointer));
}

// Copies the array's block into the interior and the snapshot.
void pull(const char* fn, const GaArray& a, GhostCells& g) {
  LocalBlock b = open_block(fn, a, g);
  const size_t row_bytes = static_cast<size_t>(g.interior[g.ndim - 1]) * g.element;
  unsigned char* dense = g.snapshot.data();
  for_each_row(g, [&](const int64_t* index) {
    int64_t p[GA_MAX_DIM], k = 0;
    padded_of(g, index, p);
    for (int d = 0; d < g.ndim; ++d) k += index[d] * b.stride[d];
    const unsigned char* source = static_cast<const unsigned char*>(b.pointer) + k * g.element;
    std::memcpy(g.at(p), source, row_bytes);
    std::memcpy(dense, source, row_bytes);
    dense += row_bytes;
  });
  check(fn, remora_array_release(a.array, b.pointer));
}

void refresh(const char* fn, const GaArray& a, GhostCells& g) {
  merge(fn, a, g);
  pull(fn, a, g);
}

// The ghosted array behind g_a; fails when it has no ghost cells or this rank no block.
GaArray& ghosted(const char* fn, int g_a) {
  GaArray& a = lookup_allocated(fn, g_a);
  if (!a.ghosts)
    ga_fail(fn, "array '%s' (g_a=%d) has no ghost cells, or this process holds no block of it",
            a.name.c_str(), g_a);
  return a;
}

// Fills the ghost region in direction mask (mask[d] in -1, 0, 1; not all 0) with the values of
// the elements it stands for, wrapping around the array's ends.
void fill_region(const char* fn, const GaArray& a, GhostCells& g, const int* mask) {
  int64_t lo[GA_MAX_DIM], hi[GA_MAX_DIM], start[GA_MAX_DIM], ld[GA_MAX_DIM];
  for (int d = 0; d < g.ndim; ++d) {
    if (mask[d] != 0 && g.width[d] == 0) return;  // no ghosts on that side
    lo[d] = mask[d] < 0 ? g.lo[d] - g.width[d] : mask[d] > 0 ? g.hi[d] + 1 : g.lo[d];
    hi[d] = mask[d] < 0 ? g.lo[d] - 1 : mask[d] > 0 ? g.hi[d] + g.width[d] : g.hi[d];
    start[d] = lo[d] - g.lo[d] + g.width[d];
  }
  g.padded_ld(ld);
  periodic(fn, a, Transfer::Get, lo, hi, g.at(start), ld, nullptr);
}

// Calls region(mask) for each mask of {-1, 0, 1}^ndim but the all-zero one in which dimension
// fixed (if >= 0) has the value side; with_corners false leaves out the masks with more than
// one non-zero entry (for a fixed dimension: any non-zero entry besides it).
template <typename Region>
void for_each_mask(int ndim, int fixed, int side, bool with_corners, Region region) {
  int mask[GA_MAX_DIM];
  for (int d = 0; d < ndim; ++d) mask[d] = -1;
  while (true) {
    int nonzero = 0;
    for (int d = 0; d < ndim; ++d) nonzero += mask[d] != 0 ? 1 : 0;
    const bool fits = fixed < 0 || mask[fixed] == side;
    if (fits && nonzero > 0 && (with_corners || nonzero == 1)) region(mask);
    int d = ndim - 1;
    while (d >= 0 && mask[d] == 1) mask[d--] = -1;
    if (d < 0) return;
    ++mask[d];
  }
}

// Collective: writes go to the array, everyone synchronises, then the interiors and the chosen
// ghost regions are filled; a last synchronisation keeps the values still until every rank
// has read them.
void update(const char* fn, int g_a, int fixed, int side, bool with_corners) {
  GaArray& a = lookup_allocated(fn, g_a);
  if (a.ghosts) merge(fn, a, *a.ghosts);
  GA_Pgroup_sync(a.pgroup);
  if (a.ghosts) {
    GhostCells& g = *a.ghosts;
    pull(fn, a, g);
    for_each_mask(g.ndim, fixed, side, with_corners,
                  [&](const int* mask) { fill_region(fn, a, g, mask); });
  }
  GA_Pgroup_sync(a.pgroup);
}

template <typename Index>
void set_ghosts(const char* fn, int g_a, const Index* width) {
  GaArray& a = lookup(fn, g_a);
  if (a.array != nullptr) ga_fail(fn, "array '%s' is already allocated", a.name.c_str());
  set_ghost_widths(fn, a, width);
}

template <typename Index>
void access_ghosts(const char* fn, int g_a, Index* dims, void* ptr, Index* ld) {
  GaArray& a = ghosted(fn, g_a);
  if (dims == nullptr || ptr == nullptr) ga_fail(fn, "dims or ptr is NULL");
  if (ld == nullptr && a.ndim > 1) ga_fail(fn, "ld is NULL for a %d-d array", a.ndim);
  GhostCells& g = *a.ghosts;
  refresh(fn, a, g);
  from_int64(g.extent, g.ndim, dims);
  int64_t ld64[GA_MAX_DIM];
  g.padded_ld(ld64);
  if (ld != nullptr) from_int64(ld64, g.ndim - 1, ld);
  *static_cast<void**>(ptr) = g.padded.data();
}

template <typename Index>
void access_ghost_element(const char* fn, int g_a, void* ptr, const Index* subscript, Index* ld) {
  GaArray& a = ghosted(fn, g_a);
  if (subscript == nullptr || ptr == nullptr) ga_fail(fn, "subscript or ptr is NULL");
  GhostCells& g = *a.ghosts;
  int64_t p[GA_MAX_DIM];
  for (int d = 0; d < g.ndim; ++d) {
    p[d] = static_cast<int64_t>(subscript[d]);
    if (p[d] < 0 || p[d] >= g.extent[d])
      ga_fail(fn, "subscript[%d]=%lld lies outside the padded block [0, %lld)", d,
              static_cast<long long>(p[d]), static_cast<long long>(g.extent[d]));
  }
  int64_t ld64[GA_MAX_DIM];
  g.padded_ld(ld64);
  if (ld != nullptr) from_int64(ld64, g.ndim - 1, ld);  // GA 5.8 leaves ld as it was
  *static_cast<void**>(ptr) = g.at(p);
}

template <typename Index>
void nbget_ghost_dir(const char* fn, int g_a, const Index* mask, ga_nbhdl_t* handle) {
  GaArray& a = ghosted(fn, g_a);
  if (mask == nullptr) ga_fail(fn, "mask is NULL");
  int m[GA_MAX_DIM];
  for (int d = 0; d < a.ndim; ++d) {
    if (mask[d] < -1 || mask[d] > 1)
      ga_fail(fn, "mask[%d]=%lld is not -1, 0 or 1", d, static_cast<long long>(mask[d]));
    m[d] = static_cast<int>(mask[d]);
  }
  complete_handle(fn, handle);
  bool any = false;
  for (int d = 0; d < a.ndim; ++d) any = any || m[d] != 0;
  if (any) fill_region(fn, a, *a.ghosts, m);
}

template <typename Index>
void get_ghost_block(const char* fn, int g_a, const Index* lo, const Index* hi, void* buf,
                     const Index* ld) {
  GaArray& a = lookup_allocated(fn, g_a);
  const PatchArgs args(a, lo, hi, ld);
  if (args.lo.data == nullptr || args.hi.data == nullptr || buf == nullptr)
    ga_fail(fn, "lo, hi or buf is NULL");
  if (args.ld.data == nullptr && a.ndim > 1) ga_fail(fn, "ld is NULL for a %d-d array", a.ndim);
  bool local = a.ghosts != nullptr;
  for (int d = 0; d < a.ndim; ++d) {
    if (args.lo.data[d] > args.hi.data[d])
      ga_fail(fn, "lo[%d]=%lld > hi[%d]=%lld", d, static_cast<long long>(args.lo.data[d]), d,
              static_cast<long long>(args.hi.data[d]));
    if (d + 1 < a.ndim && args.ld.data[d] < args.hi.data[d + 1] - args.lo.data[d + 1] + 1)
      ga_fail(fn, "ld[%d]=%lld is smaller than the patch's extent %lld", d,
              static_cast<long long>(args.ld.data[d]),
              static_cast<long long>(args.hi.data[d + 1] - args.lo.data[d + 1] + 1));
    if (local) {
      const GhostCells& g = *a.ghosts;
      local = args.lo.data[d] >= g.lo[d] - g.width[d] && args.hi.data[d] <= g.hi[d] + g.width[d];
    }
  }
  if (!local)
    return periodic(fn, a, Transfer::Get, args.lo.data, args.hi.data, buf, args.ld.data, nullptr);
  GhostCells& g = *a.ghosts;
  refresh(fn, a, g);
  // Copied row by row from the padded block (rows along the last dimension).
  int64_t extent[GA_MAX_DIM], index[GA_MAX_DIM] = {};
  for (int d = 0; d < a.ndim; ++d) extent[d] = args.hi.data[d] - args.lo.data[d] + 1;
  const size_t row_bytes = static_cast<size_t>(extent[a.ndim - 1]) * g.element;
  while (true) {
    int64_t p[GA_MAX_DIM], k = 0;
    for (int d = 0; d < a.ndim; ++d) {
      p[d] = args.lo.data[d] + index[d] - g.lo[d] + g.width[d];
      k = d == 0 ? index[0] : k * args.ld.data[d - 1] + index[d];
    }
    std::memcpy(static_cast<unsigned char*>(buf) + k * static_cast<int64_t>(g.element), g.at(p),
                row_bytes);
    int d = a.ndim - 2;
    while (d >= 0 && ++index[d] == extent[d]) index[d--] = 0;
    if (d < 0) return;
  }
}

void release_ghosts(const char* fn, int g_a) {
  GaArray& a = ghosted(fn, g_a);
  merge(fn, a, *a.ghosts);
}

// NGA_Release(_update)_ghost_element: the element's write is merged at the next merge point
// (merging the whole block per element would make element loops quadratic); GA does nothing.
template <typename Index>
void release_ghost_element(const char* fn, int g_a, const Index* index) {
  GaArray& a = ghosted(fn, g_a);
  if (index == nullptr) ga_fail(fn, "index is NULL");
  (void)a;
}

}  // namespace

template <typename Index>
void set_ghost_widths(const char* fn, GaArray& a, const Index* width) {
  if (a.ndim < 1) ga_fail(fn, "array '%s' has no shape (GA_Set_data first)", a.name.c_str());
  if (width == nullptr) ga_fail(fn, "width is NULL");
  for (int d = 0; d < a.ndim; ++d) {
    const auto w = static_cast<long long>(width[d]);
    if (w < 0) ga_fail(fn, "width[%d]=%lld is negative", d, w);
    if (w > a.dims[d])
      ga_fail(fn, "width[%d]=%lld is larger than dimension %d (%lld elements)", d, w, d,
              static_cast<long long>(a.dims[d]));
  }
  a.ghost_width.assign(width, width + a.ndim);
}
template void set_ghost_widths<int>(const char*, GaArray&, const int*);
template void set_ghost_widths<int64_t>(const char*, GaArray&, const int64_t*);

void attach_ghosts(const char* fn, GaArray& a) {
  a.ghosts.reset();
  bool any = false;
  for (const int64_t w : a.ghost_width) any = any || w > 0;
  if (!any) return;
  if (is_cyclic(a))
    ga_fail(fn, "array '%s': ghost cells need a block or irregular distribution", a.name.c_str());
  auto g = std::make_shared<GhostCells>();
  g->ndim = a.ndim;
  g->element = element_size(fn, a.type);
  owned_patch(fn, a, array_rank(a), g->lo, g->hi);
  if (g->hi[0] < g->lo[0]) return;  // this rank holds no block (restricted arrays)
  int64_t interior = 1, padded = 1;
  for (int d = 0; d < a.ndim; ++d) {
    g->width[d] = a.ghost_width[static_cast<size_t>(d)];
    g->interior[d] = g->hi[d] - g->lo[d] + 1;
    g->extent[d] = g->interior[d] + 2 * g->width[d];
    interior *= g->interior[d];
    padded *= g->extent[d];
  }
  g->padded.assign(static_cast<size_t>(padded) * g->element, 0);
  g->snapshot.assign(static_cast<size_t>(interior) * g->element, 0);
  pull(fn, a, *g);
  a.ghosts = std::move(g);
}

void* ghost_access(const char* fn, GaArray& a, const int64_t* lo, const int64_t* hi, int64_t* ld) {
  GhostCells& g = *a.ghosts;
  for (int d = 0; d < g.ndim; ++d)
    if (lo[d] < g.lo[d] || hi[d] > g.hi[d] || lo[d] > hi[d]) return nullptr;
  refresh(fn, a, g);
  int64_t p[GA_MAX_DIM];
  for (int d = 0; d < g.ndim; ++d) p[d] = lo[d] - g.lo[d] + g.width[d];
  g.padded_ld(ld);
  return g.at(p);
}

bool ghost_release(const char* fn, GaArray& a, void* pointer) {
  if (!a.ghosts) return false;
  GhostCells& g = *a.ghosts;
  const auto* p = static_cast<const unsigned char*>(pointer);
  if (p < g.padded.data() || p >= g.padded.data() + g.padded.size()) return false;
  merge(fn, a, g);
  return true;
}

void ghosts_before_sync(const char* fn) {
  if (live_padded_blocks.load(std::memory_order_relaxed) == 0) return;
  for (int handle : live_handles()) {
    GaArray& a = lookup(fn, handle);
    if (a.ghosts) merge(fn, a, *a.ghosts);
  }
}

void ghosts_after_sync(const char* fn) {
  if (live_padded_blocks.load(std::memory_order_relaxed) == 0) return;
  for (int handle : live_handles()) {
    GaArray& a = lookup(fn, handle);
    if (a.ghosts) pull(fn, a, *a.ghosts);
  }
}

}  // namespace remora::ga

using namespace remora::ga;

extern "C" {

// The calls of the form name(g_a, Index array[]), int and int64_t spellings, forwarding to impl.
#define REMORA_GA_INDEX_CALL(name, Index, impl) \
  void name(int g_a, Index values[]) {          \
    impl(#name, g_a, values);                   \
  }
REMORA_GA_INDEX_CALL(GA_Set_ghosts, int, set_ghosts)
REMORA_GA_INDEX_CALL(GA_Set_ghosts64, int64_t, set_ghosts)
REMORA_GA_INDEX_CALL(NGA_Set_ghosts, int, set_ghosts)
REMORA_GA_INDEX_CALL(NGA_Set_ghosts64, int64_t, set_ghosts)
REMORA_GA_INDEX_CALL(NGA_Release_ghost_element, int, release_ghost_element)
REMORA_GA_INDEX_CALL(NGA_Release_ghost_element64, int64_t, release_ghost_element)
REMORA_GA_INDEX_CALL(NGA_Release_update_ghost_element, int, release_ghost_element)
REMORA_GA_INDEX_CALL(NGA_Release_update_ghost_element64, int64_t, release_ghost_element)
#undef REMORA_GA_INDEX_CALL

int GA_Has_ghosts(int g_a) {
  const GaArray& a = lookup("GA_Has_ghosts", g_a);
  for (const int64_t w : a.ghost_width)
    if (w > 0) return 1;
  return 0;
}
int NGA_Has_ghosts(int g_a) {
  return GA_Has_ghosts(g_a);
}

void GA_Set_ghost_corner_flag(int g_a, int flag) {
  lookup("GA_Set_ghost_corner_flag", g_a).ghost_corners = flag != 0;
}

void GA_Update_ghosts(int g_a) {
  const char* fn = "GA_Update_ghosts";
  update(fn, g_a, -1, 0, lookup_allocated(fn, g_a).ghost_corners);
}
void NGA_Update_ghosts(int g_a) {
  const char* fn = "NGA_Update_ghosts";
  update(fn, g_a, -1, 0, lookup_allocated(fn, g_a).ghost_corners);
}
void NGA_Update_ghosts_nb(int g_a, ga_nbhdl_t* nbhandle) {
  const char* fn = "NGA_Update_ghosts_nb";
  complete_handle(fn, nbhandle);
  update(fn, g_a, -1, 0, lookup_allocated(fn, g_a).ghost_corners);
}

int NGA_Update_ghost_dir(int g_a, int dimension, int idir, int flag) {
  const char* fn = "NGA_Update_ghost_dir";
  const GaArray& a = lookup_allocated(fn, g_a);
  if (dimension < 0 || dimension >= a.ndim)
    ga_fail(fn, "dimension=%d is outside [0, %d)", dimension, a.ndim);
  if (idir != -1 && idir != 1) ga_fail(fn, "idir=%d is not -1 or 1", idir);
  // GA's C binding passes dimension + 1 to its Fortran-order core without reversing it:
  // dimension counts from the last C dimension.
  update(fn, g_a, a.ndim - 1 - dimension, idir, flag != 0);
  return 1;
}

void NGA_NbGet_ghost_dir(int g_a, int mask[], ga_nbhdl_t* handle) {
  nbget_ghost_dir("NGA_NbGet_ghost_dir", g_a, mask, handle);
}
void NGA_NbGet_ghost_dir64(int g_a, int64_t mask[], ga_nbhdl_t* handle) {
  nbget_ghost_dir("NGA_NbGet_ghost_dir64", g_a, mask, handle);
}

void NGA_Access_ghosts(int g_a, int dims[], void* ptr, int ld[]) {
  access_ghosts("NGA_Access_ghosts", g_a, dims, ptr, ld);
}
void NGA_Access_ghosts64(int g_a, int64_t dims[], void* ptr, int64_t ld[]) {
  access_ghosts("NGA_Access_ghosts64", g_a, dims, ptr, ld);
}
void NGA_Access_ghost_element(int g_a, void* ptr, int subscript[], int ld[]) {
  access_ghost_element("NGA_Access_ghost_element", g_a, ptr, subscript, ld);
}
void NGA_Access_ghost_element64(int g_a, void* ptr, int64_t subscript[], int64_t ld[]) {
  access_ghost_element("NGA_Access_ghost_element64", g_a, ptr, subscript, ld);
}

void NGA_Release_ghosts(int g_a) {
  release_ghosts("NGA_Release_ghosts", g_a);
}
void NGA_Release_update_ghosts(int g_a) {
  release_ghosts("NGA_Release_update_ghosts", g_a);
}
void NGA_Get_ghost_block(int g_a, int lo[], int hi[], void* buf, int ld[]) {
  get_ghost_block("NGA_Get_ghost_block", g_a, lo, hi, buf, ld);
}
void NGA_Get_ghost_block64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[]) {
  get_ghost_block("NGA_Get_ghost_block64", g_a, lo, hi, buf, ld);
}

}  // extern "C"
