// Array creation and destruction: NGA_Create*, the GA_Create_handle / GA_Set_* / GA_Allocate
// sequence, GA_Duplicate and GA_Destroy. Every creation path fills a GaArray and allocates it
// here (allocate), choosing the Remora distribution that matches GA's request.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <string>

#include "ga-mpi.h"
#include "ga/ga_blocks.hpp"
#include "ga/ga_memory.hpp"
#include "ga/ga_registry.hpp"

namespace remora::ga {
namespace {

// GA's default block distribution (its allocation step), in GA's own Fortran order (the
// reverse of C's) so that ties break as they do there. chunk (GA_Set_chunk / NGA_Create's)
// enters twice, as in GA:
// Grid: units per dimension u = ceil(dims / unit), unit = min(chunk, dims) (at least 1) when
// a chunk was given and its first Fortran entry (C's last) is non-zero, else 1; extents of 1
// have unit 1. The prime factors of P (with repetition), largest first, each multiply the
// grid extent g of one dimension: the one, scanning from a start dimension that moves on by
// one after each factor, with the smallest (u mod (f*g)) / u, a dimension with u < f*g
// scoring 1.1 (the first of equal scores wins). Each dimension then has b = ceil(u / g).
// Blocks: in a dimension whose chunk c > 1, counted in steps of s = min(c, dims), else of 1:
// with m = ceil(dims / s), the first m - (b-1)*g blocks take b steps and the rest b-1;
// blocks that would start past the end are dropped (the grid shrinks).
// A restricted array (GA_Set_restricted) is cut over the listed ranks only, as GA does.
void ga_default_blocks(const GaArray& a, std::vector<int>* nblock, std::vector<int64_t>* map) {
  const int ranks = a.restricted.empty() ? pgroup_size("GA_Allocate", a.pgroup)
                                         : static_cast<int>(a.restricted.size());
  const size_t n = static_cast<size_t>(a.ndim);
  std::vector<int64_t> dims(n), chunk(n, 0), units(n);
  for (size_t d = 0; d < n; ++d) {  // Fortran order
    dims[d] = a.dims[n - 1 - d];
    if (!a.chunk.empty()) chunk[d] = a.chunk[n - 1 - d];
  }
  const bool use_chunk = !a.chunk.empty() && chunk[0] != 0;
  for (size_t d = 0; d < n; ++d) {
    int64_t unit = use_chunk ? std::max<int64_t>(1, std::min(chunk[d], dims[d])) : 1;
    if (dims[d] == 1) unit = 1;
    units[d] = (dims[d] + unit - 1) / unit;
  }
  std::vector<int64_t> factors;  // ascending
  for (int64_t rest = ranks, f = 2; rest > 1;) {
    if (rest % f == 0) {
      factors.push_back(f);
      rest /= f;
    } else {
      ++f;
    }
  }
  std::vector<int64_t> grid(n, 1);
  size_t start = 0;
  for (auto it = factors.rbegin(); it != factors.rend(); ++it) {
    const int64_t f = *it;
    size_t best = start;
    double best_score = 0.0;
    for (size_t j = 0; j < n; ++j) {
      const size_t d = (start + j) % n;
      const int64_t parts = f * grid[d];
      const double score =
          units[d] < parts ? 1.1
                           : static_cast<double>(units[d] % parts) / static_cast<double>(units[d]);
      if (j == 0 || score < best_score) {
        best_score = score;
        best = d;
      }
    }
    grid[best] *= f;
    start = (start + 1) % n;
  }
  std::vector<std::vector<int64_t>> starts(n);
  for (size_t d = 0; d < n; ++d) {
    const int64_t g = grid[d], b = (units[d] + g - 1) / g;
    const int64_t step = chunk[d] > 1 ? std::min(chunk[d], dims[d]) : 1;
    const int64_t full = (dims[d] + step - 1) / step - (b - 1) * g;
    int64_t i = 0;
    for (int64_t p = 0; p < g && i < dims[d]; ++p) {
      starts[d].push_back(i);
      i += (p >= full ? b - 1 : b) * step;
    }
  }
  for (size_t d = n; d-- > 0;) {  // back to C order
    map->insert(map->end(), starts[d].begin(), starts[d].end());
    nblock->push_back(static_cast<int>(starts[d].size()));
  }
}

// GA_Set_tiled_proc_grid's tiles (multiples of the block extents) or
// GA_Set_tiled_irreg_proc_grid's (the map): the counts and starts per dimension.
void tile_starts(const char* fn, const GaArray& a, std::vector<int>* ntiles,
                 std::vector<int64_t>* starts) {
  if (a.layout == Layout::TiledIrregular) {
    ntiles->assign(a.nblock.begin(), a.nblock.end());
    *starts = a.map;
    return;
  }
  for (int d = 0; d < a.ndim; ++d) {
    const int64_t b = a.block[static_cast<size_t>(d)];
    const int64_t count = (a.dims[d] + b - 1) / b;
    if (count > INT_MAX)  // the native call counts tiles in an int, as GA's nblock does
      ga_fail(fn, "dimension %d: %lld tiles of %lld elements are more than %d", d,
              static_cast<long long>(count), static_cast<long long>(b), INT_MAX);
    ntiles->push_back(static_cast<int>(count));
    for (int64_t s = 0; s < a.dims[d]; s += b) starts->push_back(s);
  }
}

// An array of a registered type: a REMORA_UINT8 array with one more dimension (the element's
// bytes, never split), distributed over the others as the request says.
int create_user_typed(const char* fn, const GaArray& a, remora_array_t* out) {
  const char* name = a.name.c_str();
  if (!a.ghost_width.empty())
    ga_fail(fn, "array '%s' has the user-defined type %d: ghost cells need a built-in type", name,
            a.type);
  int64_t dims[GA_MAX_DIM];
  std::copy(a.dims, a.dims + a.ndim, dims);
  dims[a.ndim] = static_cast<int64_t>(a.user_bytes);
  const int ndim = a.ndim + 1;
  std::vector<int> nblock;
  std::vector<int64_t> map;
  switch (a.layout) {
    case Layout::Block:
      ga_default_blocks(a, &nblock, &map);
      break;
    case Layout::Irregular:
      nblock = a.nblock;
      map = a.map;
      break;
    case Layout::BlockCyclic: {
      std::vector<int64_t> block = a.block;
      block.push_back(dims[a.ndim]);
      return remora_array_create_block_dealt(REMORA_UINT8, ndim, dims, block.data(), name, out);
    }
    case Layout::ScalapackCyclic: {  // the bytes: one block, on one grid coordinate
      std::vector<int64_t> block = a.block;
      block.push_back(dims[a.ndim]);
      std::vector<int> grid = a.proc_grid;
      grid.push_back(1);
      return remora_array_create_block_cyclic_nd(REMORA_UINT8, ndim, dims, block.data(),
                                                 grid.data(), name, out);
    }
    case Layout::Tiled:
    case Layout::TiledIrregular: {
      std::vector<int> ntiles, grid = a.proc_grid;
      std::vector<int64_t> starts;
      tile_starts(fn, a, &ntiles, &starts);
      ntiles.push_back(1);
      starts.push_back(0);
      grid.push_back(1);
      return remora_array_create_tiled(REMORA_UINT8, ndim, dims, ntiles.data(), starts.data(),
                                       grid.data(), name, out);
    }
  }
  nblock.push_back(1);
  map.push_back(0);
  return remora_array_create_irregular(REMORA_UINT8, ndim, dims, nblock.data(), map.data(), name,
                                       out);
}

int create_native(const char* fn, GaArray& a, remora_array_t* out) {
  const char* name = a.name.c_str();
  if (a.user_bytes != 0) return create_user_typed(fn, a, out);
  switch (a.layout) {
    case Layout::Block: {
      std::vector<int> nblock;
      std::vector<int64_t> map;
      ga_default_blocks(a, &nblock, &map);
      return remora_array_create_irregular(a.datatype, a.ndim, a.dims, nblock.data(), map.data(),
                                           name, out);
    }
    case Layout::Irregular:
      return remora_array_create_irregular(a.datatype, a.ndim, a.dims, a.nblock.data(),
                                           a.map.data(), name, out);
    case Layout::BlockCyclic:  // block k on rank k mod P, any ndim
      return remora_array_create_block_dealt(a.datatype, a.ndim, a.dims, a.block.data(), name, out);
    case Layout::ScalapackCyclic:  // block c on grid position (c_d mod grid[d]), any ndim
      return remora_array_create_block_cyclic_nd(a.datatype, a.ndim, a.dims, a.block.data(),
                                                 a.proc_grid.data(), name, out);
    case Layout::Tiled:
    case Layout::TiledIrregular: {  // tiles stored one after another, as GA stores them
      std::vector<int> ntiles;
      std::vector<int64_t> starts;
      tile_starts(fn, a, &ntiles, &starts);
      return remora_array_create_tiled(a.datatype, a.ndim, a.dims, ntiles.data(), starts.data(),
                                       a.proc_grid.data(), name, out);
    }
  }
  return REMORA_ERR_ARG;
}

size_t local_bytes(const GaArray& a, remora_array_t array) {
  int64_t extents[GA_MAX_DIM];
  int rank = 0;
  check("GA_Allocate", remora_array_ranks(array, nullptr, &rank));  // rank in the array's group
  check("GA_Allocate", remora_array_local_shape(array, rank, extents));
  int64_t n = 1;
  for (int d = 0; d < a.ndim; ++d) n *= extents[d];
  return static_cast<size_t>(n) * element_bytes("GA_Allocate", a);
}

}  // namespace

GaArray settings_of(const GaArray& source) {
  GaArray a = source;  // handles own stable storage
  a.array = nullptr;
  a.accesses.clear();
  a.read_only = false;  // properties are not duplicated
  a.replica = nullptr;
  a.replica_node = REMORA_COMM_NULL;
  a.replica_win = nullptr;
  a.cache.reset();
  a.ghosts.reset();  // ghost widths and the corner flag are duplicated, the padded block not
  a.borrowed = false;
  a.pool_bytes = 0;
  return a;
}

int allocate(const char* fn, GaArray& a, remora_array_t memory, std::string* refused) {
  if (a.array != nullptr) ga_fail(fn, "array '%s' is already allocated", a.name.c_str());
  if (a.ndim < 1) ga_fail(fn, "array '%s' has no shape (GA_Set_data first)", a.name.c_str());
  // The array lives on its process group's communicator (pgroups part).
  // A restricted block or irregular array lives on the group's ranks reordered, the listed
  // ones first, so that block i (array rank i) is on list[i]; GA ignores the restriction for
  // block-cyclic arrays, and so does this layer.
  if (is_cyclic(a)) a.restricted.clear();
  remora_comm_t comm = pgroup_comm(fn, a.pgroup), reordered = REMORA_COMM_NULL;
  if (!a.restricted.empty()) {
    int rank = 0;
    check(fn, remora_comm_rank(comm, &rank));
    const auto it = std::find(a.restricted.begin(), a.restricted.end(), rank);
    const int size = pgroup_size(fn, a.pgroup);
    const int key =
        it != a.restricted.end() ? static_cast<int>(it - a.restricted.begin()) : size + rank;
    check(fn, remora_comm_split(comm, 0, key, &reordered));
    comm = reordered;
  }
  remora_array_t array = nullptr;
  std::string why;
  const int created = create_on(
      fn, comm, memory, [&](remora_array_t* out) { return create_native(fn, a, out); }, &array,
      &why);
  if (reordered != REMORA_COMM_NULL)
    check(fn, remora_comm_free(&reordered));  // the array has its own
  if (memory != nullptr) {
    if (created == REMORA_ERR_RANGE) {  // the same on every rank: some part does not fit
      if (refused != nullptr) *refused = why;
      return 0;
    }
    if (created < 0) ga_fail(fn, "%s", why.c_str());
    a.array = array;
    a.borrowed = true;
    return 1;
  }
  if (created < 0) ga_fail(fn, "%s", why.c_str());
  const size_t bytes = local_bytes(a, array);
  if (!memory_admits_everywhere(bytes, GA_MPI_Comm_pgroup(a.pgroup))) {
    check(fn, remora_array_destroy(&array));
    return 0;
  }
  memory_add(bytes);
  a.array = array;
  attach_ghosts(fn, a);
  return 1;
}

void set_data(const char* fn, GaArray& a, int ndim, const int64_t* dims, int type) {
  if (ndim < 1 || ndim > GA_MAX_DIM) ga_fail(fn, "ndim=%d is outside [1, %d]", ndim, GA_MAX_DIM);
  if (dims == nullptr) ga_fail(fn, "dims is NULL");
  for (int d = 0; d < ndim; ++d)
    if (dims[d] < 1)
      ga_fail(fn, "dims[%d]=%lld is not positive", d, static_cast<long long>(dims[d]));
  a.type = type;
  a.datatype = datatype_of(fn, type);
  a.user_bytes = user_type_bytes(type);
  if (a.user_bytes != 0 && ndim == GA_MAX_DIM)  // the bytes take one Remora dimension
    ga_fail(fn, "ndim=%d: arrays of a user-defined type (type=%d) have at most %d dimensions", ndim,
            type, GA_MAX_DIM - 1);
  a.ndim = ndim;
  std::copy(dims, dims + ndim, a.dims);
}

namespace {

// The NGA_Create* forms: a new handle with a shape, name and group; configure sets the
// distribution; then allocate. 0 (and no handle) when the memory limit refuses it.
template <typename Index, typename Configure>
int create_with(const char* fn, int type, int ndim, const Index* dims, const char* name, int pgroup,
                Configure configure) {
  require_initialized(fn);
  const int handle = new_handle();
  GaArray& a = lookup(fn, handle);
  const Indices dims64(dims, ndim);
  set_data(fn, a, ndim, dims64.data, type);
  a.name = name != nullptr ? name : "";
  a.pgroup = pgroup;
  configure(a);
  if (allocate(fn, a) == 0) {
    free_handle(handle);
    return 0;
  }
  return handle;
}

// width: the ghost widths of the NGA_Create_ghosts* forms (nullptr: no ghost cells).
template <typename Index>
int create(const char* fn, int type, int ndim, const Index* dims, const char* name,
           const Index* chunk, int pgroup, const Index* width = nullptr) {
  return create_with(fn, type, ndim, dims, name, pgroup, [&](GaArray& a) {
    if (width != nullptr) set_ghost_widths(fn, a, width);
    if (chunk == nullptr) return;
    a.chunk.resize(static_cast<size_t>(a.ndim));
    to_int64(chunk, a.ndim, a.chunk.data());
  });
}

template <typename Index>
void set_irregular(const char* fn, GaArray& a, const Index* map, const Index* nblock) {
  if (a.ndim < 1) ga_fail(fn, "array '%s' has no shape (GA_Set_data first)", a.name.c_str());
  if (map == nullptr || nblock == nullptr) ga_fail(fn, "map or nblock is NULL");
  a.nblock.assign(nblock, nblock + a.ndim);
  int64_t total = 0;
  for (int d = 0; d < a.ndim; ++d) {
    if (nblock[d] < 1)
      ga_fail(fn, "nblock[%d]=%lld is not positive", d, static_cast<long long>(nblock[d]));
    total += static_cast<int64_t>(nblock[d]);
  }
  a.map.resize(static_cast<size_t>(total));
  to_int64(map, static_cast<int>(total), a.map.data());
  a.layout = Layout::Irregular;
}

template <typename Index>
int create_irregular(const char* fn, int type, int ndim, const Index* dims, const char* name,
                     const Index* block, const Index* map, int pgroup,
                     const Index* width = nullptr) {
  return create_with(fn, type, ndim, dims, name, pgroup, [&](GaArray& a) {
    if (width != nullptr) set_ghost_widths(fn, a, width);
    set_irregular(fn, a, map, block);
  });
}

// GA_Set_tiled_irreg_proc_grid: tiles cut at mapc (nblocks[d] starts per dimension, as
// GA_Set_irreg_distr's map), tile (i, j) on grid position (i mod proc_grid[0], j mod proc_grid[1]).
template <typename Index>
void set_tiled_irregular(const char* fn, int g_a, const Index* mapc, const Index* nblocks,
                         const Index* grid) {
  GaArray& a = lookup(fn, g_a);
  if (grid == nullptr) ga_fail(fn, "proc_grid is NULL");
  set_irregular(fn, a, mapc, nblocks);  // checks and stores the starts and counts
  a.block.clear();
  a.proc_grid.clear();
  for (int d = 0; d < a.ndim; ++d)
    if (grid[d] < 1 || grid[d] > INT32_MAX)
      ga_fail(fn, "proc_grid[%d]=%lld is not a positive int", d, static_cast<long long>(grid[d]));
  a.proc_grid.assign(grid, grid + a.ndim);
  a.layout = Layout::TiledIrregular;
}

// GA_Set_restricted: list[i] (a rank of the array's group) will hold block i.
void set_restricted(const char* fn, int g_a, const int* list, int size) {
  GaArray& a = lookup(fn, g_a);
  if (a.array != nullptr) ga_fail(fn, "array '%s' is already allocated", a.name.c_str());
  const int ranks = pgroup_size(fn, a.pgroup);
  if (size < 1 || size > ranks)
    ga_fail(fn, "size=%d is outside [1, %d] (the ranks of the array's group)", size, ranks);
  if (list == nullptr) ga_fail(fn, "list is NULL");
  std::vector<int> restricted(list, list + size);
  for (int i = 0; i < size; ++i) {
    if (list[i] < 0 || list[i] >= ranks)
      ga_fail(fn, "list[%d]=%d is outside [0, %d)", i, list[i], ranks);
    if (std::find(list, list + i, list[i]) != list + i)
      ga_fail(fn, "list[%d]=%d appears twice", i, list[i]);
  }
  a.restricted = std::move(restricted);
}

void set_restricted_range(const char* fn, int g_a, int lo_proc, int hi_proc) {
  if (hi_proc < lo_proc) ga_fail(fn, "hi_proc=%d is below lo_proc=%d", hi_proc, lo_proc);
  std::vector<int> list;
  for (int p = lo_proc; p <= hi_proc; ++p) list.push_back(p);
  set_restricted(fn, g_a, list.data(), static_cast<int>(list.size()));
}

template <typename Index>
void set_cyclic(const char* fn, int g_a, const Index* block, const Index* grid, Layout layout) {
  GaArray& a = lookup(fn, g_a);
  if (a.ndim < 1) ga_fail(fn, "array '%s' has no shape (GA_Set_data first)", a.name.c_str());
  if (block == nullptr) ga_fail(fn, "dims (the block extents) is NULL");
  for (int d = 0; d < a.ndim; ++d)
    if (block[d] < 1)
      ga_fail(fn, "dims[%d]=%lld (a block extent) is not positive", d,
              static_cast<long long>(block[d]));
  a.block.assign(block, block + a.ndim);
  a.proc_grid.clear();
  if (grid != nullptr) {
    for (int d = 0; d < a.ndim; ++d)
      if (grid[d] < 1 || grid[d] > INT32_MAX)
        ga_fail(fn, "proc_grid[%d]=%lld is not a positive int", d, static_cast<long long>(grid[d]));
    a.proc_grid.assign(grid, grid + a.ndim);
  }
  a.layout = layout;
}

}  // namespace
}  // namespace remora::ga

using namespace remora::ga;

namespace {
// Frees an allocated array's memory (collective over its group); the handle stays.
void release_memory(const char* fn, GaArray& a) {
  release_properties(fn, a);
  memory_remove(a.borrowed ? a.pool_bytes : local_bytes(a, a.array));
  a.pool_bytes = 0;
  check(fn, remora_array_destroy(&a.array));  // borrowed memory stays while its owner lives
  a.accesses.clear();
  a.borrowed = false;
}
}  // namespace

extern "C" {

int NGA_Create(int type, int ndim, int dims[], char* array_name, int chunk[]) {
  return create("NGA_Create", type, ndim, dims, array_name, chunk, default_pgroup());
}
int NGA_Create64(int type, int ndim, int64_t dims[], char* array_name, int64_t chunk[]) {
  return create("NGA_Create64", type, ndim, dims, array_name, chunk, default_pgroup());
}
int NGA_Create_config(int type, int ndim, int dims[], char* array_name, int chunk[], int p_handle) {
  return create("NGA_Create_config", type, ndim, dims, array_name, chunk, p_handle);
}
int NGA_Create_config64(int type, int ndim, int64_t dims[], char* array_name, int64_t chunk[],
                        int p_handle) {
  return create("NGA_Create_config64", type, ndim, dims, array_name, chunk, p_handle);
}
int NGA_Create_irreg(int type, int ndim, int dims[], char* array_name, int block[], int map[]) {
  return create_irregular("NGA_Create_irreg", type, ndim, dims, array_name, block, map,
                          default_pgroup());
}
int NGA_Create_irreg64(int type, int ndim, int64_t dims[], char* array_name, int64_t block[],
                       int64_t map[]) {
  return create_irregular("NGA_Create_irreg64", type, ndim, dims, array_name, block, map,
                          default_pgroup());
}
int NGA_Create_irreg_config(int type, int ndim, int dims[], char* array_name, int block[],
                            int map[], int p_handle) {
  return create_irregular("NGA_Create_irreg_config", type, ndim, dims, array_name, block, map,
                          p_handle);
}
int NGA_Create_irreg_config64(int type, int ndim, int64_t dims[], char* array_name, int64_t block[],
                              int64_t map[], int p_handle) {
  return create_irregular("NGA_Create_irreg_config64", type, ndim, dims, array_name, block, map,
                          p_handle);
}

int NGA_Create_ghosts(int type, int ndim, int dims[], int width[], char* array_name, int chunk[]) {
  return create("NGA_Create_ghosts", type, ndim, dims, array_name, chunk, default_pgroup(), width);
}
int NGA_Create_ghosts64(int type, int ndim, int64_t dims[], int64_t width[], char* array_name,
                        int64_t chunk[]) {
  return create("NGA_Create_ghosts64", type, ndim, dims, array_name, chunk, default_pgroup(),
                width);
}
int NGA_Create_ghosts_config(int type, int ndim, int dims[], int width[], char* array_name,
                             int chunk[], int p_handle) {
  return create("NGA_Create_ghosts_config", type, ndim, dims, array_name, chunk, p_handle, width);
}
int NGA_Create_ghosts_config64(int type, int ndim, int64_t dims[], int64_t width[],
                               char* array_name, int64_t chunk[], int p_handle) {
  return create("NGA_Create_ghosts_config64", type, ndim, dims, array_name, chunk, p_handle, width);
}
int NGA_Create_ghosts_irreg(int type, int ndim, int dims[], int width[], char* array_name,
                            int nblock[], int map[]) {
  return create_irregular("NGA_Create_ghosts_irreg", type, ndim, dims, array_name, nblock, map,
                          default_pgroup(), width);
}
int NGA_Create_ghosts_irreg64(int type, int ndim, int64_t dims[], int64_t width[], char* array_name,
                              int64_t nblock[], int64_t map[]) {
  return create_irregular("NGA_Create_ghosts_irreg64", type, ndim, dims, array_name, nblock, map,
                          default_pgroup(), width);
}
int NGA_Create_ghosts_irreg_config(int type, int ndim, int dims[], int width[], char* array_name,
                                   int nblock[], int map[], int p_handle) {
  return create_irregular("NGA_Create_ghosts_irreg_config", type, ndim, dims, array_name, nblock,
                          map, p_handle, width);
}
int NGA_Create_ghosts_irreg_config64(int type, int ndim, int64_t dims[], int64_t width[],
                                     char* array_name, int64_t nblock[], int64_t map[],
                                     int p_handle) {
  return create_irregular("NGA_Create_ghosts_irreg_config64", type, ndim, dims, array_name, nblock,
                          map, p_handle, width);
}

int GA_Create_handle(void) {
  require_initialized("GA_Create_handle");
  const int handle = new_handle();
  lookup("GA_Create_handle", handle).pgroup = default_pgroup();
  return handle;
}

void GA_Set_data(int g_a, int ndim, int dims[], int type) {
  const Indices dims64(dims, ndim);
  set_data("GA_Set_data", lookup("GA_Set_data", g_a), ndim, dims64.data, type);
}
void GA_Set_data64(int g_a, int ndim, int64_t dims[], int type) {
  set_data("GA_Set_data64", lookup("GA_Set_data64", g_a), ndim, dims, type);
}

void GA_Set_array_name(int g_a, char* name) {
  lookup("GA_Set_array_name", g_a).name = name != nullptr ? name : "";
}

void GA_Set_chunk(int g_a, int chunk[]) {
  GaArray& a = lookup("GA_Set_chunk", g_a);
  a.chunk.clear();
  if (chunk != nullptr) a.chunk.assign(chunk, chunk + a.ndim);
}
void GA_Set_chunk64(int g_a, int64_t chunk[]) {
  GaArray& a = lookup("GA_Set_chunk64", g_a);
  a.chunk.clear();
  if (chunk != nullptr) a.chunk.assign(chunk, chunk + a.ndim);
}

void GA_Set_irreg_distr(int g_a, int map[], int nblock[]) {
  set_irregular("GA_Set_irreg_distr", lookup("GA_Set_irreg_distr", g_a), map, nblock);
}
void GA_Set_irreg_distr64(int g_a, int64_t map[], int64_t nblock[]) {
  set_irregular("GA_Set_irreg_distr64", lookup("GA_Set_irreg_distr64", g_a), map, nblock);
}

void GA_Set_block_cyclic(int g_a, int dims[]) {
  set_cyclic<int>("GA_Set_block_cyclic", g_a, dims, nullptr, Layout::BlockCyclic);
}
void GA_Set_block_cyclic64(int g_a, int64_t dims[]) {
  set_cyclic<int64_t>("GA_Set_block_cyclic64", g_a, dims, nullptr, Layout::BlockCyclic);
}
void NGA_Set_block_cyclic64(int g_a, int64_t dims[]) {
  set_cyclic<int64_t>("NGA_Set_block_cyclic64", g_a, dims, nullptr, Layout::BlockCyclic);
}

#define REMORA_GA_SET_GRID(NAME, INDEX, LAYOUT)                    \
  void NAME(int g_a, INDEX dims[], INDEX proc_grid[]) {            \
    if (proc_grid == nullptr) ga_fail(#NAME, "proc_grid is NULL"); \
    set_cyclic<INDEX>(#NAME, g_a, dims, proc_grid, LAYOUT);        \
  }
#define REMORA_GA_SET_TILES(NAME, INDEX)                                 \
  void NAME(int g_a, INDEX mapc[], INDEX nblocks[], INDEX proc_grid[]) { \
    set_tiled_irregular<INDEX>(#NAME, g_a, mapc, nblocks, proc_grid);    \
  }
REMORA_GA_SET_TILES(GA_Set_tiled_irreg_proc_grid, int)
REMORA_GA_SET_TILES(NGA_Set_tiled_irreg_proc_grid, int)
REMORA_GA_SET_TILES(GA_Set_tiled_irreg_proc_grid64, int64_t)
REMORA_GA_SET_TILES(NGA_Set_tiled_irreg_proc_grid64, int64_t)
#undef REMORA_GA_SET_TILES
REMORA_GA_SET_GRID(GA_Set_block_cyclic_proc_grid, int, Layout::ScalapackCyclic)
REMORA_GA_SET_GRID(GA_Set_block_cyclic_proc_grid64, int64_t, Layout::ScalapackCyclic)
REMORA_GA_SET_GRID(NGA_Set_block_cyclic_proc_grid64, int64_t, Layout::ScalapackCyclic)
REMORA_GA_SET_GRID(GA_Set_tiled_proc_grid, int, Layout::Tiled)
REMORA_GA_SET_GRID(GA_Set_tiled_proc_grid64, int64_t, Layout::Tiled)
REMORA_GA_SET_GRID(NGA_Set_tiled_proc_grid64, int64_t, Layout::Tiled)
#undef REMORA_GA_SET_GRID

void GA_Set_restricted(int g_a, int list[], int size) {
  set_restricted("GA_Set_restricted", g_a, list, size);
}
void NGA_Set_restricted(int g_a, int list[], int size) {
  set_restricted("NGA_Set_restricted", g_a, list, size);
}
void GA_Set_restricted_range(int g_a, int lo_proc, int hi_proc) {
  set_restricted_range("GA_Set_restricted_range", g_a, lo_proc, hi_proc);
}
void NGA_Set_restricted_range(int g_a, int lo_proc, int hi_proc) {
  set_restricted_range("NGA_Set_restricted_range", g_a, lo_proc, hi_proc);
}

int GA_Allocate(int g_a) {
  return allocate("GA_Allocate", lookup("GA_Allocate", g_a));
}

int GA_Duplicate(int g_a, char* array_name) {
  const char* fn = "GA_Duplicate";
  GaArray& source = lookup_allocated(fn, g_a, Types::Any);
  const int handle = new_handle();
  GaArray& a = lookup(fn, handle);
  a = settings_of(source);
  a.name = array_name != nullptr ? array_name : "";
  remora_array_t array = nullptr;
  check(fn, remora_array_duplicate(source.array, a.name.c_str(), &array));
  const size_t bytes = local_bytes(a, array);
  if (!memory_admits_everywhere(bytes, GA_MPI_Comm_pgroup(a.pgroup))) {
    check(fn, remora_array_destroy(&array));
    free_handle(handle);
    return 0;
  }
  memory_add(bytes);
  a.array = array;
  attach_ghosts(fn, a);
  return handle;
}

void GA_Destroy(int g_a) {
  const char* fn = "GA_Destroy";
  GaArray& a = lookup(fn, g_a);
  if (a.array != nullptr) release_memory(fn, a);
  free_handle(g_a);
}

int GA_Deallocate(int g_a) {
  const char* fn = "GA_Deallocate";
  require_initialized(fn);
  // As GA 5.8: FALSE for a handle without memory; else the memory goes, and the handle keeps
  // its settings so that GA_Allocate can allocate it again.
  if (!handle_exists(g_a)) return 0;
  GaArray& a = lookup(fn, g_a);
  if (a.array == nullptr) return 0;
  release_memory(fn, a);
  return 1;
}

}  // extern "C"
